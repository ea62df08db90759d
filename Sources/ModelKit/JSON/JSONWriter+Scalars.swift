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
        case .date(let date): writeString(ISO8601DateText.string(from: date))
        case .data(let bytes): writeString(bytes.base64EncodedString())
        case .array, .object: preconditionFailure("containers are written by write(_:)")
        }
    }

    /// Writes `value` in decimal, straight into the buffer.
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
        var index = count + digits - 1
        repeat {
            buffer[index] = JSONByte.zero &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
            index -= 1
        } while magnitude != 0
        count += digits
    }

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
        var text = value.description
        let needsFraction = text.withUTF8 { utf8 -> Bool in
            append(utf8)
            return !utf8.contains(JSONByte.period) && !utf8.contains(JSONByte.lowerE)
        }
        if needsFraction { appendASCII(JSONByte.period, JSONByte.zero) }
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
