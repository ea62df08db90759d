import Foundation
import Testing

@testable import ModelKit

/// `Date.distantPast`, `Date.distantFuture` and years outside 1 to 9999,
/// written and read back in every format under every date strategy.
@Suite struct FarDateTests {
    final class Stamps: ModelObject, @unchecked Sendable {
        @Saved var iso = Date(timeIntervalSinceReferenceDate: 0)
        @Saved(dateStrategy: .secondsSince1970) var seconds = Date(timeIntervalSinceReferenceDate: 0)
        @Saved(dateStrategy: .millisecondsSince1970) var milliseconds = Date(timeIntervalSinceReferenceDate: 0)
        @Saved(dateStrategy: .deferredToDate) var deferred = Date(timeIntervalSinceReferenceDate: 0)
        @Saved var maybe: Date? = nil
        @Saved var list: [Date] = []
    }

    /// Seconds since 1970: the two distant dates, years 0, -1, -4713, 10000,
    /// 275760 and a million, the Gregorian reform, and fractions of a second.
    static let dates: [Double] = [
        Date.distantPast.timeIntervalSince1970, Date.distantFuture.timeIntervalSince1970, -62_167_219_200,
        -62_198_755_200, -210_866_760_000, 253_402_300_800, 8_640_000_000_000, 31_494_784_780_800, -12_219_292_800,
        -12_219_292_801, -62_135_769_600.25, 253_402_300_800.5, 1_763_307_200,
    ]

    static func stamps(_ date: Date) -> Stamps {
        let stamps = Stamps()
        (stamps.iso, stamps.seconds, stamps.milliseconds, stamps.deferred, stamps.maybe) = (date, date, date, date, date)
        stamps.list = [date, .distantPast]
        return stamps
    }

    /// `date` to the precision the format keeps: microseconds in JSON text, milliseconds under that strategy.
    static func expect(_ loaded: Stamps, equals date: Date, wholeSeconds: Bool = false, _ comment: Comment) {
        func close(_ value: Date?, _ tolerance: Double, native: Bool = true) -> Bool {
            guard let value else { return false }
            let expected = wholeSeconds && native ? Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)) : date
            return abs(value.timeIntervalSince(expected)) <= tolerance * max(1, abs(date.timeIntervalSinceReferenceDate) / 1e9)
        }
        #expect(close(loaded.iso, wholeSeconds ? 0 : 1e-6), comment)
        #expect(close(loaded.seconds, 0, native: false), comment)
        #expect(close(loaded.milliseconds, 1e-3, native: false), comment)
        #expect(close(loaded.deferred, 0, native: false), comment)
        #expect(close(loaded.maybe, wholeSeconds ? 0 : 1e-6), comment)
        #expect(loaded.list.count == 2 && close(loaded.list[0], wholeSeconds ? 0 : 1e-6) && loaded.list[1] == .distantPast, comment)
    }

    @Test(arguments: dates)
    func farDatesRoundTripThroughJSON(seconds: Double) throws {
        let date = Date(timeIntervalSince1970: seconds)
        let stamps = Self.stamps(date)
        let json = try stamps.jsonData()
        Self.expect(try Stamps(json: json), equals: date, "\(String(decoding: json, as: UTF8.self))")
        // The ModelValue path reads the same text the same way.
        Self.expect(try Stamps(modelValue: ModelValue(json: json)), equals: date, "ModelValue")
        Self.expect(try Stamps(dictionary: stamps.dictionary), equals: date, "dictionary")
    }

    @Test(arguments: dates)
    func farDatesRoundTripThroughPropertyLists(seconds: Double) throws {
        let date = Date(timeIntervalSince1970: seconds)
        let stamps = Self.stamps(date)
        Self.expect(try Stamps(propertyList: stamps.propertyListData(format: .binary)), equals: date, "binary")
        // XML keeps whole seconds, the numeric strategies their numbers.
        let xml = try stamps.propertyListData(format: .xml)
        let loaded = try Stamps(propertyList: xml)
        Self.expect(loaded, equals: date, wholeSeconds: true, "\(String(decoding: xml, as: UTF8.self))")
    }

    @Test func farDatesAreWrittenInISO8601sExpandedFormInJSON() throws {
        let cases: [(Date, String)] = [
            (.distantPast, "0000-12-30T00:00:00Z"), (.distantFuture, "4001-01-01T00:00:00Z"),
            (Date(timeIntervalSince1970: 253_402_300_800), "+010000-01-01T00:00:00Z"),
            (Date(timeIntervalSince1970: -62_198_755_200), "-000001-01-01T00:00:00Z"),
            (Date(timeIntervalSince1970: 31_494_784_780_800), "+1000000-01-01T00:00:00Z"),
        ]
        for (date, text) in cases {
            #expect(String(decoding: try ModelValue.date(date).jsonData(), as: UTF8.self) == "\"\(text)\"", "\(text)")
            #expect(try Date(modelValue: .string(text)) == date, "\(text)")
        }
        // Past what a calendar date here can say, an error naming the date.
        let error = #expect(throws: ModelError.self) { try ModelValue.date(Date(timeIntervalSince1970: 1e300)).jsonData() }
        #expect(error?.message.contains("more than 285 million years from 2001") == true)
    }

    /// Foundation's XML writer, on this machine: the text ModelKit writes for the same dates.
    @Test(arguments: dates + [0.5, -0.5, -100_000_000_000, -12_220_156_800])
    func xmlDatesAreWrittenAsFoundationWritesThem(seconds: Double) throws {
        let date = Date(timeIntervalSince1970: seconds)
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .xml
        let foundation = String(decoding: try encoder.encode([date]), as: UTF8.self)
        let text = try #require(ISO8601DateText.propertyListString(from: date))
        // Foundation's writer gives a wrong year a million years out (506713), a bug of its own.
        if abs(seconds) < 1e13 { #expect(foundation.contains("<date>\(text)</date>"), "\(foundation)") }
        // Read back exactly to the second, by ModelKit; by Foundation for years from 0000 on
        // (Foundation on Linux reads "-0001-…" as year 1, a bug of its reader).
        let whole = Date(timeIntervalSince1970: seconds.rounded(.down))
        #expect(ISO8601DateText.propertyListDate(from: text) == whole)
        let ours = try ModelValue.array([.date(date)]).propertyListData(format: .xml)
        if !text.hasPrefix("-") {
            #expect(try PropertyListDecoder().decode([Date].self, from: ours) == [whole])
        }
    }

    @Test func theGregorianReformAndJulianLeapDaysReadAsFoundationReadsThem() throws {
        for text in ["1582-10-04T00:00:00Z", "1582-10-15T00:00:00Z", "1582-10-10T00:00:00Z", "1500-02-29T12:00:00Z", "0001-01-01T00:00:00Z"] {
            let xml = #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><array><date>\#(text)</date></array></plist>"#
            let expected = try PropertyListDecoder().decode([Date].self, from: Data(xml.utf8))
            #expect(ISO8601DateText.propertyListDate(from: text) == expected[0], "\(text)")
        }
        // Not a day in either calendar: the day carries into March, as Foundation reads it (issue 51).
        for text in ["1500-02-30T00:00:00Z", "1700-02-29T00:00:00Z", "1582-09-35T00:00:00Z", "1582-10-32T00:00:00Z"] {
            let xml = #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><array><date>\#(text)</date></array></plist>"#
            let expected = try PropertyListDecoder().decode([Date].self, from: Data(xml.utf8))
            #expect(ISO8601DateText.propertyListDate(from: text) == expected[0], "\(text)")
        }
        #expect(ISO8601DateText.propertyListDate(from: "1500-02-30T00:00:00Z") == ISO8601DateText.propertyListDate(from: "1500-03-01T00:00:00Z"))
    }
}
