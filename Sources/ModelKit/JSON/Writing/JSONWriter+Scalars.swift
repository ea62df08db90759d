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
            guard let text = ISO8601DateText.standardString(from: date) else {
                throw ModelError(
                    code: .notRepresentable,
                    message: "JSON cannot represent the date \(date.timeIntervalSince1970) (seconds since 1970) "
                        + "as ISO 8601 text: it is outside the years 0001 to 9999",
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

    private mutating func writeQuoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        reserve(utf8.count + 2)
        buffer[count] = JSONByte.quote
        count += 1
        guard let source = utf8.baseAddress else {
            append(JSONByte.quote)
            return
        }
        let escapesSlashes = options.escapesSlashes
        let length = utf8.count
        var runStart = 0
        var index = 0
        while true {
            index = JSONWriter.nextEscape(in: source, from: index, count: length, escapesSlashes: escapesSlashes)
            guard index < length else { break }
            append(UnsafeBufferPointer(start: source + runStart, count: index - runStart))
            writeEscape(for: source[index])
            index += 1
            runStart = index
        }
        append(UnsafeBufferPointer(start: source + runStart, count: length - runStart))
        append(JSONByte.quote)
    }

    /// The index of the first byte at or after `index` that must be escaped
    /// (a control character, `"`, `\`, and `/` when slashes are escaped), or `count`.
    @inline(__always)
    private static func nextEscape(
        in source: UnsafePointer<UInt8>, from index: Int, count: Int, escapesSlashes: Bool
    ) -> Int {
        let entry = index
        var index = index
        // Sixteen bytes at a time while they last (the first set lane is
        // found from the lanes' bytes, as the raw writer does), then eight.
        if index &+ 16 <= count {
            let quotes = SIMD16<UInt8>(repeating: JSONByte.quote)
            let backslashes = SIMD16<UInt8>(repeating: JSONByte.backslash)
            let slashes = SIMD16<UInt8>(repeating: escapesSlashes ? JSONByte.slash : JSONByte.quote)
            let controls = SIMD16<UInt8>(repeating: 0x1F)
            repeat {
                let chunk = UnsafeRawPointer(source + index).loadUnaligned(as: SIMD16<UInt8>.self)
                let lanes = (chunk .== quotes) .| (chunk .== backslashes) .| (chunk .== slashes) .| (chunk .<= controls)
                let flags = unsafeBitCast(
                    SIMD16<UInt8>(repeating: 0).replacing(with: 0x80, where: lanes), to: SIMD2<UInt64>.self)
                let low = UInt64(littleEndian: flags[0])
                let high = UInt64(littleEndian: flags[1])
                if low != 0 { return index &+ low.trailingZeroBitCount >> 3 }
                if high != 0 { return index &+ 8 &+ high.trailingZeroBitCount >> 3 }
                index &+= 16
            } while index &+ 16 <= count
        }
        // Eight bytes at a time.
        while index + 8 <= count {
            let word = UInt64(littleEndian: UnsafeRawPointer(source + index).loadUnaligned(as: UInt64.self))
            let special = JSONByte.specialBytes(in: word, slashes: escapesSlashes)
            if special != 0 { return index + special.trailingZeroBitCount >> 3 }
            index += 8
        }
        guard index < count else { return count }
        // The last one to seven bytes: in the last eight of the string when
        // this call passed the bytes before them (they have nothing to
        // escape, so the lowest flag is still the first byte to escape), or
        // for a string of four to seven bytes searched from its start, in
        // its first four and last four.
        if count &- 8 >= entry {
            let start = count &- 8
            let word = UInt64(littleEndian: UnsafeRawPointer(source + start).loadUnaligned(as: UInt64.self))
            let special = JSONByte.specialBytes(in: word, slashes: escapesSlashes)
            return special == 0 ? count : start &+ special.trailingZeroBitCount >> 3
        }
        if entry == 0, count >= 4 {
            let head = UInt64(UInt32(littleEndian: UnsafeRawPointer(source).loadUnaligned(as: UInt32.self)))
            let tail = UInt64(
                UInt32(littleEndian: UnsafeRawPointer(source + (count &- 4)).loadUnaligned(as: UInt32.self)))
            let special = JSONByte.specialBytes(in: head | tail << 32, slashes: escapesSlashes)
            if special == 0 { return count }
            let lane = special.trailingZeroBitCount >> 3
            return lane < 4 ? lane : count &- 8 &+ lane
        }
        while index < count {
            let byte = source[index]
            if byte < 0x20 || byte == JSONByte.quote || byte == JSONByte.backslash
                || (byte == JSONByte.slash && escapesSlashes)
            {
                return index
            }
            index += 1
        }
        return count
    }

    private mutating func writeEscape(for byte: UInt8) {
        let short: UInt8
        switch byte {
        case JSONByte.quote: short = JSONByte.quote
        case JSONByte.backslash: short = JSONByte.backslash
        case JSONByte.slash: short = JSONByte.slash
        case JSONByte.lineFeed: short = UInt8(ascii: "n")
        case JSONByte.carriageReturn: short = UInt8(ascii: "r")
        case JSONByte.tab: short = UInt8(ascii: "t")
        case 0x08: short = UInt8(ascii: "b")
        case 0x0C: short = UInt8(ascii: "f")
        default:
            let hexDigits: StaticString = "0123456789abcdef"
            append("\\u00")
            appendASCII(hexDigits.utf8Start[Int(byte >> 4)], hexDigits.utf8Start[Int(byte & 0xF)])
            return
        }
        appendASCII(JSONByte.backslash, short)
    }
}
