import Foundation
import Testing

@testable import ModelKit

// Every combination of `@Saved`'s arguments (a key, `description:`,
// `dateStrategy:`, `rules:`, and `reference:`), each declared once and checked
// for each of its effects.

private let moment = Date(timeIntervalSince1970: 1_000)
private let early = Date(timeIntervalSince1970: 0)
private let late = Date(timeIntervalSince1970: 86_400)
private let tooLate = Date(timeIntervalSince1970: 100_000)

/// One property per combination of `@Saved`'s arguments on a `Date?`: its
/// name says which it gives (K a key, D a description, S a date strategy,
/// R rules).
private final class DateCombinations: ModelObject, @unchecked Sendable {
    @Saved var date: Date? = moment
    @Saved("k_dateK") var dateK: Date? = moment
    @Saved(description: "d dateD") var dateD: Date? = moment
    @Saved(dateStrategy: .secondsSince1970) var dateS: Date? = moment
    @Saved(rules: .range(early...late)) var dateR: Date? = moment
    @Saved("k_dateKD", description: "d dateKD") var dateKD: Date? = moment
    @Saved("k_dateKS", dateStrategy: .secondsSince1970) var dateKS: Date? = moment
    @Saved("k_dateKR", rules: .range(early...late)) var dateKR: Date? = moment
    @Saved(description: "d dateDS", dateStrategy: .secondsSince1970) var dateDS: Date? = moment
    @Saved(description: "d dateDR", rules: .range(early...late)) var dateDR: Date? = moment
    @Saved(dateStrategy: .secondsSince1970, rules: .range(early...late)) var dateSR: Date? = moment
    @Saved("k_dateKDS", description: "d dateKDS", dateStrategy: .secondsSince1970) var dateKDS: Date? = moment
    @Saved("k_dateKDR", description: "d dateKDR", rules: .range(early...late)) var dateKDR: Date? = moment
    @Saved("k_dateKSR", dateStrategy: .secondsSince1970, rules: .range(early...late)) var dateKSR: Date? = moment
    @Saved(description: "d dateDSR", dateStrategy: .secondsSince1970, rules: .range(early...late))
    var dateDSR: Date? = moment
    @Saved("k_dateKDSR", description: "d dateKDSR", dateStrategy: .secondsSince1970, rules: .range(early...late))
    var dateKDSR: Date? = moment
}

/// A model that weak references point to.
private final class Titled: ModelObject, @unchecked Sendable {
    @Saved var title = ""
}

extension ValidationRule where Value == Titled? {
    /// A rule on a weak reference: its model, while it lives, has a title.
    fileprivate static var titled: Self { .check("must be titled") { !$0.title.isEmpty } }
}

/// One property per combination of `@Saved`'s arguments with
/// `reference: .weak`, named as in `DateCombinations`.
private final class ReferenceCombinations: ModelObject, @unchecked Sendable {
    @Saved(reference: .weak) var ref: Titled? = nil
    @Saved("k_refK", reference: .weak) var refK: Titled? = nil
    @Saved(description: "d refD", reference: .weak) var refD: Titled? = nil
    @Saved(dateStrategy: .secondsSince1970, reference: .weak) var refS: Titled? = nil
    @Saved(rules: .titled, reference: .weak) var refR: Titled? = nil
    @Saved("k_refKD", description: "d refKD", reference: .weak) var refKD: Titled? = nil
    @Saved("k_refKS", dateStrategy: .secondsSince1970, reference: .weak) var refKS: Titled? = nil
    @Saved("k_refKR", rules: .titled, reference: .weak) var refKR: Titled? = nil
    @Saved(description: "d refDS", dateStrategy: .secondsSince1970, reference: .weak) var refDS: Titled? = nil
    @Saved(description: "d refDR", rules: .titled, reference: .weak) var refDR: Titled? = nil
    @Saved(dateStrategy: .secondsSince1970, rules: .titled, reference: .weak) var refSR: Titled? = nil
    @Saved("k_refKDS", description: "d refKDS", dateStrategy: .secondsSince1970, reference: .weak)
    var refKDS: Titled? = nil
    @Saved("k_refKDR", description: "d refKDR", rules: .titled, reference: .weak) var refKDR: Titled? = nil
    @Saved("k_refKSR", dateStrategy: .secondsSince1970, rules: .titled, reference: .weak) var refKSR: Titled? = nil
    @Saved(description: "d refDSR", dateStrategy: .secondsSince1970, rules: .titled, reference: .weak)
    var refDSR: Titled? = nil
    @Saved("k_refKDSR", description: "d refKDSR", dateStrategy: .secondsSince1970, rules: .titled, reference: .weak)
    var refKDSR: Titled? = nil
}

/// Every argument with `reference: .strong`: a plain saved property.
private final class StrongReference: ModelObject, @unchecked Sendable {
    @Saved("k_strong", description: "d strong", dateStrategy: .secondsSince1970, rules: .titled, reference: .strong)
    var strong: Titled? = nil
}

/// One property of `DateCombinations` or `ReferenceCombinations`, and which
/// arguments its declaration gives.
struct SavedCombination: Sendable, CustomTestStringConvertible {
    let property: String
    init(_ property: String) { self.property = property }

    private var options: Substring { property.drop { $0.isLowercase } }
    var hasKey: Bool { options.contains("K") }
    var hasDescription: Bool { options.contains("D") }
    var hasDateStrategy: Bool { options.contains("S") }
    var hasRules: Bool { options.contains("R") }
    /// The saved key: the declared one, else the property's name.
    var key: String { hasKey ? "k_\(property)" : property }
    var testDescription: String { property }

    static let dates = [
        "date", "dateK", "dateD", "dateS", "dateR", "dateKD", "dateKS", "dateKR",
        "dateDS", "dateDR", "dateSR", "dateKDS", "dateKDR", "dateKSR", "dateDSR", "dateKDSR",
    ].map(Self.init)
    static let references = [
        "ref", "refK", "refD", "refS", "refR", "refKD", "refKS", "refKR",
        "refDS", "refDR", "refSR", "refKDS", "refKDR", "refKSR", "refDSR", "refKDSR",
    ].map(Self.init)
}

@Suite struct SavedDeclarationTests {
    /// The schema of a property of `type`.
    private static func propertySchema(_ type: ModelObject.Type, _ key: String) throws -> ModelValue? {
        try type.jsonSchema()["$defs"]?["\(type)"]?["properties"]?[key]
    }

    @Test(arguments: SavedCombination.dates)
    func eachCombinationOnADateHasEveryEffect(_ combination: SavedCombination) throws {
        let key = combination.key
        // The key, and the date strategy, in the saved form.
        let saved = try ModelValue(json: DateCombinations().jsonData())
        if combination.hasDateStrategy {
            #expect(saved[key] == .double(1_000))
        } else {
            #expect(saved[key] == "1970-01-01T00:16:40Z")
        }
        if combination.hasKey { #expect(saved[combination.property] == nil) }
        // The date strategy when reading.
        let written: ModelValue = combination.hasDateStrategy ? 2_000 : "1970-01-01T00:33:20Z"
        let loaded = try DateCombinations(json: try ModelValue.object([key: written]).jsonData())
        #expect(loaded.value(forKey: key) as? Date == Date(timeIntervalSince1970: 2_000))
        // The rules: loading, setValue, and nil, which passes.
        let message = "\(key): " + ValidationRule<Date>.range(early...late).failure(tooLate)!
        if combination.hasRules {
            let loading = #expect(throws: ModelError.self) { try DateCombinations(dictionary: [key: tooLate]) }
            #expect(loading?.description == message)
            let setting = #expect(throws: ModelError.self) { try DateCombinations().setValue(tooLate, forKey: key) }
            #expect(setting?.description == message)
        } else {
            let object = try DateCombinations(dictionary: [key: tooLate])
            #expect(object.value(forKey: key) as? Date == tooLate)
        }
        let empty = try DateCombinations(json: try ModelValue.object([key: .null]).jsonData())
        #expect(empty.value(forKey: key) as? Date == nil)
        #expect(throws: Never.self) { try empty.validate() }
        // The description, which the schema gives (with a note on the rule it cannot say).
        let description = try Self.propertySchema(DateCombinations.self, key)?["description"]?.stringValue
        #expect((description?.hasPrefix("d \(combination.property)") ?? false) == combination.hasDescription)
        #expect((description?.contains("cannot express") ?? false) == combination.hasRules)
        let slot = ClassLayout.of(DateCombinations.self).slots.first { $0.key == key }
        #expect(slot?.dateStrategy == (combination.hasDateStrategy ? .secondsSince1970 : nil))
    }

    @Test func validateChecksTheRulesOfEveryCombinationThatGivesThem() {
        let object = DateCombinations()
        #expect(throws: Never.self) { try object.validate() }
        object.date = tooLate  // no rules
        object.dateR = tooLate; object.dateKR = tooLate; object.dateDR = tooLate; object.dateSR = tooLate
        object.dateKDR = tooLate; object.dateKSR = tooLate; object.dateDSR = tooLate; object.dateKDSR = tooLate
        let error = #expect(throws: ModelError.self) { try object.validate() }
        let ruled = SavedCombination.dates.filter(\.hasRules).map(\.key)
        #expect(ruled.count == 8)
        #expect(error?.failures.map(\.keyPath.description) == ruled)
    }

    @Test(arguments: SavedCombination.references)
    func eachCombinationOnAWeakReferenceHasEveryEffect(_ combination: SavedCombination) throws {
        let key = combination.key
        let object = ReferenceCombinations()
        // Weak: the property does not keep its model alive.
        do {
            let target = Titled()
            target.title = "kept elsewhere"
            try object.setValue(target, forKey: key)
            #expect(object.value(forKey: key) as? Titled === target)
            // Not in the document, so written as null, under its key.
            let saved = try ModelValue(json: object.jsonData())
            #expect(saved[key] == .null)
            if combination.hasKey { #expect(saved[combination.property] == nil) }
        }
        #expect(object.value(forKey: key) == nil)
        // The rules see the model; nil passes.
        let untitled = Titled()
        if combination.hasRules {
            let error = #expect(throws: ModelError.self) { try object.setValue(untitled, forKey: key) }
            #expect(error?.description == "\(key): must be titled")
        } else {
            try object.setValue(untitled, forKey: key)
            #expect(object.value(forKey: key) as? Titled === untitled)
        }
        try object.setValue(nil, forKey: key)
        #expect(throws: Never.self) { try object.validate() }
        // The description, and the date strategy kept for the property.
        let description = try Self.propertySchema(ReferenceCombinations.self, key)?["description"]?.stringValue
        #expect((description?.hasPrefix("d \(combination.property)") ?? false) == combination.hasDescription)
        let slot = ClassLayout.of(ReferenceCombinations.self).slots.first { $0.key == key }
        #expect(slot?.dateStrategy == (combination.hasDateStrategy ? .secondsSince1970 : nil))
    }

    @Test func validateChecksTheModelOfAWeakReferenceWhileItLives() throws {
        let object = ReferenceCombinations()
        let untitled = Titled()
        object.refR = untitled
        object.refKDSR = untitled
        let error = #expect(throws: ModelError.self) { try object.validate() }
        #expect(error?.failures.map(\.description) == ["refR: must be titled", "k_refKDSR: must be titled"])
        untitled.title = "now titled"
        #expect(throws: Never.self) { try object.validate() }
    }

    @Test func aStrongReferenceWithEveryArgumentIsAPlainSavedProperty() throws {
        let object = StrongReference()
        do {
            let target = Titled()
            target.title = "kept here"
            object.strong = target
        }
        #expect(object.strong?.title == "kept here", "a strong reference keeps its model")
        let saved = try ModelValue(json: object.jsonData())
        #expect(saved["k_strong"]?["title"] == "kept here")
        let error = #expect(throws: ModelError.self) { try object.setValue(Titled(), forKey: "k_strong") }
        #expect(error?.description == "k_strong: must be titled")
        let schema = try Self.propertySchema(StrongReference.self, "k_strong")
        #expect(schema?["description"]?.stringValue?.hasPrefix("d strong") == true)
        #expect(ClassLayout.of(StrongReference.self).slots.first?.dateStrategy == .secondsSince1970)
    }
}
