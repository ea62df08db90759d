/// A set of object identities, for walks over the model graph.
///
/// `Set<ObjectIdentifier>` hashes every identity with SipHash, which a walk
/// over 100,000 models spends most of its time in. Identities are addresses
/// that the allocator hands out, not data from outside, so a multiplicative
/// (Fibonacci) hash spreads them well enough: an open-addressing table with
/// linear probing, at most half full.
struct IdentitySet {
    /// Addresses, 0 for an empty bucket; the count is a power of two.
    private var buckets: [UInt]
    private var count = 0
    /// 64 minus log2 of the bucket count: how far to shift the product.
    private var shift: UInt

    /// A set holding `first`.
    init(_ first: AnyObject) {
        self.init()
        insert(first)
    }

    /// An empty set.
    init() {
        buckets = [UInt](repeating: 0, count: 16)
        shift = UInt(UInt.bitWidth - 4)
    }

    /// Adds `object`; returns whether it was not there yet.
    @inline(__always)
    @discardableResult
    mutating func insert(_ object: AnyObject) -> Bool {
        let address = UInt(bitPattern: ObjectIdentifier(object))
        if (count + 1) * 2 > buckets.count { grow() }
        let start = Self.bucket(of: address, shift: shift)
        let inserted = buckets.withUnsafeMutableBufferPointer { table -> Bool in
            let mask = table.count - 1
            var bucket = start
            while true {
                let occupant = table[bucket]
                if occupant == address { return false }
                if occupant == 0 {
                    table[bucket] = address
                    return true
                }
                bucket = (bucket + 1) & mask
            }
        }
        if inserted { count += 1 }
        return inserted
    }

    /// Whether the object with `identifier` is in the set.
    func contains(_ identifier: ObjectIdentifier) -> Bool {
        let address = UInt(bitPattern: identifier)
        return buckets.withUnsafeBufferPointer { table -> Bool in
            let mask = table.count - 1
            var bucket = Self.bucket(of: address, shift: shift)
            while true {
                let occupant = table[bucket]
                if occupant == address { return true }
                if occupant == 0 { return false }
                bucket = (bucket + 1) & mask
            }
        }
    }

    @inline(__always)
    private static func bucket(of address: UInt, shift: UInt) -> Int {
        Int(truncatingIfNeeded: (address &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    private mutating func grow() {
        let old = buckets
        buckets = [UInt](repeating: 0, count: old.count * 2)
        shift -= 1
        let mask = buckets.count - 1
        for address in old where address != 0 {
            var bucket = Self.bucket(of: address, shift: shift)
            while buckets[bucket] != 0 { bucket = (bucket + 1) & mask }
            buckets[bucket] = address
        }
    }
}
