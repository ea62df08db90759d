extension TimeOfDay: ModelValueConvertible {
    /// Reads a time from its saved form, the text `"14:30:00"`; the seconds
    /// may be left out (`"14:30"`); or DejalObject's `DejalTime` dictionary
    /// (its `timeZoneName` is dropped).
    ///
    /// - Throws: ``ModelError`` when the value is not a string, or is a string
    ///   that ``init(_:)`` does not accept.
    public init(modelValue: ModelValue) throws {
        if case .object(let object) = modelValue,
            let dejal = try DejalObjectForm.members(of: object, as: DejalObjectForm.timeClass)
        {
            self = try DejalObjectForm.time(from: dejal)
            return
        }
        guard case .string(let text) = modelValue else {
            throw ModelError.typeMismatch(expected: "a TimeOfDay such as \"14:30:00\"", found: modelValue)
        }
        guard let time = TimeOfDay(text) else {
            throw ModelError.invalidValue(
                "expected a time of day such as \"14:30:00\" or \"14:30\", found \(modelValue.excerpt)")
        }
        self = time
    }

    /// The text `"14:30:00"`.
    public var modelValue: ModelValue { .string(description) }
}

extension TimeOfDay: Codable {
    /// Decodes the saved form, a string.
    /// - Throws: `DecodingError` saying what was expected and what was found.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let time = TimeOfDay(text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription:
                    "expected a time of day such as \"14:30:00\" or \"14:30\", found \(ModelValue.string(text).excerpt)")
        }
        self = time
    }

    /// Encodes the saved form, a string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
