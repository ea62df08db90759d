/// An `Encoder` that writes nothing: it takes every value a type's
/// `encode(to:)` hands it, adds up a little of each so that none can be
/// dropped, and keeps no output. Encoding with it costs what the `Encodable`
/// protocols themselves cost (a container box per keyed container, a call
/// through the box per member, the synthesized code): about the least any
/// encoder built on them can cost. The typed encode rows print it next to
/// `ModelJSONEncoder`.
final class NullEncoder: Encoder {
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// What the values came to: string lengths, numbers, flags.
    @exclusivity(unchecked) var total = 0

    /// Encodes `value`, whose type is known only at run time, as a library's
    /// encoder receives it.
    @inline(never)
    static func encode(_ value: any Encodable) -> Int {
        let encoder = NullEncoder()
        try? encoder.encodeValue(value)
        // The containers hold the encoder: let them go.
        encoder.containers.removeAll()
        return encoder.total
    }

    /// The keyed containers made so far, one per key type: making one
    /// looks up the metadata of its box type at run time, which an encoder
    /// can avoid by reusing the box, as `ModelJSONEncoder` does. (These
    /// containers hold nothing of their own, so one serves every object.)
    @exclusivity(unchecked) private var containerTypes: [ObjectIdentifier] = []
    @exclusivity(unchecked) private var containers: [AnyContainer] = []

    class AnyContainer {}

    /// A container kept for its key type, reached by a downcast that checks
    /// nothing in release builds, and read by a method of its own, generic
    /// over the container's type: there that type's metadata comes with the
    /// object, where anywhere else even copying a container of an unknown
    /// key type looks the metadata up in the runtime's tables.
    final class KeptContainer<Container>: AnyContainer {
        private let box: AnyObject
        init(_ box: AnyObject) { self.box = box }
        /// The container (a `KeyedEncodingContainer` is its box: one reference).
        @inline(never)
        func load() -> Container { unsafeBitCast(box, to: Container.self) }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let key = ObjectIdentifier(type)
        for index in containerTypes.indices where containerTypes[index] == key {
            return unsafeDowncast(containers[index], to: KeptContainer<KeyedEncodingContainer<Key>>.self).load()
        }
        let container = KeyedEncodingContainer(Keyed<Key>(encoder: self))
        containerTypes.append(key)
        containers.append(KeptContainer<KeyedEncodingContainer<Key>>(unsafeBitCast(container, to: AnyObject.self)))
        return container
    }

    /// Encodes `value`; arrays element by element in place, as
    /// `ModelJSONEncoder` does, where `Array.encode(to:)` copies each element.
    func encodeValue<Value: Encodable>(_ value: Value) throws {
        if isArray(Value.self), let array = value as? any InPlaceArray {
            return try array.encodeElements(with: self)
        }
        try value.encode(to: self)
    }

    /// The last types met and whether they are arrays, so that the cast is tried once per type.
    @exclusivity(unchecked) private var arrayTypes: [(type: ObjectIdentifier, isArray: Bool)] = []

    private func isArray<Value>(_ type: Value.Type) -> Bool {
        let key = ObjectIdentifier(type)
        for entry in arrayTypes where entry.type == key { return entry.isArray }
        let isArray = type is any InPlaceArray.Type
        arrayTypes.append((key, isArray))
        return isArray
    }

    /// Taken `inout` so that the value is encoded where it lies.
    func encodeElement<Value: Encodable>(_ value: inout Value) throws { try encodeValue(value) }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { Unkeyed(encoder: self) }

    func singleValueContainer() -> any SingleValueEncodingContainer { Unkeyed(encoder: self) }

    @inline(__always)
    func take(_ text: String) { total &+= text.utf8.count }

    @inline(__always)
    func take<Number: BinaryInteger>(_ number: Number) { total &+= Int(truncatingIfNeeded: number) }

    @inline(__always)
    func take(_ number: Double) { total &+= Int(number.exponentBitPattern) }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: NullEncoder
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil(forKey key: Key) throws { encoder.take(1) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { encoder.take(value ? 1 : 0) }
        mutating func encode(_ value: String, forKey key: Key) throws { encoder.take(value) }
        mutating func encode(_ value: Double, forKey key: Key) throws { encoder.take(value) }
        mutating func encode(_ value: Float, forKey key: Key) throws { encoder.take(Double(value)) }
        mutating func encode(_ value: Int, forKey key: Key) throws { encoder.take(value) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { encoder.take(value) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { encoder.take(value) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { encoder.take(value) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { encoder.take(value) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { encoder.take(value) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { encoder.take(value) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { encoder.take(value) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { encoder.take(value) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { encoder.take(value) }
        mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws { try encoder.encodeValue(value) }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            encoder.container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            Unkeyed(encoder: encoder)
        }

        mutating func superEncoder() -> any Encoder { encoder }
        mutating func superEncoder(forKey key: Key) -> any Encoder { encoder }
    }

    /// The unkeyed and the single-value container: both only take values.
    struct Unkeyed: UnkeyedEncodingContainer, SingleValueEncodingContainer {
        let encoder: NullEncoder
        var codingPath: [any CodingKey] { [] }
        var count = 0

        mutating func encodeNil() throws { encoder.take(1) }
        mutating func encode(_ value: Bool) throws { encoder.take(value ? 1 : 0) }
        mutating func encode(_ value: String) throws { encoder.take(value) }
        mutating func encode(_ value: Double) throws { encoder.take(value) }
        mutating func encode(_ value: Float) throws { encoder.take(Double(value)) }
        mutating func encode(_ value: Int) throws { encoder.take(value) }
        mutating func encode(_ value: Int8) throws { encoder.take(value) }
        mutating func encode(_ value: Int16) throws { encoder.take(value) }
        mutating func encode(_ value: Int32) throws { encoder.take(value) }
        mutating func encode(_ value: Int64) throws { encoder.take(value) }
        mutating func encode(_ value: UInt) throws { encoder.take(value) }
        mutating func encode(_ value: UInt8) throws { encoder.take(value) }
        mutating func encode(_ value: UInt16) throws { encoder.take(value) }
        mutating func encode(_ value: UInt32) throws { encoder.take(value) }
        mutating func encode(_ value: UInt64) throws { encoder.take(value) }
        mutating func encode<Value: Encodable>(_ value: Value) throws {
            count += 1
            try encoder.encodeValue(value)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            encoder.container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { Unkeyed(encoder: encoder) }
        mutating func superEncoder() -> any Encoder { encoder }
    }
}

/// Arrays that ``NullEncoder`` encodes element by element, in place.
protocol InPlaceArray {
    func encodeElements(with encoder: NullEncoder) throws
}

extension Array: InPlaceArray where Element: Encodable {
    func encodeElements(with encoder: NullEncoder) throws {
        // Asked for, as `Array.encode(to:)` does.
        _ = encoder.unkeyedContainer()
        try withUnsafeBufferPointer { elements in
            for index in elements.indices {
                let element = UnsafeMutablePointer(mutating: elements.baseAddress.unsafelyUnwrapped + index)
                try encoder.encodeElement(&element.pointee)
            }
        }
    }
}
