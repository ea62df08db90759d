import Foundation

/// A keyed container over one object of the tape.
///
/// Types ask for their keys mostly in the order the document has them, so a
/// key is looked for from the member after the one found last, comparing the
/// bytes of plain keys, wrapping round once. When a key repeats, the first
/// occurrence counts, as in `JSONDecoder`. Objects with many members, keys
/// converted by a strategy, and keys outside ASCII (which Swift compares by
/// canonical equivalence) use a table of `String`s instead, built once.
final class JSONTapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let state: JSONDecodingState
    let index: Int
    let path: CodingPathNode?
    let keepsKeys: Bool
    /// The entry of the first member's key, and the entry after the last member.
    private let first: Int
    private let end: Int
    private let memberCount: Int
    /// Where the next search starts: the key entry after the last one found.
    private var hint: Int
    /// The value entry of each key, first occurrence winning, when in use.
    private var table: [String: Int]?
    /// The bits (`bit(_:_:_:)`, 128 of them) of the keys that searches have passed over.
    private var passedLow: UInt64 = 0
    private var passedHigh: UInt64 = 0
    /// Members passed over by all searches so far; too many, and the table is built.
    private var steps = 0


    init(state: JSONDecodingState, index: Int, path: CodingPathNode?, keepsKeys: Bool) {
        self.state = state
        self.index = index
        self.path = path
        self.keepsKeys = keepsKeys
        let entry = state.entries[index]
        first = index + 1
        end = Int(entry.end)
        memberCount = Int(entry.count)
        hint = index + 1
        if !(keepsKeys || state.usesDefaultKeys) { table = makeTable() }
    }

    var codingPath: [any CodingKey] { path?.keys ?? [] }

    /// The members' keys, converted by the strategy unless `keepsKeys`, each with its value's entry.
    private func makeTable() -> [String: Int] {
        var table: [String: Int] = [:]
        table.reserveCapacity(memberCount)
        var member = first
        let converts = !(keepsKeys || state.usesDefaultKeys)
        while member < end {
            var key = state.key(at: member)
            if converts { key = convert(key) }
            if table[key] == nil { table[key] = member + 1 }
            member = state.indexAfter(member + 1)
        }
        return table
    }

    /// `key` under the key decoding strategy.
    private func convert(_ key: String) -> String {
        switch state.options.keyDecodingStrategy {
        case .useDefaultKeys: return key
        case .convertFromSnakeCase: return SnakeCase.camelCased(key)
        case .custom(let closure): return closure(codingPath + [AnyCodingKey(stringValue: key)]).stringValue
        @unknown default: return key
        }
    }

    /// The value entry of `key`, or `nil` when the object has no such member.
    @inline(__always)
    private func valueIndex(_ key: Key) -> Int? {
        state.checkOpen()
        if let table { return table[key.stringValue] }
        var name = key.stringValue
        return name.withUTF8 { search($0) }
    }

    /// Finds the plain ASCII bytes of a key among the members; `nil` when it
    /// is not there. Switches to the table for members it cannot compare by
    /// bytes (escaped or non-ASCII keys) and when searches go on too long.
    private func search(_ key: UnsafeBufferPointer<UInt8>) -> Int? {
        guard memberCount > 0 else { return nil }
        guard let keyStart = key.baseAddress, !key.isEmpty else { return fromTable(key) }
        // Read like a ModelValue, the object's keys are all ASCII: no key outside ASCII matches one by bytes.
        for byte in key where byte >= 0x80 { return state.readsLikeModelValues ? nil : fromTable(key) }
        let entries = state.entries
        let base = state.base
        let start = hint < end ? hint : first
        let passedBeforeLow = passedLow
        let passedBeforeHigh = passedHigh
        let keyBit = Self.bit(key.count, keyStart[0], keyStart[key.count - 1])
        var member = start
        var wrapped = false
        while true {
            let entry = entries[member]
            if entry.flags != 0 { return fromTable(key) }
            let length = Int(entry.end - entry.start)
            let memberStart = base + Int(entry.start)
            if length == key.count, JSONReader.sameBytes(memberStart, keyStart, count: length) {
                // The first occurrence wins: one before `start` may have been
                // passed over by an earlier search for another key.
                let mayRepeat = (keyBit < 64 ? passedBeforeLow >> keyBit : passedBeforeHigh >> (keyBit - 64)) & 1 != 0
                if !wrapped, start != first, mayRepeat, let earlier = earlierOccurrence(of: key, before: start) {
                    return earlier
                }
                remember(keyBit)
                hint = state.indexAfter(member + 1)
                return member + 1
            }
            if length > 0 { remember(Self.bit(length, memberStart[0], memberStart[length - 1])) }
            steps += 1
            if steps > memberCount * 8 + 64 { return fromTable(key) }
            member = state.indexAfter(member + 1)
            if member >= end {
                member = first
                wrapped = true
            }
            if member == start { return nil }
        }
    }

    @inline(__always)
    private func remember(_ bit: UInt64) {
        if bit < 64 { passedLow |= 1 << bit } else { passedHigh |= 1 << (bit - 64) }
    }

    /// A key's bit, 0 to 127, from its length and first and last bytes.
    @inline(__always)
    private static func bit(_ length: Int, _ firstByte: UInt8, _ lastByte: UInt8) -> UInt64 {
        let mixed = (UInt64(truncatingIfNeeded: length) &* 0x9E37_79B9 ^ UInt64(firstByte) &* 0x85EB_CA6B ^ UInt64(lastByte)) &* 0xC2B2_AE35
        return (mixed >> 25) & 127
    }

    /// The value entry of the first member before `limit` whose key is `key`.
    private func earlierOccurrence(of key: UnsafeBufferPointer<UInt8>, before limit: Int) -> Int? {
        let entries = state.entries
        var member = first
        while member < limit {
            let entry = entries[member]
            if Int(entry.end - entry.start) == key.count, entry.flags == 0,
                JSONReader.sameBytes(state.base + Int(entry.start), key.baseAddress!, count: key.count)
            {
                return member + 1
            }
            member = state.indexAfter(member + 1)
        }
        return nil
    }

    private func fromTable(_ key: UnsafeBufferPointer<UInt8>) -> Int? {
        if table == nil { table = makeTable() }
        return table?[String(decoding: key, as: UTF8.self)]
    }

    // MARK: - KeyedDecodingContainerProtocol

    var allKeys: [Key] {
        state.checkOpen()
        var keys: [Key] = []
        keys.reserveCapacity(memberCount)
        var seen: Set<String> = []
        var member = first
        let converts = !(keepsKeys || state.usesDefaultKeys)
        while member < end {
            var name = state.key(at: member)
            if converts { name = convert(name) }
            if seen.insert(name).inserted, let key = Key(stringValue: name) { keys.append(key) }
            member = state.indexAfter(member + 1)
        }
        return keys
    }

    func contains(_ key: Key) -> Bool { valueIndex(key) != nil }

    private func required(_ key: Key) throws -> Int {
        guard let found = valueIndex(key) else {
            let path = codingPath
            throw DecodingError.keyNotFound(
                key,
                DecodingError.Context(
                    codingPath: path, debugDescription: state.message(path, "no value for the key \(ModelValue.quoted(key.stringValue))")))
        }
        return found
    }

    func decodeNil(forKey key: Key) throws -> Bool { state.entries[try required(key)].kind == .null }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try state.decodeBool(at: required(key), path, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try state.decodeString(at: required(key), path, key)
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try state.decodeDouble(at: required(key), path, key)
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try state.decodeFloat(at: required(key), path, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(type, key) }

    private func integer<Integer: FixedWidthInteger>(_ type: Integer.Type, _ key: Key) throws -> Integer {
        try state.decodeInteger(type, at: required(key), path, key)
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try state.decodeValue(type, at: required(key), parent: path, key: key)
    }

    /// The value entry of `key` when it is present and not null.
    @inline(__always)
    private func present(_ key: Key) -> Int? {
        guard let found = valueIndex(key), state.entries[found].kind != .null else { return nil }
        return found
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let found = present(key) else { return nil }
        return try state.decodeString(at: found, path, key)
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        guard let found = present(key) else { return nil }
        return try state.decodeInteger(type, at: found, path, key)
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let found = present(key) else { return nil }
        return try state.decodeBool(at: found, path, key)
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        guard let found = present(key) else { return nil }
        return try state.decodeDouble(at: found, path, key)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let found = present(key) else { return nil }
        return try state.decodeValue(type, at: found, parent: path, key: key)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try child(required(key), key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try child(required(key), key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        let key = AnyCodingKey.super
        var name = key.stringValue
        let found = table?[name] ?? name.withUTF8 { search($0) }
        return JSONTapeDecoder(
            state: state, index: found ?? state.nullIndex, keepsKeys: false,
            path: CodingPathNode(parent: path, key: key))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        child(valueIndex(key) ?? state.nullIndex, key)
    }

    private func child(_ index: Int, _ key: Key) -> JSONTapeDecoder {
        JSONTapeDecoder(state: state, index: index, keepsKeys: false, path: CodingPathNode(parent: path, key: key))
    }
}
