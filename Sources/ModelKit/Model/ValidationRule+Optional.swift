import Foundation

// Rules on optional properties: each checks the value when there is one, with
// the message of the same rule on the wrapped type, and lets `nil` pass. Each
// keeps the rule's JSON Schema constraint, which an optional's schema applies
// to its non-null values (`{"type": ["integer", "null"], "minimum": 1}`).

extension ValidationRule {
    /// `rule` on the wrapped value; `nil` passes.
    init<Wrapped>(checkingWrapped rule: ValidationRule<Wrapped>) where Value == Wrapped? {
        self.init { value in value.flatMap(rule.failure) }
        constraint = rule.constraint
    }

    /// The value, when there is one, lies in `range`; `nil` passes:
    /// `@Saved(rules: .range(1...5)) var stars: Int? = nil`.
    ///
    /// - Parameter range: The values allowed, bounds included.
    /// - Returns: The rule, whose message for a value out of range is the
    ///   same as for a property that is not optional
    ///   (`must be at most 5, found 7`).
    public static func range<Wrapped: Comparable & Sendable>(_ range: ClosedRange<Wrapped>) -> Self
    where Value == Wrapped? {
        Self(checkingWrapped: .range(range))
    }

    /// The string or collection, when there is one, has at most `count`
    /// characters (elements); `nil` passes:
    /// `@Saved(rules: .maxLength(40)) var nickname: String? = nil`.
    ///
    /// - Parameter count: The greatest length allowed.
    /// - Returns: The rule, with the message of `maxLength(_:)` on the
    ///   wrapped type.
    public static func maxLength<Wrapped: Collection & Sendable>(_ count: Int) -> Self where Value == Wrapped? {
        Self(checkingWrapped: .maxLength(count))
    }

    /// A rule with a fixed `message` for values that fail `isValid`, which
    /// is given the value when there is one; `nil` passes:
    /// `@Saved(rules: .check("must be even") { $0 % 2 == 0 }) var pairs: Int? = nil`.
    ///
    /// Swift chooses this rule whenever the closure can take the value
    /// (`{ $0 == "A" }` on a `String?`); a closure that needs the optional
    /// itself (`{ $0 != nil }`) makes the rule of the unconstrained
    /// `check(_:_:)`, which also sees `nil`.
    ///
    /// - Parameters:
    ///   - message: The failure message.
    ///   - isValid: Whether a value (never `nil`) is valid.
    /// - Returns: The rule.
    public static func check<Wrapped>(_ message: String, _ isValid: @escaping @Sendable (Wrapped) -> Bool) -> Self
    where Value == Wrapped? {
        Self(checkingWrapped: .check(message, isValid))
    }
}

extension ValidationRule where Value == String? {
    /// The string, when there is one, is not empty; `nil` passes:
    /// `@Saved(rules: .nonEmpty) var nickname: String? = nil`.
    public static var nonEmpty: Self {
        Self(checkingWrapped: ValidationRule<String>.nonEmpty)
    }

    /// The whole string, when there is one, matches the regular expression
    /// `pattern`; `nil` passes:
    /// `@Saved(rules: .pattern("[A-Z]{2}-[0-9]{3}")) var plate: String? = nil`.
    ///
    /// - Parameter pattern: The regular expression (`NSRegularExpression`
    ///   syntax); an invalid pattern fails every string, saying so.
    /// - Returns: The rule, with the message of `pattern(_:)` on `String`.
    public static func pattern(_ pattern: String) -> Self {
        Self(checkingWrapped: ValidationRule<String>.pattern(pattern))
    }
}
