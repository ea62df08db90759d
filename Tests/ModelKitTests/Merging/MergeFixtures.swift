import Foundation

@testable import ModelKit

/// A to-do item, matched by its `id` in merges.
final class MergeItem: ModelObject, @unchecked Sendable {
    @Saved var id = ""
    @Saved var title = ""
    @Saved var done = false
    override class var identityKey: String? { "id" }

    convenience init(_ id: String, _ title: String, done: Bool = false) {
        self.init()
        self.id = id
        self.title = title
        self.done = done
    }
}

/// A to-do list of version 2 (version 1 called `name` `title`), with rules.
final class MergeList: ModelObject, @unchecked Sendable {
    @Saved(rules: .nonEmpty) var name = "List"
    @Saved(rules: .range(0...10)) var limit = 4
    @Saved var items: [MergeItem] = []
    @Saved var notes: [Note] = []
    override class var version: Int { 2 }

    override class func upgrade(_ values: inout [String: ModelValue], from version: Int) throws {
        if version < 2, let title = values.removeValue(forKey: "title") { values["name"] = title }
    }

    override func validateValue(_ value: Any, forKey key: String) throws {
        if key == "items", let items = value as? [MergeItem], items.count > limit {
            throw ModelError.invalidValue("a list holds at most \(limit) items, found \(items.count)")
        }
    }

    /// The list every test starts from: three items and two notes.
    static func sample() -> MergeList {
        let list = MergeList()
        list.name = "Groceries"
        list.items = [MergeItem("a", "milk"), MergeItem("b", "eggs"), MergeItem("c", "bread")]
        let first = Note(), second = Note()
        first.title = "first"
        second.title = "second"
        list.notes = [first, second]
        list.clearChanges()
        return list
    }

    /// The saved form as sorted JSON, to check that a model did not change.
    var form: String { (try? jsonString(options: [.sorted])) ?? "" }
}
