extension Interval: ModelValueConvertible {
    /// Reads an interval from its saved form or from text.
    ///
    /// Accepts an object `{"amount": 5, "unit": "minutes"}` or
    /// `{"from": 2, "to": 4, "unit": "hours"}` (amounts are numbers of zero or
    /// more; the unit is a name that ``init(_:)-(String)`` accepts), or a
    /// string that ``init(_:)-(String)`` reads, such as `"never"`,
    /// `"forever"` or `"5 minutes"`; or DejalObject's `DejalInterval`
    /// dictionary (its `extraValues` are dropped).
    ///
    /// ```swift
    /// print(try Interval(modelValue: ["amount": 5, "unit": "minutes"]))   // 5 minutes
    /// print(try Interval(modelValue: "2-4 hours"))                          // 2–4 hours
    /// ```
    ///
    /// - Throws: ``ModelError`` for a negative or non-numeric amount (naming
    ///   its key), an unknown unit, an inverted range, missing or unknown
    ///   keys, or text that is not an interval.
    public init(modelValue: ModelValue) throws {
        switch modelValue {
        case .string(let text):
            guard let interval = Interval(text) else {
                throw ModelError.invalidValue(
                    "expected an interval such as \"5 minutes\", \"2–4 hours\", \"never\" or \"forever\", found \(modelValue.excerpt)"
                )
            }
            self = interval
        case .object(let object):
            if let dejal = try DejalObjectForm.members(of: object, as: DejalObjectForm.intervalClass) {
                self = try DejalObjectForm.interval(from: dejal)
            } else {
                self = try Interval(object: object)
            }
        default:
            throw ModelError.typeMismatch(
                expected: "an Interval (an object of \"amount\" and \"unit\", or text such as \"5 minutes\")",
                found: modelValue)
        }
    }

    /// Reads the object form; shared with the Codable conformance.
    init(object: ModelValue.Object) throws {
        for key in object.keys where !["amount", "from", "to", "unit"].contains(key) {
            throw ModelError.invalidValue(
                "expected only the keys \"amount\" or \"from\" and \"to\", and \"unit\", found \(ModelValue.quoted(key))")
        }
        let unit = try Interval.unit(in: object)
        if object["amount"] != nil {
            guard object["from"] == nil, object["to"] == nil else {
                throw ModelError.invalidValue("expected \"amount\" or \"from\" and \"to\", found both")
            }
            self.init(try Interval.amount("amount", in: object), unit)
        } else if object["from"] != nil || object["to"] != nil {
            let lower = try Interval.amount("from", in: object)
            let upper = try Interval.amount("to", in: object)
            try self.init(validatingFrom: lower, to: upper, unit)
        } else {
            throw ModelError.invalidValue("expected \"amount\" or \"from\" and \"to\", found neither")
        }
    }

    private static func unit(in object: ModelValue.Object) throws -> Unit {
        guard let value = object["unit"] else {
            throw ModelError.invalidValue("expected a unit, found nothing").prepending(.key("unit"))
        }
        guard case .string(let name) = value, let unit = Unit(name: Substring(name.lowercased())) else {
            let names = Unit.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw ModelError.invalidValue("expected a unit (one of \(names)), found \(value.excerpt)")
                .prepending(.key("unit"))
        }
        return unit
    }

    private static func amount(_ key: String, in object: ModelValue.Object) throws -> Double {
        guard let value = object[key] else {
            throw ModelError.invalidValue("expected an amount of zero or more, found nothing").prepending(.key(key))
        }
        switch value {
        case .int, .double, .bigInteger:
            guard let number = value.doubleValue, number.isFinite, number >= 0 else {
                let found = if case .bigInteger = value { value.numberText } else { amountText(value.doubleValue ?? .nan) }
                throw ModelError.invalidValue("expected an amount of zero or more, found \(found)")
                    .prepending(.key(key))
            }
            return number
        default:
            throw ModelError.typeMismatch(expected: "an amount of zero or more", found: value).prepending(.key(key))
        }
    }

    /// `"never"`, `"forever"`, `{"amount": 5.0, "unit": "minutes"}` or
    /// `{"from": 2.0, "to": 4.0, "unit": "hours"}`; the unit is always the
    /// plural name in lower case.
    public var modelValue: ModelValue {
        switch storage {
        case .never: "never"
        case .forever: "forever"
        case .amounts(let lower, let upper, let unit):
            lower == upper
                ? ["amount": .double(lower), "unit": .string(unit.rawValue)]
                : ["from": .double(lower), "to": .double(upper), "unit": .string(unit.rawValue)]
        }
    }
}
