/// What a ``ValidationRule`` says in JSON Schema: the rules ModelKit declares
/// (`range`, `nonEmpty`, `maxLength`, `pattern`) carry one; a `check` or a
/// rule made of a closure carries none, since no schema can say what a
/// closure checks.
enum RuleConstraint: Sendable, Hashable {
    /// Inclusive bounds, each `nil` when it is not a number (a range of
    /// strings or dates has no JSON Schema keyword).
    case range(ModelValue?, ModelValue?)
    /// At least one character, element or member.
    case nonEmpty
    /// At most so many characters, elements or members.
    case maxLength(Int)
    /// The whole string matches the regular expression.
    case pattern(String)

    /// `bound`'s saved form when it is a number.
    static func number<Bound>(_ bound: Bound) -> ModelValue? {
        guard let convertible = bound as? any ModelValueConvertible else { return nil }
        switch convertible.modelValue {
        case .int(let value): return .int(value)
        case .double(let value) where value.isFinite: return .double(value)
        default: return nil
        }
    }

    /// Adds this constraint's keywords to `schema`, chosen by the kind of
    /// value the schema describes; returns `false` when it has none for that
    /// kind (the rule then goes unsaid, as a `check` does).
    func apply(to schema: inout ModelValue.Object) -> Bool {
        let kind = JSONSchemaBuilder.kind(of: schema)
        switch (self, kind) {
        case (.range(let lower, let upper), .number):
            guard lower != nil || upper != nil else { return false }
            if let lower { schema["minimum"] = lower }
            if let upper { schema["maximum"] = upper }
        case (.nonEmpty, .string): schema["minLength"] = 1
        case (.nonEmpty, .array): schema["minItems"] = 1
        case (.nonEmpty, .object): schema["minProperties"] = 1
        case (.maxLength(let count), .string): schema["maxLength"] = .int(count)
        case (.maxLength(let count), .array): schema["maxItems"] = .int(count)
        case (.maxLength(let count), .object): schema["maxProperties"] = .int(count)
        case (.pattern(let pattern), .string): schema["pattern"] = .string("^(?:\(pattern))$")
        default: return false
        }
        return true
    }
}
