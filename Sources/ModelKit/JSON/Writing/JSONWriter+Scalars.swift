import Foundation

/// Scalars: strings with their escapes, numbers written without `String`s
/// where possible, and the JSON forms of dates and data.
extension JSONWriter {
    /// Writes a value that is not an array or an object.
    mutating func writeScalar(_ value: ModelValue) throws(ModelError) {
        switch value {
        case .null: append("null")
        case .bool(let flag): flag ? append("true") : append("false")
        case .int(let integer): writeInteger(integer)
        case .bigInteger(let digits): try writeBigInteger(digits)
        case .double(let number): try writeDouble(number)
        case .string(let string): writeString(string)
        case .date(let date):
            // Years outside 0000...9999 in ISO 8601's expanded form (`+010000-01-01T00:00:00Z`).
            guard let text = ISO8601DateText.documentString(from: date) else {
                throw ModelError(
                    code: .notRepresentable,
                    message: "JSON cannot represent the date \(date.timeIntervalSince1970) (seconds since 1970) "
                        + "as ISO 8601 text: it is more than 285 million years from 2001",
                    format: "JSON")
            }
            writeString(text)
        case .data(let bytes): writeString(bytes.base64EncodedString())
        case .array, .object: preconditionFailure("containers are written by write(_:)")
        }
    }

    /// Writes `value` in decimal, straight into the buffer, two digits at a time.
    @inline(__always)
    mutating func writeInteger(_ value: Int) {
        // Counts and flags are mostly below 100: one or two bytes, inline.
        if UInt(bitPattern: value) < 100 {
            reserve(2)
            let raw = UnsafeMutableRawPointer(buffer + count)
            if value < 10 {
                raw.storeBytes(of: JSONByte.zero &+ UInt8(truncatingIfNeeded: value), as: UInt8.self)
                count &+= 1
            } else {
                // x / 10 is x × 103 >> 10 below 179.
                let tens = (value &* 103) >> 10
                let pair = UInt16(truncatingIfNeeded: tens) | UInt16(truncatingIfNeeded: value &- tens &* 10) << 8
                raw.storeBytes(of: UInt16(littleEndian: pair | 0x3030), as: UInt16.self)
                count &+= 2
            }
            return
        }
        writeLargeInteger(value)
    }

    /// ``writeInteger(_:)`` for values outside 0–99.
    @inline(never)
    mutating func writeLargeInteger(_ value: Int) {
        reserve(29)
        if value < 0 {
            buffer[count] = JSONByte.minus
            count &+= 1
        }
        count &+= writeDigits(UInt64(value.magnitude), at: count)
    }

    /// "00" through "99", for writing two digits at once.
    static let digitPairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    /// Writes `value` so that it reads back as the same `Double`: the shortest
    /// text that round-trips, always with a fraction or an exponent so that it
    /// does not read back as an integer.
    mutating func writeDouble(_ value: Double) throws(ModelError) {
        guard value.isFinite else {
            throw ModelError(
                code: .notRepresentable, message: "JSON cannot represent the floating-point number \(value)",
                format: "JSON")
        }
        // Integral values of moderate size: the integer's digits and ".0".
        // (Compared through `Int`: `rounded(_:)` is a call to `trunc` here.)
        if value.magnitude < 1e15, Double(Int(value)) == value, value != 0 || value.sign == .plus {
            writeInteger(Int(value))
            appendASCII(JSONByte.period, JSONByte.zero)
            return
        }
        // "-0.0", or a minus sign and the shortest round-trip digits laid
        // out as the standard library's `description` lays them out: plain
        // from 0.0001 up to 2^53, with an exponent of at least two digits
        // beyond, and always a period or an exponent.
        reserve(48)
        if value.sign == .minus {
            buffer[count] = JSONByte.minus
            count &+= 1
        }
        if value == 0 {
            appendASCII(JSONByte.zero, JSONByte.period)
            append(JSONByte.zero)
            return
        }
        let decimal = ShortestDecimal(value)
        let start = count
        // The digits go one place right of where they start, so that the
        // first (or the integer part) can move back in front of a period.
        let length = writeDigits(decimal.digits, at: start &+ 1)
        // The value is 0.digits × 10^point.
        let point = length &+ decimal.exponent
        if point < -3 || value.magnitude > 0x1p53 {
            // d.ddde±xx
            buffer[start] = buffer[start &+ 1]
            if length > 1 {
                buffer[start &+ 1] = JSONByte.period
                count = start &+ length &+ 1
            } else {
                count = start &+ 1
            }
            let power = point &- 1
            buffer[count] = JSONByte.lowerE
            buffer[count &+ 1] = power < 0 ? JSONByte.minus : JSONByte.plus
            count &+= 2
            var magnitude = Int(truncatingIfNeeded: power.magnitude)
            if magnitude >= 100 {
                buffer[count] = JSONByte.zero &+ UInt8(truncatingIfNeeded: magnitude / 100)
                count &+= 1
                magnitude %= 100
            }
            JSONWriter.digitPairs.withUTF8Buffer { pairs in
                buffer[count] = pairs[magnitude &* 2]
                buffer[count &+ 1] = pairs[magnitude &* 2 &+ 1]
            }
            count &+= 2
        } else if point <= 0 {
            // 0.000ddd: the digits move right to make room.
            let zeros = 2 &- point
            var index = length
            while index > 0 {
                index &-= 1
                buffer[start &+ zeros &+ index] = buffer[start &+ 1 &+ index]
            }
            buffer[start] = JSONByte.zero
            buffer[start &+ 1] = JSONByte.period
            for index in (start &+ 2)..<(start &+ zeros) { buffer[index] = JSONByte.zero }
            count = start &+ zeros &+ length
        } else if point < length {
            // ddd.ddd: the integer part moves back in front of the period,
            // and the fraction stays. Both are at most 16 of the at most
            // 17 digits, so each is one 16-byte load, done before the
            // stores; the bytes past the end are in the 48 reserved.
            let digits = UnsafeMutableRawPointer(buffer + start)
            let fraction = (digits + point + 1).loadUnaligned(as: SIMD16<UInt8>.self)
            digits.storeBytes(of: (digits + 1).loadUnaligned(as: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self)
            (digits + point + 1).storeBytes(of: fraction, as: SIMD16<UInt8>.self)
            buffer[start &+ point] = JSONByte.period
            count = start &+ length &+ 1
        } else {
            // ddd000.0
            for index in start..<(start &+ length) { buffer[index] = buffer[index &+ 1] }
            var index = start &+ length
            for _ in 0..<(point &- length) {
                buffer[index] = JSONByte.zero
                index &+= 1
            }
            buffer[index] = JSONByte.period
            buffer[index &+ 1] = JSONByte.zero
            count = index &+ 2
        }
    }

    /// Writes the decimal digits of `value` at `index` ("0" for zero) and
    /// returns how many there are; the caller reserved the room and eight
    /// bytes more (whole words are stored).
    ///
    /// Eight digits at a time: each group below 10^8 becomes eight ASCII
    /// bytes in one word, by splitting it in halves, quarters and digits in
    /// lanes of the word with multiplications (`eightDigits`); the leading
    /// group's zero digits tell the length.
    @inline(__always)
    func writeDigits(_ value: UInt64, at index: Int) -> Int {
        let raw = UnsafeMutableRawPointer(buffer + index)
        if value < 100_000_000 {
            return Self.storeLeadingGroup(UInt32(truncatingIfNeeded: value), at: raw)
        }
        let low = Self.eightDigits(UInt32(truncatingIfNeeded: value % 100_000_000))
        let upper = value / 100_000_000
        var length: Int
        if upper < 100_000_000 {
            length = Self.storeLeadingGroup(UInt32(truncatingIfNeeded: upper), at: raw)
        } else {
            // Seventeen digits or more: up to four, then two whole groups.
            length = Self.storeLeadingGroup(UInt32(truncatingIfNeeded: upper / 100_000_000), at: raw)
            let middle = Self.eightDigits(UInt32(truncatingIfNeeded: upper % 100_000_000))
            (raw + length).storeBytes(of: middle | 0x3030_3030_3030_3030, as: UInt64.self)
            length &+= 8
        }
        (raw + length).storeBytes(of: low | 0x3030_3030_3030_3030, as: UInt64.self)
        return length &+ 8
    }

    /// Stores the digits of `value` (below 10^8) without leading zeros, at
    /// least one, as one word at `raw`, and returns how many there are.
    @inline(__always)
    static func storeLeadingGroup(_ value: UInt32, at raw: UnsafeMutableRawPointer) -> Int {
        let digits = eightDigits(value)
        // Leading zero digits are the low zero bytes; zero keeps one.
        let leading = min(digits.trailingZeroBitCount >> 3, 7)
        raw.storeBytes(of: (digits >> UInt64(leading &* 8)) | 0x3030_3030_3030_3030, as: UInt64.self)
        return 8 &- leading
    }

    /// The eight decimal digits of `value` (below 10^8), leading zeros
    /// included, one per byte as numbers 0–9, the first in the lowest byte
    /// (the first in memory on a little-endian machine). Zero gives zero.
    @inline(__always)
    static func eightDigits(_ value: UInt32) -> UInt64 {
        // [abcd, efgh] in 32-bit lanes (first in the low lane).
        var lanes = UInt64(value / 10000) | (UInt64(value % 10000) << 32)
        // [ab, cd, ef, gh] in 16-bit lanes: x / 100 is x × 5243 >> 19 below 43,699.
        let hundreds = ((lanes &* 5243) >> 19) & 0x0000_007F_0000_007F
        lanes = hundreds | ((lanes &- hundreds &* 100) << 16)
        // [a, b, ..., h] in bytes: x / 10 is x × 103 >> 10 below 179.
        let tens = ((lanes &* 103) >> 10) & 0x000F_000F_000F_000F
        lanes = tens | ((lanes &- tens &* 10) << 8)
        #if _endian(big)
            return lanes.byteSwapped
        #else
            return lanes
        #endif
    }

    /// Catches the short ASCII text a number writes of itself, without
    /// making a `String` for it.
    ///
    /// `Double.write(to:)` hands its digits to the stream's `_writeASCII`
    /// hook when the stream has one, which this type implements; a standard
    /// library without that hook calls `write(_:)` instead, which gives the
    /// same bytes, only more slowly.
    struct ShortText: TextOutputStream {
        private var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        private var count = 0
        private var overflow: [UInt8] = []

        mutating func write(_ string: String) {
            var string = string
            string.withUTF8 { _writeASCII($0) }
        }

        mutating func _writeASCII(_ bytes: UnsafeBufferPointer<UInt8>) {
            let room = MemoryLayout.size(ofValue: storage)
            guard overflow.isEmpty, count + bytes.count <= room else {
                if overflow.isEmpty { withBytes { overflow.append(contentsOf: $0) } }
                overflow.append(contentsOf: bytes)
                return
            }
            withUnsafeMutableBytes(of: &storage) { raw in
                UnsafeMutableRawBufferPointer(rebasing: raw[count..<(count + bytes.count)]).copyMemory(
                    from: UnsafeRawBufferPointer(bytes))
            }
            count += bytes.count
        }

        func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
            if !overflow.isEmpty { return overflow.withUnsafeBufferPointer(body) }
            return withUnsafeBytes(of: storage) { raw in
                body(UnsafeBufferPointer(rebasing: raw.bindMemory(to: UInt8.self)[0..<count]))
            }
        }
    }

    /// Writes the digits of a ``ModelValue/bigInteger(_:)`` as they are,
    /// after checking that they form a JSON integer.
    mutating func writeBigInteger(_ digits: String) throws(ModelError) {
        var digits = digits
        let isValid = digits.withUTF8 { utf8 -> Bool in
            var index = utf8.first == JSONByte.minus ? 1 : 0
            guard index < utf8.count, utf8[index] != JSONByte.zero || utf8.count == index + 1 else { return false }
            while index < utf8.count {
                guard utf8[index] &- JSONByte.zero < 10 else { return false }
                index += 1
            }
            append(utf8)
            return true
        }
        guard isValid else {
            throw ModelError(
                code: .notRepresentable,
                message: "JSON cannot represent the integer \(ModelValue.quoted(digits)), which is not made of digits",
                format: "JSON")
        }
    }

    /// Writes `string` in quotes, escaping what JSON requires (and `/` if asked).
    mutating func writeString(_ string: String) {
        // Borrow the bytes in place: no copy of the string, no retain.
        if string.utf8.withContiguousStorageIfAvailable({ writeQuoted($0) }) != nil { return }
        var string = string
        string.withUTF8 { utf8 in writeQuoted(utf8) }
    }

    /// ``writeString(_:)`` for the string at `string`, read in place: no
    /// copy of it, so no retain and release of its storage.
    /// (`withUTF8` is called only on a string whose bytes are already
    /// contiguous, and then changes nothing: the cell is only read.)
    @inline(__always)
    mutating func writeString(at string: UnsafeMutablePointer<String>) {
        guard string.pointee.isContiguousUTF8 else { return writeString(string.pointee) }
        string.pointee.withUTF8 { writeQuoted($0) }
    }

    /// Writes `utf8` in quotes, with its escapes.
    ///
    /// The bytes are searched sixteen at a time (a string of four to
    /// fifteen as one chunk made of words that overlap, a shorter one byte
    /// by byte), and each run
    /// between bytes to escape is copied whole. The flags of a chunk are
    /// exact, one per byte to escape, so every escape in it is written
    /// before the next chunk is loaded: escapes close together (`<\/a>`,
    /// `\"`) cost no search again. The output goes through a local pointer
    /// into room made at the start for the string unescaped and its quotes;
    /// an escape that would outgrow that room makes more first.
    private mutating func writeQuoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        let length = utf8.count
        reserve(length &+ 2)
        var out = buffer + count
        out.pointee = JSONByte.quote
        out += 1
        if let source = utf8.baseAddress, length > 0 {
            let slashes = SIMD16<UInt8>(repeating: options.escapesSlashes ? JSONByte.slash : JSONByte.quote)
            var runStart = 0
            if length >= 16 {
                var index = 0
                // Two chunks at a time, tested together.
                while index &+ 32 <= length {
                    let first = JSONWriter.escapeLanes(
                        UnsafeRawPointer(source + index).loadUnaligned(as: SIMD16<UInt8>.self), slashes: slashes)
                    let second = JSONWriter.escapeLanes(
                        UnsafeRawPointer(source + (index &+ 16)).loadUnaligned(as: SIMD16<UInt8>.self), slashes: slashes)
                    let both = JSONWriter.flags(of: first .| second)
                    if both.low | both.high != 0 {
                        var flags = JSONWriter.flags(of: first)
                        writeEscapes(flags.low, at: index, of: source, length: length, runStart: &runStart, out: &out)
                        writeEscapes(flags.high, at: index &+ 8, of: source, length: length, runStart: &runStart, out: &out)
                        flags = JSONWriter.flags(of: second)
                        writeEscapes(flags.low, at: index &+ 16, of: source, length: length, runStart: &runStart, out: &out)
                        writeEscapes(flags.high, at: index &+ 24, of: source, length: length, runStart: &runStart, out: &out)
                    }
                    index &+= 32
                }
                if index &+ 16 <= length {
                    let flags = JSONWriter.escapeFlags(
                        UnsafeRawPointer(source + index).loadUnaligned(as: SIMD16<UInt8>.self), slashes: slashes)
                    if flags.low | flags.high != 0 {
                        writeEscapes(flags.low, at: index, of: source, length: length, runStart: &runStart, out: &out)
                        writeEscapes(flags.high, at: index &+ 8, of: source, length: length, runStart: &runStart, out: &out)
                    }
                    index &+= 16
                }
                if index < length {
                    // The last sixteen bytes, without the lanes already searched.
                    let start = length &- 16
                    var flags = JSONWriter.escapeFlags(
                        UnsafeRawPointer(source + start).loadUnaligned(as: SIMD16<UInt8>.self), slashes: slashes)
                    let searched = index &- start
                    if searched >= 8 {
                        flags.low = 0
                        flags.high &= ~0 &<< UInt64(truncatingIfNeeded: (searched &- 8) &* 8)
                    } else {
                        flags.low &= ~0 &<< UInt64(truncatingIfNeeded: searched &* 8)
                    }
                    if flags.low | flags.high != 0 {
                        writeEscapes(flags.low, at: start, of: source, length: length, runStart: &runStart, out: &out)
                        writeEscapes(flags.high, at: start &+ 8, of: source, length: length, runStart: &runStart, out: &out)
                    }
                }
            } else if length >= 4 {
                // Eight to fifteen bytes as their first eight and last eight,
                // four to seven as their first four and last four, in the
                // low word; the lanes of the last that repeat bytes of the
                // first are dropped.
                let head: UInt64
                let tail: UInt64
                let tailLanes: Int
                if length >= 8 {
                    head = UnsafeRawPointer(source).loadUnaligned(as: UInt64.self)
                    tail = UnsafeRawPointer(source + (length &- 8)).loadUnaligned(as: UInt64.self)
                    tailLanes = length &- 8
                } else {
                    let low = UInt32(littleEndian: UnsafeRawPointer(source).loadUnaligned(as: UInt32.self))
                    let high = UInt32(littleEndian: UnsafeRawPointer(source + (length &- 4)).loadUnaligned(as: UInt32.self))
                    head = (UInt64(low) | UInt64(high) &<< 32).littleEndian
                    tail = head
                    tailLanes = length &- 4
                }
                let flags = JSONWriter.escapeFlags(
                    unsafeBitCast(SIMD2<UInt64>(head, tail), to: SIMD16<UInt8>.self), slashes: slashes)
                if flags.low | flags.high != 0 {
                    if length >= 8 {
                        // Lanes of the tail from 16 - length on are bytes 8 and up.
                        let tailFlags = flags.high & ~(~0 &>> UInt64(truncatingIfNeeded: tailLanes &* 8))
                        writeEscapes(flags.low, at: 0, of: source, length: length, runStart: &runStart, out: &out)
                        writeEscapes(tailFlags, at: length &- 8, of: source, length: length, runStart: &runStart, out: &out)
                    } else {
                        // Lanes 0 to 3 are bytes 0 to 3; lanes 4 to 7, bytes length - 4 on,
                        // new from lane 12 - length on.
                        let headFlags = flags.low & 0x0000_0000_FFFF_FFFF
                        let tailFlags = flags.low & ~(~0 &>> UInt64(truncatingIfNeeded: tailLanes &* 8))
                        writeEscapes(headFlags, at: 0, of: source, length: length, runStart: &runStart, out: &out)
                        writeEscapes(tailFlags, at: length &- 8, of: source, length: length, runStart: &runStart, out: &out)
                    }
                }
            } else {
                // One to three bytes, one at a time.
                for index in 0..<length where JSONWriter.needsEscape(source[index], slashes: options.escapesSlashes) {
                    writeEscapes(0x80, at: index, of: source, length: length, runStart: &runStart, out: &out)
                }
            }
            JSONWriter.copy(source + runStart, to: out, count: length &- runStart)
            out += length &- runStart
        }
        out.pointee = JSONByte.quote
        count = (out + 1) - buffer
    }

    /// For each lane of `chunk` to escape (a control character, `"`, `\`,
    /// and the byte of `slashes`, which is `"` when slashes are not
    /// escaped), 0x80 in its byte of `low` (lanes 0 to 7) or `high` (8 to 15).
    @inline(__always)
    private static func escapeFlags(_ chunk: SIMD16<UInt8>, slashes: SIMD16<UInt8>) -> (low: UInt64, high: UInt64) {
        flags(of: escapeLanes(chunk, slashes: slashes))
    }

    /// The lanes of `chunk` to escape. A control character or `"` is a
    /// byte whose value with bit 1 flipped is at most 0x20 (0x22 becomes
    /// 0x20, 0x20 and 0x21 become 0x22 and 0x23), one comparison for both.
    @inline(__always)
    private static func escapeLanes(_ chunk: SIMD16<UInt8>, slashes: SIMD16<UInt8>) -> SIMDMask<SIMD16<Int8>> {
        ((chunk ^ SIMD16<UInt8>(repeating: 0x02)) .<= SIMD16<UInt8>(repeating: 0x20))
            .| (chunk .== SIMD16<UInt8>(repeating: JSONByte.backslash)) .| (chunk .== slashes)
    }

    /// `lanes` as 0x80 in the byte of each set lane of `low` (lanes 0 to 7) and `high` (8 to 15).
    @inline(__always)
    private static func flags(of lanes: SIMDMask<SIMD16<Int8>>) -> (low: UInt64, high: UInt64) {
        let flags = unsafeBitCast(SIMD16<UInt8>(repeating: 0).replacing(with: 0x80, where: lanes), to: SIMD2<UInt64>.self)
        return (UInt64(littleEndian: flags[0]), UInt64(littleEndian: flags[1]))
    }

    @inline(__always)
    private static func needsEscape(_ byte: UInt8, slashes: Bool) -> Bool {
        byte < 0x20 || byte == JSONByte.quote || byte == JSONByte.backslash || (byte == JSONByte.slash && slashes)
    }

    /// Writes, for each byte flagged in `flags` (0x80 in its lane, as
    /// ``escapeFlags(_:slashes:)`` sets them) of the eight of `source` from
    /// `base`, lowest first, the bytes since `runStart` and then its escape,
    /// at `out`; `runStart` moves past it.
    @inline(__always)
    private mutating func writeEscapes(
        _ flags: UInt64, at base: Int, of source: UnsafePointer<UInt8>, length: Int, runStart: inout Int,
        out: inout UnsafeMutablePointer<UInt8>
    ) {
        var flags = flags
        while flags != 0 {
            let position = base &+ flags.trailingZeroBitCount &>> 3
            flags &= flags &- 1
            let run = position &- runStart
            JSONWriter.copy(source + runStart, to: out, count: run)
            out += run
            runStart = position &+ 1
            // Room for the longest escape, the rest unescaped and the closing quote.
            let needed = out - buffer &+ 6 &+ (length &- runStart) &+ 1
            if needed > capacity {
                count = out - buffer
                reserve(needed &- count)
                out = buffer + count
            }
            let byte = source[position]
            if byte >= 0x20 {
                // `"`, `\` or `/`: a backslash before it.
                UnsafeMutableRawPointer(out).storeBytes(
                    of: (UInt16(byte) &<< 8 | UInt16(JSONByte.backslash)).littleEndian, as: UInt16.self)
                out += 2
            } else {
                out += JSONWriter.writeControlEscape(byte, at: out)
            }
        }
    }

    /// Copies `count` bytes; a short run (keys, words between escapes) with
    /// two loads and two stores that overlap, cheaper than a call to `memcpy`.
    @inline(__always)
    static func copy(_ source: UnsafePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>, count length: Int) {
        let from = UnsafeRawPointer(source)
        let to = UnsafeMutableRawPointer(target)
        if length > 16 {
            to.copyMemory(from: from, byteCount: length)
        } else if length >= 8 {
            let head = from.loadUnaligned(as: UInt64.self)
            let tail = from.loadUnaligned(fromByteOffset: length &- 8, as: UInt64.self)
            to.storeBytes(of: head, as: UInt64.self)
            to.storeBytes(of: tail, toByteOffset: length &- 8, as: UInt64.self)
        } else if length >= 4 {
            let head = from.loadUnaligned(as: UInt32.self)
            let tail = from.loadUnaligned(fromByteOffset: length &- 4, as: UInt32.self)
            to.storeBytes(of: head, as: UInt32.self)
            to.storeBytes(of: tail, toByteOffset: length &- 4, as: UInt32.self)
        } else if length > 0 {
            target[0] = source[0]
            target[length &>> 1] = source[length &>> 1]
            target[length &- 1] = source[length &- 1]
        }
    }

    /// Writes the escape of the control character `byte` at `out`
    /// (`\n`, `\t`, … or `\u00XX`); its length.
    @inline(never)
    private static func writeControlEscape(_ byte: UInt8, at out: UnsafeMutablePointer<UInt8>) -> Int {
        let short: UInt8
        switch byte {
        case JSONByte.lineFeed: short = UInt8(ascii: "n")
        case JSONByte.carriageReturn: short = UInt8(ascii: "r")
        case JSONByte.tab: short = UInt8(ascii: "t")
        case 0x08: short = UInt8(ascii: "b")
        case 0x0C: short = UInt8(ascii: "f")
        default:
            let hexDigits: StaticString = "0123456789abcdef"
            out[0] = JSONByte.backslash
            out[1] = UInt8(ascii: "u")
            out[2] = UInt8(ascii: "0")
            out[3] = UInt8(ascii: "0")
            out[4] = hexDigits.utf8Start[Int(byte &>> 4)]
            out[5] = hexDigits.utf8Start[Int(byte & 0xF)]
            return 6
        }
        out[0] = JSONByte.backslash
        out[1] = short
        return 2
    }
}
