/// Skipping: validating a value as strictly as reading it, without building it.
///
/// A fast scan checks the grammar, the strings (escapes, surrogate pairs,
/// UTF-8), the numbers, repeated keys and the depth, and builds nothing. It
/// answers only "certainly valid" or "not sure": anything unusual (an
/// escaped key, a key hash seen twice in one object, an exponent large
/// enough that the number might not fit a `Double`, nesting past 64 levels)
/// and every fault stops it, and the value is then read by ``readValue()``,
/// which accepts it or throws exactly the error a read gives. So skipping
/// accepts what reading accepts and fails with the same messages, lines and
/// columns, by construction; only its speed depends on the fast scan.
extension JSONReader {
    /// Validates the value after any whitespace, moves past it and returns
    /// the range of its bytes.
    mutating func skipValue() throws(ModelError) -> Range<Int> {
        skipWhitespace()
        let start = position
        // Strings, numbers and literals, most skipped members, without the
        // container scan's setup.
        let byte = start < count ? base[start] : 0
        let scanned: Int?
        if byte == JSONByte.quote {
            scanned = scanString(at: start)
        } else if byte == JSONByte.minus || byte &- JSONByte.zero < 10 {
            scanned = JSONReader.scanNumber(base, count: count, at: start)
        } else if byte == JSONByte.t || byte == JSONByte.n {
            // `true` and `null`, told apart by their first four bytes.
            scanned =
                hasLiteral(0x6575_7274, length: 4, at: start) || hasLiteral(0x6C6C_756E, length: 4, at: start)
                ? start + 4 : nil
        } else if byte == JSONByte.f {
            scanned =
                start + 5 <= count && base[start + 4] == UInt8(ascii: "e") && hasLiteral(0x736C_6166, length: 4, at: start)
                ? start + 5 : nil
        } else {
            scanned = scanValue(from: start)
        }
        if let end = scanned {
            position = end
            return start..<end
        }
        position = start
        _ = try readValue()
        return start..<position
    }

    /// Validates the whole input as one JSON text followed only by
    /// whitespace, as ``readDocument()`` would, building nothing.
    mutating func skipDocument() throws(ModelError) {
        if count >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF { position = 3 }
        _ = try skipValue()
        skipWhitespace()
        guard position == count else {
            throw error("expected end of input after the top-level value", at: position)
        }
    }

    /// The deepest nesting the fast scan follows itself; deeper values go to ``readValue()``.
    static let scanDepthLimit = 64

    /// The end of the valid value starting at `start` (no whitespace before
    /// it), or `nil` when the value is invalid or the scan is not sure.
    mutating func scanValue(from start: Int) -> Int? {
        // The key hashes live on the stack while they fit (no array to
        // check for uniqueness and grow on each key), then on the heap.
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: ScanKeys.stackCapacity) { hashes in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: JSONReader.scanDepthLimit) { starts in
                var keys = ScanKeys(hashes: hashes, starts: starts)
                defer { keys.release() }
                return scanValue(from: start, keys: &keys)
            }
        }
    }

    /// The key hashes of the objects open in a skipping scan, innermost
    /// last, and where each open object's keys start among them.
    struct ScanKeys {
        /// Hashes kept in the scan's own frame; more move to the heap.
        static let stackCapacity = 128
        var hashes: UnsafeMutablePointer<UInt64>
        var count = 0
        var capacity: Int
        /// Whether `hashes` was allocated here (and is freed by `release()`).
        var ownsHashes = false
        /// For each open object (at most ``JSONReader/scanDepthLimit``),
        /// the index of its first key's hash.
        let starts: UnsafeMutablePointer<Int>
        var openObjects = 0

        init(hashes: UnsafeMutableBufferPointer<UInt64>, starts: UnsafeMutableBufferPointer<Int>) {
            self.hashes = hashes.baseAddress!
            capacity = hashes.count
            self.starts = starts.baseAddress!
        }

        @inline(__always)
        mutating func append(_ hash: UInt64) {
            if count == capacity { grow() }
            hashes[count] = hash
            count &+= 1
        }

        @inline(never)
        private mutating func grow() {
            let larger = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity * 2)
            larger.initialize(from: hashes, count: count)
            release()
            hashes = larger
            capacity *= 2
            ownsHashes = true
        }

        /// Frees the hashes when they moved to the heap.
        func release() {
            if ownsHashes { hashes.deallocate() }
        }
    }

    private mutating func scanValue(from start: Int, keys: inout ScanKeys) -> Int? {
        var index = start
        var depth = 0
        // Bit d - 1 is set when the container at depth d is an object.
        var objectBits: UInt64 = 0
        let depthLimit = min(JSONReader.scanDepthLimit, options.maximumDepth - outerDepth)
        let checksKeys = options.duplicateKeys == .reject

        value: while true {
            index = whitespaceEnd(from: index)
            guard index < count else { return nil }
            switch base[index] {
            case JSONByte.openBracket:
                guard depth < depthLimit else { return nil }
                depth += 1
                objectBits &= ~(1 << UInt64(depth - 1))
                index = whitespaceEnd(from: index + 1)
                if index < count, base[index] == JSONByte.closeBracket {
                    index += 1
                    depth -= 1
                } else {
                    continue value
                }
            case JSONByte.openBrace:
                guard depth < depthLimit else { return nil }
                depth += 1
                objectBits |= 1 << UInt64(depth - 1)
                index = whitespaceEnd(from: index + 1)
                if index < count, base[index] == JSONByte.closeBrace {
                    index += 1
                    depth -= 1
                } else {
                    if checksKeys {
                        keys.starts[keys.openObjects] = keys.count
                        keys.openObjects &+= 1
                    }
                    guard let next = scanKey(at: index, recordingHash: checksKeys, into: &keys) else { return nil }
                    index = next
                    continue value
                }
            case JSONByte.quote:
                guard let next = scanString(at: index) else { return nil }
                index = next
            case JSONByte.t:
                guard hasLiteral(0x6575_7274, length: 4, at: index) else { return nil }
                index += 4
            case JSONByte.f:
                guard index + 5 <= count, base[index + 4] == UInt8(ascii: "e"),
                    hasLiteral(0x736C_6166, length: 4, at: index)
                else { return nil }
                index += 5
            case JSONByte.n:
                guard hasLiteral(0x6C6C_756E, length: 4, at: index) else { return nil }
                index += 4
            case JSONByte.minus, JSONByte.zero...JSONByte.nine:
                guard let next = JSONReader.scanNumber(base, count: count, at: index) else { return nil }
                index = next
            default:
                return nil
            }

            // A value is complete: close containers as long as their closing bracket follows.
            while depth > 0 {
                index = whitespaceEnd(from: index)
                guard index < count else { return nil }
                let next = base[index]
                let isObject = objectBits >> UInt64(depth - 1) & 1 == 1
                if next == JSONByte.comma {
                    index += 1
                    if isObject {
                        index = whitespaceEnd(from: index)
                        guard let afterKey = scanKey(at: index, recordingHash: checksKeys, into: &keys) else {
                            return nil
                        }
                        index = afterKey
                    }
                    continue value
                }
                if isObject {
                    guard next == JSONByte.closeBrace else { return nil }
                    if checksKeys {
                        guard scanKeysAreDistinct(&keys) else { return nil }
                    }
                } else {
                    guard next == JSONByte.closeBracket else { return nil }
                }
                index += 1
                depth -= 1
            }
            return index
        }
    }

    /// The first index at or after `index` that is not JSON whitespace, or `count`.
    ///
    /// Most calls find a token at once. Pretty-printed documents put one
    /// space after a colon, and a line break and a run of spaces between
    /// members: those are passed in line (up to 15 spaces, counted in two
    /// words) when a token follows them; anything else goes to ``whitespaceRunEnd(_:count:from:)``.
    @inline(__always)
    func whitespaceEnd(from index: Int) -> Int {
        guard index < count else { return index }
        let byte = base[index]
        // Space, tab, line feed, carriage return: all at or below 0x20, and
        // the only bytes there that JSON allows between tokens.
        if byte > JSONByte.space { return index }
        // One space, as after a colon.
        if byte == JSONByte.space, index &+ 1 < count, base[index &+ 1] > JSONByte.space { return index &+ 1 }
        // A line break and up to 15 spaces of indentation, counted in one
        // chunk without a branch on their number (which varies from line to
        // line, so that such branches mispredict).
        if byte == JSONByte.lineFeed, index &+ 18 <= count {
            let next = index &+ 1
            // In each word, the lowest byte that is not a space ends the run (8: none).
            let spaces: UInt64 = 0x2020_2020_2020_2020
            let first = UnsafeRawPointer(base + next).loadUnaligned(as: UInt64.self)
            let second = UnsafeRawPointer(base + (next &+ 8)).loadUnaligned(as: UInt64.self)
            let low = UInt64((UInt64(littleEndian: first) ^ spaces).trailingZeroBitCount &>> 3)
            let high = UInt64((UInt64(littleEndian: second) ^ spaces).trailingZeroBitCount &>> 3)
            // `low` is 8 when the first eight are all spaces; then the second eight count.
            let end = next &+ Int(truncatingIfNeeded: low &+ (high & (0 &- (low &>> 3))))
            if base[end] > JSONByte.space { return end }
        }
        return JSONReader.whitespaceRunEnd(base, count: count, from: index)
    }

    /// ``whitespaceEnd(from:)`` for any run of whitespace in the `count`
    /// bytes at `base`, byte by byte but for runs of spaces, which are
    /// counted eight at a time. (Static: a method called from a mutating
    /// one copies the whole reader each time it is not inlined.)
    @inline(never)
    static func whitespaceRunEnd(_ base: UnsafePointer<UInt8>, count: Int, from index: Int) -> Int {
        var index = index
        while index < count {
            let byte = base[index]
            guard byte <= JSONByte.space,
                byte == JSONByte.space || byte == JSONByte.lineFeed || byte == JSONByte.carriageReturn
                    || byte == JSONByte.tab
            else { return index }
            index += 1
            // Indentation comes in runs of spaces: count those of the next
            // eight bytes at once (the lowest byte that is not a space ends the run).
            while index + 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                let spaces = (word ^ 0x2020_2020_2020_2020).trailingZeroBitCount >> 3
                index &+= spaces
                if spaces < 8 { break }
            }
        }
        return index
    }

    /// Whether the `length` (4) bytes at `index` equal `word` read little-endian.
    @inline(__always)
    func hasLiteral(_ word: UInt32, length: Int, at index: Int) -> Bool {
        guard index + length <= count else { return false }
        return UInt32(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt32.self)) == word
    }

    /// Scans the key whose quote should be at `index`, the whitespace and the
    /// colon after it; returns the index after the colon. Keys with escapes
    /// are left to the full reader, which compares them by their decoded text.
    @inline(__always)
    private mutating func scanKey(at index: Int, recordingHash: Bool, into keys: inout ScanKeys) -> Int? {
        if let end = JSONReader.shortPlainKeyEnd(base, count: count, at: index) {
            if recordingHash { keys.append(scanHash(from: index + 1, count: end - index - 1)) }
            // One space after the colon, as pretty printers write it.
            if end + 3 < count, base[end + 2] == JSONByte.space, base[end + 3] > JSONByte.space { return end + 3 }
            return end + 2
        }
        guard index < count, base[index] == JSONByte.quote else { return nil }
        let start = index + 1
        var highBits: UInt8 = 0
        let end = JSONReader.skipPlainText(base, count: count, from: start, highBits: &highBits)
        guard end < count, base[end] == JSONByte.quote else { return nil }
        if highBits & 0x80 != 0, !JSONReader.isValidUTF8(base, count: count, from: start, to: end) { return nil }
        if recordingHash { keys.append(scanHash(from: start, count: end - start)) }
        let colon = whitespaceEnd(from: end + 1)
        guard colon < count, base[colon] == JSONByte.colon else { return nil }
        return colon + 1
    }

    /// The index of the closing quote of the key whose opening quote is at
    /// `index`, when that key is plain ASCII of at most 23 bytes (no escape,
    /// no control character) and a colon follows it at once, as most keys
    /// are written; else `nil`, and the key takes the general path. Its
    /// first special byte (a quote, backslash, control character or byte
    /// outside ASCII) in three words is then its closing quote.
    @inline(__always)
    static func shortPlainKeyEnd(_ base: UnsafePointer<UInt8>, count: Int, at index: Int) -> Int? {
        guard index + 25 <= count, base[index] == JSONByte.quote else { return nil }
        var stop = keyStop(UnsafeRawPointer(base + index + 1))
        var offset = 1
        if stop == 0 {
            stop = keyStop(UnsafeRawPointer(base + index + 9))
            offset = 9
            if stop == 0 {
                stop = keyStop(UnsafeRawPointer(base + index + 17))
                offset = 17
                if stop == 0 { return nil }
            }
        }
        // The three words end at `index + 24`; the colon after a quote there is at `index + 25`.
        let end = index + offset + stop.trailingZeroBitCount >> 3
        guard base[end] == JSONByte.quote, end + 1 < count, base[end + 1] == JSONByte.colon else { return nil }
        return end
    }

    /// The high bits of the bytes of the 8 at `pointer` that are a quote, a
    /// backslash, a control character or outside ASCII; exact for the lowest
    /// such byte (the bits above it may be set for other bytes).
    @inline(__always)
    static func keyStop(_ pointer: UnsafeRawPointer) -> UInt64 {
        let word = UInt64(littleEndian: pointer.loadUnaligned(as: UInt64.self))
        return JSONByte.specialBytes(in: word, slashes: false) | word & 0x8080_8080_8080_8080
    }

    /// A seeded hash of the key of `length` bytes at `start`, for telling
    /// the keys of one object apart while scanning (no other use, so it
    /// need not be `KeyHash`): equal keys hash alike, and keys that collide
    /// only send the value to the full reader. Short keys, the most common,
    /// are read with one or two loads instead of byte by byte; `start` is
    /// in the document and a quote follows the key, so a word that starts
    /// there may be read as long as it ends within the document.
    @inline(__always)
    private func scanHash(from start: Int, count length: Int) -> UInt64 {
        JSONReader.scanHash(base, count: count, from: start, length: length, seed: keySeed)
    }

    /// ``scanHash(from:count:)`` of the key of `length` bytes at `start` in
    /// the `count` bytes at `base`, which a quote follows. (Static, given the
    /// bytes: the model decoder hashes the keys of its bag with it too.)
    @inline(__always)
    static func scanHash(
        _ base: UnsafePointer<UInt8>, count: Int, from start: Int, length: Int, seed keySeed: UInt64
    ) -> UInt64 {
        let raw = UnsafeRawPointer(base + start)
        var state = keySeed ^ (UInt64(truncatingIfNeeded: length) &* 0x9E37_79B9_7F4A_7C15)
        if length >= 8 {
            var offset = 0
            while offset + 8 < length {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                state = JSONReader.fold(state ^ word, 0xA076_1D64_78BD_642F)
                offset += 8
            }
            // The last eight bytes, overlapping the word before when the length is not a multiple of eight.
            let last = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self))
            return JSONReader.fold(state ^ last, 0xE703_7ED1_A0B4_28DB)
        }
        var word: UInt64 = 0
        if start + 8 <= count {
            // (A shift by 64, for the empty key, gives 0.)
            word = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)) & (UInt64.max >> (64 - 8 * UInt64(length)))
        } else {
            for offset in 0..<length { word |= UInt64(base[start + offset]) << UInt64(8 * offset) }
        }
        return JSONReader.fold(state ^ word, 0xE703_7ED1_A0B4_28DB)
    }

    /// Multiplies to 128 bits and folds the halves together, as `KeyHash` does.
    @inline(__always)
    private static func fold(_ value: UInt64, _ constant: UInt64) -> UInt64 {
        let product = value.multipliedFullWidth(by: constant)
        return product.high ^ product.low
    }

    /// Whether the keys of the object being closed have distinct hashes (so
    /// distinct texts); pops them. Equal hashes send the value to the full
    /// reader, which tells a repeated key from a collision.
    private mutating func scanKeysAreDistinct(_ keys: inout ScanKeys) -> Bool {
        keys.openObjects &-= 1
        let start = keys.starts[keys.openObjects]
        let end = keys.count
        let memberCount = end - start
        let hashes = keys.hashes
        keys.count = start
        if memberCount <= 8 {
            var first = start
            while first < end {
                var second = first + 1
                while second < end {
                    if hashes[first] == hashes[second] { return false }
                    second += 1
                }
                first += 1
            }
            return true
        }
        // More members: an open-addressing set of the hashes, at most half
        // full, in a scratch table emptied first (0 marks a free slot, so
        // hashes are stored with their lowest bit set: two that then agree
        // are only a false alarm).
        var tableSize = 32
        while tableSize < 2 * memberCount { tableSize &*= 2 }
        if scanKeyTable.count < tableSize { scanKeyTable = Array(repeating: 0, count: tableSize) }
        return scanKeyTable.withUnsafeMutableBufferPointer { table -> Bool in
            let slots = table.baseAddress!
            slots.update(repeating: 0, count: tableSize)
            let mask = tableSize - 1
            for member in start..<end {
                let stored = hashes[member] | 1
                var slot = Int(truncatingIfNeeded: stored >> 32) & mask
                while slots[slot] != 0 {
                    if slots[slot] == stored { return false }
                    slot = (slot &+ 1) & mask
                }
                slots[slot] = stored
            }
            return true
        }
    }

    /// Scans the string whose quote is at `index`; returns the index after its closing quote.
    /// (`mutating` only so that the mutating scan passes the reader in place: a
    /// non-mutating call from it copies the whole reader each time.)
    @inline(__always)
    private mutating func scanString(at index: Int) -> Int? {
        let start = index + 1
        var cursor = start
        var highBits: UInt8 = 0
        while true {
            cursor = JSONReader.skipPlainText(base, count: count, from: cursor, highBits: &highBits)
            guard cursor < count else { return nil }
            let byte = base[cursor]
            if byte == JSONByte.quote {
                if highBits & 0x80 != 0, !JSONReader.isValidUTF8(base, count: count, from: start, to: cursor) { return nil }
                return cursor + 1
            }
            guard byte == JSONByte.backslash, let next = JSONReader.scanEscape(base, count: count, at: cursor) else {
                return nil
            }
            cursor = next
        }
    }

    /// Scans the escape whose backslash is at `index` of the `count` bytes
    /// at `base`; a `\u` high surrogate must be followed by a `\u` low one,
    /// as the reader requires. (Static: as a method, called from the
    /// mutating string scan, it made that scan copy the whole reader on
    /// every string.)
    static func scanEscape(_ base: UnsafePointer<UInt8>, count: Int, at index: Int) -> Int? {
        guard index + 1 < count else { return nil }
        switch base[index + 1] {
        case JSONByte.quote, JSONByte.backslash, JSONByte.slash, UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return index + 2
        case UInt8(ascii: "u"):
            guard let unit = JSONReader.hexQuad(base, at: index + 2, end: count) else { return nil }
            switch unit {
            case 0xD800...0xDBFF:
                guard index + 7 < count, base[index + 6] == JSONByte.backslash, base[index + 7] == UInt8(ascii: "u"),
                    let low = JSONReader.hexQuad(base, at: index + 8, end: count), (0xDC00...0xDFFF).contains(low)
                else { return nil }
                return index + 12
            case 0xDC00...0xDFFF:
                return nil
            default:
                return index + 6
            }
        default:
            return nil
        }
    }

    /// The four hexadecimal digits at `index`, or `nil`.
    @inline(__always)
    func scanHexQuad(at index: Int) -> UInt16? {
        JSONReader.hexQuad(base, at: index, end: count)
    }

    /// Whether the bytes from `start` to `end` are well-formed UTF-8.
    @inline(__always)
    func isValidUTF8(from start: Int, to end: Int) -> Bool {
        JSONReader.isValidUTF8(base, count: count, from: start, to: end)
    }

    /// ``isValidUTF8(from:to:)`` on the `count` bytes at `base`.
    static func isValidUTF8(_ base: UnsafePointer<UInt8>, count: Int, from start: Int, to end: Int) -> Bool {
        var index = start
        while index < end {
            // ASCII runs eight bytes at a time.
            if index + 8 <= end {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 == 0 {
                    index += 8
                    continue
                }
            }
            if base[index] < 0x80 {
                index += 1
                continue
            }
            // Three-byte sequences (most of CJK text) checked in one load:
            // a lead E1-EC or EE-EF and two continuation bytes (E0 and ED
            // narrow the second byte's range and take the general path).
            if index + 3 <= end, index + 4 <= count {
                let word = UInt32(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt32.self))
                let lead = word & 0xFF
                if word & 0x00C0_C0F0 == 0x0080_80E0, lead != 0xE0, lead != 0xED {
                    index += 3
                    // Such text comes in runs: two more sequences per load while it lasts.
                    while index + 6 <= end, index + 8 <= count {
                        let pair = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                        let first = pair & 0xFF
                        let second = pair >> 24 & 0xFF
                        guard pair & 0x0000_C0C0_F0C0_C0F0 == 0x0000_8080_E080_80E0, first != 0xE0, first != 0xED,
                            second != 0xE0, second != 0xED
                        else { break }
                        index += 6
                    }
                    continue
                }
            }
            guard let length = validUTF8Length(base, count: count, at: index), index + length <= end else { return false }
            index += length
        }
        return true
    }

    /// Scans the number at `index` (RFC 8259's grammar) and returns the index
    /// after it. A number whose magnitude could pass `Double`'s range goes to
    /// the full reader, which refuses it or reads it.
    @inline(__always)
    func scanNumber(at index: Int) -> Int? {
        JSONReader.scanNumber(base, count: count, at: index)
    }

    /// ``scanNumber(at:)`` on the `count` bytes at `base`. (Static, given the
    /// bytes: a method called from the mutating scan copies the whole reader
    /// each time.)
    @inline(__always)
    static func scanNumber(_ base: UnsafePointer<UInt8>, count: Int, at index: Int) -> Int? {
        func isDigit(_ byte: UInt8) -> Bool { byte &- JSONByte.zero < 10 }
        func skipDigits(from index: Int) -> Int { JSONReader.digitsEnd(base, count: count, from: index) }
        var cursor = index
        if base[cursor] == JSONByte.minus { cursor += 1 }
        guard cursor < count, isDigit(base[cursor]) else { return nil }
        let integerStart = cursor
        if base[cursor] == JSONByte.zero {
            cursor += 1
            if cursor < count, isDigit(base[cursor]) { return nil }
        } else {
            cursor = skipDigits(from: cursor + 1)
        }
        let integerDigits = cursor - integerStart
        var isInteger = true
        if cursor < count, base[cursor] == JSONByte.period {
            isInteger = false
            cursor += 1
            guard cursor < count, isDigit(base[cursor]) else { return nil }
            cursor = skipDigits(from: cursor + 1)
        }
        if cursor < count, base[cursor] | 0x20 == JSONByte.lowerE {
            cursor += 1
            var isNegative = false
            if cursor < count, base[cursor] == JSONByte.minus || base[cursor] == JSONByte.plus {
                isNegative = base[cursor] == JSONByte.minus
                cursor += 1
            }
            guard cursor < count, isDigit(base[cursor]) else { return nil }
            let exponentStart = cursor
            cursor = skipDigits(from: cursor)
            // The magnitude is below 10^(integerDigits + exponent): far inside
            // Double's range (about 1.8e308) unless that sum is large.
            guard cursor - exponentStart <= 3 else { return nil }
            var exponent = 0
            for position in exponentStart..<cursor { exponent = exponent * 10 + Int(base[position] - JSONByte.zero) }
            if integerDigits + (isNegative ? -exponent : exponent) > 300 { return nil }
        } else if !isInteger, integerDigits > 300 {
            return nil
        }
        return cursor
    }
}
