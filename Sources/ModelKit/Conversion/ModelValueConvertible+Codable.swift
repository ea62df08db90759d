/// Any `Codable & Equatable` type becomes a saved type by declaring it:
///
/// ```swift
/// struct Address: Codable, Equatable { var street = ""; var zip = "" }
/// extension Address: ModelValueConvertible {}
///
/// final class Customer: ModelObject, @unchecked Sendable {
///     @Saved var address = Address()
/// }
/// ```
///
/// The conversion goes through ``ModelValueEncoder`` and
/// ``ModelValueDecoder``; a type's own `init(modelValue:)` and `modelValue`,
/// when it has them, win. Decoding errors name the key path the ModelKit way
/// (`address.zip: expected String, found 12`) as ``ModelError``s.
///
/// Loading a model from JSON reads such a property (alone, optional or in
/// an array) straight from the document's bytes with the type's
/// `init(from:)`, and writing one writes it without making a ``ModelValue``,
/// with the same results as the conversion, unless the type has a
/// conversion of its own.
extension ModelValueConvertible where Self: Codable {
    /// Reads a value of this type from its saved form.
    /// - Throws: ``ModelError`` when `modelValue` is not such a value.
    public init(modelValue: ModelValue) throws {
        // Tells a probe that this default is Self's, and stops there (see CodableDefaultProbe).
        if CodableDefaultProbe.isProbingCodableDefault(Self.self) { throw CodableDefaultProbe.Stop() }
        do {
            self = try ModelValueDecoder().decode(Self.self, from: modelValue)
        } catch {
            throw ModelError(error)
        }
    }

    /// The encoded form. An `encode(to:)` that throws, which a property cannot
    /// report, is recorded for the saving call to throw (see ``ModelError``)
    /// and gives `null` here.
    public var modelValue: ModelValue {
        // Tells a probe that this default is Self's, and stops there (see CodableDefaultProbe).
        if CodableDefaultProbe.isProbingEncodingDefault(Self.self) { return .null }
        do {
            return try ModelValueEncoder().encode(self)
        } catch {
            let guardian = EncodingGuard.current
            if guardian.failure == nil { guardian.failure = ModelError(error) }
            return .null
        }
    }
}

/// Enums with a convertible raw value that are also `Codable` keep the raw
/// value as their saved form, as before they were `Codable`: this is the more
/// specific of the two defaults.
extension ModelValueConvertible where Self: RawRepresentable & Codable, RawValue: ModelValueConvertible {
    /// Reads a value of this type from its saved form.
    /// - Throws: ``ModelError`` when `modelValue` is not such a value.
    public init(modelValue: ModelValue) throws {
        let raw = try RawValue(modelValue: modelValue)
        guard let value = Self(rawValue: raw) else {
            throw ModelError(
                code: .invalidValue,
                message: "expected \(RawRepresentableNames.describe(Self.self)), found \(modelValue.excerpt)")
        }
        self = value
    }

    /// The saved form of this value.
    public var modelValue: ModelValue { rawValue.modelValue }
}
