import Foundation

/// A 128-bit hash of a byte string: fast, stable across runs and platforms,
/// not cryptographic.
///
/// It names saved forms by their content (``DocumentBaseHistory`` keeps a
/// document's bases as `<hash>.json`, and keys each document by the hash of
/// its path), so it must be the same for the same bytes on every machine and
/// in every release, and fast enough to run on every load and save. It is
/// not meant to resist an adversary: anyone can make two inputs collide on
/// purpose.
///
/// ```swift
/// let hash = ContentHash(Data("{}".utf8))
/// print(hash.hex.count)   // 32
/// ```
///
/// The algorithm, fixed once and for all (changing it orphans every kept base):
/// 1. Four 64-bit lanes start at `P1 &+ P2`, `P2`, `0`, `0 &- P1`. Each
///    32-byte stripe of the input, read as four little-endian 64-bit words
///    `w`, updates one lane each by `lane = rotl(lane &+ w &* P2, 31) &* P1`
///    (xxHash64's round and primes `P1`…`P5`, from its specification,
///    github.com/Cyan4973/xxHash `doc/xxhash_spec.md`; every step is a
///    bijection of the lane, so no input bit is lost).
/// 2. After the stripes, two halves are formed from the lanes in opposite
///    orders: `h1 = rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18)`,
///    `h2 = rotl(v4, 1) + rotl(v3, 7) + rotl(v2, 12) + rotl(v1, 18)`, each
///    then folding in every lane with `h = (h ^ round(0, v)) &* P1 &+ P4`.
///    An input shorter than a stripe starts from `h1 = P5`, `h2 = P5 ^ P1`.
/// 3. The length is added to `h1` and, times `P2`, to `h2`.
/// 4. The 0 to 31 bytes left are read as little-endian words of 8 bytes
///    (the last one zero-padded); each word `w` with `k = round(0, w)` gives
///    `h1 = rotl(h1 ^ k, 27) &* P1 &+ P4` and
///    `h2 = rotl(h2 ^ (k &* P3), 31) &* P2 &+ P5`.
/// 5. The halves are mixed as MurmurHash3's x64 128-bit finalization does
///    (github.com/aappleby/smhasher `src/MurmurHash3.cpp`: `h1 += h2`,
///    `h2 += h1`, `fmix64` of each, `h1 += h2`, `h2 += h1`).
/// ``hex`` writes `h1` then `h2`, each as 16 lowercase hexadecimal digits.
struct ContentHash: Hashable, Sendable, CustomStringConvertible {
    /// The first and second 64 bits.
    let high: UInt64
    let low: UInt64

    /// The hash of `bytes`.
    init(_ bytes: Data) {
        (high, low) = bytes.withUnsafeBytes { Self.hash($0) }
    }

    /// The hash of the bytes in `buffer`.
    init(bytes buffer: UnsafeRawBufferPointer) {
        (high, low) = Self.hash(buffer)
    }

    /// A hash read back from its ``hex`` form; `nil` for anything else.
    init?(hex: some StringProtocol) {
        let utf8 = Array(hex.utf8)
        guard utf8.count == 32, utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }),
            let high = UInt64(String(decoding: utf8[0..<16], as: UTF8.self), radix: 16),
            let low = UInt64(String(decoding: utf8[16..<32], as: UTF8.self), radix: 16)
        else { return nil }
        self.high = high
        self.low = low
    }

    /// The 128 bits as 32 lowercase hexadecimal digits.
    var hex: String {
        Self.digits(high) + Self.digits(low)
    }

    var description: String { hex }

    private static func digits(_ value: UInt64) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }

    // MARK: - The algorithm

    private static let p1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let p2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let p3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let p4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let p5: UInt64 = 0x27D4_EB2F_1656_67C5

    @inline(__always)
    private static func rotl(_ value: UInt64, _ count: UInt64) -> UInt64 {
        (value << count) | (value >> (64 - count))
    }

    @inline(__always)
    private static func round(_ lane: UInt64, _ word: UInt64) -> UInt64 {
        rotl(lane &+ word &* p2, 31) &* p1
    }

    @inline(__always)
    private static func fold(_ half: UInt64, _ lane: UInt64) -> UInt64 {
        (half ^ round(0, lane)) &* p1 &+ p4
    }

    /// MurmurHash3's 64-bit finalizer: every input bit reaches every output bit.
    @inline(__always)
    private static func fmix(_ value: UInt64) -> UInt64 {
        var k = value
        k ^= k >> 33
        k = k &* 0xFF51_AFD7_ED55_8CCD
        k ^= k >> 33
        k = k &* 0xC4CE_B9FE_1A85_EC53
        k ^= k >> 33
        return k
    }

    @inline(__always)
    private static func word(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    private static func hash(_ bytes: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
        let count = bytes.count
        var offset = 0
        var h1: UInt64
        var h2: UInt64
        if count >= 32 {
            var v1 = p1 &+ p2
            var v2 = p2
            var v3: UInt64 = 0
            var v4: UInt64 = 0 &- p1
            let end = count - 32
            while offset <= end {
                v1 = round(v1, word(bytes, at: offset))
                v2 = round(v2, word(bytes, at: offset + 8))
                v3 = round(v3, word(bytes, at: offset + 16))
                v4 = round(v4, word(bytes, at: offset + 24))
                offset += 32
            }
            h1 = rotl(v1, 1) &+ rotl(v2, 7) &+ rotl(v3, 12) &+ rotl(v4, 18)
            h2 = rotl(v4, 1) &+ rotl(v3, 7) &+ rotl(v2, 12) &+ rotl(v1, 18)
            h1 = fold(fold(fold(fold(h1, v1), v2), v3), v4)
            h2 = fold(fold(fold(fold(h2, v4), v3), v2), v1)
        } else {
            h1 = p5
            h2 = p5 ^ p1
        }
        h1 = h1 &+ UInt64(count)
        h2 = h2 &+ UInt64(count) &* p2
        while offset < count {
            var w: UInt64
            if count - offset >= 8 {
                w = word(bytes, at: offset)
                offset += 8
            } else {
                w = 0
                var shift: UInt64 = 0
                while offset < count {
                    w |= UInt64(bytes[offset]) << shift
                    shift += 8
                    offset += 1
                }
            }
            let k = round(0, w)
            h1 = rotl(h1 ^ k, 27) &* p1 &+ p4
            h2 = rotl(h2 ^ (k &* p3), 31) &* p2 &+ p5
        }
        h1 = h1 &+ h2
        h2 = h2 &+ h1
        h1 = fmix(h1)
        h2 = fmix(h2)
        h1 = h1 &+ h2
        h2 = h2 &+ h1
        return (h1, h2)
    }
}
