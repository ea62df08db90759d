import Foundation

extension TimeOfDay {
    /// The time that the wall clock of `timeZone` shows at `date`, to the
    /// whole second (a fraction of a second is dropped).
    ///
    /// ```swift
    /// let moment = Date(timeIntervalSince1970: 1_763_307_200.75)   // 2025-11-16T15:33:20.75Z
    /// print(TimeOfDay(moment, timeZone: TimeZone(identifier: "UTC")!))            // 15:33:20
    /// print(TimeOfDay(moment, timeZone: TimeZone(identifier: "Asia/Kolkata")!))   // 21:03:20
    /// ```
    ///
    /// - Parameters:
    ///   - date: the moment.
    ///   - calendar: the calendar, as for ``Day/init(_:calendar:timeZone:)``.
    ///   - timeZone: the time zone whose clock is read; the device's unless given.
    public init(_ date: Date, calendar: Calendar = Calendar(identifier: .gregorian), timeZone: TimeZone = .current) {
        let calendar = Day.gregorian(calendar, timeZone: timeZone)
        let fields = calendar.dateComponents([.hour, .minute, .second], from: date)
        let seconds = (fields.hour ?? 0) * 3_600 + (fields.minute ?? 0) * 60 + (fields.second ?? 0)
        self = TimeOfDay(secondsSinceMidnight: seconds) ?? .midnight
    }

    /// The moment this time falls on `day` in `timeZone`.
    ///
    /// A time skipped by a daylight-saving change (02:30 on the night clocks
    /// go forward an hour) gives the moment an hour later on the new clock
    /// (03:30); a time that occurs twice when clocks go back gives the first.
    ///
    /// ```swift
    /// let paris = TimeZone(identifier: "Europe/Paris")!
    /// print(TimeOfDay("14:30")!.date(on: Day("2025-11-16")!, timeZone: paris))   // 2025-11-16 13:30:00 +0000
    /// ```
    ///
    /// - Parameters:
    ///   - day: the calendar date.
    ///   - calendar: the calendar, as for ``Day/init(_:calendar:timeZone:)``.
    ///   - timeZone: the time zone; the device's unless given.
    /// - Returns: the moment.
    public func date(
        on day: Day, calendar: Calendar = Calendar(identifier: .gregorian), timeZone: TimeZone = .current
    ) -> Date {
        day.date(secondsSinceMidnight: secondsSinceMidnight, calendar: Day.gregorian(calendar, timeZone: timeZone))
    }
}
