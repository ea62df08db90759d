import Foundation

extension ModelJSONEncoder {
    /// The JSON text of `value`, encoded with `configuration`, as
    /// `JSONEncoder.encode(_:configuration:)` does.
    ///
    /// ```swift
    /// struct Scaled: EncodableWithConfiguration {
    ///     var value: Double
    ///     func encode(to encoder: any Encoder, configuration scale: Double) throws {
    ///         var container = encoder.singleValueContainer()
    ///         try container.encode(value * scale)
    ///     }
    /// }
    /// print(String(decoding: try ModelJSONEncoder().encode(Scaled(value: 2), configuration: 10), as: UTF8.self))   // 20.0
    /// ```
    /// - Parameters:
    ///   - value: the value to encode.
    ///   - configuration: handed to `value`'s `encode(to:configuration:)`.
    /// - Returns: JSON text.
    /// - Throws: `EncodingError` as ``encode(_:)`` does.
    public func encode<Value: EncodableWithConfiguration>(
        _ value: Value, configuration: Value.EncodingConfiguration
    ) throws -> Data {
        try encode(ConfiguredValue(value: value, configuration: configuration))
    }

    /// The JSON text of `value`, encoded with the configuration that
    /// `configuration` provides, as `JSONEncoder` does.
    /// - Parameters:
    ///   - value: the value to encode.
    ///   - configuration: the type whose `encodingConfiguration` is handed to `value`'s `encode(to:configuration:)`.
    /// - Returns: JSON text.
    /// - Throws: `EncodingError` as ``encode(_:)`` does.
    public func encode<Value, Provider: EncodingConfigurationProviding>(
        _ value: Value, configuration: Provider.Type
    ) throws -> Data where Value: EncodableWithConfiguration, Provider.EncodingConfiguration == Value.EncodingConfiguration {
        try encode(value, configuration: Provider.encodingConfiguration)
    }
}

/// A value and its configuration, encoded as `encode(to:configuration:)` says.
private struct ConfiguredValue<Value: EncodableWithConfiguration>: Encodable {
    let value: Value
    let configuration: Value.EncodingConfiguration

    func encode(to encoder: any Encoder) throws {
        try value.encode(to: encoder, configuration: configuration)
    }
}
