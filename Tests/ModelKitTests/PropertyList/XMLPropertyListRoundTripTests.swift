import Foundation
import Testing
@testable import ModelKit

@Suite struct XMLPropertyListRoundTripTests {
    @Test(arguments: 0..<200 as Range<UInt64>)
    func randomValuesSurviveARoundTrip(seed: UInt64) throws {
        var random = RandomModelValues(seed: seed)
        random.wholeSecondDates = true
        let value = random.value(allowingNull: seed % 2 == 0)
        let data = try value.propertyListData(format: .xml)
        let back = try ModelValue(propertyList: data)
        #expect(back == value, "\(String(decoding: data, as: UTF8.self))")
        #expect(orderedDescription(back) == orderedDescription(value))
        // Writing again gives the same bytes.
        #expect(try back.propertyListData(format: .xml) == data)
    }

    /// XML dates are whole seconds, the form plutil and Python read: the
    /// fraction is dropped (never rounded up into the next second).
    @Test func datesAreWrittenInWholeSeconds() throws {
        var random = RandomModelValues(seed: 42)
        for _ in 0..<5_000 {
            let date = random.date()
            let back = try ModelValue(propertyList: ModelValue.date(date).propertyListData(format: .xml))
            #expect(back == .date(wholeSeconds(date)), "\(date.timeIntervalSinceReferenceDate)")
        }
    }

    @Test(arguments: [
        ("2025-11-16T15:33:20.123456Z", 1_763_307_200.123456, "2025-11-16T15:33:20Z"),
        ("2025-11-16T15:33:20.5Z", 1_763_307_200.5, "2025-11-16T15:33:20Z"),
        ("1969-12-31T23:59:59.999001Z", -0.000_999, "1969-12-31T23:59:59Z"),
        ("2001-01-01T00:00:00.250000Z", 978_307_200.25, "2001-01-01T00:00:00Z"),
        ("2001-01-01T00:00:00.000000Z", 978_307_200, "2001-01-01T00:00:00Z"),
    ])
    /// Fractions written by earlier versions still read exactly; writing gives whole seconds.
    func fractionalDatesReadAndWriteBack(text: String, since1970: Double, written: String) throws {
        let document = "<plist><date>\(text)</date></plist>"
        let value = try ModelValue(propertyList: Data(document.utf8))
        guard case .date(let date) = value else {
            Issue.record("expected a date, got \(value)")
            return
        }
        #expect(abs(date.timeIntervalSince1970 - since1970) < 1e-6)
        let output = String(decoding: try value.propertyListData(format: .xml), as: UTF8.self)
        #expect(output.contains("<date>\(written)</date>"))
        #expect(try ModelValue(propertyList: Data(output.utf8)) == .date(wholeSeconds(date)))
    }

    /// A `Date()` (nearly always with a fraction) saved and loaded again is
    /// no change, and saving what was loaded gives the same bytes.
    @Test(arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
    func aDateDefaultSurvivesSaveAndLoadWithoutBecomingAChange(format: PropertyListSerialization.PropertyListFormat)
        throws
    {
        let note = Note()
        note.due = Date(timeIntervalSinceReferenceDate: 785_000_000.987_654)
        note.clearChanges()
        let data = try note.propertyListData(format: format)
        let loaded = try Note(propertyList: data)
        #expect(!loaded.hasChanges)
        #expect(loaded.due == (format == .xml ? note.due.map(wholeSeconds) : note.due))
        #expect(try loaded.propertyListData(format: format) == data)
        try loaded.update(from: Note(propertyList: data).dictionary)
        #expect(!loaded.hasAnyChanges)
    }

    @Test func nullAtTheTopLevelSurvives() throws {
        #expect(try ModelValue(propertyList: ModelValue.null.propertyListData(format: .xml)) == .null)
    }

    @Test func modelObjectsSurviveARoundTrip() throws {
        let everything = Everything()
        everything.date = wholeSeconds(everything.date)
        let back = try Everything(propertyList: everything.propertyListData(format: .xml))
        #expect(back.modelValue == everything.modelValue)
        #expect(back.date == everything.date)
    }
}
