import Foundation

extension Interval {
    /// The date this interval after `date`, counting days, weeks, months,
    /// quarters and years in `calendar`.
    ///
    /// Seconds, minutes and hours are fixed lengths. Days and longer units
    /// follow the calendar: one day after 09:00 is 09:00 the next day even
    /// across a daylight-saving change, and a month after 31 January 2024 is
    /// 29 February, the last day of the shorter month. A fractional part of a
    /// calendar unit is added as its fixed length (``Unit/seconds-enum.case``) after the
    /// whole units. A range uses its lower amount.
    ///
    /// ```swift
    /// var calendar = Calendar(identifier: .gregorian)
    /// calendar.timeZone = TimeZone(identifier: "UTC")!
    /// let end = calendar.date(from: DateComponents(year: 2024, month: 1, day: 31))!
    /// print(Interval(1, .months).date(after: end, calendar: calendar)!)   // 2024-02-29 00:00:00 +0000
    /// ```
    ///
    /// - Parameters:
    ///   - date: the date to count from.
    ///   - calendar: the calendar, with its time zone, for days and longer units.
    /// - Returns: the later date, or `nil` for ``never`` and ``forever`` and
    ///   for dates the calendar cannot represent.
    public func date(after date: Date, calendar: Calendar = .current) -> Date? {
        offset(date, direction: 1, calendar: calendar)
    }

    /// The date this interval before `date`, counting days, weeks, months,
    /// quarters and years in `calendar`.
    ///
    /// The reverse of ``date(after:calendar:)``: one month before 31 March
    /// 2024 is 29 February.
    ///
    /// ```swift
    /// var calendar = Calendar(identifier: .gregorian)
    /// calendar.timeZone = TimeZone(identifier: "UTC")!
    /// let start = calendar.date(from: DateComponents(year: 2024, month: 3, day: 31))!
    /// print(Interval(1, .months).date(before: start, calendar: calendar)!)   // 2024-02-29 00:00:00 +0000
    /// ```
    ///
    /// - Parameters:
    ///   - date: the date to count back from.
    ///   - calendar: the calendar, with its time zone, for days and longer units.
    /// - Returns: the earlier date, or `nil` for ``never`` and ``forever`` and
    ///   for dates the calendar cannot represent.
    public func date(before date: Date, calendar: Calendar = .current) -> Date? {
        offset(date, direction: -1, calendar: calendar)
    }

    private func offset(_ date: Date, direction: Int, calendar: Calendar) -> Date? {
        guard case .amounts(let amount, _, let unit) = storage else { return nil }
        let component: Calendar.Component
        let perUnit: Int
        switch unit {
        case .seconds, .minutes, .hours:
            return date.addingTimeInterval(Double(direction) * amount * unit.seconds)
        case .days: (component, perUnit) = (.day, 1)
        case .weeks: (component, perUnit) = (.day, 7)
        case .months: (component, perUnit) = (.month, 1)
        case .quarters: (component, perUnit) = (.month, 3)
        case .years: (component, perUnit) = (.year, 1)
        }
        let whole = amount.rounded(.down)
        // Far beyond any calendar's range; also keeps the conversion to Int safe.
        guard whole < 1.0e9 else { return nil }
        let fraction = amount - whole
        var moved = date
        if whole > 0 {
            guard let shifted = calendar.date(byAdding: component, value: direction * Int(whole) * perUnit, to: date)
            else { return nil }
            moved = shifted
        }
        return fraction == 0 ? moved : moved.addingTimeInterval(Double(direction) * fraction * unit.seconds)
    }
}
