import Foundation

extension Bool: ModelValueConvertible {
    /// Reads a value of this type from its saved form.
    /// - Throws: ``ModelError`` when `modelValue` is not such a value.
    public init(modelValue: ModelValue) throws {
        guard case .bool(let value) = modelValue else {
            throw ModelError.typeMismatch(expected: "Bool", found: modelValue)
        }
        self = value
    }

    /// The saved form of this value.
    public var modelValue: ModelValue { .bool(self) }
}

extension String: ModelValueConvertible {
    /// Reads a value of this type from its saved form.
    /// - Throws: ``ModelError`` when `modelValue` is not such a value.
    public init(modelValue: ModelValue) throws {
        guard case .string(let value) = modelValue else {
            throw ModelError.typeMismatch(expected: "String", found: modelValue)
        }
        self = value
    }

    /// The saved form of this value.
    public var modelValue: ModelValue { .string(self) }
}

/// Integers accept integers, and floating-point numbers with no fractional part.
extension ModelValueConvertible where Self: FixedWidthInteger {
    /// Reads a value of this type from its saved form.
    /// - Throws: ``ModelError`` when `modelValue` is not such a value.
    public init(modelValue: ModelValue) throws { self = try IntegerConversion.value(from: modelValue) }
    /// The saved form of this value.
    public var modelValue: ModelValue { IntegerConversion.modelValue(of: self) }
}

/// The same for integers that are also `Codable` (all of the standard
/// library's): more specific than the `Codable` default, so integers keep
/// their own conversion.
extension ModelValueConvertible where Self: FixedWidthInteger & Codable {
    /// Reads a value of this type from its saved form.
    /// - Throws: ``ModelError`` when `modelValue` is not such a value.
    public init(modelValue: ModelValue) throws { self = try IntegerConversion.value(from: modelValue) }
    /// The saved form of this value.
    public var modelValue: ModelValue { IntegerConversion.modelValue(of: self) }
}

/// The conversion of every fixed-width integer type.
enum IntegerConversion {
    static func value<Integer: FixedWidthInteger>(from modelValue: ModelValue) throws -> Integer {
        switch modelValue {
        case .int(let value):
            guard let exact = Integer(exactly: value) else {
                throw ModelError.numberOutOfRange(expected: "\(Integer.self)", found: modelValue)
            }
            return exact
        case .bigInteger(let digits):
            guard let exact = Integer(digits) else {
                throw ModelError.numberOutOfRange(expected: "\(Integer.self)", found: modelValue)
            }
            return exact
        case .double(let value):
            guard value.rounded(.towardZero) == value else {
                throw ModelError.typeMismatch(expected: "\(Integer.self)", found: modelValue)
            }
            guard let exact = Integer(exactly: value) else {
                throw ModelError.numberOutOfRange(expected: "\(Integer.self)", found: modelValue)
            }
            return exact
        default:
            throw ModelError.typeMismatch(expected: "\(Integer.self)", found: modelValue)
        }
    }

    static func modelValue<Integer: FixedWidthInteger>(of value: Integer) -> ModelValue {
        if let small = Int(exactly: value) { return .int(small) }
        return .bigInteger(String(value))
    }
}

extension Int: ModelValueConvertible {
    /// Reads a value of this type from its saved form.
    /// - Throws: ``ModelError`` when `modelValue` is not such a value.
    public init(modelValue: ModelValue) throws {
        // The common case first, without the generic path.
        if case .int(let value) = modelValue {
            self = value
            return
        }
        try self.init(integerModelValue: modelValue)
    }

    private init(integerModelValue modelValue: ModelValue) throws {
        switch modelValue {
        case .bigInteger:
            throw ModelError.numberOutOfRange(expected: "Int", found: modelValue)
        case .double(let value):
            guard value.rounded(.towardZero) == value else {
                throw ModelError.typeMismatch(expected: "Int", found: modelValue)
            }
            guard let exact = Int(exactly: value) else {
                throw ModelError.numberOutOfRange(expected: "Int", found: modelValue)
            }
            self = exact
        default:
            throw ModelError.typeMismatch(expected: "Int", found: modelValue)
        }
    }

    /// The saved form of this value.
    public var modelValue: ModelValue { .int(self) }
}

extension Int8: ModelValueConvertible {}
extension Int16: ModelValueConvertible {}
extension Int32: ModelValueConvertible {}
extension Int64: ModelValueConvertible {}
extension UInt: ModelValueConvertible {}
extension UInt8: ModelValueConvertible {}
extension UInt16: ModelValueConvertible {}
extension UInt32: ModelValueConvertible {}
extension UInt64: ModelValueConvertible {}

extension Double: ModelValueConvertible {
    /// Reads a value of this type from its saved form.
    /// - Throws: ``ModelError`` when `modelValue` is not such a value.
    public init(modelValue: ModelValue) throws {
        switch modelValue {
        case .double(let value): self = value
        case .int(let value): self = Double(value)
        case .bigInteger(let digits):
            guard let value = Double(digits), value.isFinite else {
                throw ModelError.numberOutOfRange(expected: "Double", found: modelValue)
            }
            self = value
        default: throw ModelError.typeMismatch(expected: "Double", found: modelValue)
        }
    }

    /// The saved form of this value.
    public var modelValue: ModelValue { .double(self) }
}

extension Float: ModelValueConvertible {
    /// Reads a value of this type from its saved form.
    /// - Throws: ``ModelError`` when `modelValue` is not such a value.
    public init(modelValue: ModelValue) throws {
        let wide = try Double(modelValue: modelValue)
        // Refused only when the nearest Float is infinite: the shortest text of
        // `Float.greatestFiniteMagnitude` (3.4028235e+38), read as a Double,
        // lies just above it and must read back as it.
        let narrow = Float(wide)
        guard !wide.isFinite || narrow.isFinite else {
            throw ModelError.numberOutOfRange(expected: "Float", found: modelValue)
        }
        self = narrow
    }

    /// Saved as the `Double` with the same shortest decimal text, so `0.1` stays `0.1`.
    public var modelValue: ModelValue {
        guard isFinite else { return .double(Double(self)) }
        return .double(Double("\(self)") ?? Double(self))
    }
}

extension Data: ModelValueConvertible {
    /// Accepts data, a base64 string (the form data takes in JSON), or
    /// DejalObject's `DejalData` dictionary.
    public init(modelValue: ModelValue) throws {
        switch modelValue {
        case .data(let value): self = value
        case .string(let text):
            guard let value = Data(base64Encoded: text) else {
                throw ModelError(
                    code: .invalidValue, message: "expected base64-encoded Data, found \(modelValue.excerpt)")
            }
            self = value
        case .object(let object):
            guard let dejal = try DejalObjectForm.members(of: object, as: DejalObjectForm.dataClass) else {
                throw ModelError.typeMismatch(expected: "Data", found: modelValue)
            }
            self = try DejalObjectForm.data(from: dejal)
        default: throw ModelError.typeMismatch(expected: "Data", found: modelValue)
        }
    }

    /// The saved form of this value.
    public var modelValue: ModelValue { .data(self) }
}

extension URL: ModelValueConvertible {
    /// Saved as its absolute string.
    public init(modelValue: ModelValue) throws {
        guard case .string(let text) = modelValue else {
            throw ModelError.typeMismatch(expected: "URL", found: modelValue)
        }
        guard !text.isEmpty, let url = URL(string: text) else {
            throw ModelError(code: .invalidValue, message: "expected a URL, found \(modelValue.excerpt)")
        }
        self = url
    }

    /// The saved form of this value.
    public var modelValue: ModelValue { .string(absoluteString) }
}

extension UUID: ModelValueConvertible {
    /// Saved as its canonical upper-case string.
    public init(modelValue: ModelValue) throws {
        guard case .string(let text) = modelValue else {
            throw ModelError.typeMismatch(expected: "UUID", found: modelValue)
        }
        guard let uuid = UUID(uuidString: text) else {
            throw ModelError(code: .invalidValue, message: "expected a UUID, found \(modelValue.excerpt)")
        }
        self = uuid
    }

    /// The saved form of this value.
    public var modelValue: ModelValue { .string(uuidString) }
}

extension Decimal: ModelValueConvertible {
    /// Saved as its exact decimal string (`"19.99"`), which no binary
    /// floating-point number can be; reading also accepts numbers.
    public init(modelValue: ModelValue) throws {
        switch modelValue {
        case .string(let text):
            guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), !value.isNaN,
                text.allSatisfy({ "0123456789.-+eE".contains($0) })
            else {
                throw ModelError(code: .invalidValue, message: "expected a decimal number, found \(modelValue.excerpt)")
            }
            self = value
        case .int(let value): self = Decimal(value)
        case .bigInteger(let digits):
            guard let value = Decimal(string: digits, locale: Locale(identifier: "en_US_POSIX")) else {
                throw ModelError.numberOutOfRange(expected: "Decimal", found: modelValue)
            }
            self = value
        case .double(let value):
            guard value.isFinite, let exact = Decimal(string: "\(value)", locale: Locale(identifier: "en_US_POSIX"))
            else { throw ModelError.numberOutOfRange(expected: "Decimal", found: modelValue) }
            self = exact
        default: throw ModelError.typeMismatch(expected: "Decimal", found: modelValue)
        }
    }

    /// The saved form of this value.
    public var modelValue: ModelValue { .string(NSDecimalNumber(decimal: self).stringValue) }
}

/// Enums (and other raw-value types) conform by declaring `ModelValueConvertible`;
/// they are saved as their raw value.
extension ModelValueConvertible where Self: RawRepresentable, RawValue: ModelValueConvertible {
    /// Reads a value of this type from its saved form.
    /// - Throws: ``ModelError`` when `modelValue` is not such a value.
    public init(modelValue: ModelValue) throws {
        let raw = try RawValue(modelValue: modelValue)
        guard let value = Self(rawValue: raw) else {
            throw ModelError(
                code: .invalidValue,
                message: "expected \(RawRepresentableNames.describe(Self.self)), found \(modelValue.excerpt)")
        }
        self = value
    }

    /// The saved form of this value.
    public var modelValue: ModelValue { rawValue.modelValue }
}

enum RawRepresentableNames {
    /// "a Priority (one of \"low\", \"normal\", \"high\")", listing the cases when there are few.
    static func describe<T: RawRepresentable>(_ type: T.Type) -> String where T.RawValue: ModelValueConvertible {
        guard let iterable = type as? any CaseIterable.Type else { return "a \(type) raw value" }
        let cases = iterable.allCases as any Collection
        var names: [String] = []
        for element in cases {
            guard let value = element as? T else { continue }
            names.append(value.rawValue.modelValue.description)
            if names.count > 12 { return "a \(type) raw value" }
        }
        return "a \(type) (one of \(names.joined(separator: ", ")))"
    }
}
