import Foundation
import Testing

@testable import ModelKit

/// The direct JSON paths (`JSONModelDecoder`, `JSONModelEncoder`) against the
/// `ModelValue` path they short-cut: the same objects, bytes and errors.
@Suite struct JSONDirectPathTests {
    /// What loading a document gave: the saved form in order, or the error's sentence.
    enum Outcome: Equatable {
        case loaded(Data)
        case failed(String)
    }

    /// Loads `data` with `init(json:)` (the direct path).
    static func direct<T: ModelObject>(_ type: T.Type, _ data: Data, options: JSONReadingOptions = .init()) -> Outcome {
        do {
            let object = try T(json: data, options: options)
            #expect(!object.hasAnyChanges)
            return .loaded(try ModelValue.object(object.encodedRoot()).jsonData(options: .pretty))
        } catch {
            return .failed("\(error)")
        }
    }

    /// Loads `data` through `ModelValue`, as `init(json:)` did before the direct path.
    static func viaModelValue<T: ModelObject>(_ type: T.Type, _ data: Data, options: JSONReadingOptions = .init())
        -> Outcome
    {
        do {
            let object = T()
            try object.load(ModelValue(json: data, options: options))
            #expect(!object.hasAnyChanges)
            return .loaded(try ModelValue.object(object.encodedRoot()).jsonData(options: .pretty))
        } catch {
            return .failed("\(error)")
        }
    }

    /// Whether the direct decoder reads `data` by itself, with no fallback.
    static func isReadDirectly<T: ModelObject>(_ type: T.Type, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var decoder = JSONModelDecoder(raw.bindMemory(to: UInt8.self), options: JSONReadingOptions())
            return (try? decoder.decodeRoot(of: T())) != nil
        }
    }

    static let writingOptions: [JSONWritingOptions] = [
        .compact, .pretty, .sorted, JSONWritingOptions(prettyPrinted: true, indent: 4, sortedKeys: true),
        JSONWritingOptions(prettyPrinted: true, indent: 0), JSONWritingOptions(escapesSlashes: true),
    ]

    /// `jsonData` and `jsonString` (direct) against writing the `ModelValue`, for every option.
    static func expectSameOutput(_ object: ModelObject, sourceLocation: SourceLocation = #_sourceLocation) {
        for options in writingOptions {
            let direct = outcome { try object.jsonData(options: options) }
            let reference = outcome { try ModelValue.object(object.encodedRoot()).jsonData(options: options) }
            #expect(direct == reference, "options \(options)", sourceLocation: sourceLocation)
            let text = outcome { Data(try object.jsonString(options: options).utf8) }
            #expect(text == reference, sourceLocation: sourceLocation)
        }
    }

    static func outcome(_ body: () throws -> Data) -> Outcome {
        do {
            return .loaded(try body())
        } catch {
            return .failed("\(error)")
        }
    }

    // MARK: - Differential: seeded random documents

    /// Random saved forms of `Record`, mostly well typed, with bag keys,
    /// metadata, shuffled members and nested records.
    struct RandomRecords {
        var documents: RandomDocuments
        /// How often a value has the wrong type, out of 100.
        var wrongPercent: Int

        mutating func chance(_ percent: Int) -> Bool {
            Int.random(in: 0..<100, using: &documents.generator) < percent
        }

        mutating func value(forKey key: String, depth: Int) -> ModelValue {
            if chance(wrongPercent) { return documents.value(depth: 1) }
            switch key {
            case "title": return .string(documents.string())
            case "count": return chance(10) ? .double(Double(documents.integer() >> 12)) : .int(documents.integer())
            case "isDone": return .bool(chance(50))
            case "ratio": return chance(20) ? .int(documents.integer()) : .double(documents.double())
            case "note": return chance(30) ? .null : .string(documents.string())
            case "rank": return chance(30) ? .null : .int(documents.integer())
            case "flag": return chance(30) ? .null : .bool(chance(50))
            case "weight": return chance(30) ? .null : .double(documents.double())
            case "child": return depth > 0 && chance(60) ? .object(record(depth: depth - 1)) : .null
            case "children":
                let count = depth > 0 ? Int.random(in: 0...3, using: &documents.generator) : 0
                return .array((0..<count).map { _ in .object(record(depth: depth - 1)) })
            case "tags": return .array((0..<Int.random(in: 0...3, using: &documents.generator)).map { _ in .string(documents.string()) })
            case "due": return chance(50) ? .null : "2025-11-16T15:33:20.25Z"
            case "stamp": return .int(Int.random(in: -1_000_000_000_000...1_000_000_000_000, using: &documents.generator))
            case "scores": return ["a": .int(documents.integer()), "b": 2]
            case "small": return .int(Int.random(in: -128...127, using: &documents.generator))
            default: return documents.value(depth: 0)
            }
        }

        static let keys = [
            "title", "count", "isDone", "ratio", "note", "rank", "flag", "weight", "child", "children", "tags", "due",
            "stamp", "scores", "small",
        ]

        mutating func record(depth: Int) -> ModelValue.Object {
            var members: [(String, ModelValue)] = []
            for key in Self.keys where chance(70) { members.append((key, value(forKey: key, depth: depth))) }
            for _ in 0..<Int.random(in: 0...3, using: &documents.generator) {
                let key = chance(50) ? "extra\(Int.random(in: 0..<5, using: &documents.generator))" : documents.string()
                if !Self.keys.contains(key), key != "type", key != "version", !members.contains(where: { $0.0 == key }) {
                    members.append((key, documents.value(depth: 2)))
                }
            }
            if chance(30) { members.append(("type", "Record")) }
            if chance(30) { members.append(("version", .int(chance(70) ? 1 : 2))) }
            members.shuffle(using: &documents.generator)
            return ModelValue.Object(members)
        }
    }

    /// The document's text, pretty or compact, sometimes with a key spelt with an escape.
    static func text(of object: ModelValue.Object, using generator: inout SeededGenerator) throws -> Data {
        let pretty = Bool.random(using: &generator)
        var text = try ModelValue.object(object).jsonString(options: pretty ? .pretty : .compact)
        if Bool.random(using: &generator), let range = text.range(of: "\"count\":") {
            text.replaceSubrange(range, with: "\"co\\u0075nt\":")
        }
        return Data(text.utf8)
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func wellTypedDocumentsLoadDirectlyAndAsBefore(seed: UInt64) throws {
        var random = RandomRecords(documents: RandomDocuments(seed: seed), wrongPercent: 0)
        for _ in 0..<250 {
            let data = try Self.text(of: random.record(depth: 3), using: &random.documents.generator)
            let direct = Self.direct(Record.self, data)
            #expect(direct == Self.viaModelValue(Record.self, data), "\(String(decoding: data, as: UTF8.self))")
            // Numbers that do not fit (a double for an Int8) fail on both paths; the rest load directly.
            if case .loaded = direct { #expect(Self.isReadDirectly(Record.self, data)) }
            if case .loaded = direct { Self.expectSameOutput(try Record(json: data)) }
        }
    }

    @Test(arguments: [UInt64(11), 12, 13])
    func badlyTypedDocumentsFailWithTheSameErrors(seed: UInt64) throws {
        var random = RandomRecords(documents: RandomDocuments(seed: seed), wrongPercent: 4)
        var failures = 0
        for _ in 0..<250 {
            var data = try Self.text(of: random.record(depth: 3), using: &random.documents.generator)
            // Sometimes break the grammar too, somewhere in the document.
            if random.chance(25), data.count > 2 {
                let position = Int.random(in: 1..<data.count, using: &random.documents.generator)
                data[position] = [UInt8(ascii: "}"), UInt8(ascii: ","), UInt8(ascii: "\""), 0x01, 0xFF][
                    Int.random(in: 0..<5, using: &random.documents.generator)]
            }
            let direct = Self.direct(Record.self, data)
            #expect(direct == Self.viaModelValue(Record.self, data), "\(String(decoding: data, as: UTF8.self))")
            if case .failed = direct { failures += 1 }
        }
        #expect(failures > 50)
    }

    @Test func randomObjectsWriteTheSameBytes() throws {
        var generator = SeededGenerator(seed: 99)
        for index in 0..<200 {
            let record = Record()
            record.title = ["", "a/b", "quote \" and \\ and \n", "ünïcödé 😀"][index % 4]
            record.count = Int.random(in: -1000...1000, using: &generator)
            record.ratio = [0.1, -0.0, 1e300, .leastNonzeroMagnitude, 123_456.0, 1.0][index % 6]
            record.weight = index % 3 == 0 ? nil : Double(index) / 7
            record.rank = index % 5 == 0 ? nil : index
            record.note = index % 2 == 0 ? nil : "n\(index)"
            record.flag = index % 7 == 0 ? nil : index % 2 == 0
            record.tags = (0..<index % 3).map { "t\($0)" }
            record.scores = index % 4 == 0 ? [:] : ["z": 1, "a": 2]
            if index % 3 == 1 { record.child = Record() }
            record.children = (0..<index % 4).map { _ in Record() }
            if index % 2 == 1 {
                try record.setExtensibleProperty(["b": 1, "a": [true, nil]], forKey: "zeta")
                try record.setExtensibleProperty("x", forKey: "alpha")
            }
            Self.expectSameOutput(record)
        }
    }

    // MARK: - Behaviour the direct paths must keep

    @Test func nonFiniteNumbersAreErrorsNamingTheKeyPath() {
        let record = Record()
        record.children = [Record(), Record()]
        record.children[1].weight = .infinity
        Self.expectSameOutput(record)
        #expect(throws: ModelError.self) { try record.jsonData() }
        do {
            _ = try record.jsonData()
        } catch {
            #expect("\(error)" == "children[1].weight: JSON cannot represent the floating-point number inf")
        }
    }

    /// Graphs with cycles the direct writer plans for, and ones it leaves to the ModelValue path.
    @Test func cyclesAreWrittenDirectlyAsTheModelValuePathWritesThem() throws {
        // A ring of three, a model inside itself, parents referred to from two levels down.
        let a = Record()
        let b = Record()
        let c = Record()
        a.child = b
        b.child = c
        c.child = a
        c.children = [c, b]
        let parent = Record()
        let kids = (0..<3).map { _ in Record() }
        parent.children = kids
        for kid in kids {
            kid.child = parent
            let grandchild = Record()
            grandchild.children = [kid, parent]
            kid.children = [grandchild]
        }
        defer {
            for record in [a, b, c, parent] + kids {
                record.child = nil
                record.children = []
            }
        }
        for root in [a, c, parent] {
            Self.expectSameOutput(root)
            for options in [JSONWritingOptions.compact, .pretty, JSONWritingOptions(escapesSlashes: true)] {
                var writer = try #require(root.directlyFilledWriter(options: options), "the direct path wrote it")
                writer.deallocate()
            }
            // Sorted keys change the order models are met in: the ModelValue path writes those.
            #expect(root.directlyFilledWriter(options: .sorted) == nil)
        }
        #expect(try parent.jsonString().contains(#""children":[{"$id":"2","#))
    }

    @Test func cyclesAndDeepGraphsWriteAsBefore() {
        let record = Record()
        record.child = Record()
        record.child?.children = [record]
        defer { record.child = nil }
        // A cycle is written with a reference, by the ModelValue path.
        Self.expectSameOutput(record)
        #expect((try? record.jsonString())?.contains(#"[{"$ref":"1"}]"#) == true)
        // Deeper than the direct encoder recurses: the ModelValue path writes it.
        let root = Record()
        var tail = root
        for _ in 0..<600 {
            let next = Record()
            tail.child = next
            tail = next
        }
        Self.expectSameOutput(root)
    }

    @Test func metadataUpgradesSubclassesAndNewerVersionsBehaveAsBefore() throws {
        _ = registerFixtures
        let documents = [
            #"{"items":[{"type":"Photo","name":"p","width":3},{"name":"a"},{"type":"Video","seconds":1.5}],"cover":{"type":"Photo","width":1}}"#,
            #"{"items":[{"type":"Stranger","name":"s"}]}"#,
            #"{"items":[{"type":"Nobody"}]}"#,
            #"{"type":"Album","version":7,"items":[],"extra":1}"#,
            #"{"type":"Photo","items":[]}"#,
            #"{"version":"1","items":[]}"#,
            #"{"version":-1}"#,
        ]
        for text in documents {
            let data = Data(text.utf8)
            #expect(Self.direct(Album.self, data) == Self.viaModelValue(Album.self, data), "\(text)")
        }
        let album = try Album(json: Data(documents[0].utf8))
        #expect(album.items.map { "\(type(of: $0))" } == ["Photo", "Attachment", "Video"])
        #expect((album.cover as? Photo)?.width == 1)
        let newer = try Album(json: Data(documents[3].utf8))
        #expect(try newer.jsonString() == #"{"type":"Album","version":7,"cover":null,"items":[],"extra":1}"#)
        Self.expectSameOutput(album)
    }

    @Test func repeatedKeysFollowThePolicy() throws {
        let text = #"{"title":"a","extra":1,"title":"b","extra":2,"child":{"count":1,"count":2}}"#
        let data = Data(text.utf8)
        for options in [JSONReadingOptions(), JSONReadingOptions(duplicateKeys: .lastWins)] {
            #expect(Self.direct(Record.self, data, options: options) == Self.viaModelValue(Record.self, data, options: options))
        }
        let lastWins = try Record(json: data, options: JSONReadingOptions(duplicateKeys: .lastWins))
        #expect(lastWins.title == "b" && lastWins.child?.count == 2)
    }

    @Test func keysMatchByTheirExactText() throws {
        // "café" spelt with a combining accent is the same Swift string, but
        // another key to JSON (RFC 8259 compares keys by their code points).
        let data = Data("{\"cafe\u{301}\":\"x\",\"plain\":2,\"caf\\u00e9\":\"y\"}".utf8)
        #expect(Self.direct(Accented.self, data) == Self.viaModelValue(Accented.self, data))
        let both = try Accented(json: data)
        #expect(both.cafe == "y" && both.extensibleProperty(forKey: "cafe\u{301}") == "x")
        let single = Data("{\"cafe\u{301}\":\"x\",\"plain\":2,\"other\":1}".utf8)
        #expect(Self.direct(Accented.self, single) == Self.viaModelValue(Accented.self, single))
        #expect(try Accented(json: single).cafe == "")
    }

    @Test func aSavedKeyInAnotherSpellingIsABagKey() throws {
        // The bag keeps the other spelling beside the saved key, and both
        // paths agree on it.
        let object = Accented()
        try object.setExtensibleProperty("x", forKey: "cafe\u{301}")
        #expect(object.extensibleProperty(forKey: "cafe\u{301}") == "x" && object.cafe == "")
        let loaded = try Accented(json: Data("{\"cafe\u{301}\":\"x\",\"plain\":2}".utf8))
        #expect(loaded.extensibleProperty(forKey: "cafe\u{301}") == "x")
        #expect(try loaded.jsonString() == "{\"type\":\"Accented\",\"version\":1,\"café\":\"\",\"plain\":2,\"cafe\u{301}\":\"x\"}")
        Self.expectSameOutput(loaded)
    }

    // MARK: - Error messages

    @Test(arguments: [
        (#"{"children":[{},{"count":"three"}]}"#, #"children[1].count: expected Int, found a string ("three")"#),
        (#"{"child":{"child":{"title":5}}}"#, "child.child.title: expected String, found an integer (5)"),
        (#"{"child":{"children":[{"small":300}]}}"#, "child.children[0].small: expected Int8, found 300, which does not fit"),
        (#"{"children":[{"rank":1.5}]}"#, "children[0].rank: expected Int, found a floating-point number (1.5)"),
        (#"{"child":5}"#, "child: expected a Record object, found an integer (5)"),
        (#"{"children":[{},null]}"#, "children[1]: expected a Record object, found null"),
        (
            #"{"children":[{},{"count":1 "title":"x"}]}"#,
            #"JSON at line 1, column 28 (byte 27), in children[1]: expected ',' or '}' after object member, found '"'"#
        ),
        (
            "{\"child\": {\n  \"title\": \"a\",\n  \"note\": \"b\\q\"\n}}",
            #"JSON at line 3, column 13 (byte 40), in child.note: invalid escape sequence '\q' in string"#
        ),
        (
            #"{"children":[{"count":"wrong"}],"title":}"#,
            "JSON at line 1, column 41 (byte 40), in title: expected a value, found '}'"
        ),
        (#"{"title":"a"} x"#, "JSON at line 1, column 15 (byte 14): expected end of input after the top-level value, found 'x'"),
        (#"{"child":{"type":"Note"}}"#, #"child.type: expected "Record" or the type name of a registered subclass of Record, found "Note", which names no registered class (see ModelObject.register(_:))"#),
    ])
    func errorsNameTheKeyPathLineAndColumn(text: String, message: String) {
        let data = Data(text.utf8)
        #expect(Self.direct(Record.self, data) == .failed(message))
        #expect(Self.viaModelValue(Record.self, data) == .failed(message))
    }

    // MARK: - Nesting

    /// `depth` records, each the `child` of the one outside it.
    static func chain(_ depth: Int) -> Data {
        Data((String(repeating: #"{"child":"#, count: depth - 1) + "{}" + String(repeating: "}", count: depth - 1)).utf8)
    }

    /// Runs `body` on a thread with a stack of `stackSize` bytes and waits for it.
    static func onThread(stackSize: Int, _ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            body()
            done.signal()
        }
        thread.stackSize = stackSize
        thread.start()
        done.wait()
    }

    /// How many records hang from `record` through `child`.
    static func chainLength(_ record: Record?) -> Int {
        var record = record
        var length = 0
        while let current = record {
            length += 1
            record = current.child
        }
        return length
    }

    @Test func deepNestingGivesTheNestingErrorOnASmallStack() {
        let limit = JSONReadingOptions().maximumDepth
        Self.onThread(stackSize: 1 << 20) {
            do {
                _ = try Record(json: Self.chain(limit + 1))
                Issue.record("\(limit + 1) levels loaded")
            } catch let error as ModelError {
                #expect(error.code == .nestingTooDeep)
                #expect("\(error)".hasPrefix("JSON at line 1, column 4609 (byte 4608), in child.child."))
                #expect("\(error)".hasSuffix(": arrays and objects nested deeper than 512 levels, found '{'"))
            } catch {
                Issue.record("\(error)")
            }
            #expect(Self.chainLength(try? Record(json: Self.chain(60))) == 60)
        }
        // The deepest document allowed loads (past the direct decoder's own
        // depth through the ModelValue path, which recurses as before).
        Self.onThread(stackSize: 16 << 20) {
            #expect(Self.chainLength(try? Record(json: Self.chain(limit))) == limit)
            #expect(Self.isReadDirectly(Record.self, Self.chain(limit)))
            #expect(Self.direct(Record.self, Self.chain(limit)) == Self.viaModelValue(Record.self, Self.chain(limit)))
            let tooDeep = Self.chain(limit + 1)
            #expect(Self.direct(Record.self, tooDeep) == Self.viaModelValue(Record.self, tooDeep))
            let custom = JSONReadingOptions(maximumDepth: 20)
            #expect(Self.chainLength(try? Record(json: Self.chain(20), options: custom)) == 20)
            let tooDeepForCustom = Self.chain(21)
            #expect(
                Self.direct(Record.self, tooDeepForCustom, options: custom)
                    == Self.viaModelValue(Record.self, tooDeepForCustom, options: custom))
            #expect((try? Record(json: tooDeepForCustom, options: custom)) == nil)
        }
    }
}
/// Keys and a type name that need escapes, or escape their slashes only when asked.
private final class OddlyKeyed: ModelObject, @unchecked Sendable {
    @Saved("a/b") var slash = 1
    @Saved("q\"t\\") var quoted = "x"
    @Saved("é\u{1}") var control = true
    override class var typeName: String { "Odd/\"Type\"" }
}

extension JSONDirectPathTests {
    /// The direct encoder copies each key and the type name as the plan has
    /// written them out; they come out as the `ModelValue` path writes them,
    /// escapes included, slashes escaped only when the options say so.
    @Test func keysWrittenOutOnceComeOutAsTheWriterWritesThem() throws {
        let object = OddlyKeyed()
        let optionSets: [JSONWritingOptions] = [
            JSONWritingOptions(), .pretty, .sorted, JSONWritingOptions(escapesSlashes: true),
            JSONWritingOptions(prettyPrinted: true, escapesSlashes: true),
        ]
        for options in optionSets {
            let direct = try object.jsonString(options: options)
            #expect(direct == (try ModelValue.object(object.encodedRoot()).jsonString(options: options)), "\(options)")
        }
        #expect(
            try object.jsonString()
                == #"{"type":"Odd/\"Type\"","version":1,"a/b":1,"q\"t\\":"x","é\u0001":true}"#)
        #expect(
            try object.jsonString(options: JSONWritingOptions(escapesSlashes: true))
                == #"{"type":"Odd\/\"Type\"","version":1,"a\/b":1,"q\"t\\":"x","é\u0001":true}"#)
    }
}
/// Holds the dictionary tests' model whose version 2 renames a key.
private final class HoldsRenamed: ModelObject, @unchecked Sendable {
    @Saved var child: DictionaryDirectPathTests.Renamed? = nil
    @Saved var children: [DictionaryDirectPathTests.Renamed] = []
}

extension JSONDirectPathTests {
    /// A nested model's values go straight into the new object's cells; one
    /// that turns out to need the ModelValue path (older data, whose version
    /// comes after values it renames) is dropped for a fresh object, so no
    /// value put in place stays where the upgrade did not put it.
    @Test func aNestedModelLeftToTheModelValuePathKeepsNothingPutInPlace() throws {
        let old = #"{"title":"Old title","extra":3,"version":1}"#
        let current = #"{"title":"t","name":"n","extra":4,"version":2}"#
        let json = #"{"child":\#(old),"children":[\#(current),\#(old)]}"#
        let loaded = try HoldsRenamed(json: Data(json.utf8))
        let child = try #require(loaded.child)
        #expect([child.name, child.title] == ["Old title", "untitled"])
        #expect(child.extra == 3)
        #expect(loaded.children.map(\.name) == ["n", "Old title"])
        #expect(loaded.children.map(\.title) == ["t", "untitled"])
        #expect(loaded.children.map(\.extra) == [4, 3])
        #expect(!loaded.hasAnyChanges)
        #expect(Self.direct(HoldsRenamed.self, Data(json.utf8)) == Self.viaModelValue(HoldsRenamed.self, Data(json.utf8)))
    }
}
/// Common scalars before and after a model and a value of another type.
private final class Mixed: ModelObject, @unchecked Sendable {
    @Saved var a = 1
    @Saved var b: String? = nil
    @Saved var c = 2.5
    @Saved var child: Mixed? = nil
    @Saved var d = true
    @Saved var e: Double? = nil
    @Saved var f: [Int] = [1]
    @Saved var g = "after"
}

extension JSONDirectPathTests {
    /// The leading common scalars are written under the object's lock
    /// straight from their cells, the rest from boxes after it: the output is
    /// the ModelValue path's under every option set, and a number JSON cannot
    /// hold, met under the lock, is an error that leaves the lock released.
    @Test func scalarsWrittenUnderTheLockComeOutAsTheModelValuePathWritesThem() throws {
        let object = Mixed()
        object.b = "x/y"
        let child = Mixed()
        child.e = 1.5
        child.d = false
        object.child = child
        let optionSets: [JSONWritingOptions] = [
            JSONWritingOptions(), .pretty, .sorted, JSONWritingOptions(escapesSlashes: true),
        ]
        for options in optionSets {
            let direct = try object.jsonString(options: options)
            #expect(direct == (try ModelValue.object(object.encodedRoot()).jsonString(options: options)), "\(options)")
        }
        #expect(
            try object.jsonString()
                == #"{"type":"Mixed","version":1,"a":1,"b":"x/y","c":2.5,"child":{"type":"Mixed","version":1,"a":1,"#
                + #""b":null,"c":2.5,"child":null,"d":false,"e":1.5,"f":[1],"g":"after"},"d":true,"e":null,"f":[1],"g":"after"}"#)
        object.c = .infinity
        do {
            _ = try object.jsonData()
            Issue.record("expected an error")
        } catch {
            #expect("\(error)" == "c: JSON cannot represent the floating-point number inf")
        }
        // Another thread can take the lock.
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            object.a = 2
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(object.a == 2)
    }
}

/// Scalars, then a model in the last slot: the shape whose model the direct
/// writer takes from its cell as itself.
private final class Post: ModelObject, @unchecked Sendable {
    @Saved var id = 0
    @Saved var text = ""
    @Saved var reply: Int? = nil
    @Saved var author = Author()
}

private final class Author: ModelObject, @unchecked Sendable {
    @Saved var name = ""
    @Saved var verified = false
    @Saved var score = 0.5
    @Saved var post: Post? = nil
}

extension JSONDirectPathTests {
    @Test(arguments: [1 as UInt64, 2, 3])
    func aModelInTheLastSlotIsWrittenAsTheModelValuePathWritesIt(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let texts = ["", "plain", "a/b \"quoted\" \\ \n", "日本語のテキスト😀", String(repeating: "long ", count: 40)]
        for index in 0..<50 {
            let post = Post()
            post.id = Int.random(in: Int.min...Int.max, using: &generator)
            post.text = texts[index % texts.count]
            post.reply = index % 3 == 0 ? nil : index
            post.author.name = texts[(index + 2) % texts.count]
            post.author.verified = index % 2 == 0
            if index % 4 == 1 {
                // The author's own last slot holds another post; unknown keys in both bags.
                post.author.post = Post()
                try post.setExtensibleProperty(["x": 1], forKey: "extra")
                try post.author.setExtensibleProperty("kept", forKey: "note")
            }
            Self.expectSameOutput(post)
            let again = try Post(json: post.jsonData())
            #expect(try again.jsonData() == post.jsonData())
            #expect(again.author.name == post.author.name)
        }
        // A number JSON cannot hold below it names its path, as before.
        let post = Post()
        post.author.post = Post()
        post.author.post?.author.score = .infinity
        Self.expectSameOutput(post)
        #expect(throws: ModelError.self) { try post.jsonData() }
        do {
            _ = try post.jsonData()
        } catch {
            #expect("\(error)" == "author.post.author.score: JSON cannot represent the floating-point number inf")
        }
    }
}

/// A nested model whose default the parent's `init()` makes.
private final class WornBadge: ModelObject, @unchecked Sendable {
    @Saved var label = "none"
    @Saved var level = 1
    /// Not saved: tells a default badge the parent changed from a new one.
    var note = "new"
}

/// Its `badge` is a new `WornBadge()`, which decoding may fill in place.
private final class Wearer: ModelObject, @unchecked Sendable {
    @Saved var name = ""
    @Saved var badge = WornBadge()
}

/// Its `init()` changes its default badge after making it.
private final class CustomizingWearer: ModelObject, @unchecked Sendable {
    @Saved var badge = WornBadge()
    required init() {
        super.init()
        badge.label = "set by the parent"
    }
}

/// Every instance starts with the same shared badge.
private final class SharingWearer: ModelObject, @unchecked Sendable {
    static let sharedBadge = WornBadge()
    @Saved var badge = SharingWearer.sharedBadge
}

/// Its `init()` changes a property of its default badge that is not saved.
private final class ObservingWearer: ModelObject, @unchecked Sendable {
    @Saved var badge = WornBadge()
    required init() {
        super.init()
        _ = badge.label
        badge.note = "seen by the parent"
    }
}

/// Remembers the default badge its `init()` made, without reading the
/// property (a read would make the badge observed): a weak reference does
/// not make the badge shared.
private final class RememberingWearer: ModelObject, @unchecked Sendable {
    @Saved var badge = WornBadge()
    weak var madeBadge: WornBadge?
    required init() {
        super.init()
        let offset = layout.offsetsByKey["badge"]!
        madeBadge = withState { state in
            SlotCell.pointer(state.cells + offset * SlotCell.size, as: WornBadge.self).pointee
        }
    }
}

/// Each kind of wearer, nested (the root is loaded through a row of pending
/// values, never in place).
private final class Wearers: ModelObject, @unchecked Sendable {
    @Saved var plain: [Wearer] = []
    @Saved var customizing: [CustomizingWearer] = []
    @Saved var sharing: [SharingWearer] = []
    @Saved var observing: [ObservingWearer] = []
    @Saved var remembering: [RememberingWearer] = []
}

extension JSONDirectPathTests {
    /// A nested model is decoded into the default `init()` made when nothing
    /// could tell that from a new one (exact class, held only by the new
    /// parent, untouched); a default the parent changed, shares or watches
    /// is replaced by a new model, as before. Either way the values are
    /// those of the `ModelValue` path: keys the document lacks keep the
    /// child class's own defaults.
    @Test(arguments: [
        #"{"name":"a","badge":{"label":"gold","level":3}}"#, #"{"badge":{"level":2}}"#, #"{"badge":{}}"#,
        #"{"badge":{"label":"x","extra":[1,{"y":null}]}}"#, #"{"badge":{"label":"x","label":"y"}}"#,
        #"{"badge":{"type":"WornBadge","version":1,"label":"typed"}}"#, #"{"badge":{"level":"not a number"}}"#,
    ])
    func aDefaultNestedModelIsFilledOnlyWhenThatIsUnseen(wearer: String) throws {
        let json = ["plain", "customizing", "sharing", "observing", "remembering"]
            .map { #""\#($0)":[\#(wearer),\#(wearer)]"# }.joined(separator: ",")
        let data = Data("{\(json)}".utf8)
        #expect(Self.direct(Wearers.self, data) == Self.viaModelValue(Wearers.self, data))
        // The shared default is never written to.
        #expect(SharingWearer.sharedBadge.label == "none" && SharingWearer.sharedBadge.level == 1)
        #expect(!SharingWearer.sharedBadge.hasChanges)
    }

    @Test func aDefaultNestedModelIsReusedOnlyWhenUntouched() throws {
        let wearer = #"[{"badge":{"level":5}}]"#
        let json = ["plain", "customizing", "sharing", "observing", "remembering"]
            .map { #""\#($0)":\#(wearer)"# }.joined(separator: ",")
        let loaded = try Wearers(json: Data("{\(json)}".utf8))
        #expect(!loaded.hasAnyChanges)
        let plain = try #require(loaded.plain.first)
        #expect([plain.badge.label, "\(plain.badge.level)"] == ["none", "5"])

        // The untouched default is the one filled: no model made and freed per parent.
        let remembering = try #require(loaded.remembering.first)
        #expect(remembering.madeBadge === remembering.badge)
        #expect(remembering.badge.level == 5)

        // Changed by the parent's init: a new badge, with the class's default label.
        let customized = try #require(loaded.customizing.first)
        #expect(customized.badge.label == "none")
        #expect(customized.badge.level == 5)

        // Watched (read) by the parent's init: a new badge, whose unsaved note is a new one's.
        let observed = try #require(loaded.observing.first)
        #expect(observed.badge.note == "new")
        #expect(observed.badge.level == 5)

        // Shared: a new badge; the shared one keeps its values.
        let sharing = try #require(loaded.sharing.first)
        #expect(sharing.badge !== SharingWearer.sharedBadge)
        #expect(sharing.badge.level == 5)
        #expect(SharingWearer.sharedBadge.level == 1)
    }
}

/// Keys whose compact openings (`,"key":`) fill up to the 32 bytes the plan
/// gives each one, written text included (`é` is two bytes, `"` and `\`
/// two each), first and last; without metadata keys, so that the first
/// member's opening is copied without its comma.
private final class SlotKeyed: ModelObject, @unchecked Sendable {
    override class var typeKey: String? { nil }
    override class var versionKey: String? { nil }
    @Saved("ab") var two = 0
    @Saved("k") var short: String? = "s"
    @Saved("twelve bytes") var twelve = true
    @Saved("fourteen bytes") var fourteen = 1.5
    @Saved("a key of twenty-seven bytes") var twentySeven: Int? = nil
    @Saved("a key of twenty-eight bytes!") var twentyEight = "last"
    @Saved("q\"é\\") var escaped = -7
}

/// One key too long for a slot: the plan lays the openings out end to end.
private final class LongKeyed: ModelObject, @unchecked Sendable {
    override class var typeKey: String? { nil }
    override class var versionKey: String? { nil }
    @Saved("k") var short = 1
    @Saved("a key of twenty-nine bytes!!!") var twentyNine = "x"
    @Saved("z") var last = false
}

extension JSONDirectPathTests {
    /// Each member's opening is copied as a whole slot of the plan where
    /// every opening fits one, and end to end where one does not; either
    /// way the output is the `ModelValue` path's, byte for byte.
    @Test func openingsOfEveryLengthComeOutAsTheWriterWritesThem() throws {
        let slotted = SlotKeyed()
        let long = LongKeyed()
        #expect(
            try slotted.jsonString()
                == #"{"ab":0,"k":"s","twelve bytes":true,"fourteen bytes":1.5,"a key of twenty-seven bytes":null,"#
                + #""a key of twenty-eight bytes!":"last","q\"é\\":-7}"#)
        #expect(try long.jsonString() == #"{"k":1,"a key of twenty-nine bytes!!!":"x","z":false}"#)
        slotted.short = nil
        slotted.twentySeven = 27
        for options in [JSONWritingOptions(), .pretty, .sorted, JSONWritingOptions(escapesSlashes: true)] {
            for object in [slotted, long] as [ModelObject] {
                let direct = try object.jsonString(options: options)
                #expect(direct == (try ModelValue.object(object.encodedRoot()).jsonString(options: options)), "\(options)")
            }
        }
        // Many in one buffer: each slot's spare bytes are written over.
        let many = try [SlotKeyed](repeating: slotted, count: 3).map { try $0.jsonString() }
        #expect(Set(many).count == 1)
        #expect(try SlotKeyed(json: slotted.jsonData()).twentySeven == 27)
    }
}

/// Keys of lengths around the plan's filter of key lengths (one bit per
/// length, the last for 63 bytes and longer).
private final class LengthKeyed: ModelObject, @unchecked Sendable {
    override class var typeKey: String? { nil }
    override class var versionKey: String? { nil }
    @Saved("k") var one = 0
    @Saved(String(repeating: "b", count: 62)) var sixtyTwo = 0
    @Saved(String(repeating: "c", count: 63)) var sixtyThree = 0
    @Saved(String(repeating: "d", count: 70)) var seventy = 0
}

extension JSONDirectPathTests {
    /// Members whose keys are as long as a declared key or not, short and
    /// past 63 bytes, in random orders: the declared ones are read, the
    /// others kept in the bag, exactly as the `ModelValue` path does.
    @Test(arguments: [UInt64(21), 22, 23, 24])
    func keysOfEveryLengthAroundTheDeclaredOnesAreTold(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let declared = ["k", String(repeating: "b", count: 62), String(repeating: "c", count: 63), String(repeating: "d", count: 70)]
        let others = [
            "", "j", "kk", String(repeating: "b", count: 61), String(repeating: "b", count: 63),
            String(repeating: "e", count: 63), String(repeating: "c", count: 64), String(repeating: "d", count: 69),
            String(repeating: "d", count: 71), String(repeating: "c", count: 62) + "b",
        ]
        var members = Array(declared.enumerated()).map { "\"\($1)\": \($0 + 1)" }
        members += Array(others.enumerated()).map { "\"\($1)\": \($0 + 10)" }
        members.shuffle(using: &generator)
        let data = Data(("{" + members.joined(separator: ", ") + "}").utf8)
        #expect(Self.direct(LengthKeyed.self, data) == Self.viaModelValue(LengthKeyed.self, data))
        let object = try LengthKeyed(json: data)
        let values: [Int] = [object.one, object.sixtyTwo, object.sixtyThree, object.seventy]
        #expect(values == [1, 2, 3, 4])
        #expect(Set(object.extensibleProperties.keys) == Set(others))
    }
}
