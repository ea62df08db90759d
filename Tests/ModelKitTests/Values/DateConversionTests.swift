import Foundation
import Testing

@testable import ModelKit

@Suite struct DateConversionTests {
    static let written: [(Double, String)] = [
        (1_763_307_200, "2025-11-16T15:33:20Z"),
        (1_763_307_200.123456, "2025-11-16T15:33:20.123456Z"),
        (1_763_307_200.5, "2025-11-16T15:33:20.500000Z"),
        (1_763_307_200.000001, "2025-11-16T15:33:20.000001Z"),
        (1_763_307_200.000_000_2, "2025-11-16T15:33:20Z"),
        (0, "1970-01-01T00:00:00Z"),
        (-0.000001, "1969-12-31T23:59:59.999999Z"),
        (-62_167_219_200, "0000-01-01T00:00:00Z"),
        (-62_167_219_201, "-000001-12-31T23:59:59Z"),
        (253_402_300_800, "+010000-01-01T00:00:00Z"),
        (951_782_400, "2000-02-29T00:00:00Z"),
    ]

    @Test(arguments: written)
    func writesUTCWithMicrosecondsOnlyWhenNeeded(seconds: Double, text: String) throws {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(ISO8601DateText.string(from: date) == text)
        let back = try #require(ISO8601DateText.date(from: text))
        #expect(abs(back.timeIntervalSince(date)) < 0.000_000_5)
        #expect(ISO8601DateText.string(from: back) == text)
    }

    @Test func everyMicrosecondOfASecondRoundTrips() throws {
        // Seeded walk over fractions and a span of years, including the
        // reference-date boundary where rounding once too often would show.
        var generator = SeededGenerator(seed: 0x5EED)
        for _ in 0..<20_000 {
            let whole = Double(Int.random(in: -2_000_000_000...4_000_000_000, using: &generator))
            let micros = Double(Int.random(in: 0..<1_000_000, using: &generator))
            let date = Date(timeIntervalSince1970: whole + micros / 1_000_000)
            let text = ISO8601DateText.string(from: date)
            let back = try #require(ISO8601DateText.date(from: text))
            #expect(ISO8601DateText.string(from: back) == text)
            #expect(abs(back.timeIntervalSince(date)) < 0.000_001)
        }
    }

    static let accepted: [(String, String)] = [
        ("2025-11-16T15:33:20Z", "2025-11-16T15:33:20Z"),
        ("2025-11-16T15:33:20.1Z", "2025-11-16T15:33:20.100000Z"),
        ("2025-11-16T15:33:20.123456789Z", "2025-11-16T15:33:20.123457Z"),
        ("2025-11-16T15:33:20.9999999Z", "2025-11-16T15:33:21Z"),
        ("2025-11-16T15:33:20.000000000000Z", "2025-11-16T15:33:20Z"),
        ("2025-11-16T16:33:20+01:00", "2025-11-16T15:33:20Z"),
        ("2025-11-16T10:03:20.5-05:30", "2025-11-16T15:33:20.500000Z"),
        ("2025-11-17T00:00:00+08:26", "2025-11-16T15:34:00Z"),
        ("2025-11-16T15:33:20-00:00", "2025-11-16T15:33:20Z"),
        ("2024-02-29T23:59:59+23:59", "2024-02-29T00:00:59Z"),
        // Offsets with seconds, as Python writes for historical time zones.
        ("2025-11-16T20:54:30+05:21:10", "2025-11-16T15:33:20Z"),
        ("2025-11-16T15:33:20.5+01:00:00", "2025-11-16T14:33:20.500000Z"),
        ("1900-01-01T00:00:00-00:01:15", "1900-01-01T00:01:15Z"),
    ]

    @Test(arguments: accepted)
    func readsFractionsOfAnyLengthAndOffsets(text: String, normalised: String) throws {
        let date = try #require(ISO8601DateText.date(from: text))
        #expect(ISO8601DateText.string(from: date) == normalised)
        #expect(try Date(modelValue: .string(text)) == date)
    }

    static let rejected: [String] = [
        "", "2025-11-16", "15:33:20Z", "2025-11-16 15:33:20Z", "2025-11-16t15:33:20Z", "2025-11-16T15:33:20z",
        "2025-11-16T15:33:20,5Z", "2025-11-16T15:33:20.Z", "2025-11-16T15:33:20+0100", "2025-11-16T15:33:20+01",
        "2025-11-16T15:33:20+1:00", "2025-11-16T15:33:20+24:00", "2025-11-16T15:33:20+01:60",
        "2025-11-16T15:33Z", "2025-11-16T15:33:60Z", "2025-11-16T24:00:00Z", "2025-02-29T00:00:00Z",
        "2025-13-01T00:00:00Z", "2025-11-31T00:00:00Z", "2025-11-16T15:33:20ZZ", "2025-11-16T15:33:20Z ",
        " 2025-11-16T15:33:20Z", "20251116T153320Z", "25-11-16T15:33:20Z", "2025-1-16T15:33:20Z",
        "12025-11-16T15:33:20Z", "+2025-11-16T15:33:20Z", "2025-11-16T15:33:20+01:00:60", "1763307200",
        "2025-11-16T15:33:20+01:00:5", "2025-11-16T15:33:20+01:00:",
        "2025-11-16T15:33:20 UTC",
    ]

    @Test(arguments: rejected)
    func rejectsEverythingElseWithAClearMessage(text: String) {
        #expect(ISO8601DateText.date(from: text) == nil)
        let excerpt = ModelValue.string(text).excerpt
        expectModelError(
            Date.self, from: .string(text),
            #"expected an ISO 8601 date such as "2025-11-16T15:33:20Z", found \#(excerpt)"#)
        expectModelError(
            [String: Date].self, from: ["due": .string(text)],
            #"due: expected an ISO 8601 date such as "2025-11-16T15:33:20Z", found \#(excerpt)"#)
    }

    @Test func aMissingTimeZoneIsNamed() {
        expectModelError(
            Date.self, from: "2025-11-16T15:33:20.5",
            #"expected an ISO 8601 date such as "2025-11-16T15:33:20Z", found a string ("2025-11-16T15:33:20.5") with no time zone (add Z or an offset such as +01:00)"#
        )
    }

    @Test func numbersNeedADateStrategy() {
        expectModelError(
            Date.self, from: 1_763_307_200,
            "expected Date (an ISO 8601 string; a number needs a date strategy: deferredToDate for seconds since 2001, JSONEncoder's default, or secondsSince1970 or millisecondsSince1970), found an integer (1763307200)"
        )
        expectModelError(Date.self, from: true, "expected Date, found a boolean (true)")
        CodingContext.with(dateStrategy: .secondsSince1970) {
            expectModelError(Date.self, from: .double(.infinity), "expected Date, found a floating-point number (inf)")
        }
    }

    @Test func savedNativelyUnderTheDefaultStrategy() throws {
        let date = Date(timeIntervalSince1970: 1_763_307_200.123456)
        #expect(date.modelValue == .date(date))
        #expect(try Date(modelValue: .date(date)) == date)
        #expect(try Date(modelValue: .string(ISO8601DateText.string(from: date))).timeIntervalSince(date).magnitude < 5e-7)
    }

    @Test(arguments: [DateStrategy.secondsSince1970, .millisecondsSince1970, .deferredToDate])
    func strategiesSaveNumbersAndStillReadDatesAndText(strategy: DateStrategy) throws {
        let date = Date(timeIntervalSince1970: 1_763_307_200.123)
        try CodingContext.with(dateStrategy: strategy) { () throws -> Void in
            let saved = date.modelValue
            switch strategy {
            case .secondsSince1970: #expect(saved == .double(date.timeIntervalSince1970))
            case .deferredToDate: #expect(saved == .double(date.timeIntervalSinceReferenceDate))
            default: #expect(saved == .int(1_763_307_200_123))
            }
            #expect(try Date(modelValue: saved).timeIntervalSince(date).magnitude < 5e-7)
            #expect(try Date(modelValue: .date(date)) == date)
            #expect(try Date(modelValue: "2025-11-16T15:33:20.123Z").timeIntervalSince(date).magnitude < 5e-7)
        }
        #expect(CodingContext.current.dateStrategy == .iso8601)
    }

    @Test func farDatesInMillisecondsDoNotTrap() {
        let far = Date(timeIntervalSince1970: 1e300)
        CodingContext.with(dateStrategy: .millisecondsSince1970) {
            #expect(far.modelValue == .double(1e303))
        }
    }
}
