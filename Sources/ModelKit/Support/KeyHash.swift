import Foundation

/// A fast hash of a key's UTF-8 bytes, seeded once per process, and the
/// matching equality: keys are the same when their bytes are.
///
/// Object keys compare by their exact text, as RFC 8259 §8.3 recommends,
/// not by `String`'s `==`, which would also equate canonically equivalent
/// spellings (`"é"` and `"e\u{301}"`) and so merge two keys a document
/// holds apart.
///
/// `ModelValue.Object`'s key table and the JSON reader's key cache use it in
/// place of `Hasher`, whose SipHash costs more than the rest of reading a
/// short key. The hash depends only on the bytes, so the reader can hash a
/// key straight from the document and an object can hash a `String` it is
/// given, and both agree. The seed is random, so an input cannot be built in
/// advance to make keys collide; the key table still bounds the damage of
/// collisions (see `KeyTable`). Where the environment sets
/// `SWIFT_DETERMINISTIC_HASHING`, as it does for the standard library's
/// `Hasher`, the seed is a constant, so that a run's work is the same every
/// time (`Benchmarks --check` counts instructions that way).
enum KeyHash {
    /// Chosen once per process.
    static let seed: UInt64 =
        getenv("SWIFT_DETERMINISTIC_HASHING") != nil
        ? 0x5DEE_CE66_D1CE_4E5B : UInt64.random(in: UInt64.min...UInt64.max)

    /// The hash of `count` bytes at `start`.
    @inline(__always)
    static func hash(_ start: UnsafePointer<UInt8>, count: Int, seed: UInt64) -> UInt64 {
        var state = seed ^ (UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15)
        var index = 0
        let raw = UnsafeRawPointer(start)
        while index + 8 <= count {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            state = fold(state ^ word, 0xA076_1D64_78BD_642F)
            index += 8
        }
        // The last one to seven bytes in one word, without a loop and
        // without reading outside the bytes: the last eight bytes (some of
        // them hashed already) when there are eight; else the first and
        // last four, or the first, middle and last byte, which together
        // cover every byte (the count is in the state, so the word and the
        // count give back the bytes).
        let remaining = count &- index
        if remaining > 0 {
            let word: UInt64
            if count >= 8 {
                word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
            } else if remaining >= 4 {
                let head = UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self))
                let tail = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self))
                word = UInt64(head) | UInt64(tail) << 32
            } else {
                word = UInt64(start[0]) | UInt64(start[remaining >> 1]) << 8 | UInt64(start[remaining &- 1]) << 16
            }
            state = fold(state ^ word, 0xE703_7ED1_A0B4_28DB)
        }
        return fold(state, 0x8EBC_6AF0_9C88_C6E3)
    }

    /// The hash of `string`'s UTF-8 bytes, equal to the hash of those bytes.
    static func hash(_ string: String) -> UInt64 {
        let seed = seed
        if let hash = string.utf8.withContiguousStorageIfAvailable({ bytes in
            hash(bytes.baseAddress ?? emptyBytes, count: bytes.count, seed: seed)
        }) {
            return hash
        }
        var copy = string
        return copy.withUTF8 { bytes in hash(bytes.baseAddress ?? emptyBytes, count: bytes.count, seed: seed) }
    }

    /// Whether two keys have the same UTF-8 bytes.
    @inline(__always)
    static func sameBytes(_ lhs: String, _ rhs: String) -> Bool {
        let compared = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in
                left.count == right.count
                    && (left.count == 0 || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0)
            }
        }
        if let compared = compared ?? nil { return compared }
        return lhs.utf8.elementsEqual(rhs.utf8)
    }

    /// A key in a `Dictionary` that compares and hashes by bytes, for the
    /// objects whose keys collide in a `KeyTable`.
    struct ExactKey: Hashable {
        let text: String

        static func == (lhs: ExactKey, rhs: ExactKey) -> Bool { sameBytes(lhs.text, rhs.text) }

        func hash(into hasher: inout Hasher) {
            for byte in text.utf8 { hasher.combine(byte) }
        }
    }

    /// Multiplies to 128 bits and folds the halves together: every input bit
    /// reaches every output bit.
    @inline(__always)
    private static func fold(_ value: UInt64, _ constant: UInt64) -> UInt64 {
        let product = value.multipliedFullWidth(by: constant)
        return product.high ^ product.low
    }

    /// An address for empty buffers that have none; never read.
    nonisolated(unsafe) private static let emptyBytes: UnsafePointer<UInt8> = {
        let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        pointer.initialize(to: 0)
        return UnsafePointer(pointer)
    }()
}
