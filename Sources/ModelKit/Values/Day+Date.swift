import Foundation

extension Day {
    /// The day on which `date` falls in `timeZone`, or `nil` if that is
    /// outside years 0 to 9999.
    ///
    /// ```swift
    /// let moment = Date(timeIntervalSince1970: 1_763_307_200)   // 2025-11-16T15:33:20Z
    /// print(Day(moment, timeZone: TimeZone(identifier: "UTC")!)!)               // 2025-11-16
    /// print(Day(moment, timeZone: TimeZone(identifier: "Pacific/Auckland")!)!)  // 2025-11-17
    /// ```
    ///
    /// - Parameters:
    ///   - date: the moment.
    ///   - calendar: the calendar to read the date in. A day's fields are
    ///     Gregorian, so a calendar of another kind is replaced by a Gregorian
    ///     one; the calendar's own time zone is ignored in favour of `timeZone`.
    ///   - timeZone: the time zone whose wall clock decides the day; the
    ///     device's unless given.
    public init?(_ date: Date, calendar: Calendar = Calendar(identifier: .gregorian), timeZone: TimeZone = .current) {
        let calendar = Day.gregorian(calendar, timeZone: timeZone)
        let fields = calendar.dateComponents([.era, .year, .month, .day], from: date)
        guard let era = fields.era, let year = fields.year, let month = fields.month, let day = fields.day
        else { return nil }
        self.init(year: era == 0 ? 1 - year : year, month: month, day: day)
    }

    /// The first moment of this day in `timeZone`: midnight, or when
    /// midnight is skipped by a daylight-saving change, the first moment after it.
    ///
    /// ```swift
    /// let day = Day("2025-11-16")!
    /// print(day.startDate(timeZone: TimeZone(identifier: "Europe/Paris")!))   // 2025-11-15 23:00:00 +0000
    /// ```
    ///
    /// - Parameters:
    ///   - calendar: the calendar, as for ``init(_:calendar:timeZone:)``.
    ///   - timeZone: the time zone; the device's unless given.
    /// - Returns: the moment the day begins.
    public func startDate(calendar: Calendar = Calendar(identifier: .gregorian), timeZone: TimeZone = .current) -> Date {
        let calendar = Day.gregorian(calendar, timeZone: timeZone)
        let moment = date(secondsSinceMidnight: 0, calendar: calendar)
        return calendar.startOfDay(for: moment)
    }

    /// The moment `seconds` after this day's midnight on the wall clock of
    /// `calendar`'s time zone.
    func date(secondsSinceMidnight seconds: Int, calendar: Calendar) -> Date {
        let fields = DateComponents(
            era: year > 0 ? 1 : 0, year: year > 0 ? year : 1 - year, month: month, day: day,
            hour: seconds / 3_600, minute: seconds / 60 % 60, second: seconds % 60)
        if let date = calendar.date(from: fields) { return date }
        // Calendars read every date in years 0 to 9999; should one not, take the
        // time zone's offset at that moment instead.
        let local = Double(daysSince1970 * 86_400 + seconds)
        let offset = calendar.timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: local))
        return Date(timeIntervalSince1970: local - Double(offset))
    }

    /// `calendar` if it is Gregorian, otherwise a Gregorian calendar; in `timeZone`.
    static func gregorian(_ calendar: Calendar, timeZone: TimeZone) -> Calendar {
        var result =
            calendar.identifier == .gregorian || calendar.identifier == .iso8601
            ? calendar : Calendar(identifier: .gregorian)
        result.timeZone = timeZone
        return result
    }
}
