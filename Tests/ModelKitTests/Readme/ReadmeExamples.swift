import Foundation
import Observation
import Testing

@testable import ModelKit

// README.md's Swift examples, each compiled here and run by a test. Every
// example stands between `// README example N` and `// README example end`,
// exactly as README shows it (README's `import ModelKit` aside), and a test
// checks that the text is the same as README's, so an example that no longer
// compiles, or that README changes without this file, fails. What an example
// prints is recorded, and every printed line must appear in the example as a
// comment (`// <line>`), so README's comments say what really prints.
// Examples that use a class from an earlier section declare it again first,
// outside the markers.

/// What the running example printed.
final class ReadmeOutput: @unchecked Sendable {
    private let lock = NSLock()
    private var printed: [String] = []
    func append(_ text: String) { lock.withLock { printed.append(text) } }
    var lines: [String] { lock.withLock { printed.flatMap { $0.split(separator: "\n").map(String.init) } } }
}

enum ReadmeCapture {
    @TaskLocal static var output: ReadmeOutput?
}

/// README's examples call `print`: in this file it records what they print.
private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    ReadmeCapture.output?.append(items.map { "\($0)" }.joined(separator: separator))
}

// MARK: - Examples declared at file scope

// README example 6
extension ModelDefaults.Keys {
    static let volume = Key<Double>("volume", default: 0.8)
    static let accent = Key<Color>("accent", default: .blue)
}
// README example end

// README example 18
struct Address: Codable, Equatable { var street = ""; var zip = "" }
extension Address: ModelValueConvertible {}

final class Customer: ModelObject, @unchecked Sendable {
    @Saved var address = Address()
}
// README example end

/// README's upgrade example, in the class it belongs to.
final class ReadmeVersionedNote: ModelObject, @unchecked Sendable {
    @Saved var count = 0

    // README example 22
    override class var version: Int { 2 }
    override class func upgrade(_ values: inout [String: ModelValue], from version: Int) throws {
        if version == 1 { values["count"] = values["number"]; values["number"] = nil }
    }
    // README example end
}

@Suite struct ReadmeExampleTests {
    /// README's Swift blocks, in order.
    static func readmeBlocks() throws -> [String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        return blocks(in: readme, opening: "```swift\n", closing: "```")
    }

    /// The texts between each `opening` and the next `closing`.
    static func blocks(in text: String, opening: String, closing: String) -> [String] {
        var result: [String] = []
        var rest = text[...]
        while let start = rest.range(of: opening) {
            rest = rest[start.upperBound...]
            guard let end = rest.range(of: closing) else { break }
            result.append(String(rest[..<end.lowerBound]))
            rest = rest[end.upperBound...]
        }
        return result
    }

    /// `text`'s lines without `import` lines, trailing spaces or the common indentation.
    static func normalized(_ text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            String(line.reversed().drop(while: { $0 == " " }).reversed())
        }
        lines.removeAll { $0.hasPrefix("import ") }
        while lines.last?.isEmpty == true { lines.removeLast() }
        while lines.first?.isEmpty == true { lines.removeFirst() }
        let indent = lines.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
        return lines.map { $0.isEmpty ? $0 : String($0.dropFirst(indent)) }
    }

    @Test func everyReadmeExampleIsTheOneCompiledHere() throws {
        let readme = try Self.readmeBlocks()
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        for (index, block) in readme.enumerated() {
            let regions = Self.blocks(in: source, opening: "// README example \(index)\n", closing: "// README example end")
            guard let region = regions.first else {
                Issue.record("README example \(index) is not in ReadmeExamples.swift:\n\(block)")
                continue
            }
            #expect(Self.normalized(region) == Self.normalized(block), "README example \(index)")
        }
        let ends = source.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces) == "// README example end" }
        #expect(ends.count == readme.count, "one example here per README example")
    }

    /// Runs `example`, recording what it prints, and checks that every
    /// printed line is shown in README example `index` as a comment.
    static func check(_ index: Int, _ example: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let output = ReadmeOutput()
        try ReadmeCapture.$output.withValue(output) { try example() }
        let block = try readmeBlocks()[index]
        if block.contains("print(") {
            #expect(!output.lines.isEmpty, "README example \(index) prints nothing", sourceLocation: sourceLocation)
        }
        for line in output.lines {
            #expect(
                block.contains("// " + line), "README example \(index) prints \"\(line)\", which it does not show",
                sourceLocation: sourceLocation)
        }
    }

    @Test func example0() throws {
        func example() throws {
            // README example 0

            final class Note: ModelObject, @unchecked Sendable {
                @Saved var title = "Untitled"
                @Saved var tags: [String] = []
                @Saved var children: [Note] = []
            }

            let note = Note()
            note.title = "Groceries"
            print(note.hasChanges)                          // true
            print(try note.jsonString())
            // {"type":"Note","version":1,"title":"Groceries","tags":[],"children":[]}
            let copy = try Note(json: note.jsonData())
            print(copy.title, copy.hasChanges)              // Groceries false
            // README example end
        }
        try Self.check(0, example)
    }

    @Test func example1() throws {
        func example() throws {
            // README example 1
            final class Chore: ModelObject, @unchecked Sendable {
                @Saved var title = ""
                @Saved("legacy_name") var renamed = ""              // explicit key
                @Saved(dateStrategy: .secondsSince1970) var due = Date()
                @Saved var id = UUID()                              // each object gets its own
                var scratch = 0                                     // not saved
                override func loadDefaultValues() { super.loadDefaultValues(); due = .now }
                convenience init(title: String) { self.init(); self.title = title }   // initialisers are convenience
            }
            // README example end
        }
        try Self.check(1, example)
    }

    @Test func example2() throws {
        func example() throws {
            // README example 2
            class Shape: ModelObject, @unchecked Sendable {
                @Saved var name = "shape"
            }
            final class Circle: Shape, @unchecked Sendable {
                @Saved var radius = 1.0
                override class var savedKeys: [String] { super.savedKeys + ["radius"] }  // name, radius
            }
            // README example end
        }
        try Self.check(2, example)
    }

    @Test func example3() throws {
        func example() throws {
            final class Chore: ModelObject, @unchecked Sendable {
                @Saved var title = ""
                @Saved("legacy_name") var renamed = ""              // explicit key
                @Saved(dateStrategy: .secondsSince1970) var due = Date()
                @Saved var id = UUID()                              // each object gets its own
                var scratch = 0                                     // not saved
                override func loadDefaultValues() { super.loadDefaultValues(); due = .now }
                convenience init(title: String) { self.init(); self.title = title }   // initialisers are convenience
            }
            // README example 3
            let task = try Chore(dictionary: ["title": "Write", "due": Date()])
            let plist: [String: Any] = task.dictionary
            let json = try task.jsonData(options: [.pretty, .sorted]) // or .pretty, .sorted, JSONWritingOptions(...)
            let xml = try task.propertyListData(format: .xml)       // or .binary
            try task.update(from: ["title": "Rewrite"])             // all or nothing
            print(plist["title"]!, json.count > 0, xml.count > 0, task.title)   // Write true true Rewrite
            // README example end
        }
        try Self.check(3, example)
    }

    @Test func example4() throws {
        func example() throws {
            // README example 4
            do {
                _ = try ModelValue(json: Data(#"{"children":[{},{"a":1 "b":2}]}"#.utf8))
            } catch {
                print(error)
                // JSON at line 1, column 24 (byte 23), in children[1]: expected ',' or '}' after object member, found '"'
            }
            let value = try ModelValue(json: Data(#"{"b":[1,2],"a":"x/y"}"#.utf8))
            print(try value.jsonString(options: .sorted))           // {"a":"x/y","b":[1,2]}   or .pretty, .compact
            // README example end
        }
        try Self.check(4, example)
    }

    @Test func example5() throws {
        func example() throws {
            final class Chore: ModelObject, @unchecked Sendable {
                @Saved var title = ""
                @Saved("legacy_name") var renamed = ""              // explicit key
                @Saved(dateStrategy: .secondsSince1970) var due = Date()
                @Saved var id = UUID()                              // each object gets its own
                var scratch = 0                                     // not saved
                override func loadDefaultValues() { super.loadDefaultValues(); due = .now }
                convenience init(title: String) { self.init(); self.title = title }   // initialisers are convenience
            }
            let folder = FileManager.default.temporaryDirectory
            defer {
                try? FileManager.default.removeItem(at: folder.appendingPathComponent("task.json"))
                try? FileManager.default.removeItem(at: folder.appendingPathComponent("task.data"))
            }
            // README example 5
            let task = Chore()
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("task.json")
            try task.write(to: url)                                          // format from the extension
            let data = FileManager.default.temporaryDirectory.appendingPathComponent("task.data")
            try task.write(to: data, format: .binaryPropertyList)            // or given
            let loaded = try Chore(contentsOf: data)                         // format detected from the content
            print(loaded.id == task.id)                                      // true
            let list = FileManager.default.temporaryDirectory.appendingPathComponent("tasks.json")
            try [task, Chore(title: "Read")].write(to: list)                 // an array of models
            print(try [Chore](contentsOf: list).map(\.title))                // ["", "Read"]
            // README example end
        }
        try Self.check(5, example)
    }

    @Test func example7() throws {
        func example() throws {
            defer {
                let folder = FileManager.default.temporaryDirectory
                try? FileManager.default.removeItem(at: folder.appendingPathComponent("settings.plist"))
                try? FileManager.default.removeItem(at: folder.appendingPathComponent("settings.plist.lock"))
            }
            // README example 7
            let settings = FileManager.default.temporaryDirectory.appendingPathComponent("settings.plist")
            let store = try ModelDefaults(url: settings)
            print(store[.volume])                          // 0.8
            store[.volume] = 0.5
            store.set(["a.txt", "b.txt"], forKey: "recent")
            print(store.array(forKey: "recent") ?? [])     // ["a.txt", "b.txt"]
            print(store.integer(forKey: "missing") as Any) // nil
            try store.save()
            // README example end
        }
        try Self.check(7, example)
    }

    @Test func example8() throws {
        func example() throws {
            // README example 8
            final class Node: ModelObject, @unchecked Sendable {
                @Saved var name = ""
                @Saved(reference: .weak) var parent: Node? = nil
                @Saved var children: [Node] = []
            }

            let root = Node()
            root.name = "root"
            let leaf = Node()
            leaf.name = "leaf"
            leaf.parent = root
            root.children = [leaf]
            print(try root.jsonString())
            // {"$id":"1","type":"Node","version":1,"name":"root","parent":null,"children":[{"type":"Node","version":1,"name":"leaf","parent":{"$ref":"1"},"children":[]}]}
            let back = try Node(json: root.jsonData())
            print(back.children[0].parent === back)   // true
            // README example end
        }
        try Self.check(8, example)
    }

    @Test func example9() throws {
        func example() throws {
            final class Note: ModelObject, @unchecked Sendable {
                @Saved var title = "Untitled"
                @Saved var tags: [String] = []
                @Saved var children: [Note] = []
            }
            // README example 9
            let task = Note()
            task.title = "Untitled"       // equal to the current value: not a change
            task.title = "Edit"
            print(task.changedKeys)       // ["title"]
            let folder = Note()
            folder.children = [Note()]
            folder.clearChanges()
            folder.children[0].title = "x"
            print(folder.hasChanges, folder.hasAnyChanges)   // false true
            folder.clearChanges()         // this object and every model it reaches
            // README example end
        }
        try Self.check(9, example)
    }

    @Test func example10() throws {
        func example() throws {
            final class Note: ModelObject, @unchecked Sendable {
                @Saved var title = "Untitled"
                @Saved var tags: [String] = []
                @Saved var children: [Note] = []
            }
            // README example 10
            let memo = Note()
            memo.title = "Draft"
            memo.title = "Final"
            print(memo.changes["title"]!)        // Untitled
            memo.revertChanges()
            print(memo.title, memo.hasChanges)   // Untitled false
            // README example end
        }
        try Self.check(10, example)
    }

    @Test func example11() throws {
        func example() throws {
            final class Note: ModelObject, @unchecked Sendable {
                @Saved var title = "Untitled"
                @Saved var tags: [String] = []
                @Saved var children: [Note] = []
            }
            // README example 11
            let plan = Note()
            plan.title = "Plan"
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("plan-\(UUID()).json")
            defer { try? FileManager.default.removeItem(at: url) }
            try plan.write(to: url)                           // an export: the flags stay
            print(plan.hasChanges)                            // true
            try plan.write(to: url, clearingChanges: true)    // the document's own file
            print(plan.hasChanges)                            // false
            // README example end
        }
        try Self.check(11, example)
    }

    @Test func example12() throws {
        func example() throws {
            final class Note: ModelObject, @unchecked Sendable {
                @Saved var title = "Untitled"
                @Saved var tags: [String] = []
                @Saved var children: [Note] = []
            }
            // README example 12
            let list = Note()
            list.children = [Note()]
            let token = list.observe("title") { change in print(change) }
            list.title = "Milk"              // title: "Untitled" → "Milk"
            list.title = "Milk"              // nothing: the same value
            let first = list.observe("children.0.title") { print($0.newValue ?? "nil") }
            list.children[0].title = "Eggs"  // Eggs
            let tags = list.observe("tags") { print($0.difference(of: String.self)!.insertions.count) }
            list.tags.append("dairy")        // 1
            token.cancel()                   // or let the token go
            first.cancel()
            tags.cancel()
            // README example end
        }
        try Self.check(12, example)
    }

    @Test func example13() throws {
        func example() throws {
            final class Note: ModelObject, @unchecked Sendable {
                @Saved var title = "Untitled"
                @Saved var tags: [String] = []
                @Saved var children: [Note] = []
            }
            // README example 13
            let shown = Note()
            withObservationTracking {
                _ = shown.title
            } onChange: {
                print("title changed")
            }
            shown.tags = ["a"]            // nothing: tags was not read
            shown.title = "Changed"       // title changed
            // README example end
        }
        try Self.check(13, example)
    }

    @Test func example14() throws {
        func example() throws {
            // README example 14
            final class Driver: ModelObject, @unchecked Sendable {
                @Saved(rules: .nonEmpty, .maxLength(40)) var name = "Ada"
                @Saved(rules: .range(0...150)) var age = 30
                @Saved var hasDrivingLicence = false
                override func validateObject() throws {          // across properties
                    if hasDrivingLicence && age < 17 { throw ModelError.invalidValue("too young to drive") }
                }
            }
            // README example end
        }
        try Self.check(14, example)
    }

    @Test func example15() throws {
        func example() throws {
            // README example 15
            final class Counter: ModelObject, @unchecked Sendable {
                @Saved var count = 0
                @Saved var limit = 3
                @Saved var items: [Int] = []
            }

            let counter = Counter()
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                for _ in 0..<1_000 { counter.count += 1 }           // atomic: no update lost
            }
            counter.items = [1, 5, 2, 8]
            counter.items.removeAll { $0 > counter.limit }          // in place; may read other saved properties
            counter.withLock {                                      // several properties as one step
                if counter.count > counter.limit { counter.items.append(counter.count) }
            }
            print(counter.count, counter.items)                     // 4000 [1, 2, 4000]
            // README example end
        }
        try Self.check(15, example)
    }

    @Test func example16() throws {
        func example() throws {
            final class Counter: ModelObject, @unchecked Sendable {
                @Saved var count = 0
                @Saved var limit = 3
                @Saved var items: [Int] = []
            }
            // README example 16
            let original = Counter()
            original.items = [1, 2]
            let copy = original.copy()                  // deep; same class; no changes
            print(copy == original, copy.isEquivalent(to: original))   // false true
            // README example end
        }
        try Self.check(16, example)
    }

    @Test func example17() throws {
        func example() throws {
            final class Counter: ModelObject, @unchecked Sendable {
                @Saved var count = 0
                @Saved var limit = 3
                @Saved var items: [Int] = []
            }
            // README example 17
            struct Inbox: Codable { var counters: [Counter] }
            let data = try JSONEncoder().encode(Inbox(counters: [Counter()]))
            let inbox = try JSONDecoder().decode(Inbox.self, from: data)
            print(inbox.counters[0].limit)              // 3
            // README example end
        }
        try Self.check(17, example)
    }

    @Test func example19() throws {
        func example() throws {
            // README example 19
            let customer = Customer()
            customer.address.zip = "12345"       // in place: a change of `address`
            print(customer.changedKeys)          // ["address"]
            // README example end
        }
        try Self.check(19, example)
    }

    @Test func example20() throws {
        func example() throws {
            // README example 20
            struct Post: Codable { var postId: Int; var title: String; var publishedAt: Date; var tags: [String] }
            let json = Data(#"{"post_id": 7, "title": "Hello/World", "published_at": "2026-11-24T09:00:00Z", "tags": ["a"]}"#.utf8)

            var decoder = ModelJSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            decoder.dateDecodingStrategy = .iso8601
            let post = try decoder.decode(Post.self, from: json)
            print(post.postId, post.publishedAt)        // 7 2026-11-24 09:00:00 +0000

            var encoder = ModelJSONEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            encoder.dateEncodingStrategy = .iso8601
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(post), as: UTF8.self))
            // {"post_id":7,"published_at":"2026-11-24T09:00:00Z","tags":["a"],"title":"Hello/World"}
            // README example end
        }
        try Self.check(20, example)
    }

    @Test func example21() throws {
        func example() throws {
            // README example 21
            struct Task: Codable { var title: String; var due: Date }
            let encoder = JSONEncoder()                    // its default dates
            encoder.outputFormatting = .sortedKeys
            let data = try encoder.encode(Task(title: "Ship", due: Date(timeIntervalSince1970: 1_798_761_600)))
            print(String(decoding: data, as: UTF8.self))   // {"due":820454400,"title":"Ship"}

            final class Chore: ModelObject, @unchecked Sendable {
                @Saved var title = ""
                @Saved(dateStrategy: .deferredToDate) var due = Date()   // the one line
            }
            let chore = try Chore(json: data)
            print(chore.due)                                 // 2027-01-01 00:00:00 +0000
            // README example end
        }
        try Self.check(21, example)
    }

    @Test func example23() throws {
        func example() throws {
            // README example 23
            final class TodoList: ModelObject, @unchecked Sendable {
                @Saved var items: [TodoItem] = []
                override func didLoad() {
                    super.didLoad()
                    for item in items where item.list !== self { item.list = self }
                }
            }
            final class TodoItem: ModelObject, @unchecked Sendable {
                @Saved var title = ""
                @Saved(reference: .weak) var list: TodoList? = nil
            }

            let old = try TodoList(json: Data(#"{"version":1,"items":[{"title":"Milk"}]}"#.utf8))
            print(old.items[0].list === old, old.hasAnyChanges)   // true false
            // README example end
        }
        try Self.check(23, example)
    }

    @Test func example24() throws {
        func example() throws {
            final class Note: ModelObject, @unchecked Sendable {
                @Saved var title = "Untitled"
                @Saved var tags: [String] = []
                @Saved var children: [Note] = []
            }
            // README example 24
            let note = try Note(json: Data(#"{"title":"A","pinned":true}"#.utf8))
            print(note.extensibleProperties)                       // ["pinned": true]
            try note.setExtensibleProperty("blue", forKey: "label")
            // README example end
        }
        try Self.check(24, example)
    }

    @Test func example25() throws {
        func example() throws {
            final class Note: ModelObject, @unchecked Sendable {
                @Saved var title = "Untitled"
                @Saved var tags: [String] = []
                @Saved var children: [Note] = []
            }
            // README example 25
            let saved = try Note(json: Data(#"{"title":"A","price":1.10,"label":"caf\u00e9"}"#.utf8))
            print(saved.extensibleProperty(forKey: "price")!)       // 1.1
            saved.title = "B"
            print(try saved.jsonString())
            // {"type":"Note","version":1,"title":"B","tags":[],"children":[],"price":1.10,"label":"caf\u00e9"}
            // README example end
        }
        try Self.check(25, example)
    }

    @Test func example26() throws {
        func example() throws {
            // README example 26
            final class Config: ModelObject, @unchecked Sendable {
                override class var unknownKeys: UnknownKeyPolicy { .reject }
                @Saved var title = ""
                @Saved var count = 0
            }
            do {
                _ = try Config(json: Data(#"{"titel":"Draft","count":2}"#.utf8))
            } catch {
                print(error)
                // JSON at line 1, column 2 (byte 1), in titel: unknown key "titel": Config saves title, count
            }
            // README example end
        }
        try Self.check(26, example)
    }

    @Test func example27() throws {
        func example() throws {
            final class Note: ModelObject, @unchecked Sendable {
                @Saved var title = "Untitled"
                @Saved var tags: [String] = []
                @Saved var children: [Note] = []
            }
            // README example 27
            let note = Note()
            note.children = [Note(), Note()]
            try note.setValue("Renamed", forKey: "title")
            print(note.value(forKey: "title") as? String ?? "")              // Renamed
            print(note.value(forKey: "children.1.title") as? String ?? "")   // Untitled
            do {
                try note.setValue("x", forKey: "children.5.title")
            } catch {
                print(error)   // children[5]: there is no element 5: the array has 2 elements
            }
            // README example end
        }
        try Self.check(27, example)
    }

    @Test func example28() throws {
        func example() throws {
            // README example 28
            class Item: ModelObject, @unchecked Sendable { @Saved var name = "" }
            final class Book: Item, @unchecked Sendable { @Saved var pages = 0 }
            final class Film: Item, @unchecked Sendable { @Saved var minutes = 0 }
            final class Shelf: ModelObject, @unchecked Sendable { @Saved var items: [Item] = [] }

            ModelObject.register(Book.self, Film.self)
            let data = Data(#"{"items":[{"type":"Book","name":"Emma","pages":474},{"type":"Film","name":"Heat"}]}"#.utf8)
            let shelf = try Shelf(json: data)
            print(shelf.items.map { "\(type(of: $0))" })   // ["Book", "Film"]
            // README example end
        }
        try Self.check(28, example)
    }

    @Test func example29() throws {
        func example() throws {
            // README example 29
            let accent = Color(red: 1, green: 0.5, blue: 0)
            print(accent.hexString)                          // #FF8000
            print(Color(hex: "#0F08")!.hexString)            // #00FF0088
            print(Color.red.mix(with: .blue, by: 0.5))       // Color(red: 0.5, green: 0.0, blue: 0.5, alpha: 1.0)
            print(accent.withAlpha(0.5).modelValue)          // {"red":1.0,"green":0.5,"blue":0.0,"alpha":0.5}
            // README example end
        }
        try Self.check(29, example)
    }

    @Test func example30() throws {
        func example() throws {
            // README example 30
            let date = try Date(modelValue: "2025-11-16T16:33:20.123456+01:00")
            print(date.modelValue)   // "2025-11-16T15:33:20.123456Z"
            do {
                _ = try Date(modelValue: "2025-11-16T15:33:20")
            } catch {
                print(error)
                // expected an ISO 8601 date such as "2025-11-16T15:33:20Z", found a string ("2025-11-16T15:33:20") with no time zone (add Z or an offset such as +01:00)
            }
            // README example end
        }
        try Self.check(30, example)
    }

    @Test func example31() throws {
        func example() throws {
            // README example 31
            let paris = TimeZone(identifier: "Europe/Paris")!
            let day = Day("2026-11-21")!
            let alarm = TimeOfDay("07:30")!
            print(day.modelValue, alarm.modelValue)        // "2026-11-21" "07:30:00"
            let moment = alarm.date(on: day, timeZone: paris)
            print(moment)                                  // 2026-11-21 06:30:00 +0000
            print(Day(moment, timeZone: paris)!, TimeOfDay(moment, timeZone: paris))   // 2026-11-21 07:30:00
            // README example end
        }
        try Self.check(31, example)
    }

    @Test func example32() throws {
        func example() throws {
            // README example 32
            let snooze = Interval(5, .minutes)
            print(snooze, snooze.seconds)                         // 5 minutes 300.0
            print(snooze.modelValue, Interval(2...4, .hours).modelValue, Interval.never.modelValue)
            // {"amount":5.0,"unit":"minutes"} {"from":2.0,"to":4.0,"unit":"hours"} "never"
            print(Interval(2...4, .hours).briefDescription)       // 2–4 hrs
            print(Interval("1 Quarter")! > Interval(2, .months))  // true
            let jan31 = ISO8601DateFormatter().date(from: "2024-01-31T00:00:00Z")!
            var utc = Calendar(identifier: .gregorian); utc.timeZone = TimeZone(identifier: "UTC")!
            print(Interval(1, .months).date(after: jan31, calendar: utc)!)   // 2024-02-29 00:00:00 +0000
            // README example end
        }
        try Self.check(32, example)
    }

    @Test func example33() throws {
        func example() throws {
            // README example 33
            final class Chore: ModelObject, @unchecked Sendable {
                @Saved var title = ""
                @Saved var tags: [String] = []
            }
            let before = Chore(), after = Chore()
            after.title = "Buy milk"
            after.tags = ["home"]
            let patch = before.patch(to: after)
            print(try patch.jsonString())
            // [{"op":"replace","path":"/title","value":"Buy milk"},{"op":"add","path":"/tags/0","value":"home"}]
            try before.apply(patch)
            print(before.title, before.changedKeys.sorted())   // Buy milk ["tags", "title"]
            try before.apply(JSONMergePatch(json: #"{"title":"Buy eggs"}"#))
            print(before.title)                                 // Buy eggs
            // README example end
        }
        try Self.check(33, example)
    }

    @Test func example34() throws {
        func example() throws {
            // README example 34
            final class Chore: ModelObject, @unchecked Sendable {
                @Saved var title = ""
                @Saved var tags: [String] = []
            }
            let chore = Chore()
            let history = ModelHistory(tracking: chore)
            chore.title = "Buy milk"
            chore.tags.append("home")
            history.group("Rename") {
                chore.title = "Buy eggs"
                chore.tags.append("urgent")
            }
            print(history.undoName ?? "-")        // Rename
            try history.undo()
            print(chore.title, chore.tags)        // Buy milk ["home"]
            try history.undo()
            print(chore.tags, history.canRedo)    // [] true
            try history.redo()
            print(chore.tags, chore.hasChanges)   // ["home"] true
            // README example end
        }
        try Self.check(34, example)
    }

    @Test func example35() throws {
        func example() throws {
            // README example 35
            final class Todo: ModelObject, @unchecked Sendable {
                @Saved(description: "What to do", rules: .nonEmpty, .maxLength(80)) var title = "Untitled"
                @Saved(rules: .range(1...5)) var priority = 3
                @Saved var due: Date? = nil
            }

            let schema = try Todo.jsonSchema()
            print(schema["$defs"]?["Todo"]?["properties"]?["priority"] ?? "none")
            // {"type":"integer","minimum":1,"maximum":5}
            let strict = try Todo.jsonSchema(.openAI)
            print(strict["required"] ?? [], strict["additionalProperties"] ?? true)
            // ["title","priority","due"] false
            // README example end
        }
        try Self.check(35, example)
    }

    @Test func example36() async throws {
        final class Todo: ModelObject, @unchecked Sendable {
            @Saved(description: "What to do", rules: .nonEmpty, .maxLength(80)) var title = "Untitled"
            @Saved(rules: .range(1...5)) var priority = 3
            @Saved var due: Date? = nil
        }
        func example() async throws {
            // README example 36
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("todos.jsonl")
            let todos = (1...3).map { number in
                let todo = Todo()
                todo.title = "Todo \(number)"
                return todo
            }
            try JSONLines.write(todos, to: url)
            try JSONLines.append([Todo()], to: url)
            var titles: [String] = []
            for try await todo in JSONLines.models(Todo.self, contentsOf: url, tornTail: .readUpToIt) {
                titles.append(todo.title)
            }
            print(titles)   // ["Todo 1", "Todo 2", "Todo 3", "Untitled"]
            // README example end
        }
        defer {
            try? FileManager.default.removeItem(at: FileManager.default.temporaryDirectory.appendingPathComponent("todos.jsonl"))
        }
        try await Self.checkAsync(36, example)
    }

    @Test func example37() throws {
        func example() throws {
            // README example 37
            final class Item: ModelObject, @unchecked Sendable {
                @Saved var id = ""
                @Saved var title = ""
                @Saved var done = false
                override class var identityKey: String? { "id" }
            }
            final class TodoList: ModelObject, @unchecked Sendable {
                @Saved var name = ""
                @Saved var items: [Item] = []
            }
            func item(_ id: String, _ title: String) -> Item {
                let item = Item()
                (item.id, item.title) = (id, title)
                return item
            }
            let base = TodoList()
            base.name = "Weekend"
            base.items = [item("1", "Buy milk"), item("2", "Call Ada")]
            let phone = base.copy(), laptop = base.copy()
            phone.items[0].done = true                              // ticked on the phone
            phone.name = "Saturday"
            laptop.items.insert(item("3", "Water plants"), at: 0)   // added on the laptop
            laptop.name = "Sat & Sun"
            let result = try TodoList.merge(base: base, ours: phone, theirs: laptop,
                                            policy: .resolve { conflict in conflict.theirs })
            print(result.merged.name)                    // Sat & Sun
            print(result.merged.items.map(\.title))      // ["Water plants", "Buy milk", "Call Ada"]
            print(result.merged.items.map(\.done))       // [false, true, false]
            for conflict in result.conflicts { print(conflict) }
            // name: base "Weekend", ours "Saturday", theirs "Sat & Sun"
            // README example end
        }
        try Self.check(37, example)
    }

    @Test func example38() throws {
        func example() throws {
            // README example 38
            final class ToDo: ModelObject, @unchecked Sendable {
                override class var archivedClassName: String { "Task" }        // the old app's class
                override class var savedDialect: SavedDialect { .dejalObject }  // write what it reads
                @Saved var title = ""
                @Saved var colour: Color = .blue
                @Saved var due: Date? = nil
            }
            let saved = #"{"representedClassName":"Task","version":1,"title":"Ship","#
                + #""colour":{"representedClassName":"DejalColor","version":1,"red":1,"green":0,"blue":0,"alpha":1},"#
                + #""due":{"representedClassName":"DejalDate","version":1,"string":"0001-01-01T00:00:00Z"}}"#
            let toDo = try ToDo(json: Data(saved.utf8))
            print(toDo.title, toDo.colour == .red, toDo.due == nil)   // Ship true true
            toDo.due = Date(timeIntervalSince1970: 1_798_761_600)
            print(String(decoding: try toDo.jsonData(options: .sorted), as: UTF8.self))
            // {"colour":{"alpha":1,"blue":0,"green":0,"red":1,"representedClassName":"DejalColor","version":1},"due":{"representedClassName":"DejalDate","string":"2027-01-01T00:00:00Z","version":1},"representedClassName":"Task","title":"Ship","version":1}
            // README example end
        }
        try Self.check(38, example)
    }

    @Test func example39() throws {
        func example() throws {
            // README example 39
            final class JournalEntry: ModelObject, @unchecked Sendable {
                @Saved var title = ""
            }
            ModelObject.register(JournalEntry.self, as: "OldApp.Entry")   // the class the old app archived
            let entry = JournalEntry()
            entry.title = "Groceries"
            let archive = try entry.keyedArchiveData()      // NSKeyedUnarchiver reads it back
            print(try JournalEntry(keyedArchive: archive).title)   // Groceries
            // README example end
        }
        try Self.check(39, example)
    }

    @Test func example40() throws {
        func example() throws {
            // README example 40
            final class Card: ModelObject, @unchecked Sendable {
                @Saved var id = ""
                @Saved var title = ""
                override class var identityKey: String? { "id" }
            }
            final class Board: ModelObject, @unchecked Sendable {
                @Saved var name = ""
                @Saved var cards: [Card] = []
            }
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("board-\(UUID()).json")
            defer { try? FileManager.default.removeItem(at: url) }
            let first = Board()
            first.name = "Week"
            try first.write(to: url)

            let document = try ModelDocument<Board>(contentsOf: url, history: nil)
            document.root.name = "This week"                 // our edit, not saved yet
            let widget = try Board(contentsOf: url)          // another process saves a card
            let card = Card()
            (card.id, card.title) = ("1", "Water plants")
            widget.cards.append(card)
            try widget.write(to: url)

            let conflicts = try document.save()              // merges, then writes
            print(conflicts.isEmpty)                         // true
            print(document.root.cards.map(\.title))          // ["Water plants"]
            print(try Board(contentsOf: url).name)           // This week
            // README example end
        }
        try Self.check(40, example)
    }

    /// ``check(_:_:sourceLocation:)`` for an example that awaits.
    static func checkAsync(
        _ index: Int, _ example: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let output = ReadmeOutput()
        try await ReadmeCapture.$output.withValue(output) { try await example() }
        let block = try readmeBlocks()[index]
        #expect(!output.lines.isEmpty, "README example \(index) prints nothing", sourceLocation: sourceLocation)
        for line in output.lines {
            #expect(
                block.contains("// " + line), "README example \(index) prints \"\(line)\", which it does not show",
                sourceLocation: sourceLocation)
        }
    }

    @Test func example6and16and18() throws {
        let customer = Customer()
        customer.address.zip = "1"
        #expect(customer.changedKeys == ["address"])
        #expect(ModelDefaults.Keys.volume.defaultValue == 0.8)
        let upgraded = try ReadmeVersionedNote(json: Data(#"{"version":1,"number":7}"#.utf8))
        #expect(upgraded.count == 7)
    }
}
