extension ModelError.Code {
    /// An undo or redo that found a model changed since its step was
    /// recorded, so that the step no longer fits it: a property holds
    /// another value than the step set, or an array other elements than
    /// the step inserted (see ``ModelHistory``). Nothing was changed.
    public static let historyConflict = ModelError.Code("historyConflict")
}
