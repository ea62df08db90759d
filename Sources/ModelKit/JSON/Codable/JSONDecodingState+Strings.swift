import Foundation

/// Strings with escapes, decoded straight from the tape's bytes into a
/// buffer the state keeps, for the common case only: well-formed escapes
/// (`\u` surrogates in pairs) and no control characters. Anything else is
/// left to the reader (`readString()`), which gives the same text or the
/// error, as before; so is a result that is not valid UTF-8, for the
/// reader to say where.
extension JSONDecodingState {
    /// The text of the string entry `entry` with its escapes decoded, or
    /// `nil` when the reader should read it.
    func unescapedString(_ entry: JSONTape.Entry) -> String? {
        let start = Int(entry.start)
        let end = Int(entry.end)
        // Decoding never lengthens the text: an escape of n bytes decodes to fewer.
        let output = scratchBuffer(capacity: end - start)
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
            written += Self.writeUTF8(scalar, to: output + written)
        }
        let bytes = UnsafeBufferPointer(start: output, count: written)
        // Escapes only ever add whole, well-formed sequences, so the decoded
        // bytes are valid exactly when the input's own bytes are: surely
        // when those are ASCII.
        if highBits & 0x80 == 0 { return String(decoding: bytes, as: UTF8.self) }
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
