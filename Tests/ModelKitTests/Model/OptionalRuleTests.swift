import Foundation
import Testing

@testable import ModelKit

private let start = Date(timeIntervalSince1970: 0)
private let end = Date(timeIntervalSince1970: 86_400)

/// Rules on optional properties: each checks a value, and `nil` passes
/// (but for a `check` whose closure takes the optional itself).
private final class Review: ModelObject, @unchecked Sendable {
    @Saved(rules: .range(0...5)) var stars: Int? = nil
    @Saved(rules: .nonEmpty, .maxLength(8)) var nickname: String? = nil
    @Saved(rules: .pattern("[A-Z]{2}-[0-9]{3}")) var plate: String? = nil
    @Saved(rules: .check("must be even") { $0 % 2 == 0 }) var pairs: Int? = nil
    @Saved(rules: .check("must be given") { $0 != nil }) var author: String? = "Ada"
    @Saved(rules: .check("must be A or B") { $0 == "A" || $0 == "B" }) var grade: String? = nil
    @Saved(rules: .range(start...end)) var due: Date? = nil
    @Saved(rules: .maxLength(2)) var tags: [String]? = nil
    @Saved(rules: .range(0.5...1.5)) var ratio: Double? = nil
}

@Suite struct OptionalRuleTests {
    /// A key, a value for it, and the message its rule gives (`nil`: valid).
    static let cases: [(String, any Sendable, String?)] = [
        ("stars", 3, nil),
        ("stars", 7, ValidationRule<Int>.range(0...5).failure(7)),
        ("stars", -1, ValidationRule<Int>.range(0...5).failure(-1)),
        ("nickname", "Ada", nil),
        ("nickname", "", ValidationRule<String>.nonEmpty.failure("")),
        ("nickname", "Bartholomew", ValidationRule<String>.maxLength(8).failure("Bartholomew")),
        ("plate", "AB-123", nil),
        ("plate", "ab-12", ValidationRule<String>.pattern("[A-Z]{2}-[0-9]{3}").failure("ab-12")),
        ("pairs", 4, nil),
        ("pairs", 3, "must be even"),
        ("author", "Grace", nil),
        ("grade", "B", nil),
        ("grade", "C", "must be A or B"),
        ("due", Date(timeIntervalSince1970: 10), nil),
        ("due", Date(timeIntervalSince1970: 100_000),
         ValidationRule<Date>.range(start...end).failure(Date(timeIntervalSince1970: 100_000))),
        ("tags", ["a", "b"], nil),
        ("tags", ["a", "b", "c"], ValidationRule<[String]>.maxLength(2).failure(["a", "b", "c"])),
        ("ratio", 1.0, nil),
        ("ratio", 2.0, ValidationRule<Double>.range(0.5...1.5).failure(2.0)),
    ]

    @Test func theMessagesAreTheOnesOfTheRulesOnTheWrappedTypes() {
        #expect(Self.cases.compactMap(\.2) == [
            "must be at most 5, found 7", "must be at least 0, found -1", "must not be empty",
            "must be at most 8 long, found 11", #"must match /[A-Z]{2}-[0-9]{3}/, found "ab-12""#, "must be even",
            "must be A or B",
            "must be at most 1970-01-02 00:00:00 +0000, found 1970-01-02 03:46:40 +0000",
            "must be at most 2 long, found 3", "must be at most 1.5, found 2.0",
        ])
    }

    @Test(arguments: cases.indices)
    func aValueIsCheckedWithTheRuleOfItsWrappedType(_ index: Int) throws {
        let (key, value, message) = Self.cases[index]
        let review = Review()
        #expect(throws: Never.self) { try review.validate() }
        if let message {
            let setting = #expect(throws: ModelError.self) { try review.setValue(value, forKey: key) }
            #expect(setting?.description == "\(key): \(message)")
            #expect(review.value(forKey: key) == nil || key == "author", "setValue changed nothing")
            let loading = #expect(throws: ModelError.self) { try Review(dictionary: [key: value]) }
            #expect(loading?.description == "\(key): \(message)")
        } else {
            try review.setValue(value, forKey: key)
            #expect(throws: Never.self) { try review.validate() }
            #expect(throws: Never.self) { try Review(dictionary: [key: value]) }
        }
    }

    @Test func nilPassesEveryRuleButACheckOfTheOptional() throws {
        let review = Review()
        review.stars = 9
        review.nickname = ""
        review.author = nil
        let error = #expect(throws: ModelError.self) { try review.validate() }
        #expect(error?.failures.map(\.description) == [
            "stars: must be at most 5, found 9", "nickname: must not be empty", "author: must be given",
        ])
        review.stars = nil
        review.nickname = nil
        review.author = "Ada"
        #expect(review.grade == nil, "a check whose closure compares the value lets nil pass")
        #expect(throws: Never.self) { try review.validate() }
        let loaded = try Review(json: Data(#"{"stars":null,"nickname":null,"plate":null,"due":null,"tags":null}"#.utf8))
        #expect(loaded.stars == nil && loaded.nickname == nil && loaded.tags == nil)
        let refused = #expect(throws: ModelError.self) { try Review(json: Data(#"{"stars":6}"#.utf8)) }
        #expect(refused?.description == "stars: must be at most 5, found 6")
    }

    @Test func theSchemaSaysTheRulesForValuesAndAllowsNull() throws {
        let properties = try Review.jsonSchema()["$defs"]?["Review"]?["properties"]
        #expect(properties?["stars"] == ["type": ["integer", "null"], "minimum": 0, "maximum": 5])
        #expect(properties?["nickname"] == ["type": ["string", "null"], "minLength": 1, "maxLength": 8])
        #expect(properties?["plate"] == ["type": ["string", "null"], "pattern": "^(?:[A-Z]{2}-[0-9]{3})$"])
        #expect(properties?["tags"]?["maxItems"] == 2)
        #expect(properties?["ratio"] == ["type": ["number", "null"], "minimum": 0.5, "maximum": 1.5])
        // A check and a range of dates have no keyword: the description says so.
        #expect(properties?["pairs"]?["description"] == "A rule that no schema can express is checked when loading.")
        #expect(properties?["due"]?["minimum"] == nil)
    }

    @Test(.enabled(if: PythonJSONSchema.isAvailable, "python3 with the jsonschema package is not installed"))
    func pythonsJSONSchemaAgreesWithTheRules() throws {
        let documents = [
            #"{"stars":null,"nickname":null,"plate":null}"#, #"{"stars":5,"nickname":"Ada","plate":"AB-123"}"#,
            #"{"stars":6}"#, #"{"nickname":""}"#, #"{"nickname":"Bartholomew"}"#, #"{"plate":"ab-12"}"#,
            #"{"tags":["a","b","c"]}"#, #"{"ratio":0.25}"#,
        ]
        let verdict = try PythonJSONSchema.judge(schema: try Review.jsonSchema(), documents: documents.map { Data($0.utf8) })
        #expect(verdict.schemaError == nil)
        #expect(verdict.valid == [true, true, false, false, false, false, false, false])
        for (document, valid) in zip(documents, verdict.valid) {
            let loads = (try? Review(json: Data(document.utf8))) != nil
            #expect(loads == valid, "\(document)")
        }
    }
}
