extension Color: Codable {
    private enum CodingKeys: String, CodingKey {
        case red, green, blue, alpha
    }

    /// Decodes the same forms as ``init(modelValue:)``: a keyed container of
    /// components (alpha optional), or a hex string.
    ///
    /// - Throws: `DecodingError.dataCorrupted` whose description says what
    ///   was expected and what was found, at the failing component's coding path.
    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let text = try? single.decode(String.self) {
            guard let color = Color(hex: text) else {
                throw DecodingError.dataCorruptedError(
                    in: single,
                    debugDescription:
                        "expected a hex colour such as \"#FF8000\" or \"#FF800080\", found \(ModelValue.string(text).excerpt)"
                )
            }
            self = color
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func component(_ key: CodingKeys) throws -> Double {
            let value = try container.decode(Double.self, forKey: key)
            guard Color.isValidComponent(value) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "expected a number from 0 to 1, found \(value)")
            }
            return value
        }
        let alpha = container.contains(.alpha) ? try component(.alpha) : 1
        self.init(red: try component(.red), green: try component(.green), blue: try component(.blue), alpha: alpha)
    }

    /// Encodes the saved form: a keyed container of red, green, blue and alpha.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(red, forKey: .red)
        try container.encode(green, forKey: .green)
        try container.encode(blue, forKey: .blue)
        try container.encode(alpha, forKey: .alpha)
    }
}
