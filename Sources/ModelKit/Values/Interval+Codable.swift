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
