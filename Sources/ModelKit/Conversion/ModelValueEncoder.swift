import Foundation

/// Encodes any `Encodable` value into a ``ModelValue``, the form every
/// ModelKit format is written from.
///
/// Keyed containers become objects (in the order keys are encoded), unkeyed
/// containers arrays, and single values scalars. `Date`, `Data`, `URL`,
/// `UUID`, `Decimal` and ModelKit's own value types and models keep the forms
/// they have everywhere else in ModelKit (a date stays a date, a colour its
/// hex string) rather than going through their `Codable` conformances.
///
/// ```swift
/// struct Address: Codable, Equatable { var street = "1 Main St"; var zip = "12345" }
/// print(try ModelValueEncoder().encode(Address()))   // {"street":"1 Main St","zip":"12345"}
/// ```
///
/// Errors are Swift's `EncodingError`, as `Encodable` callers expect, with
/// the coding path of the value that failed.
public struct ModelValueEncoder {
    /// Values handed to every `encode(to:)` through `Encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Creates a coder with no user info.
    public init() {}

    /// The model value of `value`.
    /// - Throws: `EncodingError` from `value`'s own `encode(to:)`, or
    ///   `EncodingError.invalidValue` when it encodes nothing.
    public func encode<Value: Encodable>(_ value: Value) throws -> ModelValue {
        let encoder = ValueEncoder(codingPath: [], userInfo: userInfo)
        if let native = Self.nativeValue(value) { return native }
        try value.encode(to: encoder)
        guard let result = encoder.storage.value else {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: [], debugDescription: "\(Value.self) encoded no value"))
        }
        return result
    }

    /// ModelKit's own form of a value whose `Codable` form differs, if it is one.
    static func nativeValue(_ value: Any) -> ModelValue? {
        switch value {
        case let value as ModelValue: value
        case let date as Date: .date(date)
        case let data as Data: .data(data)
        case let url as URL: url.modelValue
        case let uuid as UUID: uuid.modelValue
        case let decimal as Decimal: decimal.modelValue
        case let colour as Color: colour.modelValue
        case let interval as Interval: interval.modelValue
        case let day as Day: day.modelValue
        case let time as TimeOfDay: time.modelValue
        case let model as ModelObject: model.modelValue
        default: nil
        }
    }
}

/// Where an encoder's value is built: a scalar, or an array or object still
/// being filled by containers (which may be nested and outlive their calls).
final class EncodedNode {
    enum Content {
        case empty
        case value(ModelValue)
        case array([EncodedNode])
        case object([(String, EncodedNode)])
    }

    var content: Content = .empty

    /// The finished value, or `nil` when nothing was encoded.
    var value: ModelValue? {
        switch content {
        case .empty: return nil
        case .value(let value): return value
        case .array(let nodes): return .array(nodes.map { $0.value ?? .null })
        case .object(let members):
            var object = ModelValue.Object(minimumCapacity: members.count)
            for (key, node) in members { object[key] = node.value ?? .null }
            return .object(object)
        }
    }

    func makeObject() {
        if case .object = content { return }
        content = .object([])
    }

    func makeArray() {
        if case .array = content { return }
        content = .array([])
    }

    /// Positions of an object's keys (compared by their exact text).
    private var keyIndex: [KeyText: Int] = [:]

    /// The node for `key` in this object, created when new.
    func child(forKey key: String) -> EncodedNode {
        guard case .object(var members) = content else { return EncodedNode() }
        if let position = keyIndex[KeyText(key)] { return members[position].1 }
        let node = EncodedNode()
        keyIndex[KeyText(key)] = members.count
        content = .empty  // drop the reference so the append does not copy
        members.append((key, node))
        content = .object(members)
        return node
    }

    /// A key compared and hashed by its UTF-8 bytes, as object keys are.
    struct KeyText: Hashable {
        let text: String
        init(_ text: String) { self.text = text }
        static func == (lhs: KeyText, rhs: KeyText) -> Bool { KeyHash.sameBytes(lhs.text, rhs.text) }
        func hash(into hasher: inout Hasher) { hasher.combine(KeyHash.hash(text)) }
    }

    /// A new node appended to this array.
    func appendChild() -> EncodedNode {
        guard case .array(var nodes) = content else { return EncodedNode() }
        let node = EncodedNode()
        content = .empty  // drop the reference so the append does not copy
        nodes.append(node)
        content = .array(nodes)
        return node
    }

    var arrayCount: Int {
        if case .array(let nodes) = content { return nodes.count }
        return 0
    }
}

struct ValueEncoder: Encoder, ModelValueCoder {
    let storage: EncodedNode
    let codingPath: [any CodingKey]
    let userInfoValues: [CodingUserInfoKey: any Sendable]
    var userInfo: [CodingUserInfoKey: Any] { userInfoValues }

    init(codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: any Sendable], storage: EncodedNode = EncodedNode()) {
        self.storage = storage
        self.codingPath = codingPath
        self.userInfoValues = userInfo
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        storage.makeObject()
        return KeyedEncodingContainer(KeyedValueEncoder<Key>(encoder: self, node: storage))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        storage.makeArray()
        return UnkeyedValueEncoder(encoder: self, node: storage)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueEncoder(encoder: self, node: storage)
    }

    /// Encodes `value` into `node`, at `path`.
    func encode<Value: Encodable>(_ value: Value, into node: EncodedNode, at path: [any CodingKey]) throws {
        if let native = ModelValueEncoder.nativeValue(value) {
            node.content = .value(native)
            return
        }
        try value.encode(to: ValueEncoder(codingPath: path, userInfo: userInfoValues, storage: node))
        if case .empty = node.content {
            // A value that encodes nothing is encoded as an empty object, as JSONEncoder does.
            node.content = .object([])
        }
    }
}

/// A coding key made from a string or an index.
struct AnyCodingKey: CodingKey {
    let stringValue: String
    let intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue; intValue = nil }
    init(intValue: Int) { self.stringValue = "\(intValue)"; self.intValue = intValue }
    static let `super` = AnyCodingKey(stringValue: "super")
}

struct KeyedValueEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ValueEncoder
    let node: EncodedNode
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func set(_ value: ModelValue, _ key: Key) { node.child(forKey: key.stringValue).content = .value(value) }

    mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(.double(value), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { set(.double(Double(value)), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(.int(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(value.modelValue, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(value.modelValue, key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encoder.encode(value, into: node.child(forKey: key.stringValue), at: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let child = node.child(forKey: key.stringValue)
        child.makeObject()
        let nested = ValueEncoder(codingPath: codingPath + [key], userInfo: encoder.userInfoValues, storage: child)
        return KeyedEncodingContainer(KeyedValueEncoder<NestedKey>(encoder: nested, node: child))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = node.child(forKey: key.stringValue)
        child.makeArray()
        let nested = ValueEncoder(codingPath: codingPath + [key], userInfo: encoder.userInfoValues, storage: child)
        return UnkeyedValueEncoder(encoder: nested, node: child)
    }

    mutating func superEncoder() -> any Encoder {
        ValueEncoder(
            codingPath: codingPath + [AnyCodingKey.super], userInfo: encoder.userInfoValues,
            storage: node.child(forKey: "super"))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        ValueEncoder(
            codingPath: codingPath + [key], userInfo: encoder.userInfoValues, storage: node.child(forKey: key.stringValue))
    }
}

struct UnkeyedValueEncoder: UnkeyedEncodingContainer {
    let encoder: ValueEncoder
    let node: EncodedNode
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { node.arrayCount }

    private func append(_ value: ModelValue) { node.appendChild().content = .value(value) }
    private var nextKey: AnyCodingKey { AnyCodingKey(intValue: count) }

    mutating func encodeNil() throws { append(.null) }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: String) throws { append(.string(value)) }
    mutating func encode(_ value: Double) throws { append(.double(value)) }
    mutating func encode(_ value: Float) throws { append(.double(Double(value))) }
    mutating func encode(_ value: Int) throws { append(.int(value)) }
    mutating func encode(_ value: Int8) throws { append(.int(Int(value))) }
    mutating func encode(_ value: Int16) throws { append(.int(Int(value))) }
    mutating func encode(_ value: Int32) throws { append(.int(Int(value))) }
    mutating func encode(_ value: Int64) throws { append(.int(Int(value))) }
    mutating func encode(_ value: UInt) throws { append(value.modelValue) }
    mutating func encode(_ value: UInt8) throws { append(.int(Int(value))) }
    mutating func encode(_ value: UInt16) throws { append(.int(Int(value))) }
    mutating func encode(_ value: UInt32) throws { append(.int(Int(value))) }
    mutating func encode(_ value: UInt64) throws { append(value.modelValue) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let key = nextKey
        try encoder.encode(value, into: node.appendChild(), at: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let key = nextKey
        let child = node.appendChild()
        child.makeObject()
        let nested = ValueEncoder(codingPath: codingPath + [key], userInfo: encoder.userInfoValues, storage: child)
        return KeyedEncodingContainer(KeyedValueEncoder<NestedKey>(encoder: nested, node: child))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let key = nextKey
        let child = node.appendChild()
        child.makeArray()
        let nested = ValueEncoder(codingPath: codingPath + [key], userInfo: encoder.userInfoValues, storage: child)
        return UnkeyedValueEncoder(encoder: nested, node: child)
    }

    mutating func superEncoder() -> any Encoder {
        let key = nextKey
        return ValueEncoder(codingPath: codingPath + [key], userInfo: encoder.userInfoValues, storage: node.appendChild())
    }
}

struct SingleValueEncoder: SingleValueEncodingContainer {
    let encoder: ValueEncoder
    let node: EncodedNode
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func set(_ value: ModelValue) { node.content = .value(value) }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(.double(value)) }
    mutating func encode(_ value: Float) throws { set(.double(Double(value))) }
    mutating func encode(_ value: Int) throws { set(.int(value)) }
    mutating func encode(_ value: Int8) throws { set(.int(Int(value))) }
    mutating func encode(_ value: Int16) throws { set(.int(Int(value))) }
    mutating func encode(_ value: Int32) throws { set(.int(Int(value))) }
    mutating func encode(_ value: Int64) throws { set(.int(Int(value))) }
    mutating func encode(_ value: UInt) throws { set(value.modelValue) }
    mutating func encode(_ value: UInt8) throws { set(.int(Int(value))) }
    mutating func encode(_ value: UInt16) throws { set(.int(Int(value))) }
    mutating func encode(_ value: UInt32) throws { set(.int(Int(value))) }
    mutating func encode(_ value: UInt64) throws { set(value.modelValue) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try encoder.encode(value, into: node, at: codingPath)
    }
}
