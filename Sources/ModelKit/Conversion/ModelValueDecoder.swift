import Foundation

/// Decodes any `Decodable` value from a ``ModelValue``, as
/// ``ModelValueEncoder`` encodes it.
///
/// ```swift
/// struct Address: Codable, Equatable { var street = ""; var zip = "" }
/// let address = try ModelValueDecoder().decode(Address.self, from: ["street": "1 Main St", "zip": "12345"])
/// ```
///
/// Errors are Swift's `DecodingError`, as `Decodable` callers expect, with
/// the coding path of the value that failed; ``ModelError/init(_:)`` turns one
/// into ModelKit's form (`address.zip: expected String, found 12`), which is
/// what a `Codable` type used as a `@Saved` property reports.
public struct ModelValueDecoder {
    /// Values handed to every `init(from:)` through `Decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Creates a coder with no user info.
    public init() {}

    /// The value of `type` that `value` holds.
    /// - Throws: `DecodingError` naming the coding path of the value that failed.
    public func decode<Value: Decodable>(_ type: Value.Type, from value: ModelValue) throws -> Value {
        try ValueDecoder(value: value, codingPath: [], userInfo: userInfo).decodeValue(type)
    }

    /// ModelKit's own reading of `value` for types whose `Codable` form differs.
    static func nativeValue<Value>(_ type: Value.Type, from value: ModelValue) throws -> Value? {
        let native: Any? =
            switch type {
            case is ModelValue.Type: value
            case is Date.Type: try Date(modelValue: value)
            case is Data.Type: try Data(modelValue: value)
            case is URL.Type: try URL(modelValue: value)
            case is UUID.Type: try UUID(modelValue: value)
            case is Decimal.Type: try Decimal(modelValue: value)
            case is Color.Type: try Color(modelValue: value)
            case is Interval.Type: try Interval(modelValue: value)
            case is Day.Type: try Day(modelValue: value)
            case is TimeOfDay.Type: try TimeOfDay(modelValue: value)
            default:
                if let model = type as? ModelObject.Type { try model.decoded(from: value) } else { nil }
            }
        return native as? Value
    }

    /// Whether ``nativeValue(_:from:)`` reads `type` (the same list).
    static func readsNatively(_ type: Any.Type) -> Bool {
        switch type {
        case is ModelValue.Type, is Date.Type, is Data.Type, is URL.Type, is UUID.Type, is Decimal.Type, is Color.Type,
            is Interval.Type, is Day.Type, is TimeOfDay.Type, is ModelObject.Type:
            true
        default: false
        }
    }
}

extension ModelError {
    /// ModelKit's form of a `DecodingError` or `EncodingError`: the coding
    /// path as a key path, and what was expected and found.
    public init(_ error: any Error) {
        func path(_ codingPath: [any CodingKey]) -> ModelKeyPath {
            ModelKeyPath(codingPath.map { key in key.intValue.map { .index($0) } ?? .key(key.stringValue) })
        }
        switch error {
        case let error as ModelError:
            self = error
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
            DecodingError.dataCorrupted(let context):
            self.init(code: .typeMismatch, message: context.debugDescription, keyPath: path(context.codingPath))
            if case .dataCorrupted = error as? DecodingError { code = .invalidValue }
        case DecodingError.keyNotFound(let key, let context):
            self.init(
                code: .typeMismatch, message: "no value for the key \"\(key.stringValue)\"",
                keyPath: path(context.codingPath))
        case EncodingError.invalidValue(_, let context):
            self.init(code: .notRepresentable, message: context.debugDescription, keyPath: path(context.codingPath))
        default:
            self.init(code: .invalidValue, message: "\(error)")
        }
        // ModelJSONDecoder's messages start with the key path, which is kept apart here.
        let prefix = keyPath.description + ": "
        if !keyPath.isEmpty, message.hasPrefix(prefix) { message.removeFirst(prefix.count) }
    }
}

struct ValueDecoder: Decoder, ModelValueCoder {
    let value: ModelValue
    let codingPath: [any CodingKey]
    let userInfoValues: [CodingUserInfoKey: any Sendable]
    var userInfo: [CodingUserInfoKey: Any] { userInfoValues }
    /// The JSON text `value` was read from, when a document read for models
    /// kept it (`ModelValue.Object`'s member texts): integers are read from
    /// its digits, not from the `Double` that `value` holds.
    let text: RawJSON?

    init(
        value: ModelValue, codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: any Sendable], text: RawJSON? = nil
    ) {
        self.value = value
        self.codingPath = codingPath
        self.userInfoValues = userInfo
        self.text = text
    }

    func mismatch<T>(_ type: T.Type, expected: String) -> DecodingError {
        DecodingError.typeMismatch(
            type, DecodingError.Context(codingPath: codingPath, debugDescription: "expected \(expected), found \(value.excerpt)"))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else { throw mismatch(ModelValue.Object.self, expected: "an object") }
        return KeyedDecodingContainer(KeyedValueDecoder<Key>(decoder: self, object: object))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch([ModelValue].self, expected: "an array") }
        return UnkeyedValueDecoder(decoder: self, elements: elements, text: text)
    }

    /// The texts of the elements of the array whose text is `array`.
    static func elementTexts(_ array: RawJSON) -> [RawJSON] {
        array.bytes.withUnsafeBytes { raw in
            var reader = JSONReader(raw.bindMemory(to: UInt8.self), options: JSONReadingOptions())
            var texts: [RawJSON] = []
            let first = array.bytes.startIndex
            reader.position = 1  // after the bracket
            while true {
                reader.skipWhitespace()
                guard reader.position < reader.count, reader.base[reader.position] != JSONByte.closeBracket,
                    let range = try? reader.skipValue()
                else { return texts }
                texts.append(RawJSON(validated: array.bytes[(first + range.lowerBound)..<(first + range.upperBound)]))
                reader.skipWhitespace()
                if reader.position < reader.count, reader.base[reader.position] == JSONByte.comma { reader.position += 1 }
            }
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// Decodes `type` from this decoder's value.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        do {
            if let native = try ModelValueDecoder.nativeValue(type, from: value) { return native }
        } catch let error as ModelError {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: codingPath + error.keyPath.codingKeys, debugDescription: error.message,
                    underlyingError: error))
        }
        return try T(from: self)
    }

    func child(_ value: ModelValue, key: any CodingKey, text: RawJSON? = nil) -> ValueDecoder {
        ValueDecoder(value: value, codingPath: codingPath + [key], userInfo: userInfoValues, text: text)
    }
}

extension ModelKeyPath {
    /// This key path as coding keys.
    var codingKeys: [any CodingKey] {
        components.map { component -> any CodingKey in
            switch component {
            case .key(let key): AnyCodingKey(stringValue: key)
            case .index(let index): AnyCodingKey(intValue: index)
            }
        }
    }
}

extension ValueDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { value == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let flag) = value else { throw mismatch(type, expected: "Bool") }
        return flag
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let text) = value else { throw mismatch(type, expected: "String") }
        return text
    }

    func decode(_ type: Double.Type) throws -> Double { try converted(type) }
    func decode(_ type: Float.Type) throws -> Float { try converted(type) }
    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }

    /// An integer: from the digits of its JSON text when the value is a
    /// `Double` read from one (`1.338910060664305e+19` is exactly
    /// 13389100606643050000, `12345678901234567890.5` no integer), else by
    /// ModelKit's own conversion.
    private func integer<Integer: FixedWidthInteger & ModelValueConvertible>(_ type: Integer.Type) throws -> Integer {
        guard case .double = value, let text else { return try converted(type) }
        let exact = text.bytes.withUnsafeBytes { raw in
            JSONReader.exactInteger(type, number: raw.bindMemory(to: UInt8.self))
        }
        if let exact { return exact }
        // Not integral, or too large: the conversion's own error, which the
        // `Double` may hide (12345678901234567890.5 rounds to an integer).
        _ = try converted(type)
        let error = ModelError.typeMismatch(expected: "\(Integer.self)", found: value)
        throw DecodingError.typeMismatch(
            type, DecodingError.Context(codingPath: codingPath, debugDescription: error.message, underlyingError: error))
    }

    /// A number read with ModelKit's own conversion (range checks included),
    /// its error reported as a `DecodingError`.
    private func converted<Number: ModelValueConvertible>(_ type: Number.Type) throws -> Number {
        do {
            return try Number(modelValue: value)
        } catch let error as ModelError {
            throw DecodingError.typeMismatch(
                type, DecodingError.Context(codingPath: codingPath, debugDescription: error.message, underlyingError: error))
        }
    }
}

struct KeyedValueDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: ValueDecoder
    let object: ModelValue.Object
    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    private func member(_ key: Key) throws -> ValueDecoder {
        guard let position = object.index(forKey: key.stringValue) else {
            throw DecodingError.keyNotFound(
                key, DecodingError.Context(codingPath: codingPath, debugDescription: "no value for the key \"\(key.stringValue)\""))
        }
        return decoder.child(object.values[position], key: key, text: object.text(at: position))
    }

    func decodeNil(forKey key: Key) throws -> Bool { try member(key).decodeNil() }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try member(key).decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try member(key).decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try member(key).decode(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try member(key).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try member(key).decode(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try member(key).decode(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try member(key).decode(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try member(key).decode(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try member(key).decode(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try member(key).decode(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try member(key).decode(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try member(key).decode(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try member(key).decode(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try member(key).decode(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try member(key).decodeValue(type) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try member(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try member(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        decoder.child(object["super"] ?? .null, key: AnyCodingKey.super)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder.child(object[key.stringValue] ?? .null, key: key)
    }
}

struct UnkeyedValueDecoder: UnkeyedDecodingContainer {
    let decoder: ValueDecoder
    let elements: [ModelValue]
    /// The array's JSON text, when the document kept it (see `ValueDecoder.text`).
    let text: RawJSON?
    /// The elements' texts, found in `text` when an element first needs one.
    private var texts: [RawJSON]?
    var currentIndex = 0
    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    init(decoder: ValueDecoder, elements: [ModelValue], text: RawJSON? = nil) {
        self.decoder = decoder
        self.elements = elements
        self.text = text
    }

    /// The text of the element at `index`, read as `type`, when it may need
    /// one: an array (for its own elements), or a `Double` read as anything
    /// but a floating-point number (an integer, from its digits).
    private mutating func elementText<T>(_ index: Int, _ type: T.Type) -> RawJSON? {
        guard let text else { return nil }
        switch elements[index] {
        case .array: break
        case .double where !(type is any BinaryFloatingPoint.Type): break
        default: return nil
        }
        if texts == nil {
            let found = ValueDecoder.elementTexts(text)
            texts = found.count == elements.count ? found : []
        }
        return texts.flatMap { $0.isEmpty ? nil : $0[index] }
    }

    private mutating func next<T>(_ type: T.Type) throws -> ValueDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: codingPath + [AnyCodingKey(intValue: currentIndex)],
                    debugDescription: "expected a value, found the end of the array (\(elements.count) elements)"))
        }
        let element = decoder.child(
            elements[currentIndex], key: AnyCodingKey(intValue: currentIndex), text: elementText(currentIndex, type))
        currentIndex += 1
        return element
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type).decode(type) }
    mutating func decode(_ type: String.Type) throws -> String { try next(type).decode(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type).decode(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type).decode(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type).decode(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type).decode(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type).decode(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type).decode(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type).decode(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type).decode(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type).decode(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type).decode(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type).decode(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type).decode(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type).decodeValue(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try next(ModelValue.Object.self).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next([ModelValue].self).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { try next(ModelValue.self) }
}
