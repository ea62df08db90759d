import Foundation
import Testing

@testable import ModelKit

@Suite struct JSONPatchTests {
    static let document: ModelValue = [
        "title": "Milk", "tags": ["a", "b", "c"], "shop": ["name": "Corner", "open": true], "a/b": 1, "m~n": 2,
    ]

    /// Patches that fail on `document`, with the exact sentence and code.
    static let failures: [(String, String, ModelError.Code)] = [
        (
            #"[{"op":"test","path":"/title","value":"Milk"},{"op":"add","path":"/x","value":1},{"op":"replace","path":"/tags/7","value":"x"}]"#,
            "operation 2 (replace /tags/7): no element at index 7; the array has 3 elements", .unknownKey
        ),
        (
            #"[{"op":"remove","path":"/missing"}]"#,
            #"operation 0 (remove /missing): the document has no member "missing""#, .unknownKey
        ),
        (
            #"[{"op":"add","path":"/shop/address/street","value":"x"}]"#,
            #"operation 0 (add /shop/address/street): the value at /shop has no member "address""#, .unknownKey
        ),
        (
            #"[{"op":"add","path":"/tags/4","value":"x"}]"#,
            "operation 0 (add /tags/4): cannot insert at index 4; the array has 3 elements", .unknownKey
        ),
        (
            #"[{"op":"remove","path":"/tags/99999999999999999999"}]"#,
            "operation 0 (remove /tags/99999999999999999999): no element at index 99999999999999999999; the array has 3 elements",
            .unknownKey
        ),
        (
            #"[{"op":"add","path":"/tags/99999999999999999999","value":1}]"#,
            "operation 0 (add /tags/99999999999999999999): cannot insert at index 99999999999999999999; the array has 3 elements",
            .unknownKey
        ),
        (
            #"[{"op":"remove","path":"/tags/01"}]"#,
            #"operation 0 (remove /tags/01): "01" is not an array index (0, or digits with no leading zero, or "-" for the end)"#,
            .unknownKey
        ),
        (
            #"[{"op":"replace","path":"/tags/-","value":1}]"#,
            #"operation 0 (replace /tags/-): "-" names the position after the last element, where there is no element"#,
            .unknownKey
        ),
        (
            #"[{"op":"add","path":"/title/x","value":1}]"#,
            #"operation 0 (add /title/x): the value at /title is a string ("Milk"), which has no member or element "x""#,
            .typeMismatch
        ),
        (
            #"[{"op":"test","path":"/shop/open","value":false}]"#,
            "operation 0 (test /shop/open): found true, expected false", .testFailed
        ),
        (
            #"[{"op":"copy","from":"/nowhere","path":"/x"}]"#,
            #"operation 0 (copy /nowhere to /x): the document has no member "nowhere""#, .unknownKey
        ),
        (
            #"[{"op":"remove","path":""}]"#,
            #"operation 0 (remove ""): cannot remove the whole document"#, .invalidValue
        ),
        // Malformed documents, refused when read.
        (#"{"op":"add"}"#, "expected a JSON Patch (an array of operations), found an object with 1 key", .malformedDocument),
        (#"[{"op":"add","path":"/a","value":1},3]"#, "operation 1: expected an object, found an integer (3)", .malformedDocument),
        (#"[{"path":"/a"}]"#, #"operation 0: missing "op""#, .malformedDocument),
        (#"[{"op":7,"path":"/a"}]"#, #"operation 0: "op" must be a string, found an integer (7)"#, .malformedDocument),
        (
            #"[{"op":"spam","path":"/a"}]"#,
            #"operation 0: unknown op "spam"; expected add, remove, replace, move, copy or test"#, .malformedDocument
        ),
        (#"[{"op":"add","value":1}]"#, #"operation 0 (add): missing "path""#, .malformedDocument),
        (
            #"[{"op":"add","path":null,"value":1}]"#,
            #"operation 0 (add): "path" must be a string (a JSON Pointer), found null"#, .malformedDocument
        ),
        (
            #"[{"op":"add","path":"a","value":1}]"#,
            #"operation 0 (add): "path" ("a") is not a JSON Pointer: it must be empty or start with "/""#,
            .malformedDocument
        ),
        (
            #"[{"op":"remove","path":"/a~2"}]"#,
            #"operation 0 (remove): "path" ("/a~2") is not a JSON Pointer: "~" must be followed by 0 or 1 ("~0" stands for "~", "~1" for "/")"#,
            .malformedDocument
        ),
        (#"[{"op":"replace","path":"/a"}]"#, #"operation 0 (replace /a): missing "value""#, .malformedDocument),
        (#"[{"op":"copy","path":"/a"}]"#, #"operation 0 (copy /a): missing "from""#, .malformedDocument),
        (
            #"[{"op":"move","from":"/shop","path":"/shop/inner"}]"#,
            "operation 0 (move /shop to /shop/inner): cannot move a value into one of its own children",
            .malformedDocument
        ),
    ]

    @Test(arguments: failures)
    func failuresNameTheOperationItsPathAndTheReason(_ patch: String, _ message: String, _ code: ModelError.Code) {
        do {
            let result = try JSONPatch(json: patch).applied(to: Self.document)
            Issue.record("expected \(message), got \(result)")
        } catch let error as ModelError {
            #expect(error.description == message)
            #expect(error.code == code)
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func aMoveIntoItsOwnChildBuiltInCodeFailsWhenApplied() throws {
        let patch = JSONPatch([.move(from: try JSONPointer("/shop"), path: try JSONPointer("/shop/x"))])
        #expect(throws: ModelError.self) { try patch.applied(to: Self.document) }
        // Moving a value onto itself is allowed and changes nothing.
        let still = JSONPatch([.move(from: try JSONPointer("/shop"), path: try JSONPointer("/shop"))])
        #expect(try still.applied(to: Self.document) == Self.document)
    }

    @Test func pointersEscapeTildeAndSlash() throws {
        let pointer = try JSONPointer("/a~1b/m~0n/~01")
        #expect(pointer.tokens == ["a/b", "m~n", "~1"])
        #expect(pointer.description == "/a~1b/m~0n/~01")
        #expect(try JSONPointer("").isRoot)
        #expect(try JSONPointer("/").tokens == [""])
        #expect(try JSONPatch(json: #"[{"op":"test","path":"/a~1b","value":1},{"op":"remove","path":"/m~0n"}]"#)
            .applied(to: Self.document)["m~n"] == nil)
        #expect(throws: ModelError.self) { try JSONPointer("a") }
        #expect(throws: ModelError.self) { try JSONPointer("/~") }
    }

    @Test func operationsAppendAtTheEndWithDash() throws {
        let patch = try JSONPatch(json: #"[{"op":"add","path":"/tags/-","value":"d"},{"op":"copy","from":"/tags/0","path":"/tags/-"}]"#)
        #expect(try patch.applied(to: Self.document)["tags"] == ["a", "b", "c", "d", "a"])
    }

    @Test func aFailingPatchReturnsNothingAndTheInputStaysAsItWas() throws {
        let original = Self.document
        var input = Self.document
        let patch = try JSONPatch(json: #"[{"op":"remove","path":"/title"},{"op":"test","path":"/tags/0","value":"z"}]"#)
        #expect(throws: ModelError.self) { input = try patch.applied(to: input) }
        #expect(input == original)
    }

    @Test func patchesRoundTripThroughJSON() throws {
        let text = #"[{"op":"add","path":"/a","value":{"b":[1,null]}},{"op":"remove","path":"/a/b/1"},{"op":"replace","path":"","value":2},{"op":"move","from":"/x","path":"/y"},{"op":"copy","from":"/y","path":"/z"},{"op":"test","path":"/z","value":null}]"#
        let patch = try JSONPatch(json: text)
        #expect(patch.operations.count == 6)
        #expect(try patch.jsonString() == text)
        #expect(try JSONPatch(json: patch.jsonData()) == patch)
        // Members RFC 6902 does not define are ignored.
        #expect(try JSONPatch(json: #"[{"op":"remove","path":"/a","value":1,"note":"x"}]"#).operations == [.remove(path: try JSONPointer("/a"))])
    }

    @Test func numbersCompareByValueInTestAndDifference() throws {
        let document: ModelValue = ["n": 1, "d": 2.5, "big": .bigInteger("18446744073709551616")]
        let test = try JSONPatch(json: #"[{"op":"test","path":"/n","value":1.0},{"op":"test","path":"/d","value":25e-1},{"op":"test","path":"/big","value":18446744073709551616.0}]"#)
        #expect(try test.applied(to: document) == document)
        #expect(JSONPatch.difference(from: ["n": 1], to: ["n": 1.0]).isEmpty)
        #expect(!JSONPatch.difference(from: ["n": 1], to: ["n": 1.5]).isEmpty)
        #expect(!ModelValue.int(1).isJSONEqual(to: "1"))
        #expect(!ModelValue.bigInteger("18446744073709551617").isJSONEqual(to: .double(18446744073709551616.0)))
        // A date or data equals the string JSON writes for it.
        let date = Date(timeIntervalSince1970: 1_763_307_200.5)
        #expect(ModelValue.date(date).isJSONEqual(to: "2025-11-16T15:33:20.5Z"))
        #expect(ModelValue.data(Data([1, 2])).isJSONEqual(to: "AQI="))
    }

    @Test func aOneMemberChangeInALargeObjectIsOneOperation() throws {
        var members = ModelValue.Object()
        for index in 0..<2000 { members["key\(index)"] = ["nested": ["value": .int(index), "list": [1, 2, 3]]] }
        var changed = members
        changed["key1234"] = ["nested": ["value": -1, "list": [1, 2, 3]]]
        let patch = JSONPatch.difference(from: .object(members), to: .object(changed))
        #expect(patch.operations == [.replace(path: try JSONPointer("/key1234/nested/value"), value: -1)])
    }

    @Test func arrayDifferencesKeepUnchangedElements() throws {
        let before: ModelValue = ["list": [1, 2, 3, 4, 5, 6, 7, 8]]
        let after: ModelValue = ["list": [0, 1, 2, 4, 5, 9, 6, 7, 8]]
        let patch = JSONPatch.difference(from: before, to: after)
        #expect(try patch.jsonString() == #"[{"op":"add","path":"/list/0","value":0},{"op":"remove","path":"/list/3"},{"op":"add","path":"/list/5","value":9}]"#)
        #expect(try patch.applied(to: before) == after)
        // An element that changed inside is patched inside, not replaced.
        let people: ModelValue = [["name": "Ada", "age": 36], ["name": "Bob", "age": 40]]
        let older: ModelValue = [["name": "Ada", "age": 37], ["name": "Bob", "age": 40]]
        #expect(JSONPatch.difference(from: people, to: older).operations == [.replace(path: try JSONPointer("/0/age"), value: 37)])
    }

    @Test func hugeArraysAreComparedInLinearTime() throws {
        let before = ModelValue.array((0..<200_000).map { .int($0) })
        let after = ModelValue.array((0..<200_000).map { .int($0 % 2 == 0 ? $0 : -$0) })
        let clock = ContinuousClock()
        let start = clock.now
        let patch = JSONPatch.difference(from: before, to: after)
        #expect(clock.now - start < .seconds(20))
        #expect(try patch.applied(to: before) == after)
    }

    @Test func aDifferentKindIsReplacedWhole() throws {
        #expect(JSONPatch.difference(from: ["a": 1], to: [1]).operations == [.replace(path: .root, value: [1])])
        #expect(JSONPatch.difference(from: ["a": ["b": 1]], to: ["a": "b"]).operations == [.replace(path: try JSONPointer("/a"), value: "b")])
        #expect(JSONPatch.difference(from: ["x": 1], to: ["x": 1]).isEmpty)
    }
}
