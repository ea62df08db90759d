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
    mutating func writeInteger(_ value: Int) {
        reserve(21)
        if value < 0 {
            buffer[count] = JSONByte.minus
            count += 1
        }
        var magnitude = value.magnitude
        var digits = 1
        var bound: UInt = 10
        while digits < 20, magnitude >= bound {
            digits += 1
            if digits < 20 { bound = bound &* 10 }
        }
        var index = count + digits
        JSONWriter.digitPairs.withUTF8Buffer { pairs in
            while magnitude >= 100 {
                let pair = Int(truncatingIfNeeded: magnitude % 100) &* 2
                magnitude /= 100
                index -= 2
                buffer[index] = pairs[pair]
                buffer[index + 1] = pairs[pair + 1]
            }
            if magnitude >= 10 {
                let pair = Int(truncatingIfNeeded: magnitude) &* 2
                buffer[index - 2] = pairs[pair]
                buffer[index - 1] = pairs[pair + 1]
            } else {
                buffer[index - 1] = JSONByte.zero &+ UInt8(truncatingIfNeeded: magnitude)
            }
        }
        count += digits
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
        if value == value.rounded(.towardZero), abs(value) < 1e15, value != 0 || value.sign == .plus {
            writeInteger(Int(value))
            appendASCII(JSONByte.period, JSONByte.zero)
            return
        }
        // The standard library's shortest round-trip digits, caught as bytes.
        var digits = ShortText()
        value.write(to: &digits)
        let needsFraction = digits.withBytes { bytes -> Bool in
            append(bytes)
            return !bytes.contains(JSONByte.period) && !bytes.contains(JSONByte.lowerE)
        }
        if needsFraction { appendASCII(JSONByte.period, JSONByte.zero) }
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
