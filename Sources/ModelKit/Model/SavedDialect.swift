/// The form a model class writes its saved data in.
///
/// Reading accepts both forms on every load path, whatever a class's
/// setting; the dialect only chooses what is written.
///
/// ```swift
/// final class Task: ModelObject, @unchecked Sendable {
///     override class var savedDialect: SavedDialect { .dejalObject }
///     @Saved var title = ""
/// }
/// ```
public enum SavedDialect: String, Sendable, Hashable, CaseIterable, Codable {
    /// ModelKit's own form: `"type"` and `"version"` metadata, colours,
    /// intervals and times in their ModelKit forms, dates as ISO 8601 text.
    case modelKit
    /// DejalObject's form, so that an app built on DejalObject loads the
    /// file: `"representedClassName"` (the class's
    /// ``ModelObject/archivedClassName``) and `"version"` in every object, and
    /// colours, dates, intervals, times of day and data as the dictionaries
    /// of `DejalColor`, `DejalDate`, `DejalInterval`, `DejalTime` and
    /// `DejalData`. A `nil` value is left out, as DejalObject leaves it out.
    case dejalObject
}
