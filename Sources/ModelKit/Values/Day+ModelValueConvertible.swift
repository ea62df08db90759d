extension Day: ModelValueConvertible {
    /// Reads a day from its saved form, the text `"2026-11-21"`.
    ///
    /// - Throws: ``ModelError`` when the value is not a string, or is a string
    ///   that ``init(_:)`` does not accept.
    public init(modelValue: ModelValue) throws {
        guard case .string(let text) = modelValue else {
            throw ModelError.typeMismatch(expected: "a Day such as \"2026-11-21\"", found: modelValue)
        }
        guard let day = Day(text) else {
            throw ModelError.invalidValue(
                "expected a day such as \"2026-11-21\" (year-month-day), found \(modelValue.excerpt)")
        }
        self = day
    }

    /// The text `"2026-11-21"`.
    public var modelValue: ModelValue { .string(description) }
}

extension Day: Codable {
    /// Decodes the saved form, a string.
    /// - Throws: `DecodingError` saying what was expected and what was found.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let day = Day(text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription:
                    "expected a day such as \"2026-11-21\" (year-month-day), found \(ModelValue.string(text).excerpt)")
        }
        self = day
    }

    /// Encodes the saved form, a string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
