import Foundation
import Synchronization
import Testing

@testable import ModelKit

/// A book with the initialiser a new user writes first: a convenience
/// initialiser, which needs none of ModelObject's required ones restated.
final class Novel: ModelObject, @unchecked Sendable {
    @Saved var title = ""
    @Saved var pages = 0

    convenience init(title: String, pages: Int = 0) {
        self.init()
        self.title = title
        self.pages = pages
    }
}

extension ModelDefaults.Keys {
    static let loudness = Key<Int>("loudness", default: 13)
}

/// What a new user reaches for first: initialisers, options that combine,
/// arrays of models, one observer shape, and typed settings.
@Suite struct FirstStepsTests {
    @Test func aConvenienceInitialiserIsAllASubclassNeeds() throws {
        let book = Novel(title: "Emma", pages: 474)
        #expect(book.hasChanges == false || book.changedKeys == ["title", "pages"])
        let back = try Novel(json: book.jsonData())
        #expect(back.title == "Emma" && back.pages == 474)
    }

    static let combinations: [(JSONWritingOptions, String)] = [
        ([.pretty, .sorted], "{\n  \"a\": 2,\n  \"b\": [\n    1\n  ]\n}"),
        ([.sorted], #"{"a":2,"b":[1]}"#),
        ([], #"{"b":[1],"a":2}"#),
        ([.pretty, JSONWritingOptions(indent: 4)], "{\n    \"b\": [\n        1\n    ],\n    \"a\": 2\n}"),
        (JSONWritingOptions.pretty.union(.sorted), "{\n  \"a\": 2,\n  \"b\": [\n    1\n  ]\n}"),
        ([.escapingSlashes, .sorted], #"{"a":2,"b":[1]}"#),
    ]

    @Test(arguments: combinations)
    func writingOptionsCombineAsOutputFormattingDoes(options: JSONWritingOptions, expected: String) throws {
        let value: ModelValue = ["b": [1], "a": 2]
        #expect(try value.jsonString(options: options) == expected)
    }

    @Test func modelsAndValuesReadJSONText() throws {
        let note = try Note(json: #"{"title":"Milk","count":2}"#)
        #expect(note.title == "Milk" && note.count == 2)
        #expect(try ModelValue(json: "[1,true]") == [1, true])
        let error = #expect(throws: ModelError.self) { try Note(json: "{\"title\":") }
        #expect(error?.description == "JSON at line 1, column 10 (byte 9), in title: expected a value, found end of input")
    }

    @Test(arguments: ["json", "xml", "binary", "file.json", "file.plist", "file.bplist"])
    func arraysOfModelsRoundTripInEveryForm(form: String) throws {
        let books = [Novel(title: "Emma", pages: 474), Novel(title: "Persuasion", pages: 249)]
        let back: [Novel]
        switch form {
        case "json":
            let text = try books.jsonString()
            #expect(text == #"[{"type":"Novel","version":1,"title":"Emma","pages":474},{"type":"Novel","version":1,"title":"Persuasion","pages":249}]"#)
            back = try [Novel](json: text)
        case "xml": back = try [Novel](propertyList: books.propertyListData(format: .xml))
        case "binary": back = try [Novel](propertyList: books.propertyListData(format: .binary))
        default:
            back = try withTemporaryFolder { folder in
                let url = folder.appendingPathComponent(form)
                try books.write(to: url)
                return try [Novel](contentsOf: url)
            }
        }
        #expect(back.count == 2)
        #expect(zip(back, books).allSatisfy { $0.isEquivalent(to: $1) })
    }

    @Test(arguments: [
        (#"[{"title":"A"},{"title":"B"},{"title":"C"},{"title":5}]"#, "[3].title: expected String, found an integer (5)"),
        (#"{"title":"A"}"#, "expected an array of Novel objects, found an object with 1 key"),
        (#"[{"title":"A"}, 7]"#, "[1]: expected a Novel object, found an integer (7)"),
        (#"[{"title":"A"},"#, "JSON at line 1, column 16 (byte 15), in [1]: expected a value, found end of input"),
    ])
    func badArraysOfModelsNameTheElement(json: String, message: String) {
        let error = #expect(throws: ModelError.self) { try [Novel](json: json) }
        #expect(error?.description == message)
    }

    @Test func aModelReadFromAnArraySaysHowToReadArrays() {
        let error = #expect(throws: ModelError.self) { try Novel(json: #"[{"title":"A"},{"title":"B"}]"#) }
        #expect(
            error?.description
                == "expected a Novel object, found an array of 2 elements; read an array of models with [Novel](json:)")
    }

    @Test func oneRuleDecidesWhichDefaultATypedKeyReadsAs() throws {
        try withTemporaryFolder { folder in
            let store = try ModelDefaults(
                url: folder.appendingPathComponent("d.plist"), autosaveDelay: nil, watchInterval: nil)
            #expect(store[.loudness] == 13)  // nothing stored or registered: the key's default
            store.register(defaults: ["loudness": 11])
            #expect(store[.loudness] == 11)  // the registered default
            store.set("loud", forKey: "loudness")
            #expect(store[.loudness] == 11)  // a stored string is no Int: the same rule
            let error = #expect(throws: ModelError.self) { try store.value(for: .loudness) }
            #expect(error?.description == #"d.plist, in loudness: expected Int, found a string ("loud")"#)
            store[.loudness] = 5
            #expect(store[.loudness] == 5)
            #expect(try store.value(for: .loudness) == 5)
            store.removeValue(forKey: "loudness")
            #expect(store[.loudness] == 11)
            #expect(try store.value(for: .loudness) == 11)
        }
    }

    @Test func storesAndModelsAreObservedInOneShape() throws {
        try withTemporaryFolder { folder in
            let store = try ModelDefaults(
                url: folder.appendingPathComponent("d.plist"), autosaveDelay: nil, watchInterval: nil)
            let heard = Mutex<[String]>([])
            let byKey = store.observe("volume") { change in heard.withLock { $0.append("\(change)") } }
            let typed = store.observe(.loudness) { change in
                heard.withLock { $0.append("typed \(change.newValue as? Int ?? -1)") }
            }
            let old = store.observe("volume") { old, new in heard.withLock { $0.append("old \(old == nil) \(new == 0.5)") } }
            store.set(0.5, forKey: "volume")
            store.set(7, forKey: "loudness")
            withExtendedLifetime((byKey, typed, old)) {}
            #expect(heard.withLock { $0 } == ["volume: nil → 0.5", "old true true", "typed 7"])
            let note = Note()
            var seen: [String] = []
            let token = note.observe("title") { change in seen.append("\(change)") }
            note.title = "Milk"
            withExtendedLifetime(token) {}
            #expect(seen == [#"title: "Untitled" → "Milk""#])
        }
    }
}
