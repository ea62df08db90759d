import Foundation
import Testing

@testable import ModelKit

/// The test of a standard schema is agreement: Python's `jsonschema` accepts
/// a document exactly when ModelKit loads it and `validate()` passes.
@Suite(.enabled(if: PythonJSONSchema.isAvailable, "python3 with the jsonschema package is not installed"))
struct JSONSchemaAgreementTests {
    @Test(arguments: [
        SchemaSubject.self, SchemaChild.self, SchemaWithMap.self, SchemaNode.self, Bookmark.self, Order.self,
        Everything.self, Folder.self, Album.self, Note.self, SchemaTreeNode.self,
    ] as [ModelObject.Type])
    func standardSchemasAreValidDraft202012(_ type: ModelObject.Type) throws {
        ModelObject.register(Photo.self, Video.self)
        let verdict = try PythonJSONSchema.judge(schema: try type.jsonSchema(), documents: [])
        #expect(verdict.schemaError == nil)
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func modelKitAndJSONSchemaAgreeOnRandomDocuments(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        var documents: [Data] = []
        var labels: [String] = []
        for index in 0..<60 {
            let valid = SchemaDocuments.valid(using: &generator)
            documents.append(try valid.jsonData())
            labels.append("valid #\(index)")
            let (key, broken) = SchemaDocuments.breakingOneRule(of: valid, using: &generator)
            documents.append(try broken.jsonData())
            labels.append("invalid #\(index) (\(key))")
        }
        let verdict = try PythonJSONSchema.judge(schema: try SchemaSubject.jsonSchema(), documents: documents)
        #expect(verdict.schemaError == nil)
        #expect(verdict.valid.count == documents.count)
        for (offset, document) in documents.enumerated() where offset < verdict.valid.count {
            let loads = (try? SchemaSubject(json: document)).map { (try? $0.validate()) != nil } ?? false
            #expect(
                loads == verdict.valid[offset],
                "\(labels[offset]): ModelKit \(loads ? "loads" : "refuses"), jsonschema \(verdict.valid[offset] ? "accepts" : "refuses") \(String(decoding: document, as: UTF8.self))"
            )
            // Valid documents are valid, broken ones are not: the generator is right too.
            #expect(loads == labels[offset].hasPrefix("valid"), "\(labels[offset])")
        }
    }
}

/// Seeded random documents of `SchemaSubject`.
enum SchemaDocuments {
    static let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ ")

    static func word<G: RandomNumberGenerator>(_ lengths: ClosedRange<Int>, using generator: inout G) -> String {
        String((0..<Int.random(in: lengths, using: &generator)).map { _ in letters.randomElement(using: &generator)! })
    }

    /// A document ModelKit writes for a random valid object, with some keys
    /// left out, a key it does not know, and some values in the other forms
    /// ModelKit reads.
    static func valid<G: RandomNumberGenerator>(using generator: inout G) -> ModelValue {
        let subject = SchemaSubject()
        subject.title = word(1...20, using: &generator)
        subject.count = Int.random(in: 0...100, using: &generator)
        subject.ratio = Double.random(in: -1e6...1e6, using: &generator)
        subject.flag = Bool.random(using: &generator)
        subject.tags = (0..<Int.random(in: 0...3, using: &generator)).map { _ in word(0...5, using: &generator) }
        subject.due =
            Bool.random(using: &generator)
            ? Date(timeIntervalSince1970: Double(Int.random(in: 0...4_000_000_000_000, using: &generator)) / 1000) : nil
        subject.colour = Color(
            red: Double.random(in: 0...1, using: &generator), green: Double.random(in: 0...1, using: &generator),
            blue: Double.random(in: 0...1, using: &generator), alpha: Double.random(in: 0...1, using: &generator))
        subject.day = Day(year: Int.random(in: 1900...2100, using: &generator), month: Int.random(in: 1...12, using: &generator), day: Int.random(in: 1...28, using: &generator))!
        subject.time = TimeOfDay(secondsSinceMidnight: Int.random(in: 0..<86_400, using: &generator))!
        let hex = String((0..<32).map { _ in Array("0123456789ABCDEF").randomElement(using: &generator)! })
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(hex.dropFirst(range.lowerBound).prefix(range.count))
        }
        subject.id = UUID(uuidString: parts.joined(separator: "-"))!
        subject.data = Data((0..<Int.random(in: 0...9, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        subject.price = Decimal(Int.random(in: -100_000...100_000, using: &generator)) / 100
        subject.priority = Priority.allCases.randomElement(using: &generator)!
        subject.small = Int8.random(in: .min ... .max, using: &generator)
        if Bool.random(using: &generator) {
            let child = SchemaChild()
            child.stars = Int.random(in: 1...5, using: &generator)
            child.label = Bool.random(using: &generator) ? word(0...4, using: &generator) : nil
            subject.child = child
        }
        subject.children = (0..<Int.random(in: 0...2, using: &generator)).map { _ in
            let child = SchemaChild()
            child.stars = Int.random(in: 1...5, using: &generator)
            return child
        }
        subject.code = String((0..<3).map { _ in Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ").randomElement(using: &generator)! })
        subject.address = Address(street: word(0...8, using: &generator), zip: word(0...5, using: &generator))
        subject.snooze =
            Bool.random(using: &generator)
            ? Interval(Double(Int.random(in: 0...90, using: &generator)), .minutes)
            : Interval(1...Double(Int.random(in: 2...9, using: &generator)), .hours)
        subject.even = Int.random(in: -1000...1000, using: &generator)
        guard case .object(var members) = subject.modelValueForSchemaTests else { return .null }
        // Other forms ModelKit reads.
        let alternatives: [(String, ModelValue)] = [
            ("colour", "#FF8000"), ("colour", ["red": 1, "green": 0, "blue": 0]), ("price", 19.5),
            ("due", "2026-11-21T16:33:20.5+01:00"), ("snooze", "5 minutes"), ("time", "09:30"),
            ("id", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f"), ("unknown", ["kept": true]),
        ]
        for (key, value) in alternatives where Int.random(in: 0..<4, using: &generator) == 0 {
            members[key] = value
        }
        for key in members.keys where Int.random(in: 0..<8, using: &generator) == 0 {
            members[key] = nil
        }
        return .object(members)
    }

    /// Values that each break exactly one rule or type of a key.
    static let breaking: [String: [ModelValue]] = [
        "type": ["Other", 5],
        "version": ["2", -1],
        "title": [5, "", .string(String(repeating: "x", count: 21)), .null],
        "count": [-1, 101, "7", 1.5, .null],
        "ratio": ["x", true],
        "flag": [0, "true"],
        "tags": ["a", [1], [.null]],
        "due": ["2026-11-21", 12, "2026-11-21T10:00:00", true],
        "colour": [
            ["red": 2, "green": 0, "blue": 0], ["red": 0, "green": 0],
            ["red": 0, "green": 0, "blue": 0, "shade": 1], "#GG0000", 5,
        ],
        "day": ["2026-13-01", "21/11/2026", 20_261_121],
        "time": ["25:00", "1:00", 930],
        "id": ["not-a-uuid", 12],
        "data": ["!!", 5],
        "price": ["abc", true],
        "priority": ["urgent", 1],
        "small": [128, -129, "1"],
        "child": [["stars": 0], ["stars": "x"], 5, ["label": 5]],
        "children": [[5], ["stars": 1], [["stars": 6]]],
        "code": ["abcd", "AB", "abc"],
        "address": [["street": "x"], ["street": 1, "zip": "x"], "x"],
        "snooze": [["amount": -1, "unit": "minutes"], ["amount": 1, "unit": "fortnights"], ["amount": 1], 5],
    ]

    /// `document` with one key's value replaced by one that breaks a rule or type.
    static func breakingOneRule<G: RandomNumberGenerator>(of document: ModelValue, using generator: inout G)
        -> (key: String, document: ModelValue)
    {
        guard case .object(var members) = document else { return ("", document) }
        let key = breaking.keys.sorted().randomElement(using: &generator)!
        members[key] = breaking[key]!.randomElement(using: &generator)!
        return (key, .object(members))
    }
}

extension ModelObject {
    /// The saved form, as JSON has it (dates as text, data as base64).
    var modelValueForSchemaTests: ModelValue {
        (try? ModelValue(json: jsonData())) ?? .null
    }
}
