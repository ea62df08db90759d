import Foundation

extension Date: ModelValueConvertible {
    /// Reads a date, or an ISO 8601 string (the form dates take in JSON):
    /// `yyyy-MM-ddTHH:mm:ss` with whole seconds or a fraction of any length,
    /// then `Z` or a `±hh:mm` offset; under a seconds or milliseconds
    /// ``DateStrategy``, also a number (seconds since 2001 under
    /// ``DateStrategy/deferredToDate``, since 1970 under the others); or
    /// DejalObject's `DejalDate` dictionary.
    ///
    /// ```swift
    /// let date = try Date(modelValue: "2025-11-16T16:33:20.5+01:00")
    /// print(date.timeIntervalSince1970)   // 1763307200.5
    /// ```
    ///
    /// - Throws: ``ModelError`` for a string in any other form (naming a
    ///   missing time zone when that is the problem), or a number under the
    ///   default strategy.
    public init(modelValue: ModelValue) throws {
        switch modelValue {
        case .date(let value):
            self = value
        case .string(let text):
            guard let value = ISO8601DateText.date(from: text) else {
                // The commonest mistake is a local time with no zone: say so.
                let hint =
                    ISO8601DateText.date(from: text + "Z") != nil
                    ? " with no time zone (add Z or an offset such as +01:00)" : ""
                throw ModelError(
                    code: .invalidValue,
                    message:
                        "expected an ISO 8601 date such as \"2025-11-16T15:33:20Z\", found \(modelValue.excerpt)\(hint)")
            }
            self = value
        case .int, .double, .bigInteger:
            let strategy = CodingContext.current.dateStrategy
            guard strategy != .iso8601 else {
                throw ModelError.typeMismatch(
                    expected: "Date (an ISO 8601 string; a number needs a date strategy: deferredToDate for seconds since "
                        + "2001, JSONEncoder's default, or secondsSince1970 or millisecondsSince1970)",
                    found: modelValue)
            }
            guard let number = modelValue.doubleValue, number.isFinite else {
                throw ModelError.typeMismatch(expected: "Date", found: modelValue)
            }
            switch strategy {
            case .deferredToDate: self = Date(timeIntervalSinceReferenceDate: number)
            case .millisecondsSince1970: self = Date(timeIntervalSince1970: number / 1000)
            default: self = Date(timeIntervalSince1970: number)
            }
        case .object(let object):
            // DejalObject's DejalDate; one with no date is nil, which only an optional holds.
            guard let dejal = try DejalObjectForm.members(of: object, as: DejalObjectForm.dateClass) else {
                throw ModelError.typeMismatch(expected: "Date", found: modelValue)
            }
            guard let date = try DejalObjectForm.date(from: dejal) else {
                throw ModelError.invalidValue(
                    "expected a date, found a DejalDate with no date, which only an optional Date (Date?) can hold")
            }
            self = date
        default:
            throw ModelError.typeMismatch(expected: "Date", found: modelValue)
        }
    }

    /// A date under the default strategy; a number of seconds or milliseconds
    /// since 1970, or of seconds since 2001, under the others.
    public var modelValue: ModelValue {
        switch CodingContext.current.dateStrategy {
        case .iso8601: .date(self)
        case .secondsSince1970: .double(timeIntervalSince1970)
        case .deferredToDate: .double(timeIntervalSinceReferenceDate)
        case .millisecondsSince1970:
            // A date too far away for an integer count keeps its number as a double rather than trapping.
            Int(exactly: (timeIntervalSince1970 * 1000).rounded()).map(ModelValue.int)
                ?? .double((timeIntervalSince1970 * 1000).rounded())
        }
    }
}
