import Foundation
import Testing

@testable import ModelKit

@Suite struct DayTests {
    static let utc = TimeZone(identifier: "UTC")!

    @Test(arguments: [
        ("2026-11-21", 2026, 11, 21), ("2024-02-29", 2024, 2, 29), ("0000-01-01", 0, 1, 1),
        ("9999-12-31", 9999, 12, 31), ("2000-02-29", 2000, 2, 29),
    ])
    func textReadsBack(text: String, year: Int, month: Int, day: Int) throws {
        let parsed = try #require(Day(text))
        #expect(parsed == Day(year: year, month: month, day: day))
        #expect(parsed.description == text)
    }

    @Test(arguments: [
        "", "2026-11-2", "2026-1-21", "26-11-21", "2026/11/21", "2026-11-21T00:00:00Z", "2023-02-29",
        "1900-02-29", "2026-13-01", "2026-00-10", "2026-04-31", "2026-11-00", " 2026-11-21", "+2026-11-21",
        "２026-11-21", "20261121",
    ])
    func badTextIsRejected(text: String) {
        #expect(Day(text) == nil)
    }

    @Test func fieldsAreValidated() {
        #expect(Day(year: 2023, month: 2, day: 29) == nil)
        #expect(Day(year: -1, month: 1, day: 1) == nil)
        #expect(Day(year: 10_000, month: 1, day: 1) == nil)
        #expect(Day(year: 2026, month: 6, day: 31) == nil)
        #expect(Day(year: 5, month: 3, day: 7)?.description == "0005-03-07")
    }

    @Test func daysAreOrderedByDate() {
        let days = ["2024-12-31", "2025-01-01", "2025-01-02", "2025-02-01"].compactMap(Day.init)
        #expect(days.count == 4)
        #expect(days.shuffled().sorted() == days)
    }

    @Test(arguments: [
        ("UTC", "2025-11-16"), ("Pacific/Auckland", "2025-11-17"), ("America/Los_Angeles", "2025-11-16"),
        ("Pacific/Honolulu", "2025-11-16"), ("Asia/Tokyo", "2025-11-17"),
    ])
    func dateConvertsInTheGivenTimeZone(zone: String, expected: String) throws {
        let moment = Date(timeIntervalSince1970: 1_763_307_200)  // 2025-11-16T15:33:20Z
        let timeZone = try #require(TimeZone(identifier: zone))
        #expect(Day(moment, timeZone: timeZone)?.description == expected)
    }

    @Test func startDateIsLocalMidnight() throws {
        let paris = try #require(TimeZone(identifier: "Europe/Paris"))
        let day = try #require(Day("2025-11-16"))
        #expect(day.startDate(timeZone: paris) == ISO8601DateText.date(from: "2025-11-15T23:00:00Z"))
        #expect(day.startDate(timeZone: Self.utc) == ISO8601DateText.date(from: "2025-11-16T00:00:00Z"))
        #expect(Day(day.startDate(timeZone: paris), timeZone: paris) == day)
    }

    @Test func startDateWhenMidnightIsSkipped() throws {
        // Brazil moved clocks from 00:00 to 01:00 on 4 November 2018.
        let saoPaulo = try #require(TimeZone(identifier: "America/Sao_Paulo"))
        let start = try #require(Day("2018-11-04")).startDate(timeZone: saoPaulo)
        #expect(start == ISO8601DateText.date(from: "2018-11-04T03:00:00Z"))
        #expect(TimeOfDay(start, timeZone: saoPaulo).description == "01:00:00")
    }

    @Test func yearZeroAndANonGregorianCalendarStillGiveISODays() throws {
        let day = try #require(Day("0000-03-01"))
        #expect(Day(day.startDate(timeZone: Self.utc), timeZone: Self.utc) == day)
        let moment = Date(timeIntervalSince1970: 1_763_307_200)
        #expect(Day(moment, calendar: Calendar(identifier: .hebrew), timeZone: Self.utc)?.description == "2025-11-16")
        #expect(Day(Date(timeIntervalSince1970: 1e12), timeZone: Self.utc) == nil)
    }

    @Test(arguments: ["2026-11-21", "0000-01-01", "9999-12-31"], CodableForm.allCases)
    func codableRoundTrip(text: String, form: CodableForm) throws {
        let day = try #require(Day(text))
        #expect(try form.roundTrip(day) == day)
        #expect(day.modelValue == .string(text))
        #expect(try Day(modelValue: day.modelValue) == day)
    }

    @Test(arguments: [
        (ModelValue.string("2026-02-30"), #"expected a day such as "2026-11-21" (year-month-day), found a string ("2026-02-30")"#),
        (.string("21/11/2026"), #"expected a day such as "2026-11-21" (year-month-day), found a string ("21/11/2026")"#),
        (.int(20_261_121), #"expected a Day such as "2026-11-21", found an integer (20261121)"#),
        (.date(Date(timeIntervalSince1970: 0)), #"expected a Day such as "2026-11-21", found a date (1970-01-01T00:00:00Z)"#),
    ])
    func badInputIsAnError(value: ModelValue, message: String) {
        expectModelError(Day.self, from: value, message)
        expectModelError([String: Day].self, from: ["due": value], "due: " + message)
    }

    @Test func codableRejectsBadText() {
        expectDecodingError(
            Day.self, json: #"["2026-11-31"]"#,
            #"expected a day such as "2026-11-21" (year-month-day), found a string ("2026-11-31")"#)
    }
}

@Suite struct TimeOfDayTests {
    static let utc = TimeZone(identifier: "UTC")!

    @Test(arguments: [
        ("14:30:00", 14, 30, 0, "14:30:00"), ("14:30", 14, 30, 0, "14:30:00"), ("00:00", 0, 0, 0, "00:00:00"),
        ("23:59:59", 23, 59, 59, "23:59:59"), ("09:05:07", 9, 5, 7, "09:05:07"),
    ])
    func textReadsBack(text: String, hour: Int, minute: Int, second: Int, description: String) throws {
        let time = try #require(TimeOfDay(text))
        #expect(time == TimeOfDay(hour: hour, minute: minute, second: second))
        #expect(time.description == description)
        #expect(TimeOfDay(time.description) == time)
    }

    @Test(arguments: [
        "", "9:05", "14:3", "14:30:0", "24:00", "23:60", "23:59:60", "14.30", "14:30:00.5", "14:30:00Z", "2pm",
        " 14:30", "14:30:", "143000",
    ])
    func badTextIsRejected(text: String) {
        #expect(TimeOfDay(text) == nil)
    }

    @Test func fieldsAreValidated() {
        #expect(TimeOfDay(hour: -1, minute: 0) == nil)
        #expect(TimeOfDay(hour: 24, minute: 0) == nil)
        #expect(TimeOfDay(hour: 0, minute: 60) == nil)
        #expect(TimeOfDay(hour: 0, minute: 0, second: 60) == nil)
        #expect(TimeOfDay(secondsSinceMidnight: 86_400) == nil)
        #expect(TimeOfDay(secondsSinceMidnight: 3_661)?.description == "01:01:01")
        #expect(TimeOfDay.noon.secondsSinceMidnight == 43_200)
        #expect(TimeOfDay.midnight < TimeOfDay.noon)
    }

    @Test(arguments: [("UTC", "15:33:20"), ("Asia/Kolkata", "21:03:20"), ("America/New_York", "10:33:20")])
    func dateConvertsInTheGivenTimeZone(zone: String, expected: String) throws {
        let moment = Date(timeIntervalSince1970: 1_763_307_200.75)
        #expect(TimeOfDay(moment, timeZone: try #require(TimeZone(identifier: zone))).description == expected)
    }

    @Test func combinesWithADay() throws {
        let paris = try #require(TimeZone(identifier: "Europe/Paris"))
        let day = try #require(Day("2025-11-16"))
        let time = try #require(TimeOfDay("14:30"))
        let moment = time.date(on: day, timeZone: paris)
        #expect(moment == ISO8601DateText.date(from: "2025-11-16T14:30:00+01:00"))
        #expect(Day(moment, timeZone: paris) == day)
        #expect(TimeOfDay(moment, timeZone: paris) == time)
    }

    @Test func daylightSavingGapsAndOverlaps() throws {
        let newYork = try #require(TimeZone(identifier: "America/New_York"))
        let skipped = try #require(TimeOfDay("02:30")).date(on: try #require(Day("2025-03-09")), timeZone: newYork)
        #expect(skipped == ISO8601DateText.date(from: "2025-03-09T03:30:00-04:00"))
        let twice = try #require(TimeOfDay("01:30")).date(on: try #require(Day("2025-11-02")), timeZone: newYork)
        #expect(twice == ISO8601DateText.date(from: "2025-11-02T01:30:00-04:00"))
    }

    @Test(arguments: ["14:30:00", "00:00:00", "23:59:59"], CodableForm.allCases)
    func codableRoundTrip(text: String, form: CodableForm) throws {
        let time = try #require(TimeOfDay(text))
        #expect(try form.roundTrip(time) == time)
        #expect(time.modelValue == .string(text))
        #expect(try TimeOfDay(modelValue: time.modelValue) == time)
    }

    @Test func readingAcceptsTextWithoutSeconds() throws {
        #expect(try TimeOfDay(modelValue: "07:45") == TimeOfDay(hour: 7, minute: 45))
    }

    @Test(arguments: [
        (ModelValue.string("25:00"), #"expected a time of day such as "14:30:00" or "14:30", found a string ("25:00")"#),
        (.string("2:30 PM"), #"expected a time of day such as "14:30:00" or "14:30", found a string ("2:30 PM")"#),
        (.double(14.5), #"expected a TimeOfDay such as "14:30:00", found a floating-point number (14.5)"#),
    ])
    func badInputIsAnError(value: ModelValue, message: String) {
        expectModelError(TimeOfDay.self, from: value, message)
        expectModelError([TimeOfDay].self, from: [value], "[0]: " + message)
    }

    @Test func codableRejectsBadText() {
        expectDecodingError(
            TimeOfDay.self, json: #"["7:45"]"#,
            #"expected a time of day such as "14:30:00" or "14:30", found a string ("7:45")"#)
    }
}
