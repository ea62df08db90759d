/// A time on a clock, with no date and no time zone: `14:30:00`.
///
/// A `TimeOfDay` names a time the way a person does, such as an alarm or
/// opening hours, so it stays 14:30 wherever the device goes. It counts whole
/// seconds from `00:00:00` to `23:59:59`. Convert to and from `Date` with a
/// day and a time zone: see ``init(_:calendar:timeZone:)`` and
/// ``date(on:calendar:timeZone:)``.
///
/// ```swift
/// let alarm = TimeOfDay(hour: 7, minute: 30)!
/// print(alarm)                                 // 07:30:00
/// print(TimeOfDay("14:30")! > alarm)           // true
/// print(TimeOfDay("24:00") as Any)             // nil
/// ```
///
/// The saved form is the text with seconds, `"14:30:00"`.
public struct TimeOfDay: Sendable, Hashable {
    /// The hour, from 0 to 23.
    public let hour: Int
    /// The minute, from 0 to 59.
    public let minute: Int
    /// The second, from 0 to 59.
    public let second: Int

    /// The time with the given fields, or `nil` if one is out of range.
    ///
    /// ```swift
    /// print(TimeOfDay(hour: 23, minute: 59, second: 59)!)   // 23:59:59
    /// print(TimeOfDay(hour: 12, minute: 60) as Any)         // nil
    /// ```
    ///
    /// - Parameters:
    ///   - hour: the hour, from 0 to 23.
    ///   - minute: the minute, from 0 to 59.
    ///   - second: the second, from 0 to 59; 0 unless given.
    public init?(hour: Int, minute: Int, second: Int = 0) {
        guard (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else { return nil }
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// The time that `text` names, or `nil` if it is not one.
    ///
    /// Accepts `HH:mm` and `HH:mm:ss`, each field two digits, on a 24-hour clock.
    ///
    /// ```swift
    /// print(TimeOfDay("09:05")!)      // 09:05:00
    /// print(TimeOfDay("9:05") as Any) // nil
    /// ```
    ///
    /// - Parameter text: the text to read.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 5 || bytes.count == 8, bytes[2] == UInt8(ascii: ":"),
            let hour = Day.number(bytes[0..<2]), let minute = Day.number(bytes[3..<5])
        else { return nil }
        var second = 0
        if bytes.count == 8 {
            guard bytes[5] == UInt8(ascii: ":"), let parsed = Day.number(bytes[6..<8]) else { return nil }
            second = parsed
        }
        self.init(hour: hour, minute: minute, second: second)
    }

    /// The time `seconds` after midnight, or `nil` unless `seconds` is in
    /// `0..<86_400`.
    ///
    /// ```swift
    /// print(TimeOfDay(secondsSinceMidnight: 3_661)!)   // 01:01:01
    /// ```
    public init?(secondsSinceMidnight seconds: Int) {
        guard (0..<86_400).contains(seconds) else { return nil }
        self.init(hour: seconds / 3_600, minute: seconds / 60 % 60, second: seconds % 60)
    }

    /// The number of seconds since midnight, from 0 to 86 399.
    public var secondsSinceMidnight: Int { hour * 3_600 + minute * 60 + second }

    /// Midnight, `00:00:00`.
    public static let midnight = TimeOfDay(hour: 0, minute: 0)!

    /// Noon, `12:00:00`.
    public static let noon = TimeOfDay(hour: 12, minute: 0)!
}

extension TimeOfDay: Comparable {
    /// Earlier times come first.
    public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool {
        lhs.secondsSinceMidnight < rhs.secondsSinceMidnight
    }
}

extension TimeOfDay: CustomStringConvertible, LosslessStringConvertible {
    /// The time as `HH:mm:ss` on a 24-hour clock: `14:30:00`.
    public var description: String {
        func padded(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        return padded(hour) + ":" + padded(minute) + ":" + padded(second)
    }
}
