import Foundation

/// The `Decoder` that ``ModelJSONDecoder`` hands to `init(from:)`: one value
/// of the tape, and the path to it. Three words (the entry's index is 32
/// bits, as a tape's offsets are), so it travels as `any Decoder` without an
/// allocation.
struct JSONTapeDecoder: Decoder {
    let state: JSONDecodingState
    private let entry: UInt32
    /// Whether the keys of this value are matched as they are, whatever the
    /// key strategy (a `[String: …]` dictionary).
    let keepsKeys: Bool
    let path: CodingPathNode?

    init(state: JSONDecodingState, index: Int, keepsKeys: Bool, path: CodingPathNode?) {
        self.state = state
        entry = UInt32(truncatingIfNeeded: index)
        self.keepsKeys = keepsKeys
        self.path = path
    }

    /// The entry of this value.
    @inline(__always)
    var index: Int { Int(entry) }

    var codingPath: [any CodingKey] { path?.keys ?? [] }
    var userInfo: [CodingUserInfoKey: Any] { state.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard state.entries[index].kind == .object else {
            throw state.mismatch([String: Any].self, expected: "an object", at: index, path, nil)
        }
        if state.entries[index].flags & JSONTape.hasEscapedKeys != 0 { try state.checkKeys(ofObjectAt: index, path) }
        if state.readsLikeModelValues { try state.requireBytewiseKeys(ofObjectAt: index) }
        return state.keyedContainer(Key.self, index: index, path: path, keepsKeys: keepsKeys)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard state.entries[index].kind == .array else {
            throw state.mismatch([Any].self, expected: "an array", at: index, path, nil)
        }
        return JSONTapeUnkeyedContainer(state: state, index: index, path: path)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }
}

extension JSONTapeDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool {
        return state.entries[index].kind == .null
    }

    func decode(_ type: Bool.Type) throws -> Bool { try state.decodeBool(at: index, path, nil) }
    func decode(_ type: String.Type) throws -> String { try state.decodeString(at: index, path, nil) }
    func decode(_ type: Double.Type) throws -> Double { try state.decodeDouble(at: index, path, nil) }
    func decode(_ type: Float.Type) throws -> Float { try state.decodeFloat(at: index, path, nil) }
    func decode(_ type: Int.Type) throws -> Int { try state.decodeInteger(type, at: index, path, nil) }
    func decode(_ type: Int8.Type) throws -> Int8 { try state.decodeInteger(type, at: index, path, nil) }
    func decode(_ type: Int16.Type) throws -> Int16 { try state.decodeInteger(type, at: index, path, nil) }
    func decode(_ type: Int32.Type) throws -> Int32 { try state.decodeInteger(type, at: index, path, nil) }
    func decode(_ type: Int64.Type) throws -> Int64 { try state.decodeInteger(type, at: index, path, nil) }
    func decode(_ type: UInt.Type) throws -> UInt { try state.decodeInteger(type, at: index, path, nil) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try state.decodeInteger(type, at: index, path, nil) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try state.decodeInteger(type, at: index, path, nil) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try state.decodeInteger(type, at: index, path, nil) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try state.decodeInteger(type, at: index, path, nil) }
    func decode(_ type: Int128.Type) throws -> Int128 { try state.decodeInteger(type, at: index, path, nil) }
    func decode(_ type: UInt128.Type) throws -> UInt128 { try state.decodeInteger(type, at: index, path, nil) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try state.decodeValue(type, at: index, parent: path, key: nil)
    }
}
