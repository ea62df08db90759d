import Foundation
import Testing

@testable import ModelKit

/// A model holding every value type of issue 4.
final class Planner: ModelObject, @unchecked Sendable {
    @Saved var colour: Color = .blue
    @Saved var highlight: Color? = nil
    @Saved var snooze = Interval(5, .minutes)
    @Saved var window = Interval(2...4, .hours)
    @Saved var repeats: Interval = .never
    @Saved var due = Day(year: 2026, month: 11, day: 21)!
    @Saved var alarm = TimeOfDay(hour: 7, minute: 30)!
    @Saved var updated = Date(timeIntervalSince1970: 0)
    @Saved var steps: [Interval] = []
    @Saved var holidays: [String: Day] = [:]
}

/// The four forms a model is saved in.
enum ModelForm: String, CaseIterable, CustomTestStringConvertible {
    case dictionary, json, xmlPropertyList, binaryPropertyList

    var testDescription: String { rawValue }

    func roundTrip(_ planner: Planner) throws -> Planner {
        switch self {
        case .dictionary:
            return try Planner(dictionary: planner.dictionary)
        case .json:
            // ModelObject's own JSON methods are not on main yet; this goes
            // through the same ModelValue JSON codec they will use.
            let data = try planner.modelValue.jsonData()
            return try Planner.decoded(from: ModelValue(json: data))
        case .xmlPropertyList:
            return try Planner(propertyList: planner.propertyListData(format: .xml))
        case .binaryPropertyList:
            return try Planner(propertyList: planner.propertyListData(format: .binary))
        }
    }
}

@Suite struct ValueRoundTripTests {
    static func filledPlanner() -> Planner {
        let planner = Planner()
        planner.colour = Color(red: 0.1, green: 0.2, blue: 0.30000000000000004, alpha: 0.123456789)
        planner.highlight = .clear
        planner.snooze = Interval(1.5, .hours)
        planner.window = Interval(0.25...1e300, .quarters)
        planner.repeats = .forever
        planner.due = Day(year: 2024, month: 2, day: 29)!
        planner.alarm = TimeOfDay(hour: 23, minute: 59, second: 59)!
        planner.updated = Date(timeIntervalSince1970: 1_763_307_200.123456)
        planner.steps = [.never, Interval(1, .months), Interval(3...7, .days)]
        planner.holidays = ["new year": Day(year: 2027, month: 1, day: 1)!, "zero": Day(year: 0, month: 1, day: 1)!]
        return planner
    }

    @Test(arguments: ModelForm.allCases)
    func everyValueTypeRoundTripsExactly(form: ModelForm) throws {
        let planner = Self.filledPlanner()
        let back = try form.roundTrip(planner)
        #expect(back.colour == planner.colour)
        #expect(back.highlight == planner.highlight)
        #expect(back.snooze == planner.snooze)
        #expect(back.window == planner.window)
        #expect(back.repeats == planner.repeats)
        #expect(back.due == planner.due)
        #expect(back.alarm == planner.alarm)
        #expect(back.steps == planner.steps)
        #expect(back.holidays == planner.holidays)
        #expect(back.modelValue == planner.modelValue || form == .json || form == .xmlPropertyList)
    }

    /// Every form but XML keeps microseconds; XML holds whole seconds, the
    /// form other readers accept.
    @Test(arguments: ModelForm.allCases)
    func datesRoundTripToTheMicrosecond(form: ModelForm) throws {
        let planner = Self.filledPlanner()
        let back = try form.roundTrip(planner)
        let text = ISO8601DateText.string(from: back.updated)
        if form == .xmlPropertyList {
            #expect(text == "2025-11-16T15:33:20Z")
            #expect(back.updated == wholeSeconds(planner.updated))
        } else {
            #expect(text == "2025-11-16T15:33:20.123456Z", "the \(form.rawValue) form should keep microseconds")
            #expect(back.updated == planner.updated)
        }
    }

    @Test(arguments: ModelForm.allCases)
    func defaultsRoundTrip(form: ModelForm) throws {
        let back = try form.roundTrip(Planner())
        #expect(back.colour == .blue)
        #expect(back.highlight == nil)
        #expect(back.snooze == Interval(5, .minutes))
        #expect(back.repeats == .never)
    }

    @Test func jsonFormIsReadable() throws {
        let planner = Planner()
        planner.steps = [Interval(2...4, .hours), .never]
        let json = String(decoding: try planner.modelValue["steps"]!.jsonData(), as: UTF8.self)
        #expect(json == #"[{"from":2.0,"to":4.0,"unit":"hours"},"never"]"#)
        let alarm = String(decoding: try ModelValue.array([planner.alarm.modelValue, planner.due.modelValue]).jsonData(), as: UTF8.self)
        #expect(alarm == #"["07:30:00","2026-11-21"]"#)
    }

    static let badInputs: [(ModelValue, String)] = [
        (["colour": ["red": 0, "green": 1.5, "blue": 0]], "colour.green: expected a number from 0 to 1, found 1.5"),
        (["highlight": "#12"], ##"highlight: expected a hex colour such as "#FF8000" or "#FF800080", found a string ("#12")"##),
        (["snooze": ["amount": -5, "unit": "minutes"]], "snooze.amount: expected an amount of zero or more, found -5"),
        (
            ["steps": ["never", ["from": 4, "to": 2, "unit": "days"]]],
            "steps[1]: expected a range whose lower amount is no greater than its upper one, found 4 to 2"
        ),
        (["due": "2026-02-30"], #"due: expected a day such as "2026-11-21" (year-month-day), found a string ("2026-02-30")"#),
        (["holidays": ["x": 5]], #"holidays.x: expected a Day such as "2026-11-21", found an integer (5)"#),
        (["alarm": "7:30"], #"alarm: expected a time of day such as "14:30:00" or "14:30", found a string ("7:30")"#),
        (
            ["updated": "2025-11-16 15:33:20Z"],
            #"updated: expected an ISO 8601 date such as "2025-11-16T15:33:20Z", found a string ("2025-11-16 15:33:20Z")"#
        ),
    ]

    @Test(arguments: badInputs)
    func badValuesInAModelNameTheKeyPath(input: ModelValue, message: String) {
        do {
            _ = try Planner.decoded(from: input)
            Issue.record("expected an error")
        } catch let error as ModelError {
            #expect(error.description == message)
        } catch {
            Issue.record("expected a ModelError, got \(error)")
        }
    }

    @Test func badValuesInADictionaryNameTheKeyPath() {
        #expect {
            try Planner(dictionary: ["window": ["amount": 2, "unit": "fortnights"]])
        } throws: {
            ($0 as? ModelError)?.description
                == #"window.unit: expected a unit (one of "seconds", "minutes", "hours", "days", "weeks", "months", "quarters", "years"), found a string ("fortnights")"#
        }
    }

    @Test func textFormsAreAcceptedInJSON() throws {
        let json = ##"{"colour":"#FF0000","snooze":"10 mins","window":"1-2 days","updated":"2025-11-16T16:33:20.5+01:00"}"##
        let planner = try Planner.decoded(from: ModelValue(json: Data(json.utf8)))
        #expect(planner.colour == .red)
        #expect(planner.snooze == Interval(10, .minutes))
        #expect(planner.window == Interval(1...2, .days))
        #expect(planner.updated == Date(timeIntervalSince1970: 1_763_307_200.5))
    }
}
