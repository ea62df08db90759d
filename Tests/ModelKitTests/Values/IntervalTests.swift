import Foundation
import Testing

@testable import ModelKit

@Suite struct IntervalTests {
    static let lengths: [(Interval, Double)] = [
        (Interval(30, .seconds), 30), (Interval(5, .minutes), 300), (Interval(1, .hours), 3_600),
        (Interval(1.5, .days), 129_600), (Interval(1, .weeks), 604_800),
        (Interval(1, .months), 365.2425 * 86_400 / 12), (Interval(1, .quarters), 365.2425 * 86_400 / 4),
        (Interval(2, .years), 2 * 365.2425 * 86_400), (.never, 0), (.forever, .infinity),
    ]

    @Test(arguments: lengths)
    func secondsUseFixedLengths(interval: Interval, seconds: Double) {
        #expect(interval.seconds == seconds)
        #expect(interval.secondsRange == seconds...seconds)
    }

    @Test func quartersAreThreeMonthsAndYearsTwelve() {
        #expect(Interval(1, .quarters).seconds == 3 * Interval(1, .months).seconds)
        #expect(Interval(1, .years).seconds == 12 * Interval(1, .months).seconds)
    }

    @Test func rangesHaveASecondsRange() {
        let range = Interval(2...4, .hours)
        #expect(range.isRange)
        #expect(range.amountRange == 2...4)
        #expect(range.amount == 2)
        #expect(range.unit == .hours)
        #expect(range.secondsRange == 7_200...14_400)
        #expect(range.seconds == 7_200)
        #expect(Interval(3...3, .days) == Interval(3, .days))
        #expect(!Interval(3...3, .days).isRange)
    }

    @Test func neverAndForever() {
        #expect(Interval.never.isNever && !Interval.never.isForever)
        #expect(Interval.forever.isForever && !Interval.forever.isNever)
        #expect(Interval.never.unit == nil)
        #expect(Interval.forever.amount == .infinity)
        #expect(Interval.never != Interval(0, .seconds))
    }

    @Test func durationIsTheFixedLength() {
        #expect(Interval(1.5, .minutes).duration == .seconds(90))
        #expect(Interval(2...4, .hours).duration == .seconds(7_200))
        #expect(Interval.never.duration == .zero)
        #expect(Interval.forever.duration == nil)
        #expect(Interval(1e15, .years).duration == nil)
    }

    @Test func validatingInitialisersRejectNegativeAndInvertedAmounts() throws {
        #expect(try Interval(validating: 5, .minutes) == Interval(5, .minutes))
        #expect(try Interval(validatingFrom: 2, to: 4, .hours) == Interval(2...4, .hours))
        let cases: [(() throws -> Interval, String)] = [
            ({ try Interval(validating: -5, .minutes) }, "expected an amount of zero or more, found -5"),
            ({ try Interval(validating: .infinity, .minutes) }, "expected an amount of zero or more, found inf"),
            ({ try Interval(validating: .nan, .minutes) }, "expected an amount of zero or more, found nan"),
            ({ try Interval(validatingFrom: -1, to: 4, .hours) }, "expected an amount of zero or more, found -1"),
            (
                { try Interval(validatingFrom: 4, to: 2.5, .hours) },
                "expected a range whose lower amount is no greater than its upper one, found 4 to 2.5"
            ),
        ]
        for (make, message) in cases {
            #expect {
                try make()
            } throws: {
                ($0 as? ModelError)?.description == message
            }
        }
    }

    // MARK: Text

    static let descriptions: [(Interval, String, String)] = [
        (Interval(5, .minutes), "5 minutes", "5 mins"),
        (Interval(1, .hours), "1 hour", "1 hr"),
        (Interval(1, .weeks), "1 week", "1 wk"),
        (Interval(2...4, .hours), "2–4 hours", "2–4 hrs"),
        (Interval(1...2, .days), "1–2 days", "1–2 days"),
        (Interval(3, .months), "3 months", "3 mths"),
        (Interval(1, .quarters), "1 quarter", "1 qtr"),
        (Interval(2, .years), "2 years", "2 yrs"),
        (Interval(30, .seconds), "30 seconds", "30 secs"),
        (Interval(1, .seconds), "1 second", "1 sec"),
        (Interval(1, .days), "1 day", "1 day"),
        (Interval(0, .minutes), "0 minutes", "0 mins"),
        (Interval(1.5, .hours), "1.5 hours", "1.5 hrs"),
        (Interval(0.00001, .years), "1e-05 years", "1e-05 yrs"),
        (.never, "never", "never"),
        (.forever, "forever", "forever"),
    ]

    @Test(arguments: descriptions)
    func descriptionsReadBack(interval: Interval, description: String, brief: String) {
        #expect(interval.description == description)
        #expect(interval.briefDescription == brief)
        #expect(Interval(description) == interval)
        #expect(Interval(brief) == interval)
    }

    static let parsedTexts: [(String, Interval)] = [
        ("5 MINUTES", Interval(5, .minutes)),
        ("5 minute", Interval(5, .minutes)),
        ("1 hours", Interval(1, .hours)),
        ("  2 - 4 hours  ", Interval(2...4, .hours)),
        ("2-4 Hrs", Interval(2...4, .hours)),
        ("2–4 hr", Interval(2...4, .hours)),
        ("10mins", Interval(10, .minutes)),
        ("0.25 days", Interval(0.25, .days)),
        (".5 wk", Interval(0.5, .weeks)),
        ("3 QTRS", Interval(3, .quarters)),
        ("Never", .never),
        ("FOREVER", .forever),
    ]

    @Test(arguments: parsedTexts)
    func parsingIsForgiving(text: String, expected: Interval) {
        #expect(Interval(text) == expected)
    }

    @Test(arguments: [
        "", "5", "minutes", "-5 minutes", "5 fortnights", "4–2 hours", "2–4", "2 – hours", "5 minutes ago",
        "five minutes", "1e400 years", "2-4-6 hours", "never ever", "5 m", "nan hours", "inf minutes",
    ])
    func parsingRejectsOtherText(text: String) {
        #expect(Interval(text) == nil)
    }

    // MARK: Order

    @Test func intervalsAreOrderedByLength() {
        let sorted: [Interval] = [
            .never, Interval(0, .seconds), Interval(0, .hours), Interval(59, .seconds), Interval(60, .seconds),
            Interval(1, .minutes), Interval(1...2, .minutes), Interval(2, .minutes), Interval(1, .days),
            Interval(1, .years), .forever,
        ]
        #expect(sorted.shuffled().sorted() == sorted)
        for (index, earlier) in sorted.enumerated() {
            for later in sorted[(index + 1)...] {
                #expect(earlier < later)
                #expect(!(later < earlier))
            }
            #expect(!(earlier < earlier))
        }
        #expect(Interval(90, .minutes) > Interval(1, .hours))
    }

    // MARK: Calendar

    static var utc: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }

    static func date(_ text: String) -> Date { ISO8601DateText.date(from: text)! }

    static let calendarCases: [(Interval, String, String)] = [
        (Interval(1, .months), "2024-01-31T00:00:00Z", "2024-02-29T00:00:00Z"),
        (Interval(1, .months), "2023-01-31T12:00:00Z", "2023-02-28T12:00:00Z"),
        (Interval(1, .quarters), "2024-11-30T00:00:00Z", "2025-02-28T00:00:00Z"),
        (Interval(1, .years), "2024-02-29T00:00:00Z", "2025-02-28T00:00:00Z"),
        (Interval(2, .weeks), "2024-12-25T08:00:00Z", "2025-01-08T08:00:00Z"),
        (Interval(1.5, .days), "2024-01-01T00:00:00Z", "2024-01-02T12:00:00Z"),
        (Interval(90, .minutes), "2024-01-01T23:00:00Z", "2024-01-02T00:30:00Z"),
        (Interval(2...4, .hours), "2024-01-01T00:00:00Z", "2024-01-01T02:00:00Z"),
    ]

    @Test(arguments: calendarCases)
    func calendarArithmetic(interval: Interval, start: String, end: String) {
        #expect(interval.date(after: Self.date(start), calendar: Self.utc) == Self.date(end))
    }

    @Test func dateBeforeCountsBackwards() {
        let march31 = Self.date("2024-03-31T00:00:00Z")
        #expect(Interval(1, .months).date(before: march31, calendar: Self.utc) == Self.date("2024-02-29T00:00:00Z"))
        #expect(Interval(30, .seconds).date(before: march31, calendar: Self.utc) == Self.date("2024-03-30T23:59:30Z"))
        #expect(Interval.never.date(before: march31, calendar: Self.utc) == nil)
    }

    @Test func daysFollowTheWallClockAcrossDaylightSaving() {
        var newYork = Calendar(identifier: .gregorian)
        newYork.timeZone = TimeZone(identifier: "America/New_York")!
        let before = Self.date("2025-03-08T14:00:00Z")  // 09:00 EST
        #expect(Interval(1, .days).date(after: before, calendar: newYork) == Self.date("2025-03-09T13:00:00Z"))
        #expect(Interval(24, .hours).date(after: before, calendar: newYork) == Self.date("2025-03-09T14:00:00Z"))
    }

    @Test func neverAndForeverHaveNoDate() {
        #expect(Interval.never.date(after: .now) == nil)
        #expect(Interval.forever.date(after: .now) == nil)
    }

    // MARK: Saved form

    static let savedForms: [(Interval, ModelValue)] = [
        (Interval(5, .minutes), ["amount": 5.0, "unit": "minutes"]),
        (Interval(1.5, .hours), ["amount": 1.5, "unit": "hours"]),
        (Interval(2...4, .quarters), ["from": 2.0, "to": 4.0, "unit": "quarters"]),
        (.never, "never"),
        (.forever, "forever"),
    ]

    @Test(arguments: savedForms)
    func savedFormNamesTheUnit(interval: Interval, saved: ModelValue) throws {
        #expect(interval.modelValue == saved)
        #expect(try Interval(modelValue: saved) == interval)
    }

    static let roundTripIntervals: [Interval] =
        Interval.Unit.allCases.map { Interval(0.1 + 0.2, $0) } + [
            Interval(2...4, .hours), Interval(0, .seconds), .never, .forever, Interval(1e300, .years),
        ]

    @Test(arguments: roundTripIntervals, CodableForm.allCases)
    func codableRoundTripIsExact(interval: Interval, form: CodableForm) throws {
        #expect(try form.roundTrip(interval) == interval)
    }

    @Test(arguments: roundTripIntervals)
    func modelValueRoundTripIsExact(interval: Interval) throws {
        #expect(try Interval(modelValue: interval.modelValue) == interval)
    }

    static let acceptedInputs: [(ModelValue, Interval)] = [
        (["amount": 5, "unit": "minutes"], Interval(5, .minutes)),
        (["unit": "Hour", "amount": 1], Interval(1, .hours)),
        (["from": 2, "to": 2, "unit": "days"], Interval(2, .days)),
        ("2-4 hrs", Interval(2...4, .hours)),
        ("5 minutes", Interval(5, .minutes)),
    ]

    @Test(arguments: acceptedInputs)
    func readingAcceptsObjectsAndText(value: ModelValue, expected: Interval) throws {
        #expect(try Interval(modelValue: value) == expected)
    }

    static let rejectedInputs: [(ModelValue, String)] = [
        (["amount": -5, "unit": "minutes"], "amount: expected an amount of zero or more, found -5"),
        (["amount": "5", "unit": "minutes"], #"amount: expected an amount of zero or more, found a string ("5")"#),
        (["amount": .double(.infinity), "unit": "minutes"], "amount: expected an amount of zero or more, found inf"),
        (
            ["amount": 5, "unit": "fortnights"],
            #"unit: expected a unit (one of "seconds", "minutes", "hours", "days", "weeks", "months", "quarters", "years"), found a string ("fortnights")"#
        ),
        (
            ["amount": 5, "unit": 3],
            #"unit: expected a unit (one of "seconds", "minutes", "hours", "days", "weeks", "months", "quarters", "years"), found an integer (3)"#
        ),
        (["amount": 5], "unit: expected a unit, found nothing"),
        (["from": 4, "to": 2, "unit": "hours"], "expected a range whose lower amount is no greater than its upper one, found 4 to 2"),
        (["from": 2, "unit": "hours"], "to: expected an amount of zero or more, found nothing"),
        (["amount": 1, "from": 2, "to": 3, "unit": "hours"], #"expected "amount" or "from" and "to", found both"#),
        (["unit": "hours"], #"expected "amount" or "from" and "to", found neither"#),
        (
            ["amount": 1, "unit": "hours", "every": 2],
            #"expected only the keys "amount" or "from" and "to", and "unit", found "every""#
        ),
        (
            "-5 minutes",
            #"expected an interval such as "5 minutes", "2–4 hours", "never" or "forever", found a string ("-5 minutes")"#
        ),
        (
            300,
            #"expected an Interval (an object of "amount" and "unit", or text such as "5 minutes"), found an integer (300)"#
        ),
    ]

    @Test(arguments: rejectedInputs)
    func badInputIsAnErrorNamingTheKey(value: ModelValue, message: String) {
        expectModelError(Interval.self, from: value, message)
    }

    @Test func errorsInsideContainersNameTheFullKeyPath() {
        let reminders: ModelValue = ["snooze": ["amount": -1, "unit": "minutes"]]
        expectModelError(
            [String: Interval].self, from: reminders, "snooze.amount: expected an amount of zero or more, found -1")
    }

    @Test func codableFormMatchesTheSavedForm() throws {
        let data = try JSONEncoder().encode(Interval(2...4, .hours))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["from"] as? Double == 2)
        #expect(object["to"] as? Double == 4)
        #expect(object["unit"] as? String == "hours")
        #expect(object.count == 3)
        #expect(String(decoding: try JSONEncoder().encode([Interval.never]), as: UTF8.self) == #"["never"]"#)
    }

    @Test func codableRejectsBadInputWithAMessage() {
        expectDecodingError(
            Interval.self, json: #"[{"amount":-2,"unit":"hours"}]"#, "expected an amount of zero or more, found -2")
        expectDecodingError(
            Interval.self, json: #"[{"from":3,"to":1,"unit":"hours"}]"#,
            "expected a range whose lower amount is no greater than its upper one, found 3 to 1")
        expectDecodingError(
            Interval.self, json: #"["soon"]"#,
            #"expected an interval such as "5 minutes", "2–4 hours", "never" or "forever", found a string ("soon")"#)
    }
}
