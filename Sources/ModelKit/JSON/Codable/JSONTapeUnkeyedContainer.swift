import Foundation

/// An unkeyed container over one array of the tape, stepping from element to element.
struct JSONTapeUnkeyedContainer: UnkeyedDecodingContainer {
    let state: JSONDecodingState
    let path: CodingPathNode?
    private let elementCount: Int
    /// The entry of the next element.
    private var cursor: Int
    private(set) var currentIndex = 0

    init(state: JSONDecodingState, index: Int, path: CodingPathNode?) {
        self.state = state
        self.path = path
        elementCount = Int(state.entries[index].count)
        cursor = index + 1
    }

    var codingPath: [any CodingKey] { path?.keys ?? [] }
    var count: Int? { elementCount }
    var isAtEnd: Bool { currentIndex >= elementCount }

    private var key: JSONTapeIndexKey { JSONTapeIndexKey(currentIndex) }

    /// The entry of the next element, which `advance()` then moves past.
    private func next<T>(_ type: T.Type) throws -> Int {
        guard !isAtEnd else {
            let path = codingPath + [key]
            throw DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: path,
                    debugDescription: state.message(path, "expected a value, found the end of the array (\(elementCount) elements)")))
        }
        return cursor
    }

    private mutating func advance() {
        cursor = state.indexAfter(cursor)
        currentIndex += 1
    }

    mutating func decodeNil() throws -> Bool {
        guard try state.entries[next(Never.self)].kind == .null else { return false }
        advance()
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let value = try state.decodeBool(at: next(type), path, key)
        advance()
        return value
    }

    mutating func decode(_ type: String.Type) throws -> String {
        let value = try state.decodeString(at: next(type), path, key)
        advance()
        return value
    }

    mutating func decode(_ type: Double.Type) throws -> Double {
        let value = try state.decodeDouble(at: next(type), path, key)
        advance()
        return value
    }

    mutating func decode(_ type: Float.Type) throws -> Float {
        let value = try state.decodeFloat(at: next(type), path, key)
        advance()
        return value
    }

    mutating func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }
    mutating func decode(_ type: Int128.Type) throws -> Int128 { try integer(type) }
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try integer(type) }

    private mutating func integer<Integer: FixedWidthInteger>(_ type: Integer.Type) throws -> Integer {
        let value = try state.decodeInteger(type, at: next(type), path, key)
        advance()
        return value
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try state.decodeValue(type, at: next(type), parent: path, key: key)
        advance()
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let container = try child(next([String: Any].self)).container(keyedBy: type)
        advance()
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try child(next([Any].self)).unkeyedContainer()
        advance()
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let decoder = try child(next(Any.self))
        advance()
        return decoder
    }

    private func child(_ index: Int) -> JSONTapeDecoder {
        JSONTapeDecoder(state: state, index: index, keepsKeys: false, path: CodingPathNode(parent: path, key: key))
    }
}
