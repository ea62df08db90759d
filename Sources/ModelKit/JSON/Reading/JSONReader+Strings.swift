import Foundation

/// Strings: the fast scan for plain text, escapes, and UTF-8 validation.
extension JSONReader {
    /// Reads the string whose opening quote is at `position` and moves past its closing quote.
    ///
    /// The scan looks for the closing quote eight bytes at a time and stops
    /// only at quotes, backslashes and control characters; a string without
    /// escapes becomes a `String` straight from its bytes in the input, and
    /// the standard library's validation of those bytes is the only UTF-8
    /// check on the fast path.
    mutating func readString() throws(ModelError) -> String {
        let start = position + 1
        var index = start
        var highBits: UInt8 = 0
        while true {
            index = JSONReader.skipPlainText(base, count: count, from: index, highBits: &highBits)
            guard index < count else { throw unterminatedStringError(start: start) }
            let byte = base[index]
            if byte == JSONByte.quote {
                position = index + 1
                if let string = JSONReader.string(base, from: start, to: index, isASCII: highBits & 0x80 == 0) {
                    return string
                }
                throw invalidUTF8Error(at: firstInvalidUTF8(from: start, to: index) ?? start)
            } else if byte == JSONByte.backslash {
                return try readEscapedString(start: start, firstEscape: index, highBits: highBits)
            } else {
                throw controlCharacterError(at: index)
            }
        }
    }

    /// The string of the bytes from `start` to `end` at `base`, which hold no
    /// escapes, or `nil` when they are not UTF-8: one validating pass, and
    /// where the fault is only found when there is one. (Static: as a method,
    /// called from the mutating reads, it made them copy the whole reader
    /// for every string; only the error path needs the reader.)
    @inline(__always)
    static func string(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int, isASCII: Bool) -> String? {
        let bytes = UnsafeBufferPointer(start: base + start, count: end - start)
        if isASCII { return String(asciiBytes: bytes) }
        return String(validUTF8: bytes)
    }

    /// Reads the object key whose opening quote is at `position`, moves past
    /// its closing quote, and returns it with its `KeyHash`.
    ///
    /// Documents repeat their keys, so a key without escapes is looked up in
    /// a small cache of the keys read before, by its bytes: a hit reuses the
    /// `String` made for an earlier occurrence instead of making another.
    mutating func readKey() throws(ModelError) -> (String, UInt64) {
        let start = position + 1
        var highBits: UInt8 = 0
        let end = JSONReader.skipPlainText(base, count: count, from: start, highBits: &highBits)
        guard end < count, base[end] == JSONByte.quote else {
            // Escapes, a control character or the end of the input: the general path.
            let key = try readString()
            return (key, KeyHash.hash(key))
        }
        position = end + 1
        let length = end - start
        let hash = KeyHash.hash(base + start, count: length, seed: keySeed)
        if keyCache.isEmpty { keyCache = Array(repeating: KeyCacheEntry(), count: JSONReader.keyCacheSize) }
        let slot = Int(truncatingIfNeeded: hash) & (JSONReader.keyCacheSize - 1)
        // Compare in place: copying the entry out would retain and release its string.
        if keyCache[slot].hash == hash, keyCache[slot].length == length,
            Self.sameBytes(base + keyCache[slot].offset, base + start, count: length)
        {
            return (keyCache[slot].key, hash)
        }
        guard let key = JSONReader.string(base, from: start, to: end, isASCII: highBits & 0x80 == 0) else {
            throw invalidUTF8Error(at: firstInvalidUTF8(from: start, to: end) ?? start)
        }
        keyCache[slot] = KeyCacheEntry(offset: start, length: length, hash: hash, key: key)
        return (key, hash)
    }

    /// Whether the `count` bytes at `first` and at `second` are equal; short
    /// keys, the common case, are compared a word at a time without a call.
    @inline(__always)
    static func sameBytes(_ first: UnsafePointer<UInt8>, _ second: UnsafePointer<UInt8>, count: Int) -> Bool {
        guard count <= 16 else { return memcmp(first, second, count) == 0 }
        var offset = 0
        while offset + 8 <= count {
            guard UnsafeRawPointer(first + offset).loadUnaligned(as: UInt64.self)
                == UnsafeRawPointer(second + offset).loadUnaligned(as: UInt64.self)
            else { return false }
            offset += 8
        }
        while offset < count {
            guard first[offset] == second[offset] else { return false }
            offset += 1
        }
        return true
    }

    /// The first index at or after `index` holding a quote, a backslash or a
    /// control character, or `count`; ORs every byte it passes into `highBits`,
    /// whose top bit then says whether any of them was outside ASCII.
    @inline(__always)
    func skipPlainText(from index: Int, highBits: inout UInt8) -> Int {
        JSONReader.skipPlainText(base, count: count, from: index, highBits: &highBits)
    }

    /// ``skipPlainText(from:highBits:)`` on the `count` bytes at `base`.
    /// (The scanners call these static forms: a method called from a
    /// mutating one copies the whole reader each time it is not inlined.)
    @inline(__always)
    static func skipPlainText(_ base: UnsafePointer<UInt8>, count: Int, from index: Int, highBits: inout UInt8) -> Int {
        var index = index
        // Sixteen bytes at a time while they last: most keys and many values
        // end within the first chunk. (Masks are read through their bytes:
        // `any` and the reductions compile to loops here.)
        if index + 16 <= count {
            let quotes = SIMD16<UInt8>(repeating: JSONByte.quote)
            let backslashes = SIMD16<UInt8>(repeating: JSONByte.backslash)
            let controls = SIMD16<UInt8>(repeating: 0x1F)
            var passed: UInt64 = 0
            repeat {
                let chunk = UnsafeRawPointer(base + index).loadUnaligned(as: SIMD16<UInt8>.self)
                let special = (chunk .== quotes) .| (chunk .== backslashes) .| (chunk .<= controls)
                let low = JSONByte.lanes(of: special, half: 0)
                let high = JSONByte.lanes(of: special, half: 1)
                let words = unsafeBitCast(chunk, to: SIMD2<UInt64>.self)
                if low | high != 0 {
                    // Only the bytes before the stop count as passed.
                    if low != 0 {
                        let stop = low.trailingZeroBitCount >> 3
                        passed |= words[0] & ~(UInt64.max << UInt64(8 * stop))
                        index &+= stop
                    } else {
                        let stop = high.trailingZeroBitCount >> 3
                        passed |= words[0] | words[1] & ~(UInt64.max << UInt64(8 * stop))
                        index &+= 8 &+ stop
                    }
                    if passed & 0x8080_8080_8080_8080 != 0 { highBits |= 0x80 }
                    return index
                }
                passed |= words[0] | words[1]
                index &+= 16
            } while index + 16 <= count
            if passed & 0x8080_8080_8080_8080 != 0 { highBits |= 0x80 }
        }
        let highs: UInt64 = 0x8080_8080_8080_8080
        var seen: UInt64 = 0
        // Eight bytes at a time.
        while index + 8 <= count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            let special = JSONByte.specialBytes(in: word, slashes: false)
            if special != 0 {
                let stop = special.trailingZeroBitCount >> 3
                // Only the bytes before the stop count as passed.
                seen |= stop == 0 ? 0 : word & (UInt64.max >> (64 - 8 * stop))
                highBits |= UInt8(truncatingIfNeeded: (seen & highs) == 0 ? 0 : 0x80)
                return index + stop
            }
            seen |= word
            index += 8
        }
        highBits |= UInt8(truncatingIfNeeded: (seen & highs) == 0 ? 0 : 0x80)
        while index < count {
            let byte = base[index]
            if byte == JSONByte.quote || byte == JSONByte.backslash || byte < 0x20 { return index }
            highBits |= byte
            index += 1
        }
        return index
    }

    /// The offset of the first ill-formed UTF-8 sequence between `start` and `end`, if any.
    func firstInvalidUTF8(from start: Int, to end: Int) -> Int? {
        var index = start
        while index < end {
            if base[index] < 0x80 {
                index += 1
            } else if let length = validUTF8Length(at: index), index + length <= end {
                index += length
            } else {
                return index
            }
        }
        return nil
    }

    /// The error for a string that runs to the end of the input: ill-formed
    /// UTF-8 in it if there is some, as that is the likelier mistake.
    func unterminatedStringError(start: Int) -> ModelError {
        if let invalid = firstInvalidUTF8(from: start, to: count) { return invalidUTF8Error(at: invalid) }
        return stringError("unterminated string", at: start - 1)
    }

    /// Reads the rest of a string that has an escape at `firstEscape`.
    /// `highBits` is the OR of the bytes before the first escape.
    ///
    /// The closing quote is found first, stepping over each escape whole,
    /// and the text is then decoded into the scratch buffer through a
    /// pointer, as the `Codable` decoder's tape does. A control character,
    /// the end of the input, an escape that is not well formed or text that
    /// is not UTF-8 goes to ``readEscapedStringCarefully(start:firstEscape:highBits:)``,
    /// which says what and where.
    private mutating func readEscapedString(start: Int, firstEscape: Int, highBits: UInt8) throws(ModelError) -> String {
        var end = firstEscape
        var ignored: UInt8 = 0
        while true {
            // Past the backslash and the byte it escapes (a `\u`'s digits are plain text).
            end += 2
            guard end < count else { return try readEscapedStringCarefully(start: start, firstEscape: firstEscape, highBits: highBits) }
            end = JSONReader.skipPlainText(base, count: count, from: end, highBits: &ignored)
            guard end < count else { return try readEscapedStringCarefully(start: start, firstEscape: firstEscape, highBits: highBits) }
            let byte = base[end]
            if byte == JSONByte.quote { break }
            guard byte == JSONByte.backslash else {
                return try readEscapedStringCarefully(start: start, firstEscape: firstEscape, highBits: highBits)
            }
        }
        let length = end - start
        if scratch.count < length {
            scratch = Array(repeating: 0, count: Swift.max(length, 2 * scratch.count, 256))
        }
        let base = self.base
        let text = scratch.withUnsafeMutableBufferPointer { buffer -> String? in
            guard let (written, highBits) = JSONReader.unescape(base, from: start, to: end, into: buffer.baseAddress!)
            else { return nil }
            return JSONReader.unescapedText(UnsafeBufferPointer(start: buffer.baseAddress!, count: written), highBits: highBits)
        }
        guard let text else { return try readEscapedStringCarefully(start: start, firstEscape: firstEscape, highBits: highBits) }
        position = end + 1
        return text
    }

    /// ``readEscapedString(start:firstEscape:highBits:)`` a byte at a time,
    /// for the string that path could not read: this one finds the fault and
    /// throws the error that names it (or reads the text, the same as that
    /// path would have).
    @inline(never)
    private mutating func readEscapedStringCarefully(start: Int, firstEscape: Int, highBits: UInt8) throws(ModelError) -> String {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(start: base + start, count: firstEscape - start))
        var index = firstEscape
        var highBits = highBits
        while true {
            let runStart = index
            index = JSONReader.skipPlainText(base, count: count, from: index, highBits: &highBits)
            if index > runStart {
                scratch.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: index - runStart))
            }
            guard index < count else { throw unterminatedStringError(start: start) }
            let byte = base[index]
            if byte == JSONByte.quote {
                position = index + 1
                guard let string = scratch.withUnsafeBufferPointer({ JSONReader.unescapedText($0, highBits: highBits) }) else {
                    throw invalidUTF8Error(at: firstInvalidUTF8(from: start, to: index) ?? start)
                }
                return string
            } else if byte == JSONByte.backslash {
                index = try readEscape(at: index, stringStart: start - 1)
            } else {
                throw controlCharacterError(at: index)
            }
        }
    }

    /// Decodes the escape whose backslash is at `index` into the scratch
    /// buffer and returns the index after it.
    private mutating func readEscape(at index: Int, stringStart: Int) throws(ModelError) -> Int {
        guard index + 1 < count else { throw unterminatedStringError(start: stringStart + 1) }
        guard let decoded = JSONReader.shortEscape(base[index + 1]) else {
            if base[index + 1] == UInt8(ascii: "u") { return try readUnicodeEscape(at: index) }
            throw stringError("invalid escape sequence '\\\(describeEscaped(at: index + 1))' in string", at: index)
        }
        scratch.append(decoded)
        return index + 2
    }

    /// Decodes `\uXXXX`, or a `\uXXXX\uXXXX` surrogate pair, at `index`.
    private mutating func readUnicodeEscape(at index: Int) throws(ModelError) -> Int {
        let unit = try hexQuad(at: index + 2, escapeAt: index)
        var scalarValue = UInt32(unit)
        var end = index + 6
        switch unit {
        case 0xD800...0xDBFF:
            // A high surrogate counts only as the first half of a pair.
            guard end + 1 < count, base[end] == JSONByte.backslash, base[end + 1] == UInt8(ascii: "u") else {
                throw stringError("unpaired surrogate \\u\(hexDigits(unit)) in string", at: index)
            }
            let low = try hexQuad(at: end + 2, escapeAt: end)
            guard (0xDC00...0xDFFF).contains(low) else {
                throw stringError("unpaired surrogate \\u\(hexDigits(unit)) in string", at: index)
            }
            scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            end += 6
        case 0xDC00...0xDFFF:
            throw stringError("unpaired surrogate \\u\(hexDigits(unit)) in string", at: index)
        default:
            break
        }
        appendUTF8(scalarValue)
        return end
    }

    /// The four hexadecimal digits at `index`, for the `\u` escape at `escapeAt`.
    private func hexQuad(at index: Int, escapeAt: Int) throws(ModelError) -> UInt16 {
        guard let value = scanHexQuad(at: index) else {
            throw stringError("expected four hexadecimal digits after '\\u'", at: escapeAt)
        }
        return value
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// The length of the well-formed UTF-8 sequence (RFC 3629) of two to four
    /// bytes starting at `index`, or `nil` when it is ill-formed: a stray
    /// continuation byte, an overlong form, an encoded surrogate, a scalar
    /// beyond U+10FFFF, or a sequence cut short.
    func validUTF8Length(at index: Int) -> Int? {
        JSONReader.validUTF8Length(base, count: count, at: index)
    }

    /// ``validUTF8Length(at:)`` on the `count` bytes at `base`.
    @inline(__always)
    static func validUTF8Length(_ base: UnsafePointer<UInt8>, count: Int, at index: Int) -> Int? {
        UTF8Validation.sequenceLength(base, count: count, at: index)
    }

    private func controlCharacterError(at index: Int) -> ModelError {
        stringError("unescaped control character U+00\(hex(base[index])) in string", at: index)
    }

    private func describeEscaped(at index: Int) -> String {
        let byte = base[index]
        if byte > 0x20, byte < 0x7F { return String(Character(Unicode.Scalar(byte))) }
        return "\\u{\(hex(byte))}"
    }

    private func hexDigits(_ unit: UInt16) -> String {
        hex(UInt8(unit >> 8)) + hex(UInt8(unit & 0xFF))
    }
}

extension JSONReader {
    /// The byte that the two-byte escape `\` `byte` stands for (`byte` is
    /// the one after the backslash); `nil` for `u`, whose four digits
    /// follow, and for a byte that no escape begins with.
    @inline(__always)
    static func shortEscape(_ byte: UInt8) -> UInt8? {
        switch byte {
        case JSONByte.quote: return JSONByte.quote
        case JSONByte.backslash: return JSONByte.backslash
        case JSONByte.slash: return JSONByte.slash
        case UInt8(ascii: "b"): return 0x08
        case UInt8(ascii: "f"): return 0x0C
        case UInt8(ascii: "n"): return JSONByte.lineFeed
        case UInt8(ascii: "r"): return JSONByte.carriageReturn
        case UInt8(ascii: "t"): return JSONByte.tab
        default: return nil
        }
    }

    /// The four hexadecimal digits at `index` of the bytes at `base`, all
    /// before `end`, or `nil`.
    @inline(__always)
    static func hexQuad(_ base: UnsafePointer<UInt8>, at index: Int, end: Int) -> UInt16? {
        guard index + 4 <= end else { return nil }
        var value: UInt16 = 0
        for offset in 0..<4 {
            let byte = base[index + offset]
            let digit: UInt8
            switch byte {
            case JSONByte.zero...JSONByte.nine: digit = byte &- JSONByte.zero
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte &- UInt8(ascii: "a") &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte &- UInt8(ascii: "A") &+ 10
            default: return nil
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }
}
