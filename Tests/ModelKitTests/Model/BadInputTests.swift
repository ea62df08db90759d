import Foundation
import Testing
@testable import ModelKit

private final class Limits: ModelObject, @unchecked Sendable {
    @Saved var small: Int8 = 0
    @Saved var unsigned: UInt = 0
    @Saved var whole = 0
    @Saved var ratio: Float = 0
    @Saved var when = Date(timeIntervalSince1970: 0)
    @Saved var id = UUID()
    @Saved var link = URL(string: "https://example.com")!
    @Saved var bytes = Data()
    @Saved var priority = Priority.low
    @Saved var money = Decimal(0)
    @Saved var flag = false
    @Saved var names: [String] = []
    @Saved var table: [String: [Int]] = [:]
}

@Suite struct BadInputTests {
    static let cases: [(ModelValue, String)] = [
        (["whole": "three"], #"whole: expected Int, found a string ("three")"#),
        (["whole": 1.5], "whole: expected Int, found a floating-point number (1.5)"),
        (["whole": .bigInteger("99999999999999999999")], "whole: expected Int, found 99999999999999999999, which does not fit"),
        (["small": 300], "small: expected Int8, found 300, which does not fit"),
        (["unsigned": -1], "unsigned: expected UInt, found -1, which does not fit"),
        (["ratio": 1e300], "ratio: expected Float, found 1e+300, which does not fit"),
        (["when": "yesterday"], #"when: expected an ISO 8601 date such as "2025-11-16T15:33:20Z", found a string ("yesterday")"#),
        (["when": 5], "when: expected Date (an ISO 8601 string; a number needs a date strategy: deferredToDate for seconds since 2001, JSONEncoder's default, or secondsSince1970 or millisecondsSince1970), found an integer (5)"),
        (["id": "not-a-uuid"], #"id: expected a UUID, found a string ("not-a-uuid")"#),
        (["link": ""], #"link: expected a URL, found a string ("")"#),
        (["bytes": "***"], #"bytes: expected base64-encoded Data, found a string ("***")"#),
        (["priority": "urgent"], #"priority: expected a Priority (one of "low", "normal", "high"), found a string ("urgent")"#),
        (["money": "12abc"], #"money: expected a decimal number, found a string ("12abc")"#),
        (["flag": 1], "flag: expected Bool, found an integer (1)"),
        (["flag": nil], "flag: expected Bool, found null"),
        (["names": ["a", 2]], "names[1]: expected String, found an integer (2)"),
        (["names": "a"], #"names: expected an array of String, found a string ("a")"#),
        (["table": ["x": [1, "2"]]], #"table.x[1]: expected Int, found a string ("2")"#),
        (["table": ["a.b": [true]]], #"table["a.b"][0]: expected Int, found a boolean (true)"#),
    ]

    @Test(arguments: cases)
    func typeAndValueErrorsNameTheKeyPath(input: ModelValue, message: String) {
        let error = #expect(throws: ModelError.self) { try Limits(modelValue: input) }
        #expect(error?.description == message)
    }

    @Test func nestedErrorsNameTheWholePath() {
        let input: ModelValue = ["children": [["count": 1], ["child": ["count": "three"]]]]
        let error = #expect(throws: ModelError.self) { try Note(modelValue: input) }
        #expect(error?.description == #"children[1].child.count: expected Int, found a string ("three")"#)
        #expect(error?.keyPath == "children[1].child.count")
        #expect(error?.code == .typeMismatch)
    }

    @Test func notAnObjectIsAnError() {
        let error = #expect(throws: ModelError.self) { try Note(modelValue: [1, 2]) }
        #expect(
            error?.description
                == "expected a Note object, found an array of 2 elements; read an array of models with [Note](json:)")
    }

    @Test func aFailedUpdateChangesNothing() throws {
        let note = try Note(dictionary: ["title": "kept", "count": 1, "bagged": "old", "children": [["title": "c"]]])
        let before = note.modelValue
        let error = #expect(throws: ModelError.self) {
            try note.update(from: ["title": "new", "bagged": "new", "count": 2, "children": [["count": "x"]]])
        }
        #expect(error?.keyPath == "children[0].count")
        #expect(note.modelValue == before)
        #expect(!note.hasAnyChanges)
    }

    @Test func dictionariesWithUnsupportedValuesAreErrors() {
        struct Opaque {}
        let error = #expect(throws: ModelError.self) { try Note(dictionary: ["title": Opaque()]) }
        #expect(
            error?.description
                == "title: expected a property-list value (string, number, boolean, date, data, array or dictionary), found a value of type Opaque"
        )
        let keys = #expect(throws: ModelError.self) { try Note(dictionary: ["tags": [1: "a"] as [Int: String]]) }
        #expect(keys?.description == "tags: expected a dictionary with string keys, found one with keys of other types")
    }

    @Test func hostileNestingInDictionariesIsRejected() {
        var value: Any = "leaf"
        for _ in 0..<2000 { value = [value] }
        let error = #expect(throws: ModelError.self) { try Note(dictionary: ["deep": value]) }
        #expect(error?.code == .nestingTooDeep)
        #expect(error?.message == "nesting is deeper than the limit of 512 levels")
    }

    @Test func cyclesAreSavedWithReferences() throws {
        let a = Note()
        let b = Note()
        a.child = b
        b.child = a
        defer { b.child = nil }
        let back = try Note(propertyList: a.propertyListData())
        defer { back.child?.child = nil }
        #expect(back.child?.child === back)
    }

    @Test func modelsDoNotTrustTheTypeNameOfData() {
        _ = registerFixtures
        let error = #expect(throws: ModelError.self) { try Photo(modelValue: ["type": "Video"]) }
        #expect(error?.code == .typeNotAllowed)
        let missing = #expect(throws: ModelError.self) { try Note(modelValue: ["type": "Evil"]) }
        #expect(missing?.code == .unknownType)
        #expect(missing?.keyPath == "type")
    }
}
