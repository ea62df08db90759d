import Foundation

/// ISO 8601 text for dates, without `DateFormatter` (slow, and locale-dependent).
///
/// Writes `2025-11-16T15:33:20Z`, or `2025-11-16T15:33:20.123456Z` when the
/// fraction of a second, rounded to the microsecond, is not zero (and asked
/// for), in the proleptic Gregorian calendar; years outside 0000...9999 in
/// ISO 8601's expanded form, a sign and six digits or more
/// (`-004713-11-24T12:00:00Z`, `+010000-01-01T00:00:00Z`).
/// Reads exactly that form: `yyyy-MM-ddTHH:mm:ss` (or the expanded year), whole seconds or a `.`
/// and a fraction of any length (rounded to the microsecond), then `Z` or a
/// `±hh:mm` or `±hh:mm:ss` offset. Anything else (a space or lower-case `t`, a comma, a
/// missing or compact offset, a leap second, a date that does not exist) is
/// rejected.
enum ISO8601DateText {
    /// Seconds from 1970-01-01 to 2001-01-01, Foundation's reference date.
    static let referenceOffset: Int64 = 978_307_200

    /// The text of `date`: with its fraction of a second (rounded to the
    /// microsecond) when it has one and `fractionalSeconds` is set, else the
    /// whole second it falls in; years outside 0...9999 in the expanded form.
    /// For descriptions; documents use ``standardString(from:fractionalSeconds:)``.
    static func string(from date: Date, fractionalSeconds: Bool = true) -> String {
        guard let parts = parts(of: date, fractionalSeconds: fractionalSeconds) else {
            return "\(date.timeIntervalSince1970)"
        }
        return format(parts)
    }

    /// The text of `date` as other readers accept it, or `nil` when its year
    /// (after rounding) is outside 0001...9999, which RFC 3339 and most
    /// readers do not accept.
    static func standardString(from date: Date, fractionalSeconds: Bool = true) -> String? {
        guard let parts = parts(of: date, fractionalSeconds: fractionalSeconds), (1...9999).contains(parts.year)
        else { return nil }
        return format(parts)
    }

    /// The text of `date` in documents: as ``standardString(from:fractionalSeconds:)``
    /// for the years 0001...9999, year 0 as `0000`, and other years in the
    /// expanded form, which RFC 3339 readers (Foundation's `.iso8601`,
    /// Python's `fromisoformat`) do not accept; `nil` only for a date that
    /// is not finite or is more than about 285 million years from 2001.
    static func documentString(from date: Date) -> String? {
        parts(of: date, fractionalSeconds: true).map(format)
    }

    private struct Parts {
        var year: Int64, month: Int64, day: Int64, secondOfDay: Int64, micros: Int64
    }

    private static func parts(of date: Date, fractionalSeconds: Bool) -> Parts? {
        // Split in the reference date's frame, where the Date's own Double
        // lives: going through timeIntervalSince1970 first adds 978,307,200 s
        // and rounds, which can move the microsecond.
        let sinceReference = date.timeIntervalSinceReferenceDate
        guard sinceReference.isFinite, abs(sinceReference) < 9.0e15 else { return nil }
        let whole = sinceReference.rounded(.down)
        var seconds = Int64(whole) + referenceOffset
        var fraction: Int64 = 0
        if fractionalSeconds {
            fraction = Int64(((sinceReference - whole) * 1_000_000).rounded())
            if fraction == 1_000_000 { fraction = 0; seconds += 1 }
        }
        var days = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 { secondOfDay += 86_400; days -= 1 }
        let (year, month, day) = civil(fromDays: days)
        return Parts(year: year, month: month, day: day, secondOfDay: secondOfDay, micros: fraction)
    }

    private static func format(_ parts: Parts) -> String {
        var bytes = [UInt8]()
        bytes.reserveCapacity(27)
        if parts.year < 0 || parts.year > 9999 {
            bytes.append(parts.year < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            append(Int64(abs(parts.year)), width: 6, to: &bytes)
        } else {
            append(parts.year, width: 4, to: &bytes)
        }
        bytes.append(UInt8(ascii: "-"))
        append(parts.month, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        append(parts.day, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        append(parts.secondOfDay / 3600, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        append(parts.secondOfDay / 60 % 60, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        append(parts.secondOfDay % 60, width: 2, to: &bytes)
        if parts.micros != 0 {
            bytes.append(UInt8(ascii: "."))
            append(parts.micros, width: 6, to: &bytes)
        }
        bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `value` (not negative) in decimal, with zeros in front to `width` digits.
    private static func append(_ value: Int64, width: Int, to bytes: inout [UInt8]) {
        var width = width
        var power: Int64 = 1
        for _ in 0..<width { power = power.multipliedReportingOverflow(by: 10).partialValue }
        while value >= power, width < 19 {
            width += 1
            power = power.multipliedReportingOverflow(by: 10).partialValue
        }
        var digits = [UInt8](repeating: UInt8(ascii: "0"), count: width)
        var rest = value
        var index = width - 1
        while index >= 0 {
            digits[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
            index -= 1
        }
        bytes.append(contentsOf: digits)
    }

    /// The date that `text` names, or `nil` when it is not ISO 8601 as described above.
    static func date(from text: String) -> Date? {
        var text = text
        return text.withUTF8 { date(from: $0) }
    }

    static func date(from bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        date(from: bytes, style: .iso8601)
    }

    /// The two forms of date text read.
    enum Style {
        /// ISO 8601 as described above: proleptic Gregorian, years as four
        /// digits or a sign and six or more.
        case iso8601
        /// What Foundation's XML property-list writer writes (see ``propertyListString(from:)``).
        case propertyList
    }

    static func date(from bytes: UnsafeBufferPointer<UInt8>, style: Style) -> Date? {
        var position = 0
        func digits(_ count: Int) -> Int64? {
            guard position + count <= bytes.count else { return nil }
            var value: Int64 = 0
            for _ in 0..<count {
                let byte = bytes[position]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int64(byte - 0x30)
                position += 1
            }
            return value
        }
        func expect(_ ascii: Unicode.Scalar) -> Bool {
            guard position < bytes.count, bytes[position] == UInt8(ascii: ascii) else { return false }
            position += 1
            return true
        }

        var sign: Int64 = 1
        var yearDigits = 4
        var isSigned = false
        if position < bytes.count, bytes[position] == UInt8(ascii: "-")
            || (style == .iso8601 && bytes[position] == UInt8(ascii: "+"))
        {
            sign = bytes[position] == UInt8(ascii: "-") ? -1 : 1
            position += 1
            isSigned = true
            if style == .iso8601 { yearDigits = 6 }
        }
        // More digits where the form allows them: an expanded year, or a property list's year past 9999.
        var yearEnd = position
        while yearEnd < bytes.count, yearEnd - position < 15, bytes[yearEnd] >= 0x30, bytes[yearEnd] <= 0x39 { yearEnd += 1 }
        if style == .propertyList || isSigned { yearDigits = max(yearDigits, yearEnd - position) }
        guard let writtenYear = digits(yearDigits), expect("-"),
            let writtenMonth = digits(2), expect("-"),
            let day = digits(2)
        else { return nil }
        guard expect("T") else { return nil }
        guard let hour = digits(2), expect(":"), let minute = digits(2), expect(":"), let second = digits(2)
        else { return nil }
        // A property list's fields carry into the next, as Foundation reads
        // them (`2024-01-32` is 1 February, `24:00:00` the next day): a month
        // past 12 (or 0) moves the year, and a day, hour, minute or second out
        // of its range moves the instant, since the day counts below are
        // linear in the day.
        var year = writtenYear
        var month = writtenMonth
        if style == .propertyList {
            let yearShift = floorDivide(month - 1, 12)
            month -= yearShift * 12
            year = sign * year + yearShift
            sign = year < 0 ? -1 : 1
            year = abs(year)
        }
        // Before the Gregorian reform, a property list's dates are Julian, as Foundation writes them.
        let isJulian = style == .propertyList && (sign * year, month, day) < (1582, 10, 15)
        let monthLength =
            isJulian ? (month == 2 && (sign * year) % 4 == 0 ? 29 : daysInMonth(year: 1, month: month))
            : daysInMonth(year: sign * year, month: month)
        guard style == .propertyList
            || ((1...12).contains(month) && day >= 1 && day <= monthLength && hour <= 23 && minute <= 59 && second <= 59)
        else { return nil }

        var micros: Int64 = 0
        if expect(".") {
            var scale: Int64 = 100_000
            var count = 0
            var roundUp = false
            while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 {
                let digit = Int64(bytes[position] - 0x30)
                if count < 6 {
                    micros += digit * scale
                    scale /= 10
                } else if count == 6 {
                    roundUp = digit >= 5
                }
                count += 1
                position += 1
            }
            guard count > 0 else { return nil }
            if roundUp { micros += 1 }
        }

        var offsetSeconds: Int64 = 0
        guard position < bytes.count else { return nil }
        if expect("Z") {
            offsetSeconds = 0
        } else if bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
            let offsetSign: Int64 = bytes[position] == UInt8(ascii: "-") ? -1 : 1
            position += 1
            guard let hours = digits(2), hours <= 23, expect(":"), let minutes = digits(2), minutes <= 59
            else { return nil }
            // Seconds too (`+05:21:10`), as Python writes for historical zones.
            var extraSeconds: Int64 = 0
            if expect(":") {
                guard let value = digits(2), value <= 59 else { return nil }
                extraSeconds = value
            }
            offsetSeconds = offsetSign * (hours * 3600 + minutes * 60 + extraSeconds)
        } else {
            return nil
        }
        guard position == bytes.count else { return nil }

        let days =
            isJulian
            ? self.days(fromJulian: sign * year, month: month, day: day) : self.days(fromCivil: sign * year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        let sinceReference = seconds - referenceOffset
        // One rounding, to the Double nearest the exact instant, while the
        // count of microseconds is exact in a Double (about 285 years either
        // side of 2001); further out a Double cannot hold microseconds anyway.
        let totalMicros = sinceReference.multipliedReportingOverflow(by: 1_000_000)
        if !totalMicros.overflow, abs(totalMicros.partialValue + micros) < 1 << 53 {
            return Date(timeIntervalSinceReferenceDate: Double(totalMicros.partialValue + micros) / 1_000_000)
        }
        return Date(timeIntervalSinceReferenceDate: Double(sinceReference) + Double(micros) / 1_000_000)
    }

    static func isLeapYear(_ year: Int64) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (the well-known
    /// era-based civil calendar arithmetic).
    static func days(fromCivil year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let shiftedMonth = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date `days` after 1970-01-01.
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    // MARK: - Property lists

    /// Days from 1970-01-01 to 1582-10-15, the first day of the Gregorian calendar.
    static let gregorianReform: Int64 = -141_427

    /// The text of `date` in an XML property list, as Foundation's writer
    /// (Apple's, on Linux and on Apple platforms) writes it: whole seconds
    /// (the fraction dropped), in the Gregorian calendar from 1582-10-15 and
    /// the Julian calendar before, with astronomical years of at least four
    /// digits (`0000` is 1 BC, `-0001` 2 BC, `10000` after 9999):
    /// `Date.distantPast` is `0001-01-01T00:00:00Z`. `nil` only for a date
    /// that is not finite or is more than about 285 million years from 2001.
    static func propertyListString(from date: Date) -> String? {
        let sinceReference = date.timeIntervalSinceReferenceDate
        guard sinceReference.isFinite, abs(sinceReference) < 9.0e15 else { return nil }
        let seconds = Int64(sinceReference.rounded(.down)) + referenceOffset
        var days = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 { secondOfDay += 86_400; days -= 1 }
        let (year, month, day) = days < gregorianReform ? julian(fromDays: days) : civil(fromDays: days)
        var bytes = [UInt8]()
        bytes.reserveCapacity(21)
        if year < 0 { bytes.append(UInt8(ascii: "-")) }
        append(abs(year), width: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        append(month, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        append(day, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        append(secondOfDay / 3600, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        append(secondOfDay / 60 % 60, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        append(secondOfDay % 60, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The date of property-list text: what ``propertyListString(from:)``
    /// writes, and the fractions and offsets that ``date(from:)`` reads.
    static func propertyListDate(from text: String) -> Date? {
        var text = text
        return text.withUTF8 { date(from: $0, style: .propertyList) }
    }

    /// `numerator / denominator`, rounded towards minus infinity.
    private static func floorDivide(_ numerator: Int64, _ denominator: Int64) -> Int64 {
        let quotient = numerator / denominator
        return numerator % denominator != 0 && (numerator < 0) != (denominator < 0) ? quotient - 1 : quotient
    }

    /// Days since 1970-01-01 of a date in the Julian calendar (astronomical years).
    static func days(fromJulian year: Int64, month: Int64, day: Int64) -> Int64 {
        // The Julian day number, by the usual arithmetic with March as the first month.
        let shift = month <= 2 ? 1 : 0 as Int64
        let y = year + 4800 - shift
        let m = month + 12 * shift - 3
        let julianDay = day + (153 * m + 2) / 5 + 365 * y + floorDivide(y, 4) - 32_083
        return julianDay - 2_440_588
    }

    /// The Julian-calendar date `days` after 1970-01-01 (astronomical years).
    static func julian(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let c = days + 2_440_588 + 32_082
        let d = floorDivide(4 * c + 3, 1461)
        let e = c - floorDivide(1461 * d, 4)
        let m = (5 * e + 2) / 153
        return (d - 4800 + m / 10, m + 3 - 12 * (m / 10), e - (153 * m + 2) / 5 + 1)
    }
}
