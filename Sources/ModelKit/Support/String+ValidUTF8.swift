#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension String {
    /// The string of `bytes` if they are well-formed UTF-8, `nil` if not:
    /// what `String(validating:as:)` gives, for less.
    ///
    /// The readers make every string of a document here, so its cost is
    /// most of what reading text costs. ``UTF8Validation`` checks the bytes
    /// (about five instructions a byte on Japanese text, a third of the
    /// standard library's check), and `UTF8Span(unchecked:)` hands them to
    /// `String(copying:)`, which copies without checking again.
    ///
    /// Where `UTF8Span` is not available (Apple systems before the 26
    /// releases, and a Linux build with `-D MODELKIT_APPLE_PATHS`, which CI
    /// runs so that this path is tested), the string is decoded with repairs and compared with the
    /// input: repairing always changes the bytes (a well-formed result
    /// cannot equal ill-formed input), so the decoded string is the answer
    /// exactly when its bytes are the input's. (`String(validating:as:)`
    /// reaches generic code that looks up two type metadata on every call,
    /// about 320 instructions, more than validating a short string costs.)
    @inline(__always)
    init?(validUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        guard let input = bytes.baseAddress else {
            self = ""
            return
        }
        if !Platform.takesApplePaths, #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
            guard UTF8Validation.isValid(input, count: bytes.count) else { return nil }
            self = unsafe String(copying: UTF8Span(unchecked: bytes.span, isKnownASCII: false))
            return
        }
        let decoded = String(decoding: bytes, as: UTF8.self)
        guard decoded.utf8.count == bytes.count else { return nil }
        let same = decoded.utf8.withContiguousStorageIfAvailable { utf8 in
            memcmp(utf8.baseAddress!, input, bytes.count) == 0
        }
        guard same ?? decoded.utf8.elementsEqual(bytes) else { return nil }
        self = decoded
    }

    /// The string of `bytes`, which the caller has seen are all ASCII (below
    /// 0x80): copied without the standard library's check for that.
    @inline(__always)
    init(asciiBytes bytes: UnsafeBufferPointer<UInt8>) {
        if !Platform.takesApplePaths, #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
            self = unsafe String(copying: UTF8Span(unchecked: bytes.span, isKnownASCII: true))
        } else {
            self = String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The string of `bytes`, which the caller knows are well-formed UTF-8
    /// (a reader's own output, such as unescaped text whose input was
    /// ASCII): copied without checking.
    @inline(__always)
    init(knownValidUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        if !Platform.takesApplePaths, #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
            self = unsafe String(copying: UTF8Span(unchecked: bytes.span, isKnownASCII: false))
        } else {
            self = String(decoding: bytes, as: UTF8.self)
        }
    }
}

/// A check of UTF-8 as RFC 3629 defines it: no overlong forms, no
/// surrogates (U+D800 to U+DFFF), nothing past U+10FFFF, no stray or
/// missing continuation bytes.
enum UTF8Validation {
    /// Whether the `count` bytes at `base` are well-formed UTF-8.
    ///
    /// ASCII runs are skipped eight bytes at a time; a sequence of three
    /// bytes, the usual form of CJK text, is checked with one four-byte load
    /// and a mask, the rarer forms after it. The last three bytes, where a
    /// four-byte load would read past the end, are checked a byte at a time.
    static func isValid(_ base: UnsafePointer<UInt8>, count: Int) -> Bool {
        var index = 0
        while index < count {
            let lead = base[index]
            if lead < 0x80 {
                index &+= 1
                while index &+ 8 <= count {
                    let high = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self).littleEndian
                        & 0x8080_8080_8080_8080
                    if high != 0 {
                        index &+= high.trailingZeroBitCount &>> 3
                        break
                    }
                    index &+= 8
                }
                continue
            }
            if index &+ 4 <= count {
                // The lead is the lowest byte of `word`.
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt32.self).littleEndian
                if word & 0x00C0_C0F0 == 0x0080_80E0 {
                    // Three bytes, and often more of them: E0 must not start an
                    // overlong form (second byte A0 or more), ED must not start a
                    // surrogate (9F or less). Bits 0 and 13 of 0x2001 pick those two.
                    var word = word
                    repeat {
                        if (0x2001 as UInt32) &>> (word & 0x0F) & 1 != 0 {
                            if word & 0xFF == 0xE0 {
                                guard word & 0x2000 != 0 else { return false }
                            } else if word & 0xFF == 0xED {
                                guard word & 0x2000 == 0 else { return false }
                            }
                        }
                        index &+= 3
                        guard index &+ 4 <= count else { break }
                        word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt32.self).littleEndian
                    } while word & 0x00C0_C0F0 == 0x0080_80E0
                    continue
                }
                if word & 0xC0E0 == 0x80C0 {
                    guard lead >= 0xC2 else { return false }  // C0 and C1 are overlong
                    index &+= 2
                    continue
                }
                guard word & 0xC0C0_C0F8 == 0x8080_80F0 else { return false }
                let second = UInt8(truncatingIfNeeded: word &>> 8)
                guard lead <= 0xF4, lead != 0xF0 || second >= 0x90, lead != 0xF4 || second <= 0x8F else {
                    return false
                }
                index &+= 4
                continue
            }
            guard let length = sequenceLength(base, count: count, at: index) else { return false }
            index &+= length
        }
        return true
    }

    /// The length of the well-formed sequence of two to four bytes that
    /// starts at `index`, read a byte at a time, or `nil` when it is
    /// ill-formed: a stray continuation byte, an overlong form, an encoded
    /// surrogate, a scalar beyond U+10FFFF, or a sequence cut short. (ASCII
    /// is `nil` too: callers ask only about bytes from 0x80 up.)
    static func sequenceLength(_ base: UnsafePointer<UInt8>, count: Int, at index: Int) -> Int? {
        let lead = base[index]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return nil
        }
        guard index + length <= count else { return nil }
        let second = base[index + 1]
        guard second >= low, second <= high else { return nil }
        var offset = 2
        while offset < length {
            guard base[index + offset] & 0xC0 == 0x80 else { return nil }
            offset += 1
        }
        return length
    }
}
