import Foundation

/// The extensible properties of one object: its members in order, each held
/// as a value or, when it was read from JSON, as the exact text it was read
/// from, read into a value only when somebody asks for it.
///
/// Every reader sees values: ``object``, ``value(forKey:)`` and equality
/// work on them, so two bags that differ only in how their JSON was spelled
/// are equal. The JSON encoder alone asks for the text and writes it back as
/// it came. Setting a member replaces its text with the new value; the
/// other members keep theirs.
///
/// Two forms, for speed: right after a JSON load the members are only
/// ranges of the document (`Segment`: no key strings, no per-member
/// allocation); the first change, or a member that cannot stay a range,
/// turns the bag into the general form, an ordered object of values with
/// each member's text alongside (`RawJSON`, a slice of the document).
struct ExtensibleBag: Sendable {
    /// General form: keys and values in order; a member held as text has `.null` here.
    private var storage: ModelValue.Object
    /// General form: each member's text, aligned with `storage`; empty while no member has text.
    private var texts: [RawJSON?] = []
    /// Compact form: when set, every member is a range of this document,
    /// listed in `members`, and `storage` is empty.
    private var document: Data?
    /// Whether `document` is set (cheaper to test than the optional).
    private var isCompactForm = false
    /// Compact form: the members' keys (bytes without escapes, quotes
    /// excluded) and values, as byte offsets from the document's start index.
    private var members: [CompactMember] = []
    /// Compact form: each key's `KeyHash`, for finding repeated keys.
    private var hashes: [UInt64] = []
    /// Whether turning the compact form into the general one met a repeated key.
    private var sawRepeatedKey = false

    struct CompactMember: Sendable {
        var key: Range<Int>
        var value: Range<Int>
    }

    /// The compact form's key text of `member`.
    private static func keyString(_ member: CompactMember, in document: Data) -> String {
        document.withUnsafeBytes { raw in
            String(decoding: UnsafeRawBufferPointer(rebasing: raw[member.key]), as: UTF8.self)
        }
    }

    /// The compact form's value text of `member`.
    private static func text(_ member: CompactMember, in document: Data) -> RawJSON {
        let start = document.startIndex
        return RawJSON(validated: document[(start + member.value.lowerBound)..<(start + member.value.upperBound)])
    }

    /// The position of the compact member whose key bytes are those of `key`.
    private func compactIndex(forKey key: String, in document: Data) -> Int? {
        var key = key
        return key.withUTF8 { wanted in
            document.withUnsafeBytes { raw in
                members.firstIndex { member in
                    member.key.count == wanted.count
                        && (wanted.isEmpty
                            || memcmp(raw.baseAddress! + member.key.lowerBound, wanted.baseAddress!, wanted.count) == 0)
                }
            }
        }
    }

    init() {
        storage = ModelValue.Object()
    }

    /// A bag of the members of `object`, held as values, with the JSON
    /// texts its members keep.
    init(_ object: ModelValue.Object) {
        storage = object
        if object.hasTexts {
            texts = object.memberTexts
            storage.removeTexts()
        }
    }

    var count: Int { document == nil ? storage.count : members.count }
    var isEmpty: Bool { count == 0 }
    var keys: [String] {
        guard let document else { return storage.keys }
        return members.map { Self.keyString($0, in: document) }
    }

    /// Whether some member is held as JSON text.
    var hasText: Bool { document != nil || !texts.isEmpty }

    /// The JSON text of the member at `index`, if it is held as text.
    func text(at index: Int) -> RawJSON? {
        if let document { return Self.text(members[index], in: document) }
        return texts.isEmpty ? nil : texts[index]
    }

    /// Calls `body` with the document's bytes and the members' byte offsets
    /// when the bag is in its compact form; returns `nil` otherwise.
    func withCompactMembers<Result>(_ body: (UnsafeRawBufferPointer, [CompactMember]) -> Result) -> Result? {
        guard let document else { return nil }
        return document.withUnsafeBytes { body($0, members) }
    }

    /// Whether the bag is in its compact form.
    var isCompact: Bool { isCompactForm }

    /// In the compact form, the byte count of the document the members are
    /// ranges of; `nil` otherwise.
    var compactDocumentCount: Int? { document?.count }

    /// The value of the member at `index`.
    func value(at index: Int) -> ModelValue {
        if let text = text(at: index) { return text.value }
        return storage.values[index]
    }

    /// The value for `key` (compared by its exact text), or `nil`.
    func value(forKey key: String) -> ModelValue? {
        if let document { return compactIndex(forKey: key, in: document).map(value(at:)) }
        return storage.index(forKey: key).map(value(at:))
    }

    /// Every member as a value, in order, each member held as text keeping
    /// its text (``ModelValue/Object``'s member texts), for the saved form.
    var objectKeepingTexts: ModelValue.Object {
        var object = self.object
        guard hasText else { return object }
        for index in 0..<count {
            if let text = text(at: index) { object.setText(text, at: index) }
        }
        return object
    }

    /// Every member as a value, in order.
    var object: ModelValue.Object {
        if let document {
            var object = ModelValue.Object(minimumCapacity: members.count)
            for member in members {
                object.appendNew(key: Self.keyString(member, in: document), value: Self.text(member, in: document).value)
            }
            return object
        }
        guard !texts.isEmpty else { return storage }
        var object = storage
        for (index, text) in texts.enumerated() {
            if let text { object.replaceValue(at: index, with: text.value) }
        }
        return object
    }

    /// Turns the compact form into the general one.
    private mutating func expand() {
        guard let document else { return }
        self.document = nil
        isCompactForm = false
        storage = ModelValue.Object(minimumCapacity: members.count)
        texts = []
        texts.reserveCapacity(members.count)
        for member in members {
            if storage.appendIfAbsent(key: Self.keyString(member, in: document), value: .null) == nil {
                texts.append(Self.text(member, in: document))
            } else {
                sawRepeatedKey = true
            }
        }
        members = []
        hashes = []
    }

    /// Sets the member for `key` to `value`, keeping its position, or appends
    /// it; `nil` removes it. Returns the previous value.
    /// `text`, when given, is the JSON text `value` was read from, kept with it.
    @discardableResult
    mutating func set(_ value: ModelValue?, forKey key: String, text: RawJSON? = nil) -> ModelValue? {
        expand()
        guard let index = storage.index(forKey: key) else {
            if let value {
                storage.appendNew(key: key, value: value)
                if let text {
                    if texts.isEmpty { texts = Array(repeating: nil, count: storage.count - 1) }
                    texts.append(text)
                } else if !texts.isEmpty {
                    texts.append(nil)
                }
            }
            return nil
        }
        let old = self.value(at: index)
        if let value {
            storage.replaceValue(at: index, with: value)
            if let text {
                if texts.isEmpty { texts = Array(repeating: nil, count: storage.count) }
                texts[index] = text
            } else if !texts.isEmpty {
                texts[index] = nil
            }
        } else {
            storage.removeValue(forKey: key)
            if !texts.isEmpty { texts.remove(at: index) }
        }
        if !texts.isEmpty, !texts.contains(where: { $0 != nil }) { texts = [] }
        return old
    }

    /// Appends `value` for `key` unless the bag has that key.
    /// - Returns: whether it was appended.
    mutating func appendIfAbsent(key: String, value: ModelValue) -> Bool {
        expand()
        guard storage.appendIfAbsent(key: key, value: value) == nil else { return false }
        if !texts.isEmpty { texts.append(nil) }
        return true
    }

    /// Appends a member held as its JSON `text` unless the bag has that key.
    /// - Returns: whether it was appended.
    mutating func appendIfAbsent(key: String, text: RawJSON) -> Bool {
        expand()
        guard storage.appendIfAbsent(key: key, value: .null) == nil else { return false }
        if texts.isEmpty { texts = Array(repeating: nil, count: storage.count - 1) }
        texts.append(text)
        return true
    }

    /// Whether ``appendCompact(key:hash:value:)`` can take members: the bag
    /// is in its compact form, or empty (then ``beginCompact(_:)`` first).
    var acceptsCompactMembers: Bool { isCompact || (storage.isEmpty && !sawRepeatedKey) }

    /// Starts the compact form on `document`; the bag must be empty.
    mutating func beginCompact(_ document: Data) {
        if !isCompactForm, storage.isEmpty {
            self.document = document
            isCompactForm = true
        }
    }

    /// Appends a member of the bag's document whose key (bytes without
    /// escapes, quotes excluded, with its `KeyHash`) and validated value are
    /// at the byte offsets given; the bag is in its compact form. Repeated
    /// keys are found by ``hasRepeatedKeys()`` once the object is read.
    mutating func appendCompact(key: Range<Int>, hash: UInt64, value: Range<Int>) {
        members.append(CompactMember(key: key, value: value))
        hashes.append(hash)
    }

    /// Starts the compact form on `document` with `members`, whose keys the
    /// caller has found distinct (``repeatsKey(_:hashes:in:table:)``); the
    /// bag must be empty. One array, made at its final size by the caller,
    /// instead of one grown member by member.
    mutating func setCompact(_ document: Data, members: [CompactMember]) {
        self.document = document
        isCompactForm = true
        self.members = members
    }

    /// Whether two of `members`, keys of the `bytes` with their hashes
    /// alongside, have the same key: equal hashes, then equal bytes.
    ///
    /// A few members are compared pair by pair; more go into `table`, a
    /// scratch open-addressing table of member positions (kept by the caller
    /// from one object to the next), at most half full.
    static func repeatsKey(
        _ members: UnsafeBufferPointer<CompactMember>, hashes: UnsafeBufferPointer<UInt64>,
        in bytes: UnsafePointer<UInt8>, table: inout [UInt32]
    ) -> Bool {
        let count = members.count
        @inline(__always)
        func sameKey(_ first: Int, _ second: Int) -> Bool {
            let lhs = members[first].key
            let rhs = members[second].key
            return lhs.count == rhs.count && memcmp(bytes + lhs.lowerBound, bytes + rhs.lowerBound, lhs.count) == 0
        }
        if count <= 12 {
            var second = 1
            while second < count {
                let hash = hashes[second]
                var first = 0
                while first < second {
                    if hashes[first] == hash, sameKey(first, second) { return true }
                    first &+= 1
                }
                second &+= 1
            }
            return false
        }
        var size = 32
        while size < 2 * count { size &*= 2 }
        if table.count < size { table = Array(repeating: 0, count: size) }
        return table.withUnsafeMutableBufferPointer { table -> Bool in
            let slots = table.baseAddress!
            slots.update(repeating: 0, count: size)
            let mask = size - 1
            for member in 0..<count {
                // Positions are stored plus one: 0 marks a free slot.
                var slot = Int(truncatingIfNeeded: hashes[member] >> 32) & mask
                while slots[slot] != 0 {
                    let other = Int(slots[slot]) &- 1
                    if hashes[other] == hashes[member], sameKey(other, member) { return true }
                    slot = (slot &+ 1) & mask
                }
                slots[slot] = UInt32(truncatingIfNeeded: member &+ 1)
            }
            return false
        }
    }

    /// Whether members appended with ``appendCompact(key:hash:value:)``
    /// repeat a key.
    @inline(__always)
    func hasRepeatedKeys() -> Bool {
        if sawRepeatedKey { return true }
        // Inlined up to here: a caller asking about a bag that is a field of
        // its own variable (the direct decoder, once per object) reads these
        // in place instead of copying the whole bag for a call.
        guard isCompactForm, hashes.count > 1 else { return false }
        return hasRepeatedHashedKeys()
    }

    /// ``hasRepeatedKeys()`` for a compact bag of two members or more.
    private func hasRepeatedHashedKeys() -> Bool {
        // Distinct hashes, the usual case, settle it without looking at keys.
        var sortedHashes = hashes
        sortedHashes.sort()
        var position = 1
        while position < sortedHashes.count, sortedHashes[position] != sortedHashes[position - 1] { position += 1 }
        guard position < sortedHashes.count, let document else { return false }
        let members = members
        var sorted = hashes.indices.map { (hash: hashes[$0], index: $0) }
        sorted.sort { $0.hash < $1.hash }
        return document.withUnsafeBytes { raw in
            for position in 1..<sorted.count where sorted[position].hash == sorted[position - 1].hash {
                // The same hash: compare the bytes of every pair in the run.
                var first = position - 1
                while first > 0, sorted[first - 1].hash == sorted[position].hash { first -= 1 }
                for earlier in first..<position {
                    let lhs = members[sorted[earlier].index].key
                    let rhs = members[sorted[position].index].key
                    if lhs.count == rhs.count,
                        memcmp(raw.baseAddress! + lhs.lowerBound, raw.baseAddress! + rhs.lowerBound, lhs.count) == 0
                    {
                        return true
                    }
                }
            }
            return false
        }
    }
}

extension ExtensibleBag: Equatable {
    /// Equal when the members are, by value, in any order (as `ModelValue.Object`).
    static func == (lhs: ExtensibleBag, rhs: ExtensibleBag) -> Bool {
        lhs.object == rhs.object
    }
}
