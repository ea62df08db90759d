import Foundation

/// A keyed container over one object of the tape.
///
/// Types ask for their keys mostly in the order the document has them, so a
/// key is looked for first at the member after the one found last, then
/// among the members passed before it only when one of them may be it,
/// then on from there, comparing the bytes of plain keys (see
/// ``JSONObjectCursor``). When a key repeats, the first occurrence counts,
/// as in `JSONDecoder`.
/// Objects with many members, keys converted by a strategy, and keys outside
/// ASCII (which Swift compares by canonical equivalence) use a table of
/// `String`s instead, built once.
///
/// Everything it knows of its object is a ``JSONObjectCursor`` in memory of
/// its own, read and written without exclusivity checks and by code that is
/// not generic; ``JSONDecodingState/keyedContainer(_:index:path:keepsKeys:)``
/// hands the same container out again, pointed at another object, once
/// nothing else holds it.
final class JSONTapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let state: JSONDecodingState
    let cursor: UnsafeMutablePointer<JSONObjectCursor>

    init(state: JSONDecodingState, index: Int, path: CodingPathNode?, keepsKeys: Bool) {
        self.state = state
        cursor = .allocate(capacity: 1)
        cursor.initialize(to: JSONObjectCursor(state: state, index: index, path: path, keepsKeys: keepsKeys))
    }

    deinit {
        cursor.deinitialize(count: 1)
        cursor.deallocate()
    }

    var path: CodingPathNode? { cursor.pointee.path }
    var codingPath: [any CodingKey] { cursor.pointee.path?.keys ?? [] }

    /// The value entry of `key`, or `nil` when the object has no such member.
    @inline(__always)
    private func valueIndex(_ key: Key) -> Int? {
        if _slowPath(state.isClosed) { cursor.pointee.rebase(state) }
        return cursor.pointee.valueIndex(key.stringValue, state)
    }

    // MARK: - KeyedDecodingContainerProtocol

    var allKeys: [Key] {
        if _slowPath(state.isClosed) { cursor.pointee.rebase(state) }
        return cursor.pointee.allKeyNames(state).compactMap { Key(stringValue: $0) }
    }

    func contains(_ key: Key) -> Bool { valueIndex(key) != nil }

    @inline(__always)
    private func required(_ key: Key) throws -> Int {
        guard let found = valueIndex(key) else { throw keyNotFound(key) }
        return found
    }

    @inline(never)
    private func keyNotFound(_ key: Key) -> DecodingError {
        let path = codingPath
        return DecodingError.keyNotFound(
            key,
            DecodingError.Context(
                codingPath: path, debugDescription: state.message(path, "no value for the key \(ModelValue.quoted(key.stringValue))")))
    }

    func decodeNil(forKey key: Key) throws -> Bool { state.entries[try required(key)].kind == .null }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        let found = try required(key)
        if let value = state.plainBool(at: found) { return value }
        return try state.decodeBool(at: found, path, key)
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        let found = try required(key)
        if let text = state.plainString(at: found) { return text }
        return try state.decodeString(at: found, path, key)
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        let found = try required(key)
        if let value = state.plainInt(at: found), value != 0 { return Double(value) }
        return try state.decodeDouble(at: found, path, key)
    }

    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try state.decodeFloat(at: required(key), path, key) }

    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        let found = try required(key)
        if let value = state.plainInt(at: found) { return value }
        return try state.decodeInteger(Int.self, at: found, path, key)
    }

    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try state.decodeInteger(type, at: required(key), path, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try state.decodeInteger(type, at: required(key), path, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try state.decodeInteger(type, at: required(key), path, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try state.decodeInteger(type, at: required(key), path, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try state.decodeInteger(type, at: required(key), path, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try state.decodeInteger(type, at: required(key), path, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try state.decodeInteger(type, at: required(key), path, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try state.decodeInteger(type, at: required(key), path, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try state.decodeInteger(type, at: required(key), path, key) }
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try state.decodeInteger(type, at: required(key), path, key) }
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try state.decodeInteger(type, at: required(key), path, key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try state.decodeValue(type, at: required(key), parent: path, key: key)
    }

    /// The value entry of `key` when it is present and not null.
    @inline(__always)
    private func present(_ key: Key) -> Int? {
        guard let found = valueIndex(key), state.entries[found].kind != .null else { return nil }
        return found
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let found = present(key) else { return nil }
        if let value = state.plainBool(at: found) { return value }
        return try state.decodeBool(at: found, path, key)
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let found = present(key) else { return nil }
        if let text = state.plainString(at: found) { return text }
        return try state.decodeString(at: found, path, key)
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        guard let found = present(key) else { return nil }
        if let value = state.plainInt(at: found), value != 0 { return Double(value) }
        return try state.decodeDouble(at: found, path, key)
    }

    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        guard let found = present(key) else { return nil }
        return try state.decodeFloat(at: found, path, key)
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        guard let found = present(key) else { return nil }
        if let value = state.plainInt(at: found) { return value }
        return try state.decodeInteger(type, at: found, path, key)
    }

    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? { try optionalInteger(type, key) }

    @inline(__always)
    private func optionalInteger<Integer: FixedWidthInteger>(_ type: Integer.Type, _ key: Key) throws -> Integer? {
        guard let found = present(key) else { return nil }
        return try state.decodeInteger(type, at: found, path, key)
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
        let found = cursor.pointee.superIndex(state)
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

/// What a keyed container knows of its object, and the finding of keys
/// among its members (code that is not generic over the key type).
struct JSONObjectCursor {
    let entries: UnsafeMutablePointer<JSONTape.Entry>
    private(set) var base: UnsafePointer<UInt8>
    /// The object's entry.
    private(set) var index: Int
    private(set) var path: CodingPathNode?
    private(set) var keepsKeys: Bool
    /// The entry of the first member's key, and the entry after the last member.
    private var first: Int
    private var end: Int
    private var memberCount: Int
    /// Where the next search starts: the key entry after the last one a
    /// search passed or found (a key found among the members before it
    /// leaves it where it is).
    private var hint: Int
    /// The value entry of each key, first occurrence winning, when in use.
    private var table: [String: Int]?
    /// The bits (`bit(_:_:_:)`, 128 of them) of the keys that searches have
    /// passed over or found: every member before `hint` has been.
    private var passedLow: UInt64 = 0
    private var passedHigh: UInt64 = 0
    /// Members looked at again by searches for keys that may be behind
    /// `hint`; too many, and the table is built.
    private var steps = 0

    init(state: JSONDecodingState, index: Int, path: CodingPathNode?, keepsKeys: Bool) {
        entries = state.entries
        base = state.base
        self.index = index
        self.path = path
        self.keepsKeys = keepsKeys
        let entry = state.entries[index]
        first = index + 1
        end = Int(entry.end)
        memberCount = Int(entry.count)
        hint = index + 1
        if !(keepsKeys || state.usesDefaultKeys) { table = makeTable(state) }
    }

    /// Reads the bytes where `state` reads them (its copy, once closed).
    mutating func rebase(_ state: JSONDecodingState) {
        base = state.base
    }

    /// Points the cursor at another object, as if made anew for it.
    @inline(__always)
    mutating func reset(state: JSONDecodingState, index: Int, path: CodingPathNode?, keepsKeys: Bool) {
        self.index = index
        self.path = path
        self.keepsKeys = keepsKeys
        let entry = entries[index]
        first = index + 1
        end = Int(entry.end)
        memberCount = Int(entry.count)
        hint = index + 1
        passedLow = 0
        passedHigh = 0
        steps = 0
        if table != nil || !(keepsKeys || state.usesDefaultKeys) { resetTable(state) }
    }

    @inline(never)
    private mutating func resetTable(_ state: JSONDecodingState) {
        table = nil
        if !(keepsKeys || state.usesDefaultKeys) { table = makeTable(state) }
    }

    /// The index of the entry after the value whose entry is at `index`.
    @inline(__always)
    private func indexAfter(_ index: Int) -> Int {
        let entry = entries[index]
        return entry.kind.rawValue >= JSONTape.Kind.array.rawValue ? Int(entry.end) : index + 1
    }

    /// The members' keys, converted by the strategy unless `keepsKeys`, each with its value's entry.
    private func makeTable(_ state: JSONDecodingState) -> [String: Int] {
        var table: [String: Int] = [:]
        table.reserveCapacity(memberCount)
        var member = first
        let converts = !(keepsKeys || state.usesDefaultKeys)
        while member < end {
            var key = state.key(at: member)
            if converts { key = convert(key, state) }
            if table[key] == nil { table[key] = member + 1 }
            member = indexAfter(member + 1)
        }
        return table
    }

    /// `key` under the key decoding strategy.
    private func convert(_ key: String, _ state: JSONDecodingState) -> String {
        switch state.options.keyDecodingStrategy {
        case .useDefaultKeys: return key
        case .convertFromSnakeCase: return SnakeCase.camelCased(key)
        case .custom(let closure): return closure((path?.keys ?? []) + [AnyCodingKey(stringValue: key)]).stringValue
        @unknown default: return key
        }
    }

    /// The names of the members' keys, converted by the strategy unless
    /// `keepsKeys`, each once, in document order.
    func allKeyNames(_ state: JSONDecodingState) -> [String] {
        var names: [String] = []
        names.reserveCapacity(memberCount)
        var seen: Set<String> = []
        var member = first
        let converts = !(keepsKeys || state.usesDefaultKeys)
        while member < end {
            var name = state.key(at: member)
            if converts { name = convert(name, state) }
            if seen.insert(name).inserted { names.append(name) }
            member = indexAfter(member + 1)
        }
        return names
    }

    /// The value entry of the key `name`, or `nil` when the object has no such member.
    @inline(__always)
    mutating func valueIndex(_ name: String, _ state: JSONDecodingState) -> Int? {
        if table != nil { return table![name] }
        var name = name
        return name.withUTF8 { valueIndex(bytes: $0, state) }
    }

    /// The value entry of a member "super": from the table if it has one
    /// there, else by a search of the keys as they are.
    mutating func superIndex(_ state: JSONDecodingState) -> Int? {
        if let found = table?["super"] { return found }
        var name = "super"
        return name.withUTF8 { search($0, state) }
    }

    /// The value entry of the key whose UTF-8 is `key`: first the member at
    /// `hint`, then a search.
    @inline(__always)
    private mutating func valueIndex(bytes key: UnsafeBufferPointer<UInt8>, _ state: JSONDecodingState) -> Int? {
        let member = hint
        if member < end, let keyStart = key.baseAddress, !key.isEmpty {
            let entry = entries[member]
            // A plain key of the same bytes is ASCII, as the key is then.
            if entry.flags == 0, Int(entry.end &- entry.start) == key.count,
                JSONObjectCursor.sameBytes(base + Int(entry.start), keyStart, count: key.count)
            {
                let keyBit = Self.bit(key.count, keyStart[0], keyStart[key.count - 1])
                // The first occurrence wins: one before `member` may have
                // been passed over by an earlier search for another key.
                if member != first, mayRepeat(keyBit), let earlier = earlierOccurrence(of: key, before: member).found {
                    return earlier
                }
                remember(keyBit)
                hint = indexAfter(member + 1)
                return member + 1
            }
        }
        return search(key, state)
    }

    /// Whether `count` bytes at `first` and at `second` are the same.
    @inline(__always)
    static func sameBytes(_ first: UnsafePointer<UInt8>, _ second: UnsafePointer<UInt8>, count: Int) -> Bool {
        if count >= 8 {
            guard count <= 16 else { return memcmp(first, second, count) == 0 }
            let a = UnsafeRawPointer(first)
            let b = UnsafeRawPointer(second)
            return a.loadUnaligned(as: UInt64.self) == b.loadUnaligned(as: UInt64.self)
                && a.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                    == b.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        }
        var offset = 0
        while offset < count {
            guard first[offset] == second[offset] else { return false }
            offset += 1
        }
        return true
    }

    /// Finds the plain ASCII bytes of a key among the members; `nil` when it
    /// is not there. Switches to the table for members it cannot compare by
    /// bytes (escaped or non-ASCII keys) and when searches go on too long.
    ///
    /// Every member before `hint` has been passed over or found, and its
    /// key's bit remembered: the key can be there only when its bit is set,
    /// and is looked for there first (the first occurrence wins). Then the
    /// members from `hint` on, which no search has passed yet. So keys
    /// asked for in any order cost one walk of the object in all, plus a
    /// walk of the members passed for each key whose bit one of them shares.
    @inline(never)
    private mutating func search(_ key: UnsafeBufferPointer<UInt8>, _ state: JSONDecodingState) -> Int? {
        guard memberCount > 0 else { return nil }
        guard let keyStart = key.baseAddress, !key.isEmpty else { return fromTable(key, state) }
        // Read like a ModelValue, the object's keys are all ASCII: no key outside ASCII matches one by bytes.
        for byte in key where byte >= 0x80 { return state.readsLikeModelValues ? nil : fromTable(key, state) }
        let keyBit = Self.bit(key.count, keyStart[0], keyStart[key.count - 1])
        if hint > first, mayRepeat(keyBit) {
            let (earlier, looked) = earlierOccurrence(of: key, before: hint)
            if let earlier { return earlier }
            steps &+= looked
            if steps > memberCount * 8 + 64 { return fromTable(key, state) }
        }
        var member = hint
        while member < end {
            let entry = entries[member]
            if entry.flags != 0 { return fromTable(key, state) }
            let length = Int(entry.end &- entry.start)
            let memberStart = base + Int(entry.start)
            if length > 0 { remember(Self.bit(length, memberStart[0], memberStart[length - 1])) }
            let found = length == key.count && Self.sameBytes(memberStart, keyStart, count: length)
            hint = indexAfter(member + 1)
            if found { return member + 1 }
            member = hint
        }
        return nil
    }

    @inline(__always)
    private func mayRepeat(_ bit: UInt64) -> Bool {
        (bit < 64 ? passedLow >> bit : passedHigh >> (bit - 64)) & 1 != 0
    }

    @inline(__always)
    private mutating func remember(_ bit: UInt64) {
        if bit < 64 { passedLow |= 1 << bit } else { passedHigh |= 1 << (bit - 64) }
    }

    /// A key's bit, 0 to 127, from its length and first and last bytes.
    @inline(__always)
    private static func bit(_ length: Int, _ firstByte: UInt8, _ lastByte: UInt8) -> UInt64 {
        let mixed = (UInt64(truncatingIfNeeded: length) &* 0x9E37_79B9 ^ UInt64(firstByte) &* 0x85EB_CA6B ^ UInt64(lastByte)) &* 0xC2B2_AE35
        return (mixed >> 25) & 127
    }

    /// The value entry of the first member before `limit` whose key is
    /// `key`, and how many members were looked at.
    @inline(never)
    private func earlierOccurrence(of key: UnsafeBufferPointer<UInt8>, before limit: Int) -> (found: Int?, looked: Int) {
        var member = first
        var looked = 0
        while member < limit {
            let entry = entries[member]
            if Int(entry.end &- entry.start) == key.count, entry.flags == 0,
                Self.sameBytes(base + Int(entry.start), key.baseAddress!, count: key.count)
            {
                return (member + 1, looked)
            }
            looked &+= 1
            member = indexAfter(member + 1)
        }
        return (nil, looked)
    }

    @inline(never)
    private mutating func fromTable(_ key: UnsafeBufferPointer<UInt8>, _ state: JSONDecodingState) -> Int? {
        if table == nil { table = makeTable(state) }
        return table?[String(decoding: key, as: UTF8.self)]
    }
}
