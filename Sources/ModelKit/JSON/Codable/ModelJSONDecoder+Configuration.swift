import Foundation

extension ModelJSONDecoder {
    /// The value of `type` that the JSON text `data` holds, decoded with `configuration`, as
    /// `JSONDecoder.decode(_:from:configuration:)` does.
    ///
    /// ```swift
    /// struct Scaled: DecodableWithConfiguration {
    ///     var value: Double
    ///     init(from decoder: any Decoder, configuration scale: Double) throws {
    ///         value = try decoder.singleValueContainer().decode(Double.self) * scale
    ///     }
    /// }
    /// print(try ModelJSONDecoder().decode(Scaled.self, from: Data("2".utf8), configuration: 10).value)   // 20.0
    /// ```
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - data: JSON text.
    ///   - configuration: handed to `type`'s `init(from:configuration:)`.
    /// - Returns: the decoded value.
    /// - Throws: `DecodingError` as ``decode(_:from:)`` does.
    public func decode<Value: DecodableWithConfiguration>(
        _ type: Value.Type, from data: Data, configuration: Value.DecodingConfiguration
    ) throws -> Value {
        try withDocument(data) { state in
            try type.init(from: JSONTapeDecoder(state: state, index: 0, keepsKeys: false, path: nil), configuration: configuration)
        }
    }

    /// The value of `type` that `data` holds, decoded with the configuration
    /// that `configuration` provides, as `JSONDecoder` does.
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - data: JSON text.
    ///   - configuration: the type whose `decodingConfiguration` is handed to `type`'s `init(from:configuration:)`.
    /// - Returns: the decoded value.
    /// - Throws: `DecodingError` as ``decode(_:from:)`` does.
    public func decode<Value, Provider: DecodingConfigurationProviding>(
        _ type: Value.Type, from data: Data, configuration: Provider.Type
    ) throws -> Value where Value: DecodableWithConfiguration, Provider.DecodingConfiguration == Value.DecodingConfiguration {
        try decode(type, from: data, configuration: Provider.decodingConfiguration)
    }
}
