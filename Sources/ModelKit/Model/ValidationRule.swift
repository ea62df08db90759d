import Foundation

/// A rule a saved property's value must follow, declared with the property:
///
/// ```swift
/// final class Person: ModelObject, @unchecked Sendable {
///     @Saved(rules: .range(0...150)) var age = 0
///     @Saved(rules: .nonEmpty, .maxLength(40)) var name = "Ada"
///     @Saved(rules: .pattern("^[a-z]+@[a-z.]+$")) var email = "ada@example.org"
///     @Saved(rules: .check("must be even") { $0 % 2 == 0 }) var pairs = 0
///     @Saved(rules: .nonEmpty, .maxLength(20)) var nickname: String? = nil
/// }
/// ```
///
/// On an optional property, `range`, `maxLength` and `check` (and, on a
/// `String?`, `nonEmpty` and `pattern`) check the value when there is one,
/// with the same message as on the wrapped type, and let `nil` pass; a
/// `check` whose closure takes the optional itself (`{ $0 != nil }`) also
/// sees `nil`.
///
/// Rules are checked by ``ModelObject/validate()``, when data is loaded (a
/// value that breaks a rule is a decoding error naming its key path, and
/// nothing is applied) and by ``ModelObject/setValue(_:forKey:)``. Plain
/// Swift assignment (`person.age = 200`) cannot throw, so it does not check:
/// call `validate()` before saving, as ``ModelObject/write(to:format:validating:references:durability:clearingChanges:)`` does.
public struct ValidationRule<Value>: Sendable {
    /// The failure message for a value, or `nil` when the value is valid.
    let failure: @Sendable (Value) -> String?
    /// What the rule says in JSON Schema, or `nil` for a rule that a schema
    /// cannot express (``check(_:_:)`` and rules made of a closure).
    var constraint: RuleConstraint? = nil

    /// A rule made of a check that returns a message (`"must be even"`) for
    /// an invalid value and `nil` for a valid one.
    public init(_ failure: @escaping @Sendable (Value) -> String?) {
        self.failure = failure
    }

    init(constraint: RuleConstraint, _ failure: @escaping @Sendable (Value) -> String?) {
        self.failure = failure
        self.constraint = constraint
    }

    /// A rule with a fixed `message` for values that fail `isValid`.
    public static func check(_ message: String, _ isValid: @escaping @Sendable (Value) -> Bool) -> Self {
        Self { isValid($0) ? nil : message }
    }
}

extension ValidationRule where Value: Comparable & Sendable {
    /// The value lies in `range`: `must be at most 150, found 200`.
    public static func range(_ range: ClosedRange<Value>) -> Self {
        Self(constraint: .range(RuleConstraint.number(range.lowerBound), RuleConstraint.number(range.upperBound))) {
            value in
            if value < range.lowerBound { return "must be at least \(range.lowerBound), found \(value)" }
            if value > range.upperBound { return "must be at most \(range.upperBound), found \(value)" }
            return nil
        }
    }
}

extension ValidationRule where Value: Collection & Sendable {
    /// The string or collection is not empty.
    public static var nonEmpty: Self {
        Self(constraint: .nonEmpty) { $0.isEmpty ? "must not be empty" : nil }
    }

    /// The string has at most `count` characters (a collection at most
    /// `count` elements): `must be at most 40 long, found 52`.
    public static func maxLength(_ count: Int) -> Self {
        Self(constraint: .maxLength(count)) { value in value.count > count ? "must be at most \(count) long, found \(value.count)" : nil }
    }
}

extension ValidationRule where Value == String {
    /// The whole string matches the regular expression `pattern`
    /// (`NSRegularExpression` syntax); an invalid pattern fails every value,
    /// saying so.
    public static func pattern(_ pattern: String) -> Self {
        let expression = try? NSRegularExpression(pattern: pattern)
        let box = UncheckedSendable(expression)
        return Self(constraint: .pattern(pattern)) { value in
            guard let expression = box.value else { return "cannot be checked: the pattern /\(pattern)/ is invalid" }
            let range = NSRange(value.startIndex..<value.endIndex, in: value)
            let match = expression.firstMatch(in: value, options: [.anchored], range: range)
            return match?.range == range ? nil : "must match /\(pattern)/, found \(ModelValue.quoted(value))"
        }
    }
}

/// A slot's rules with the value type erased, kept in the class layout.
protocol SlotValidator: Sendable {
    /// The message of every rule `value` breaks.
    func failures(of value: Any) -> [String]
    /// What each rule says in JSON Schema, `nil` for a rule no schema can say.
    var constraints: [RuleConstraint?] { get }
}

struct TypedSlotValidator<Value>: SlotValidator {
    let rules: [ValidationRule<Value>]
    /// Whether the slot's cell holds a ``WeakReference`` (of a
    /// `@Saved(reference: .weak)` property): its rules see its model, or `nil`.
    var holdsWeakReference = false

    var constraints: [RuleConstraint?] { rules.map(\.constraint) }

    func failures(of value: Any) -> [String] {
        var subject = value
        if holdsWeakReference, let reference = value as? any WeakReferenceValue { subject = reference.target as Any }
        guard let subject = subject as? Value else { return [] }
        return rules.compactMap { $0.failure(subject) }
    }
}
