import Foundation

/// The `Encoder` that ``ModelJSONEncoder`` hands to `encode(to:)`: it
/// collects one value, a scalar or a container, in ``result``. It is also
/// the step of the coding path to its value, so that a nested value costs
/// one object less.
final class JSONTreeEncoder: CodingPathNode, Encoder {
    let options: JSONEncodingState
    /// Whether keys are written as they are, whatever the key strategy (a `[String: …]` dictionary).
    let keepsKeys: Bool
    /// The value encoded so far; `nil` when nothing was.
    var result: EncodedJSON?

    init(options: JSONEncodingState, parent: CodingPathNode?, key: (any CodingKey)?, keepsKeys: Bool = false) {
        self.options = options
        self.keepsKeys = keepsKeys
        super.init(parent: parent, key: key)
    }

    /// The path to this encoder's value.
    var path: CodingPathNode? { self }
    var codingPath: [any CodingKey] { keys }
    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let object: EncodedObject
        switch result {
        case .object(let existing): object = existing
        case nil:
            object = EncodedObject()
            result = .object(object)
        default:
            options.recordConflict("a keyed container was asked", path: keys)
            object = EncodedObject()
        }
        return KeyedEncodingContainer(
            JSONTreeKeyedContainer<Key>(
                options: options, object: object, path: path, convertsKeys: !(keepsKeys || options.usesDefaultKeys)))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let array: EncodedArray
        switch result {
        case .array(let existing): array = existing
        case nil:
            array = EncodedArray()
            result = .array(array)
        default:
            options.recordConflict("an unkeyed container was asked", path: keys)
            array = EncodedArray()
        }
        return JSONTreeUnkeyedContainer(options: options, array: array, path: path)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }
}

extension JSONTreeEncoder: SingleValueEncodingContainer {
    func encodeNil() throws { set(.null) }
    func encode(_ value: Bool) throws { set(.bool(value)) }
    func encode(_ value: String) throws { set(.string(value)) }
    func encode(_ value: Double) throws { set(try options.boxDouble(value, parent: path, key: nil)) }
    func encode(_ value: Float) throws { set(try options.boxFloat(value, parent: path, key: nil)) }
    func encode(_ value: Int) throws { set(.int(value)) }
    func encode(_ value: Int8) throws { set(.int(Int(value))) }
    func encode(_ value: Int16) throws { set(.int(Int(value))) }
    func encode(_ value: Int32) throws { set(.int(Int(value))) }
    func encode(_ value: Int64) throws { set(.int(Int(value))) }
    func encode(_ value: UInt) throws { set(.unsigned(UInt64(value))) }
    func encode(_ value: UInt8) throws { set(.int(Int(value))) }
    func encode(_ value: UInt16) throws { set(.int(Int(value))) }
    func encode(_ value: UInt32) throws { set(.int(Int(value))) }
    func encode(_ value: UInt64) throws { set(.unsigned(value)) }
    func encode(_ value: Int128) throws { set(.verbatim(String(value))) }
    func encode(_ value: UInt128) throws { set(.verbatim(String(value))) }

    func encode<T: Encodable>(_ value: T) throws {
        set(try options.box(value, parent: path, key: nil) ?? .object(EncodedObject()))
    }

    /// The one value of a single-value container: a second is a conflict, as in `JSONEncoder`.
    private func set(_ value: EncodedJSON) {
        if result != nil {
            options.recordConflict("a single value was encoded", path: keys)
            return
        }
        result = value
    }
}

/// A keyed container filling one ``EncodedObject``.
struct JSONTreeKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let options: JSONEncodingState
    let object: EncodedObject
    let path: CodingPathNode?
    let convertsKeys: Bool

    var codingPath: [any CodingKey] { path?.keys ?? [] }

    @inline(__always)
    private func set(_ value: EncodedJSON, _ key: Key) {
        object.set(value, forKey: name(of: key))
    }

    /// The JSON key of `key`.
    @inline(__always)
    private func name(of key: Key) -> String {
        convertsKeys ? options.convert(key, parent: path) : key.stringValue
    }

    mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(try options.boxDouble(value, parent: path, key: key), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { set(try options.boxFloat(value, parent: path, key: key), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(.int(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(.unsigned(UInt64(value)), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(.unsigned(value), key) }
    mutating func encode(_ value: Int128, forKey key: Key) throws { set(.verbatim(String(value)), key) }
    mutating func encode(_ value: UInt128, forKey key: Key) throws { set(.verbatim(String(value)), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        set(try options.box(value, parent: path, key: key) ?? .object(EncodedObject()), key)
    }

    // Optionals: `nil` writes nothing, as in JSONEncoder.
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        if let value { set(.string(value), key) }
    }

    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        if let value { set(.int(value), key) }
    }

    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        if let value { set(.bool(value), key) }
    }

    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        // A second container for the key adds to the first, as in JSONEncoder.
        let written = name(of: key)
        let nested: EncodedObject
        switch object.value(forKey: written) {
        case .object(let existing)?: nested = existing
        case nil:
            nested = EncodedObject()
            object.set(.object(nested), forKey: written)
        default:
            options.recordConflict("a keyed container was asked", path: (path?.keys ?? []) + [key])
            nested = EncodedObject()
        }
        return KeyedEncodingContainer(
            JSONTreeKeyedContainer<NestedKey>(
                options: options, object: nested, path: CodingPathNode(parent: path, key: key), convertsKeys: convertsKeys))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let written = name(of: key)
        let nested: EncodedArray
        switch object.value(forKey: written) {
        case .array(let existing)?: nested = existing
        case nil:
            nested = EncodedArray()
            object.set(.array(nested), forKey: written)
        default:
            options.recordConflict("an unkeyed container was asked", path: (path?.keys ?? []) + [key])
            nested = EncodedArray()
        }
        return JSONTreeUnkeyedContainer(options: options, array: nested, path: CodingPathNode(parent: path, key: key))
    }

    mutating func superEncoder() -> any Encoder {
        // The default key goes through the key strategy as any key does, as in JSONEncoder.
        superEncoder(
            named: AnyCodingKey.super,
            written: convertsKeys ? options.convert(AnyCodingKey.super, parent: path) : AnyCodingKey.super.stringValue)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder(named: key, written: convertsKeys ? options.convert(key, parent: path) : key.stringValue)
    }

    /// An encoder whose value becomes the member `written`; `{}` until it encodes something.
    private func superEncoder(named key: any CodingKey, written: String) -> any Encoder {
        let encoder = JSONSuperEncoder(options: options, path: CodingPathNode(parent: path, key: key))
        object.set(.object(encoder.placeholder), forKey: written)
        encoder.onFinish = { [object] value in object.set(value, forKey: written) }
        return encoder
    }
}

/// An unkeyed container filling one ``EncodedArray``.
struct JSONTreeUnkeyedContainer: UnkeyedEncodingContainer {
    let options: JSONEncodingState
    let array: EncodedArray
    let path: CodingPathNode?

    var codingPath: [any CodingKey] { path?.keys ?? [] }
    var count: Int { array.values.count }

    private var nextKey: JSONIndexKey { JSONIndexKey(array.values.count) }

    mutating func encodeNil() throws { array.values.append(.null) }
    mutating func encode(_ value: Bool) throws { array.values.append(.bool(value)) }
    mutating func encode(_ value: String) throws { array.values.append(.string(value)) }
    mutating func encode(_ value: Double) throws { array.values.append(try options.boxDouble(value, parent: path, key: nextKey)) }
    mutating func encode(_ value: Float) throws { array.values.append(try options.boxFloat(value, parent: path, key: nextKey)) }
    mutating func encode(_ value: Int) throws { array.values.append(.int(value)) }
    mutating func encode(_ value: Int8) throws { array.values.append(.int(Int(value))) }
    mutating func encode(_ value: Int16) throws { array.values.append(.int(Int(value))) }
    mutating func encode(_ value: Int32) throws { array.values.append(.int(Int(value))) }
    mutating func encode(_ value: Int64) throws { array.values.append(.int(Int(value))) }
    mutating func encode(_ value: UInt) throws { array.values.append(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { array.values.append(.int(Int(value))) }
    mutating func encode(_ value: UInt16) throws { array.values.append(.int(Int(value))) }
    mutating func encode(_ value: UInt32) throws { array.values.append(.int(Int(value))) }
    mutating func encode(_ value: UInt64) throws { array.values.append(.unsigned(value)) }
    mutating func encode(_ value: Int128) throws { array.values.append(.verbatim(String(value))) }
    mutating func encode(_ value: UInt128) throws { array.values.append(.verbatim(String(value))) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        array.values.append(try options.box(value, parent: path, key: nextKey) ?? .object(EncodedObject()))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let nested = EncodedObject()
        let path = CodingPathNode(parent: path, key: nextKey)
        array.values.append(.object(nested))
        return KeyedEncodingContainer(
            JSONTreeKeyedContainer<NestedKey>(
                options: options, object: nested, path: path, convertsKeys: !options.usesDefaultKeys))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = EncodedArray()
        let path = CodingPathNode(parent: path, key: nextKey)
        array.values.append(.array(nested))
        return JSONTreeUnkeyedContainer(options: options, array: nested, path: path)
    }

    mutating func superEncoder() -> any Encoder {
        let encoder = JSONSuperEncoder(options: options, path: CodingPathNode(parent: path, key: nextKey))
        let position = array.values.count
        array.values.append(.object(encoder.placeholder))
        encoder.onFinish = { [array] value in array.values[position] = value }
        return encoder
    }
}

/// The encoder of `superEncoder()`: its value replaces the member or element
/// it stands for as soon as anything is encoded, and stays `{}` otherwise.
final class JSONSuperEncoder: Encoder {
    let inner: JSONTreeEncoder
    let placeholder = EncodedObject()
    var onFinish: (EncodedJSON) -> Void = { _ in }

    init(options: JSONEncodingState, path: CodingPathNode) {
        inner = JSONTreeEncoder(options: options, parent: path, key: nil)
    }

    var codingPath: [any CodingKey] { inner.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { inner.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let container = inner.container(keyedBy: type)
        if let result = inner.result { onFinish(result) }
        return container
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let container = inner.unkeyedContainer()
        if let result = inner.result { onFinish(result) }
        return container
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { JSONSuperSingleValue(encoder: self) }
}

/// The single-value container of a ``JSONSuperEncoder``: each value replaces the placeholder.
struct JSONSuperSingleValue: SingleValueEncodingContainer {
    let encoder: JSONSuperEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func finish() {
        if let result = encoder.inner.result { encoder.onFinish(result) }
    }

    mutating func encodeNil() throws { try encoder.inner.encodeNil(); finish() }
    mutating func encode(_ value: Bool) throws { try encoder.inner.encode(value); finish() }
    mutating func encode(_ value: String) throws { try encoder.inner.encode(value); finish() }
    mutating func encode(_ value: Double) throws { try encoder.inner.encode(value); finish() }
    mutating func encode(_ value: Float) throws { try encoder.inner.encode(value); finish() }
    mutating func encode(_ value: Int) throws { try encoder.inner.encode(value); finish() }
    mutating func encode(_ value: Int8) throws { try encoder.inner.encode(value); finish() }
    mutating func encode(_ value: Int16) throws { try encoder.inner.encode(value); finish() }
    mutating func encode(_ value: Int32) throws { try encoder.inner.encode(value); finish() }
    mutating func encode(_ value: Int64) throws { try encoder.inner.encode(value); finish() }
    mutating func encode(_ value: UInt) throws { try encoder.inner.encode(value); finish() }
    mutating func encode(_ value: UInt8) throws { try encoder.inner.encode(value); finish() }
    mutating func encode(_ value: UInt16) throws { try encoder.inner.encode(value); finish() }
    mutating func encode(_ value: UInt32) throws { try encoder.inner.encode(value); finish() }
    mutating func encode(_ value: UInt64) throws { try encoder.inner.encode(value); finish() }
    mutating func encode(_ value: Int128) throws { try encoder.inner.encode(value); finish() }
    mutating func encode(_ value: UInt128) throws { try encoder.inner.encode(value); finish() }
    mutating func encode<T: Encodable>(_ value: T) throws { try encoder.inner.encode(value); finish() }
}
