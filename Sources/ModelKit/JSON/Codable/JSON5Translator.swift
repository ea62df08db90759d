import Foundation

/// JSON5 text rewritten as strict JSON text, for ``ModelJSONDecoder/allowsJSON5``.
///
/// The grammar is JSON5's as Foundation's `JSONDecoder` reads it: `//` and
/// `/* */` comments, trailing commas, strings in single quotes (with `\'`,
/// `\x41` and escaped line breaks, which stay in the string), keys that are
/// identifiers (a `\u` in one stays as its text), hexadecimal numbers, a
/// leading `+`, a leading or trailing decimal point, `Infinity` and `NaN`.
/// Strings hold what JSON5's specification lets them hold, where
/// Foundation refuses a string once it reads it: control characters other
/// than line breaks, `\v`, `\0` (not before a digit), and any other
/// character escaped to itself (`\a` is `a`). Where the specification
/// goes further outside strings (the no-break space and line separators as
/// white space), Foundation refuses, and so does this. The whole
/// document is checked here, and a fault is a ``ModelError`` with the line and
/// column in the JSON5 text, so the strict reader that reads the output
/// never meets one of its own. The strict path never comes here: a decoder
/// without `allowsJSON5` reads the bytes it is given.
///
/// `Infinity` and `NaN`, which JSON cannot hold, become strings in the
/// output (`"\u0000NaN"`), and the translator lists where each one starts
/// (``Translation/specialNumbers``): a string a JSON5 text wrote is never on
/// that list, whatever it holds. The tape marks those strings
/// (``JSONTape/isSpecialNumber``), and ``JSONDecodingState`` reads them as
/// the numbers they stand for: a `Double` or `Float` takes the value, a
/// `Decimal` is NaN, an integer does not fit, and every other type finds a
/// number, not a string.
struct JSON5Translator {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var depth = 0
    private(set) var output: [UInt8] = []
    /// Where the strings that stand for `Infinity`, `-Infinity` and `NaN` start in `output` (after their quote).
    private var specialNumbers: [Int] = []

    /// Strict JSON text, and where its special numbers are.
    struct Translation {
        var text: [UInt8]
        /// The offsets in `text` of the first byte after the quote of each
        /// string that stands for `Infinity`, `-Infinity` or `NaN`, in order.
        var specialNumbers: [Int]
    }

    /// The strings that stand for `Infinity`, `-Infinity` and `NaN` in the output.
    static let infinity = "\u{0}Infinity", negativeInfinity = "\u{0}-Infinity", notANumber = "\u{0}NaN",
        negativeNotANumber = "\u{0}-NaN"

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        output.reserveCapacity(bytes.count + 16)
    }

    /// The strict JSON text of the JSON5 text `bytes`; with
    /// `topLevelDictionary`, a document that does not start with `{` is read
    /// as the members of an object.
    /// - Throws: ``ModelError`` naming the line and column of the first fault.
    static func translate(_ bytes: UnsafeBufferPointer<UInt8>, topLevelDictionary: Bool) throws(ModelError) -> Translation {
        var translator = JSON5Translator(bytes)
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { translator.position = 3 }
        try translator.skipSpace()
        if topLevelDictionary, translator.peek != UInt8(ascii: "{") {
            try translator.members(closing: nil)
        } else {
            try translator.value()
        }
        try translator.skipSpace()
        guard translator.position == bytes.count else { throw translator.error("the end of the document") }
        return Translation(text: translator.output, specialNumbers: translator.specialNumbers)
    }

    private var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    private func error(_ expected: String) -> ModelError {
        let found: String
        if let byte = peek {
            found = byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
        } else {
            found = "the end of the document"
        }
        return message("expected \(expected), found \(found)")
    }

    private func message(_ text: String) -> ModelError {
        ModelError.malformed(
            "JSON5", text, at: ModelError.Location(byteOffset: min(position, bytes.count), in: bytes), keyPath: ModelKeyPath())
    }

    // MARK: - Space and comments

    /// Skips white space (JSON's, with the vertical tab and form feed, as
    /// Foundation reads JSON5) and comments.
    private mutating func skipSpace() throws(ModelError) {
        while let byte = peek {
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C: position += 1
            case UInt8(ascii: "/"):
                guard position + 1 < bytes.count else { throw error("a comment") }
                if bytes[position + 1] == UInt8(ascii: "/") {
                    position += 2
                    while let next = peek, next != 0x0A, next != 0x0D { position += 1 }
                } else if bytes[position + 1] == UInt8(ascii: "*") {
                    let start = position
                    position += 2
                    while position + 1 < bytes.count, !(bytes[position] == UInt8(ascii: "*") && bytes[position + 1] == UInt8(ascii: "/")) {
                        position += 1
                    }
                    guard position + 1 < bytes.count else {
                        position = start
                        throw message("a comment opened with /* is not closed")
                    }
                    position += 2
                } else {
                    position += 1
                    throw error("'/' or '*' after '/'")
                }
            default: return
            }
        }
    }

    // MARK: - Values

    private mutating func value() throws(ModelError) {
        guard let byte = peek else { throw error("a value") }
        switch byte {
        case UInt8(ascii: "{"):
            try enter()
            position += 1
            try members(closing: UInt8(ascii: "}"))
            depth -= 1
        case UInt8(ascii: "["):
            try enter()
            position += 1
            try elements()
            depth -= 1
        case UInt8(ascii: "\""), UInt8(ascii: "'"): try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "I"), UInt8(ascii: "N"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            try number()
        default: throw error("a value")
        }
    }

    private mutating func enter() throws(ModelError) {
        depth += 1
        if depth > JSONWriter.maximumDepth { throw message("arrays and objects nested deeper than \(JSONWriter.maximumDepth) levels") }
    }

    /// The members of an object, up to `closing` (or the end of the document for `nil`), a trailing comma allowed.
    private mutating func members(closing: UInt8?) throws(ModelError) {
        output.append(UInt8(ascii: "{"))
        var count = 0
        while true {
            try skipSpace()
            if peek == closing { break }
            if count > 0 { output.append(UInt8(ascii: ",")) }
            try key()
            try skipSpace()
            guard peek == UInt8(ascii: ":") else { throw error("':' after the key") }
            position += 1
            output.append(UInt8(ascii: ":"))
            try skipSpace()
            try value()
            count += 1
            try skipSpace()
            if peek == UInt8(ascii: ",") {
                position += 1
                continue
            }
            guard peek == closing else { throw error(closing == nil ? "',' or the end of the document" : "',' or '}'") }
            break
        }
        if closing != nil { position += 1 }
        output.append(UInt8(ascii: "}"))
    }

    private mutating func elements() throws(ModelError) {
        output.append(UInt8(ascii: "["))
        var count = 0
        while true {
            try skipSpace()
            if peek == UInt8(ascii: "]") { break }
            if count > 0 { output.append(UInt8(ascii: ",")) }
            try value()
            count += 1
            try skipSpace()
            if peek == UInt8(ascii: ",") {
                position += 1
                continue
            }
            guard peek == UInt8(ascii: "]") else { throw error("',' or ']'") }
            break
        }
        position += 1
        output.append(UInt8(ascii: "]"))
    }

    private mutating func literal(_ word: StaticString) throws(ModelError) {
        let text = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard position + text.count <= bytes.count, zip(text, bytes[position...]).allSatisfy({ $0 == $1 }),
            !Self.isIdentifierByte(position + text.count < bytes.count ? bytes[position + text.count] : 0x20)
        else { throw error("a value") }
        output.append(contentsOf: text)
        position += text.count
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: "$"), 0x80...:
            return true
        default: return false
        }
    }

    // MARK: - Keys and strings

    private mutating func key() throws(ModelError) {
        guard let first = peek else { throw error("a key") }
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") { return try string() }
        let startsIdentifier =
            (Self.isIdentifierByte(first) && !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first))
            || first == UInt8(ascii: "\\")
        guard startsIdentifier else { throw error("a key (a string or an identifier)") }
        output.append(UInt8(ascii: "\""))
        while let byte = peek {
            if byte == UInt8(ascii: "\\") {
                // An identifier's \uXXXX escape: Foundation keeps its text as it is.
                guard position + 5 < bytes.count, bytes[position + 1] == UInt8(ascii: "u"),
                    (2...5).allSatisfy({ Self.hexValue(bytes[position + $0]) != nil })
                else { throw error("\\u and four hexadecimal digits in the key") }
                output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
                output.append(contentsOf: bytes[(position + 1)..<(position + 6)])
                position += 6
            } else if Self.isIdentifierByte(byte) {
                output.append(byte)
                position += 1
            } else {
                break
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private mutating func appendEscaped(_ scalar: UInt8) {
        let digits = Array("0123456789abcdef".utf8)
        output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
        output.append(digits[Int(scalar >> 4)])
        output.append(digits[Int(scalar & 15)])
    }

    /// A string in either quote, written in double quotes with JSON's escapes.
    private mutating func string() throws(ModelError) {
        let quote = bytes[position]
        position += 1
        output.append(UInt8(ascii: "\""))
        while true {
            guard let byte = peek else { throw message("a string is not closed") }
            switch byte {
            case quote:
                position += 1
                output.append(UInt8(ascii: "\""))
                return
            case 0x0A, 0x0D: throw message("a line break in a string (escape it with \\)")
            case UInt8(ascii: "\""):
                output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
                position += 1
            case UInt8(ascii: "\\"):
                try escape()
            case ..<0x20:
                // JSON5 lets a string hold control characters other than line breaks.
                appendEscaped(byte)
                position += 1
            default:
                output.append(byte)
                position += 1
            }
        }
    }

    private mutating func escape() throws(ModelError) {
        guard position + 1 < bytes.count else {
            position += 1
            throw message("a string is not closed")
        }
        let next = bytes[position + 1]
        switch next {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            output.append(contentsOf: [UInt8(ascii: "\\"), next])
            position += 2
        case UInt8(ascii: "'"):
            output.append(next)
            position += 2
        case UInt8(ascii: "x"):
            guard position + 3 < bytes.count, let high = Self.hexValue(bytes[position + 2]),
                let low = Self.hexValue(bytes[position + 3])
            else { throw message("\\x and two hexadecimal digits in a string") }
            let value = high << 4 | low
            if value < 0x80 {
                if value < 0x20 || value == UInt8(ascii: "\"") || value == UInt8(ascii: "\\") {
                    appendEscaped(value)
                } else {
                    output.append(value)
                }
            } else {
                output.append(0xC0 | value >> 6)
                output.append(0x80 | value & 0x3F)
            }
            position += 4
        case UInt8(ascii: "u"):
            guard position + 5 < bytes.count, (2...5).allSatisfy({ Self.hexValue(bytes[position + $0]) != nil }) else {
                throw message("\\u and four hexadecimal digits in a string")
            }
            output.append(contentsOf: bytes[position..<(position + 6)])
            position += 6
        case 0x0A:
            // An escaped line break stays in the string, as Foundation reads it.
            output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            position += 2
        case 0x0D:
            output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            position += 2
            if peek == 0x0A {
                output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
                position += 1
            }
        case UInt8(ascii: "v"):
            appendEscaped(0x0B)
            position += 2
        case UInt8(ascii: "0"):
            guard position + 2 >= bytes.count || !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position + 2]) else {
                position += 1
                throw message("an escape JSON5 does not have in a string (\\0 before a digit)")
            }
            appendEscaped(0)
            position += 2
        case UInt8(ascii: "1")...UInt8(ascii: "9"):
            position += 1
            throw message("an escape JSON5 does not have in a string")
        case 0xE2 where position + 3 < bytes.count && bytes[position + 2] == 0x80
            && (bytes[position + 3] == 0xA8 || bytes[position + 3] == 0xA9):
            // An escaped line or paragraph separator continues the line: it is not in the string.
            position += 4
        default:
            // Any other character escaped to itself (`\a` is `a`); its
            // bytes after the first follow as the string goes on.
            position += 1
            if next < 0x20 {
                appendEscaped(next)
                position += 1
            }
        }
    }

    // MARK: - Numbers

    private mutating func number() throws(ModelError) {
        let start = position
        var isNegative = false
        if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") {
            isNegative = peek == UInt8(ascii: "-")
            position += 1
        }
        if peek == UInt8(ascii: "I") || peek == UInt8(ascii: "N") {
            let isInfinity = peek == UInt8(ascii: "I")
            let word: StaticString = isInfinity ? "Infinity" : "NaN"
            let text = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
            guard position + text.count <= bytes.count, zip(text, bytes[position...]).allSatisfy({ $0 == $1 }),
                !Self.isIdentifierByte(position + text.count < bytes.count ? bytes[position + text.count] : 0x20)
            else {
                position = start
                throw error("a value")
            }
            position += text.count
            // `-NaN` keeps its sign, as Foundation reads it.
            let marker =
                isInfinity
                ? (isNegative ? Self.negativeInfinity : Self.infinity) : (isNegative ? Self.negativeNotANumber : Self.notANumber)
            output.append(UInt8(ascii: "\""))
            specialNumbers.append(output.count)
            appendEscaped(0)
            output.append(contentsOf: marker.utf8.dropFirst())
            output.append(UInt8(ascii: "\""))
            return
        }
        if isNegative { output.append(UInt8(ascii: "-")) }
        if peek == UInt8(ascii: "0"), position + 1 < bytes.count, bytes[position + 1] | 0x20 == UInt8(ascii: "x") {
            position += 2
            var value: UInt64 = 0
            var count = 0
            while let byte = peek, let digit = Self.hexValue(byte) {
                let shifted = value.multipliedReportingOverflow(by: 16)
                guard !shifted.overflow else {
                    position = start
                    throw message("a hexadecimal number too large for 64 bits")
                }
                value = shifted.partialValue | UInt64(digit)
                count += 1
                position += 1
            }
            guard count > 0 else { throw error("hexadecimal digits after 0x") }
            try endOfNumber()
            output.append(contentsOf: String(value).utf8)
            return
        }
        var integerDigits = 0
        let integerStart = position
        while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            integerDigits += 1
            position += 1
        }
        if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") {
            position = integerStart
            throw message("a number with a leading zero")
        }
        output.append(contentsOf: integerDigits > 0 ? Array(bytes[integerStart..<position]) : [UInt8(ascii: "0")])
        if peek == UInt8(ascii: ".") {
            position += 1
            let fractionStart = position
            while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
            if position > fractionStart {
                output.append(UInt8(ascii: "."))
                output.append(contentsOf: bytes[fractionStart..<position])
            } else if integerDigits == 0 {
                throw error("a digit")
            }
        } else if integerDigits == 0 {
            throw error("a digit")
        }
        if let byte = peek, byte | 0x20 == UInt8(ascii: "e") {
            position += 1
            output.append(UInt8(ascii: "e"))
            if let sign = peek, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                output.append(sign)
                position += 1
            }
            let exponentStart = position
            while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
            guard position > exponentStart else { throw error("a digit in the exponent") }
            output.append(contentsOf: bytes[exponentStart..<position])
        }
        try endOfNumber()
    }

    /// A number ends where no letter, digit or identifier character follows.
    private func endOfNumber() throws(ModelError) {
        if let byte = peek, Self.isIdentifierByte(byte) || byte == UInt8(ascii: ".") { throw error("the end of the number") }
    }
}
