extension Interval: ModelValueConvertible {
    /// Reads an interval from its saved form or from text.
    ///
    /// Accepts an object `{"amount": 5, "unit": "minutes"}` or
    /// `{"from": 2, "to": 4, "unit": "hours"}` (amounts are numbers of zero or
    /// more; the unit is a name that ``init(_:)-(String)`` accepts), or a
    /// string that ``init(_:)-(String)`` reads, such as `"never"`,
    /// `"forever"` or `"5 minutes"`.
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
            self = try Interval(object: object)
        default:
            throw ModelError.typeMismatch(
                expected: "an Interval (an object of \"amount\" and \"unit\", or text such as \"5 minutes\")",
                found: modelValue)
        }
    }

    private init(object: ModelValue.Object) throws {
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

extension Interval: Codable {
    private enum CodingKeys: String, CodingKey {
        case amount, from, to, unit
    }

    /// Decodes the same forms as ``init(modelValue:)``.
    ///
    /// - Throws: `DecodingError` whose description says what was expected and
    ///   what was found.
    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let text = try? single.decode(String.self) {
            do {
                self = try Interval(modelValue: .string(text))
            } catch let error as ModelError {
                throw DecodingError.dataCorruptedError(in: single, debugDescription: error.description)
            }
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var object = ModelValue.Object()
        if let amount = try container.decodeIfPresent(Double.self, forKey: .amount) { object["amount"] = .double(amount) }
        if let lower = try container.decodeIfPresent(Double.self, forKey: .from) { object["from"] = .double(lower) }
        if let upper = try container.decodeIfPresent(Double.self, forKey: .to) { object["to"] = .double(upper) }
        if let unit = try container.decodeIfPresent(String.self, forKey: .unit) { object["unit"] = .string(unit) }
        do {
            self = try Interval(object: object)
        } catch let error as ModelError {
            let key = error.keyPath.components.first.flatMap { component -> CodingKeys? in
                if case .key(let name) = component { return CodingKeys(stringValue: name) }
                return nil
            }
            if let key {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: error.message)
            }
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    /// Encodes the saved form: a string for ``never`` and ``forever``, a keyed
    /// container of `amount` (or `from` and `to`) and `unit` otherwise.
    public func encode(to encoder: any Encoder) throws {
        switch storage {
        case .never, .forever:
            var single = encoder.singleValueContainer()
            try single.encode(description)
        case .amounts(let lower, let upper, let unit):
            var container = encoder.container(keyedBy: CodingKeys.self)
            if lower == upper {
                try container.encode(lower, forKey: .amount)
            } else {
                try container.encode(lower, forKey: .from)
                try container.encode(upper, forKey: .to)
            }
            try container.encode(unit.rawValue, forKey: .unit)
        }
    }
}
