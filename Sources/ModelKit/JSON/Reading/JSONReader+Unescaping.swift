/// Strings with escapes, decoded straight from the input's bytes into a
/// buffer, for the common case only: well-formed escapes (`\u` surrogates in
/// pairs) and no control characters. The readers leave anything else to
/// ``JSONReader/readString()``'s careful path, which gives the same text or
/// the error; so is a result that is not valid UTF-8, for that path to say where.
extension JSONReader {
    /// Decodes the string text from `start` to `end` at `base` (between its
    /// quotes) into `output`, which has room for `end - start` bytes: decoding
    /// never lengthens text, as an escape of n bytes decodes to fewer.
    /// Returns the bytes written and the OR of the input's own bytes (whose
    /// top bit says whether any was outside ASCII), or `nil` for a control
    /// character or an escape that is not well formed.
    static func unescape(
        _ base: UnsafePointer<UInt8>, from start: Int, to end: Int, into output: UnsafeMutablePointer<UInt8>
    ) -> (written: Int, highBits: UInt8)? {
        var written = 0
        var cursor = start
        var highBits: UInt8 = 0
        while true {
            let runStart = cursor
            cursor = JSONReader.skipPlainText(base, count: end, from: cursor, highBits: &highBits)
            let run = cursor - runStart
            if run > 0 {
                (output + written).update(from: base + runStart, count: run)
                written += run
            }
            if cursor >= end { break }
            // A control character, or an escape cut short: the reader's to report.
            guard base[cursor] == JSONByte.backslash, cursor + 1 < end else { return nil }
            if let decoded = JSONReader.shortEscape(base[cursor + 1]) {
                output[written] = decoded
                written += 1
                cursor += 2
                continue
            }
            guard base[cursor + 1] == UInt8(ascii: "u"), let unit = JSONReader.hexQuad(base, at: cursor + 2, end: end)
            else { return nil }
            var scalar = UInt32(unit)
            cursor += 6
            if unit & 0xF800 == 0xD800 {
                // Only a high surrogate followed by a low one.
                guard unit < 0xDC00, cursor + 1 < end, base[cursor] == JSONByte.backslash,
                    base[cursor + 1] == UInt8(ascii: "u"), let low = JSONReader.hexQuad(base, at: cursor + 2, end: end),
                    low & 0xFC00 == 0xDC00
                else { return nil }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                cursor += 6
            }
            written += writeUTF8(scalar, to: output + written)
        }
        return (written, highBits)
    }

    /// The string of decoded text `bytes` whose input's bytes OR to
    /// `highBits`, or `nil` when they are not UTF-8. Escapes only ever add
    /// whole, well-formed sequences, so the decoded bytes are valid exactly
    /// when the input's own bytes are: surely when those are ASCII.
    @inline(__always)
    static func unescapedText(_ bytes: UnsafeBufferPointer<UInt8>, highBits: UInt8) -> String? {
        if highBits & 0x80 == 0 { return String(knownValidUTF8: bytes) }
        return String(validUTF8: bytes)
    }

    /// Writes the UTF-8 of `scalar` (not a surrogate) at `output`; returns how many bytes.
    @inline(__always)
    private static func writeUTF8(_ scalar: UInt32, to output: UnsafeMutablePointer<UInt8>) -> Int {
        switch scalar {
        case 0..<0x80:
            output[0] = UInt8(truncatingIfNeeded: scalar)
            return 1
        case 0x80..<0x800:
            output[0] = UInt8(truncatingIfNeeded: 0xC0 | scalar >> 6)
            output[1] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
            return 2
        case 0x800..<0x10000:
            output[0] = UInt8(truncatingIfNeeded: 0xE0 | scalar >> 12)
            output[1] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F)
            output[2] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
            return 3
        default:
            output[0] = UInt8(truncatingIfNeeded: 0xF0 | scalar >> 18)
            output[1] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 12 & 0x3F)
            output[2] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F)
            output[3] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
            return 4
        }
    }
}
