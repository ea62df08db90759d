import Foundation
import Testing

@testable import ModelKit

/// The public json-patch-tests suite (github.com/json-patch/json-patch-tests,
/// Apache-2.0, see Fixtures/README.md) is the judge of ``JSONPatch``: every
/// case with `expected` must give it, every case with `error` must throw,
/// and `disabled` cases are skipped.
@Suite struct JSONPatchSuiteTests {
    /// One record of a suite file.
    struct Case: CustomTestStringConvertible, Sendable {
        let file: String
        let number: Int
        let record: ModelValue

        var testDescription: String {
            let comment = record["comment"].flatMap { if case .string(let text) = $0 { text } else { nil } }
            return "\(file) #\(number)" + (comment.map { ": \($0)" } ?? "")
        }
        var isDisabled: Bool { record["disabled"] == true }
    }

    static func fixture(_ name: String) throws -> ModelValue {
        var url = URL(fileURLWithPath: #filePath)
        url.deleteLastPathComponent()
        // The suite repeats a key on purpose in two disabled cases.
        return try ModelValue(
            json: Data(contentsOf: url.appendingPathComponent("Fixtures/\(name)")),
            options: JSONReadingOptions(duplicateKeys: .lastWins))
    }

    static func cases(_ name: String) -> [Case] {
        guard case .array(let records)? = try? fixture(name) else { return [] }
        return Array(records.enumerated()).map { Case(file: name, number: $0.offset, record: $0.element) }
    }

    static let allCases = cases("tests.json") + cases("spec_tests.json")

    @Test func theSuiteIsHereAndCounted() throws {
        // 95 records in tests.json and 17 in spec_tests.json, at json-patch-tests 2a928f9.
        #expect(Self.cases("tests.json").count == 95)
        #expect(Self.cases("spec_tests.json").count == 17)
        let enabled = Self.allCases.filter { !$0.isDisabled }
        #expect(enabled.filter { $0.record["expected"] != nil }.count == 74)
        #expect(enabled.filter { $0.record["error"] != nil }.count == 34)
    }

    @Test(arguments: allCases)
    func eachCaseGivesItsResultOrFails(_ test: Case) throws {
        guard !test.isDisabled, let document = test.record["doc"], let patchDocument = test.record["patch"] else {
            return  // disabled, or a record with only a comment
        }
        let outcome = Result { try JSONPatch(modelValue: patchDocument).applied(to: document) }
        if let expected = test.record["expected"] {
            let result = try outcome.get()
            #expect(result.isJSONEqual(to: expected), "\(test.testDescription)")
            // The suite's expectations hold exactly, not only as JSON values.
            #expect(result == expected, "\(test.testDescription)")
        } else if test.record["error"] != nil {
            #expect(throws: ModelError.self, "\(test.testDescription)") { try outcome.get() }
            // A failing patch leaves its document as it was (it is a value): applying again fails the same way.
            let again = Result { try JSONPatch(modelValue: patchDocument).applied(to: document) }
            #expect("\(again)" == "\(outcome)")
        } else {
            // A record without expectation must apply without error.
            _ = try outcome.get()
        }
    }
}
