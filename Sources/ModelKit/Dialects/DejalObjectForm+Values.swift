import Foundation

/// DejalObject's value classes, read into and written from ModelKit's value
/// types. What ModelKit's types cannot hold is not in the value:
/// `DejalInterval`'s `extraValues`, `DejalTime`'s `timeZoneName` (a
/// ``TimeOfDay`` has no time zone) and `DejalData`'s `dataClass` (the bytes
/// are kept as they are, an archive of that class); a model of a
/// ``SavedDialect/dejalObject`` class keeps them beside the value
/// (`DejalObjectForm+Keeping.swift`).
extension DejalObjectForm {
    static let colorClass = "DejalColor"
    static let dateClass = "DejalDate"
    static let intervalClass = "DejalInterval"
    static let timeClass = "DejalTime"
    static let dataClass = "DejalData"

    // MARK: - Reading

    /// A `DejalColor` dictionary's colour.
    static func color(from object: ModelValue.Object) throws -> Color {
        func component(_ key: String, default fallback: Double?) throws -> Double {
            guard let value = object[key] else {
                if let fallback { return fallback }
                throw ModelError.invalidValue("expected a number from 0 to 1, found nothing").prepending(.key(key))
            }
            switch value {
            case .int, .double, .bigInteger:
                guard let number = value.doubleValue, (0...1).contains(number) else {
                    throw ModelError.invalidValue("expected a number from 0 to 1, found \(value.numberText)")
                        .prepending(.key(key))
                }
                return number
            default:
                throw ModelError.typeMismatch(expected: "a number from 0 to 1", found: value).prepending(.key(key))
            }
        }
        return Color(
            red: try component("red", default: nil), green: try component("green", default: nil),
            blue: try component("blue", default: nil), alpha: try component("alpha", default: 1))
    }

    /// A `DejalDate` dictionary's date, or `nil` for no date: no `string`,
    /// or one starting `0001-01-01` or `1899-12-30`. As DejalDate reads it,
    /// a fraction of a second is dropped and a missing `Z` assumed.
    static func date(from object: ModelValue.Object) throws -> Date? {
        let expected = "a date such as \"2026-11-21T14:30:00Z\""
        guard var text = try string("string", in: object, expected: expected), !text.isEmpty,
            !text.hasPrefix("0001-01-01"), !text.hasPrefix("1899-12-30")
        else { return nil }
        let original = text
        if let dot = text.firstIndex(of: ".") { text = String(text[..<dot]) }
        if !text.hasSuffix("Z") { text += "Z" }
        guard text.utf8.count == 20, let date = ISO8601DateText.date(from: text) else {
            throw ModelError.invalidValue(
                "expected a date such as \"2026-11-21T14:30:00Z\" (yyyy-MM-dd'T'HH:mm:ss'Z'), found "
                    + ModelValue.string(original).excerpt
            ).prepending(.key("string"))
        }
        return date
    }

    /// Whether `object` is a `DejalDate` dictionary with no date (a
    /// malformed one is not: reading it as a `Date` reports it).
    static func isNoDate(_ object: ModelValue.Object) -> Bool {
        guard case .string(dateClass)? = object[classNameKey] else { return false }
        do {
            return try date(from: object) == nil
        } catch {
            return false
        }
    }

    /// A `DejalInterval` dictionary's interval. Units 0 to 7 are seconds,
    /// minutes, hours, days, weeks, months, quarters and years; 8 is
    /// ``Interval/never``, 9 ``Interval/forever``. A range (`usingRange`)
    /// runs from `firstAmount` to `secondAmount`; a single amount is
    /// `secondAmount`, which DejalInterval sets with `firstAmount`.
    static func interval(from object: ModelValue.Object) throws -> Interval {
        let units = try integer("units", in: object, expected: "a units number from 0 to 9") ?? 0
        let unitsInOrder: [Interval.Unit] = [.seconds, .minutes, .hours, .days, .weeks, .months, .quarters, .years]
        switch units {
        case 8: return .never
        case 9: return .forever
        case 0..<8: break
        default:
            throw ModelError.invalidValue(
                "expected a units number from 0 (seconds) to 9 (forever), found \(units)"
            ).prepending(.key("units"))
        }
        let unit = unitsInOrder[units]
        let expected = "a whole amount of zero or more"
        let usingRange: Bool
        switch object["usingRange"] {
        case nil: usingRange = false
        case .bool(let flag)?: usingRange = flag
        case .int(let number)?: usingRange = number != 0
        case let other?: throw ModelError.typeMismatch(expected: "a Bool", found: other).prepending(.key("usingRange"))
        }
        func amount(_ key: String) throws -> Double {
            let number = try integer(key, in: object, expected: expected) ?? 0
            guard number >= 0 else {
                throw ModelError.invalidValue("expected \(expected), found \(number)").prepending(.key(key))
            }
            return Double(number)
        }
        let second = try amount("secondAmount")
        guard usingRange else { return Interval(second, unit) }
        let first = try amount("firstAmount")
        guard first <= second else {
            throw ModelError.invalidValue(
                "expected a firstAmount no greater than the secondAmount (\(Int(second))), found \(Int(first))"
            ).prepending(.key("firstAmount"))
        }
        return Interval(first...second, unit)
    }

    /// A `DejalTime` dictionary's time of day.
    static func time(from object: ModelValue.Object) throws -> TimeOfDay {
        let hour = try integer("hour", in: object, expected: "an hour from 0 to 23") ?? 0
        let minute = try integer("minute", in: object, expected: "a minute from 0 to 59") ?? 0
        let second = try integer("second", in: object, expected: "a second from 0 to 59") ?? 0
        _ = try string("timeZoneName", in: object, expected: "a time zone name")
        guard let time = TimeOfDay(hour: hour, minute: minute, second: second) else {
            throw ModelError.invalidValue(
                "expected a time of day (hour 0 to 23, minute and second 0 to 59), found \(hour):\(minute):\(second)")
        }
        return time
    }

    /// A `DejalData` dictionary's bytes.
    static func data(from object: ModelValue.Object) throws -> Data {
        let text = try string("string", in: object, expected: "Base64 text") ?? ""
        guard let data = Data(base64Encoded: text) else {
            throw ModelError.invalidValue("expected Base64 text, found \(ModelValue.string(text).excerpt)")
                .prepending(.key("string"))
        }
        if let length = try integer("length", in: object, expected: "a byte count"), length != data.count {
            throw ModelError.invalidValue("expected the length of the data, \(data.count), found \(length)")
                .prepending(.key("length"))
        }
        return data
    }

    // MARK: - Writing

    /// A `DejalColor` dictionary.
    static func dictionary(of color: Color) -> ModelValue {
        var object = header(colorClass)
        object.appendNew(key: "red", value: number(color.red))
        object.appendNew(key: "green", value: number(color.green))
        object.appendNew(key: "blue", value: number(color.blue))
        object.appendNew(key: "alpha", value: number(color.alpha))
        return .object(object)
    }

    /// A `DejalDate` dictionary: the whole second the date falls in, as
    /// DejalDate's formatter writes it.
    static func dictionary(of date: Date) -> ModelValue {
        var object = header(dateClass)
        if let text = ISO8601DateText.propertyListString(from: date) {
            object.appendNew(key: "string", value: .string(text))
        }
        return .object(object)
    }

    /// A `DejalInterval` dictionary. DejalInterval's amounts are whole
    /// numbers: an amount with a fraction is written in the largest smaller
    /// unit that makes it whole (1.5 hours as 90 minutes), else rounded to
    /// whole seconds.
    static func dictionary(of interval: Interval) -> ModelValue {
        var object = header(intervalClass)
        let unitsInOrder: [Interval.Unit] = [.seconds, .minutes, .hours, .days, .weeks, .months, .quarters, .years]
        var first = 0.0
        var second = 0.0
        var units = 8
        if interval.isForever {
            units = 9
        } else if let unit = interval.unit {
            let range = interval.amountRange
            units = unitsInOrder.firstIndex(of: unit)!
            first = range.lowerBound
            second = range.upperBound
            func isWhole(_ number: Double) -> Bool { abs(number - number.rounded()) < 1e-9 }
            while units > 0, !isWhole(first) || !isWhole(second) {
                units -= 1
                let ratio = unit.seconds / unitsInOrder[units].seconds
                first = range.lowerBound * ratio
                second = range.upperBound * ratio
            }
            first = first.rounded()
            second = second.rounded()
        }
        object.appendNew(key: "usingRange", value: .bool(first != second))
        object.appendNew(key: "firstAmount", value: number(first))
        object.appendNew(key: "secondAmount", value: number(second))
        object.appendNew(key: "units", value: .int(units))
        return .object(object)
    }

    /// A `DejalTime` dictionary, with no time zone (the local one, as
    /// DejalTime reads a missing `timeZoneName`).
    static func dictionary(of time: TimeOfDay) -> ModelValue {
        var object = header(timeClass)
        object.appendNew(key: "hour", value: .int(time.hour))
        object.appendNew(key: "minute", value: .int(time.minute))
        object.appendNew(key: "second", value: .int(time.second))
        return .object(object)
    }

    /// A `DejalData` dictionary.
    static func dictionary(of data: Data) -> ModelValue {
        var object = header(dataClass)
        object.appendNew(key: "length", value: .int(data.count))
        object.appendNew(key: "string", value: .string(data.base64EncodedString()))
        return .object(object)
    }

    /// The value of a saved property as DejalObject saves it: colours,
    /// dates, intervals, times of day and data (alone, optional or in
    /// arrays) as their value classes' dictionaries; other values in their
    /// ModelKit form (`encoded`). A nil value stays `null` in the saved form
    /// (merges and patches need every saved key); documents leave it out
    /// (``leavingOutNils(_:)``), as DejalObject leaves out nil properties.
    static func savedValue(_ value: Any, encoded: () -> ModelValue) -> ModelValue {
        switch value {
        case let color as Color: return dictionary(of: color)
        case let date as Date: return dictionary(of: date)
        case let interval as Interval: return dictionary(of: interval)
        case let time as TimeOfDay: return dictionary(of: time)
        case let data as Data: return dictionary(of: data)
        case let colors as [Color]: return .array(colors.map(dictionary(of:)))
        case let dates as [Date]: return .array(dates.map(dictionary(of:)))
        case let intervals as [Interval]: return .array(intervals.map(dictionary(of:)))
        case let times as [TimeOfDay]: return .array(times.map(dictionary(of:)))
        case let data as [Data]: return .array(data.map(dictionary(of:)))
        default: return encoded()
        }
    }

    /// `members` with the `null` members of every DejalObject dictionary in
    /// it (one with a `representedClassName`) left out, as DejalObject's
    /// `-dictionary` leaves out nil properties: what documents of a
    /// ``SavedDialect/dejalObject`` class hold.
    static func leavingOutNils(_ members: ModelValue.Object) -> ModelValue.Object {
        leavingOutNils(members, depth: 0)
    }

    /// The same at nesting level `depth`: one level of recursion per
    /// container, under ``StackGuard``, so a deep chain of models is written
    /// on a small stack too.
    private static func leavingOutNils(_ members: ModelValue.Object, depth: Int) -> ModelValue.Object {
        let isDejal = members[classNameKey] != nil
        var result = ModelValue.Object(minimumCapacity: members.count)
        for (index, (key, value)) in members.enumerated() {
            if isDejal, case .null = value { continue }
            result.appendNew(key: key, value: leavingOutNils(value, depth: depth + 1))
            if let text = members.text(at: index) { result.setText(text, at: result.count - 1) }
        }
        return result
    }

    private static func leavingOutNils(_ value: ModelValue, depth: Int) -> ModelValue {
        switch value {
        case .object(let members):
            StackGuard.descending(depth) { .object(leavingOutNils(members, depth: depth)) }
        case .array(let elements):
            StackGuard.descending(depth) { .array(elements.map { leavingOutNils($0, depth: depth + 1) }) }
        default: value
        }
    }
}
