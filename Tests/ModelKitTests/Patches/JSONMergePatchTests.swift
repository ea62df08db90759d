import Foundation
import Testing

@testable import ModelKit

@Suite struct JSONMergePatchTests {
    /// RFC 7396, appendix A: original, patch, result.
    static let appendixA: [(String, String, String)] = [
        (#"{"a":"b"}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
        (#"{"a":"b"}"#, #"{"b":"c"}"#, #"{"a":"b","b":"c"}"#),
        (#"{"a":"b"}"#, #"{"a":null}"#, #"{}"#),
        (#"{"a":"b","b":"c"}"#, #"{"a":null}"#, #"{"b":"c"}"#),
        (#"{"a":["b"]}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
        (#"{"a":"c"}"#, #"{"a":["b"]}"#, #"{"a":["b"]}"#),
        (#"{"a":{"b":"c"}}"#, #"{"a":{"b":"d","c":null}}"#, #"{"a":{"b":"d"}}"#),
        (#"{"a":[{"b":"c"}]}"#, #"{"a":[1]}"#, #"{"a":[1]}"#),
        (#"["a","b"]"#, #"["c","d"]"#, #"["c","d"]"#),
        (#"{"a":"b"}"#, #"["c"]"#, #"["c"]"#),
        (#"{"a":"foo"}"#, #"null"#, #"null"#),
        (#"{"a":"foo"}"#, #""bar""#, #""bar""#),
        (#"{"e":null}"#, #"{"a":1}"#, #"{"e":null,"a":1}"#),
        (#"[1,2]"#, #"{"a":"b","c":null}"#, #"{"a":"b"}"#),
        (#"{}"#, #"{"a":{"bb":{"ccc":null}}}"#, #"{"a":{"bb":{}}}"#),
    ]

    @Test(arguments: appendixA)
    func theExamplesOfRFC7396AppendixA(_ original: String, _ patch: String, _ result: String) throws {
        let applied = try JSONMergePatch(json: patch).applied(to: readJSON(original))
        #expect(applied == (try readJSON(result)))
        #expect(try applied.jsonString() == result)
    }

    @Test func aDifferenceHoldsOnlyWhatChanged() throws {
        let before: ModelValue = ["title": "Milk", "shop": ["name": "Corner", "open": true], "tags": ["a", "b"], "gone": 1]
        let after: ModelValue = ["title": "Milk", "shop": ["name": "Corner", "open": false], "tags": ["a", "b", "c"], "new": [1]]
        let patch = JSONMergePatch.difference(from: before, to: after)
        #expect(try patch.jsonString() == #"{"gone":null,"shop":{"open":false},"tags":["a","b","c"],"new":[1]}"#)
        #expect(try patch.applied(to: before) == after)
        #expect(try JSONMergePatch(json: patch.jsonData()) == patch)
        // Equal objects give an empty patch; equal values that are not objects give themselves.
        #expect(JSONMergePatch.difference(from: before, to: before).value == [:])
        #expect(try JSONMergePatch.difference(from: [1, 2], to: [1, 2]).applied(to: [1, 2]) == [1, 2])
        #expect(try JSONMergePatch.difference(from: "x", to: ["a": 1]).applied(to: "x") == ["a": 1])
    }

    @Test func aNullMemberCannotBeSetOnlyRemoved() throws {
        // The limit of RFC 7396: null in a patch removes.
        let patch = JSONMergePatch.difference(from: ["a": 1], to: ["a": nil])
        #expect(try patch.applied(to: ["a": 1]) == [:])
    }
}
