/// A calendar date with no time and no time zone: `2026-11-21`.
///
/// A `Day` names a date the way a person does, such as a birthday or a due
/// date, so it does not move when the device's time zone changes. Its fields
/// are those of the Gregorian calendar (as in ISO 8601), for years 0 to 9999.
/// Convert to and from `Date` with a time zone: see ``init(_:calendar:timeZone:)``
/// and ``startDate(calendar:timeZone:)``.
///
/// ```swift
/// let due = Day(year: 2026, month: 11, day: 21)!
/// print(due)                                        // 2026-11-21
/// print(Day("2024-02-29")! < Day("2024-03-01")!)    // true
/// print(Day(year: 2025, month: 2, day: 29) as Any)  // nil
/// ```
///
/// The saved form is the text, `"2026-11-21"`.
public struct Day: Sendable, Hashable {
    /// The year, from 0 to 9999 (year 0 is 1 BC, as in ISO 8601).
    public let year: Int
    /// The month, from 1 (January) to 12.
    public let month: Int
    /// The day of the month, from 1.
    public let day: Int

    /// The day with the given fields, or `nil` if there is no such date.
    ///
    /// ```swift
    /// print(Day(year: 2024, month: 2, day: 29)!)        // 2024-02-29
    /// print(Day(year: 2023, month: 2, day: 29) as Any)  // nil
    /// ```
    ///
    /// - Parameters:
    ///   - year: the year, from 0 to 9999.
    ///   - month: the month, from 1 to 12.
    ///   - day: the day of the month, from 1 to the month's length.
    public init?(year: Int, month: Int, day: Int) {
        guard (0...9999).contains(year), (1...12).contains(month), day >= 1,
            day <= ISO8601DateText.daysInMonth(year: Int64(year), month: Int64(month))
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The day that `text` names, or `nil` if it is not one.
    ///
    /// Accepts exactly the form ``description`` writes: a four-digit year,
    /// a two-digit month and a two-digit day joined by hyphens.
    ///
    /// ```swift
    /// print(Day("2026-11-21")!.month)   // 11
    /// print(Day("2026-1-5") as Any)     // nil
    /// ```
    ///
    /// - Parameter text: the text to read.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = Day.number(bytes[0..<4]), let month = Day.number(bytes[5..<7]),
            let day = Day.number(bytes[8..<10])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The decimal value of `digits`, or `nil` if any byte is not a digit.
    static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar.
    var daysSince1970: Int {
        Int(ISO8601DateText.days(fromCivil: Int64(year), month: Int64(month), day: Int64(day)))
    }
}

extension Day: Comparable {
    /// Earlier days come first.
    public static func < (lhs: Day, rhs: Day) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}

extension Day: CustomStringConvertible, LosslessStringConvertible {
    /// The day as `yyyy-MM-dd`: `2026-11-21`.
    public var description: String {
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return padded(year, 4) + "-" + padded(month, 2) + "-" + padded(day, 2)
    }
}
