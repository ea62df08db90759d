/// The key index of a large `ModelValue.Object`: an open-addressing table
/// from `KeyHash` hashes to member positions.
///
/// Each slot is one word: zero when empty, otherwise the member's position
/// plus one in the low half and the top half of its key's hash in the high
/// half. The same top half picks the first slot to probe, so the table can
/// grow without hashing a key again, and a probe compares two strings only
/// when 32 bits of their hashes agree. The table is at most half full.
///
/// Inserting gives up (returns `.tooManyCollisions`) when a probe runs past
/// `probeLimit` slots, which random keys all but never do; the object then
/// indexes its keys with a `Dictionary` instead, whose hashing resists
/// crafted collisions, so a hostile document costs time in proportion to its
/// size.
struct KeyTable: Sendable {
    private var slots: [UInt64]
    private var mask: Int
    private(set) var count = 0

    /// The longest probe allowed before giving up: linear probing at half
    /// load sees runs that grow with the logarithm of the table's size even
    /// for a perfect hash, so the limit grows with it, well above them.
    var probeLimit: Int { 32 + 8 * (Int.bitWidth - slots.count.leadingZeroBitCount) }

    enum Insertion {
        case inserted
        /// The key is present at this position.
        case present(Int)
        case tooManyCollisions
    }

    /// An empty table with room for `capacity` members before it grows.
    init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = Array(repeating: 0, count: size)
        mask = size - 1
    }

    @inline(__always)
    private static func tag(_ hash: UInt64) -> UInt64 { hash >> 32 }

    /// The position of `key`, whose hash is `hash`, among `keys`.
    func position(of key: String, hash: UInt64, in keys: [String]) -> Int? {
        let tag = KeyTable.tag(hash)
        var slot = Int(truncatingIfNeeded: tag) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { return nil }
            if entry >> 32 == tag {
                let position = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1
                if KeyHash.sameBytes(keys[position], key) { return position }
            }
            slot = (slot + 1) & mask
        }
    }

    /// Adds `keys[position]`, whose hash is `hash`, unless an equal key is present.
    mutating func insert(position: Int, hash: UInt64, in keys: [String]) -> Insertion {
        // Positions live in 32 bits; an object this large is indexed by a Dictionary.
        guard position < 0xFFFF_FFFE else { return .tooManyCollisions }
        if (count + 1) * 2 > slots.count { grow() }
        let tag = KeyTable.tag(hash)
        var slot = Int(truncatingIfNeeded: tag) & mask
        var probes = 0
        while true {
            let entry = slots[slot]
            if entry == 0 { break }
            if entry >> 32 == tag {
                let existing = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1
                if KeyHash.sameBytes(keys[existing], keys[position]) { return .present(existing) }
            }
            probes += 1
            if probes > probeLimit { return .tooManyCollisions }
            slot = (slot + 1) & mask
        }
        slots[slot] = tag << 32 | UInt64(truncatingIfNeeded: position + 1)
        count += 1
        return .inserted
    }

    /// Doubles the table, placing each entry again by its stored tag.
    private mutating func grow() {
        let old = slots
        slots = Array(repeating: 0, count: old.count * 2)
        mask = slots.count - 1
        for entry in old where entry != 0 {
            var slot = Int(truncatingIfNeeded: entry >> 32) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = entry
        }
    }
}
