import Foundation

extension Date: ModelValueConvertible {
    /// Reads a date, or an ISO 8601 string (the form dates take in JSON) with
    /// whole or fractional seconds and `Z` or a `±hh:mm` offset; under a
    /// seconds or milliseconds ``DateStrategy``, also a number.
    public init(modelValue: ModelValue) throws {
        switch modelValue {
        case .date(let value):
            self = value
        case .string(let text):
            guard let value = ISO8601DateText.date(from: text) else {
                throw ModelError(
                    code: .invalidValue,
                    message: "expected an ISO 8601 date such as \"2025-11-16T15:33:20Z\", found \(modelValue.excerpt)")
            }
            self = value
        case .int, .double, .bigInteger:
            let strategy = CodingContext.current.dateStrategy
            guard strategy != .iso8601, let number = modelValue.doubleValue, number.isFinite else {
                throw ModelError.typeMismatch(expected: "Date", found: modelValue)
            }
            self = Date(timeIntervalSince1970: strategy == .millisecondsSince1970 ? number / 1000 : number)
        default:
            throw ModelError.typeMismatch(expected: "Date", found: modelValue)
        }
    }

    /// A date under the default strategy; a number of seconds or milliseconds
    /// since 1970 under the others.
    public var modelValue: ModelValue {
        switch CodingContext.current.dateStrategy {
        case .iso8601: .date(self)
        case .secondsSince1970: .double(timeIntervalSince1970)
        case .millisecondsSince1970: .int(Int((timeIntervalSince1970 * 1000).rounded()))
        }
    }
}
