extension ModelError {
    /// The conflicts of the three-way merge this error ended: every conflict
    /// for ``Code/mergeConflict``, and those the policy settled before a
    /// merged model failed to load or validate; empty for other errors.
    ///
    /// ```swift
    /// do {
    ///     _ = try Note.merge(base: base, ours: mine, theirs: other, policy: .fail)
    /// } catch let error as ModelError {
    ///     for conflict in error.mergeConflicts { print(conflict) }
    /// }
    /// ```
    public var mergeConflicts: [MergeConflict] { conflicts }

    /// The error of a merge under ``MergePolicy/fail`` that met `conflicts`.
    static func mergeConflicts(_ conflicts: [MergeConflict]) -> ModelError {
        let count = conflicts.count == 1 ? "1 conflict" : "\(conflicts.count) conflicts"
        var error = ModelError(
            code: .mergeConflict,
            message: "the merge has \(count): " + conflicts.map(\.description).joined(separator: "; "))
        error.conflicts = conflicts
        return error
    }

    /// This error, from loading or validating a merge's result, with the
    /// conflicts the policy settled on the way there.
    func afterMerge(with conflicts: [MergeConflict]) -> ModelError {
        guard !conflicts.isEmpty else { return self }
        var error = self
        let count = conflicts.count == 1 ? "1 conflict" : "\(conflicts.count) conflicts"
        error.message += " (the merged value, after \(count) settled by the policy: "
            + conflicts.map(\.description).joined(separator: "; ") + ")"
        error.conflicts = conflicts
        return error
    }
}
