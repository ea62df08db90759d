import Foundation

extension ModelValue: ExpressibleByNilLiteral {
    /// Null, from `nil`.
    public init(nilLiteral: ()) { self = .null }
}

extension ModelValue: ExpressibleByBooleanLiteral {
    /// A Boolean from a literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension ModelValue: ExpressibleByIntegerLiteral {
    /// An integer from a literal.
    public init(integerLiteral value: Int) { self = .int(value) }
}

extension ModelValue: ExpressibleByFloatLiteral {
    /// A floating-point number from a literal.
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension ModelValue: ExpressibleByStringLiteral {
    /// A value from a string literal.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension ModelValue: ExpressibleByArrayLiteral {
    /// An array from a literal.
    public init(arrayLiteral elements: ModelValue...) { self = .array(elements) }
}

extension ModelValue: ExpressibleByDictionaryLiteral {
    /// An object from a literal, its keys in the literal's order.
    public init(dictionaryLiteral elements: (String, ModelValue)...) {
        self = .object(Object(elements))
    }
}
