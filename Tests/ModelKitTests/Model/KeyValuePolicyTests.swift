import Foundation
import Testing

@testable import ModelKit

final class KeepingTask: ModelObject, @unchecked Sendable {
    @Saved var title = ""
    @Saved var notes: String? = nil
    @Saved var children: [KeepingTask] = []
    @Saved var child: KeepingTask? = nil
}

final class IgnoringTask: ModelObject, @unchecked Sendable {
    override class var unknownKeys: UnknownKeyPolicy { .ignore }
    @Saved var title = ""
}

final class RejectingTask: ModelObject, @unchecked Sendable {
    override class var unknownKeys: UnknownKeyPolicy { .reject }
    @Saved var title = ""
    @Saved var children: [RejectingTask] = []
}

@Suite("Key-value access and update(from:) follow the unknown-key policy")
struct KeyValuePolicyTests {
    @Test func keepPutsAMisspeltKeyInTheBag() throws {
        let task = KeepingTask()
        try task.setValue("x", forKey: "titel")
        #expect(task.extensibleProperties == ["titel": "x"])
        #expect(task.title == "" && task.changedKeys == ["titel"])
        try task.update(from: ["tilte": "y"])
        #expect(task.extensibleProperty(forKey: "tilte") == "y")
    }

    @Test func ignoreDropsIt() throws {
        let task = IgnoringTask()
        try task.setValue("x", forKey: "titel")
        try task.update(from: ["titel": "y", "title": "z"])
        #expect(task.extensibleProperties.isEmpty)
        #expect(task.title == "z" && task.changedKeys == ["title"])
        let untouched = IgnoringTask()
        try untouched.setValue("x", forKey: "titel")
        #expect(!untouched.hasChanges, "a dropped key is no change")
    }

    @Test(arguments: [
        ("titel", "titel: RejectingTask saves no key \"titel\" and keeps no extensible properties (its unknownKeys is .reject)"),
        ("children.0.titel", "children[0]: there is no element 0: the array is empty"),
    ])
    func rejectThrowsNamingTheKey(key: String, message: String) throws {
        let task = RejectingTask()
        let error = try #require(throws: ModelError.self) { try task.setValue("x", forKey: key) }
        #expect(error.description == message)
        #expect(!task.hasChanges)
        let update = try #require(throws: ModelError.self) { try task.update(from: ["titel": "x", "title": "y"]) }
        #expect(update.description == "titel: unknown key \"titel\": RejectingTask saves title, children")
        #expect(task.title == "" && !task.hasChanges, "all or nothing")
    }

    @Test func aKnownNestedKeyOfARejectingClassIsSet() throws {
        let task = RejectingTask()
        task.children = [RejectingTask()]
        try task.setValue("deep", forKey: "children.0.title")
        #expect(task.children[0].title == "deep")
        let error = try #require(throws: ModelError.self) { try task.setValue("x", forKey: "children.0.titel") }
        #expect(error.description.hasPrefix("children[0].titel: RejectingTask saves no key \"titel\""))
    }

    /// Key paths that lead nowhere: the error names the path as far as it
    /// went, and why it stopped.
    static let deadEnds: [(String, String)] = [
        ("children.1.title", "children[1]: there is no element 1: the array has 1 element"),
        ("children.3.title", "children[3]: there is no element 3: the array has 1 element"),
        ("children.first.title", "children.first: expected the index of an element, found \"first\": the array has 1 element"),
        ("child.title", "child: this is nil, not a model"),
        ("chlid.title", "chlid: KeepingTask has no saved key or extensible property \"chlid\""),
        ("title.count", "title: expected a model to set a value in, found a value of type String"),
        ("meta.missing.x", "meta.missing: the object has no member \"missing\""),
        ("list.5.x", "list[5]: there is no element 5: the array has 2 elements"),
        ("children.0.child.title", "children[0].child: this is nil, not a model"),
    ]

    @Test(arguments: deadEnds)
    func aKeyPathThatLeadsNowhereSaysWhere(key: String, message: String) throws {
        let task = KeepingTask()
        task.children = [KeepingTask()]
        try task.setExtensibleProperty(["a": 1], forKey: "meta")
        try task.setExtensibleProperty([1, 2], forKey: "list")
        task.clearChanges()
        let error = try #require(throws: ModelError.self) { try task.setValue("x", forKey: key) }
        #expect(error.description == message)
        #expect(!task.hasAnyChanges, "nothing lands in a bag")
        #expect(task.extensibleProperties.count == 2)
    }
}

@Suite("Change descriptions")
struct ChangeDescriptionTests {
    final class Described: ModelObject, @unchecked Sendable {
        @Saved var notes: String? = nil
        @Saved var count = 0
        @Saved var tags: [String] = []
        @Saved var rating: Double? = nil
        @Saved var due: Date? = nil
        @Saved var nested: [String?] = []
    }

    @Test func valuesPrintAsWrittenNeverAsOptional() throws {
        let model = Described()
        var seen: [ModelChange] = []
        let token = model.observe(keys: nil) { seen.append($0) }
        model.notes = "hello"
        model.notes = nil
        model.count = 3
        model.tags.append("home")
        model.rating = 4.5
        model.due = Date(timeIntervalSince1970: 0)
        model.nested = [nil, "a"]
        try model.setValue("say \"hi\"", forKey: "notes")
        try model.setExtensibleProperty(["k": true], forKey: "extra")
        token.cancel()
        #expect(seen.map(\.description) == [
            #"notes: nil → "hello""#,
            #"notes: "hello" → nil"#,
            "count: 0 → 3",
            #"tags: [] → ["home"]"#,
            "rating: nil → 4.5",
            #"due: nil → "1970-01-01T00:00:00Z""#,
            #"nested: [] → [null,"a"]"#,
            #"notes: nil → "say \"hi\"""#,
            #"extra: nil → {"k":true}"#,
        ])
        for change in seen {
            for value in [change.oldValue, change.newValue] {
                #expect(!String(describing: value).contains("Optional(Optional"), "\(change)")
            }
        }
        // An optional's values arrive unwrapped: nil, or the value it holds.
        #expect(seen[0].oldValue == nil && seen[0].newValue as? String == "hello")
        #expect(seen[1].newValue == nil)
    }
}

@Suite("Reference ids in document order")
struct ReferenceIDOrderTests {
    final class Node: ModelObject, @unchecked Sendable {
        @Saved var name = ""
        @Saved var children: [Node] = []
        @Saved(reference: .weak) var parent: Node? = nil
        @Saved(reference: .weak) var link: Node? = nil
    }

    /// The `"$id"` values in the order the text has them.
    static func idsInText(_ text: String) -> [String] {
        var ids: [String] = []
        var rest = text[...]
        while let range = rest.range(of: #""$id""#) {
            // Past the colon, any spaces and the opening quote.
            rest = rest[range.upperBound...].drop { $0 == ":" || $0 == " " }.dropFirst()
            ids.append(String(rest.prefix { $0 != "\"" }))
        }
        return ids
    }

    /// Random trees whose nodes' weak references point anywhere in the tree.
    static func randomTree(seed: UInt64) -> (Node, [Node]) {
        var generator = SeededGenerator(seed: seed)
        let root = Node()
        root.name = "0"
        var nodes = [root]
        for index in 1..<Int.random(in: 3...25, using: &generator) {
            let node = Node()
            node.name = String(index)
            let parent = nodes.randomElement(using: &generator)!
            parent.children.append(node)
            node.parent = parent
            nodes.append(node)
        }
        for node in nodes where Bool.random(using: &generator) {
            node.link = nodes.randomElement(using: &generator)
        }
        return (root, nodes)
    }

    @Test(arguments: 1...40 as ClosedRange<UInt64>)
    func idsAreNumberedInTheOrderTheTextHasThem(seed: UInt64) throws {
        let (root, nodes) = Self.randomTree(seed: seed)
        for options in [JSONWritingOptions(), JSONWritingOptions(references: .shared), .pretty] {
            let text = try root.jsonString(options: options)
            let ids = Self.idsInText(text)
            #expect(ids == (0..<ids.count).map { String($0 + 1) }, "seed \(seed): \(text)")
            // And every reference still names the right model.
            let loaded = try Node(json: text)
            var loadedNodes: [String: Node] = [:]
            ModelObject.forEachModelChildrenFirst(from: [loaded]) { loadedNodes[($0 as! Node).name] = ($0 as! Node) }
            for node in nodes {
                let copy = try #require(loadedNodes[node.name])
                #expect(copy.parent?.name == node.parent?.name, "seed \(seed)")
                if options.references == .shared || node.link == nil {
                    #expect(copy.link?.name == node.link?.name, "seed \(seed)")
                }
            }
        }
        let plist = String(decoding: try root.propertyListData(format: .xml), as: UTF8.self)
        var plistIDs: [String] = []
        var rest = plist[...]
        while let range = rest.range(of: "<key>$id</key>") {
            rest = rest[range.upperBound...]
            guard let open = rest.range(of: "<string>"), let close = rest.range(of: "</string>") else { break }
            plistIDs.append(String(rest[open.upperBound..<close.lowerBound]))
        }
        #expect(plistIDs == (0..<plistIDs.count).map { String($0 + 1) }, "seed \(seed)")
    }

    @Test func theIssuesCaseNumbersTheRootFirst() throws {
        // A child's back-reference to its own parent gives an id before the
        // root's: the text still starts with "$id":"1".
        let root = Node(), list = Node(), item = Node(), sibling = Node()
        root.children = [list, sibling]
        list.children = [item]
        item.parent = list
        sibling.parent = root
        let text = try root.jsonString()
        #expect(text.hasPrefix(#"{"$id":"1","#))
        #expect(Self.idsInText(text) == ["1", "2"])
        #expect(text.contains(#""parent":{"$ref":"2"}"#) && text.contains(#""parent":{"$ref":"1"}"#))
    }
}
