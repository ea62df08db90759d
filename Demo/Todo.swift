import Foundation
import ModelKit

/// The Demo's second model: a to-do item with rules, a `Bool` and no
/// nesting, so that `schema` has a class every profile describes and `set`
/// has rules to refuse a value by.
final class Todo: ModelObject, @unchecked Sendable {
    @Saved(description: "What to do", rules: .nonEmpty, .maxLength(80)) var title = "Untitled"
    @Saved var done = false
    @Saved(rules: .range(1...5)) var priority = 3
    @Saved var due: Date? = nil
    @Saved var tags: [String] = []
}
