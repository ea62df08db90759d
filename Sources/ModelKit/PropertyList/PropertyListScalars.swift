import Foundation

/// Parses the text of property-list scalars: integers, reals, base64 data
/// and character references, straight from UTF-8 bytes.
///
/// Each parser returns `nil` (or the failing offset) rather than throwing,
/// so that the reader can say where and what it expected.
///
/// ```swift
/// let small = Array("0x1F".utf8).withUnsafeBufferPointer { PropertyListScalars.integer($0) }   // .int(31)
/// let large = Array("18446744073709551616".utf8).withUnsafeBufferPointer { PropertyListScalars.integer($0) }
/// // .bigInteger("18446744073709551616")
/// ```
enum PropertyListScalars {
    /// An integer, decimal or `0x` hexadecimal, with an optional sign;
    /// whitespace may come before the sign and after it, as Foundation allows
    /// (`" -\t0xFACE"`), but not after the digits. Beyond `Int` it is
    /// ``ModelValue/bigInteger(_:)``, whatever its size: decimal digits are
    /// kept as their text (linear time, as the JSON reader keeps them);
    /// hexadecimal ones are converted fifteen at a time.
    static func integer(_ text: UnsafeBufferPointer<UInt8>) -> ModelValue? {
        var index = 0
        func skipWhitespace() {
            while index < text.count, XMLPropertyListReader.isWhitespace(text[index]) { index += 1 }
        }
        skipWhitespace()
        var isNegative = false
        if index < text.count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
            isNegative = text[index] == UInt8(ascii: "-")
            index += 1
            skipWhitespace()
        }
        let isHex = index + 1 < text.count && text[index] == UInt8(ascii: "0")
            && (text[index + 1] == UInt8(ascii: "x") || text[index + 1] == UInt8(ascii: "X"))
        if isHex { index += 2 }
        let radix = isHex ? 16 : 10
        guard index < text.count else { return nil }
        let digitsStart = index
        var value = 0
        while index < text.count {
            guard let digit = digitValue(text[index]), digit < radix else { return nil }
            let (product, overflow) = value.multipliedReportingOverflow(by: radix)
            let (sum, overflow2) =
                isNegative ? product.subtractingReportingOverflow(digit) : product.addingReportingOverflow(digit)
            if overflow || overflow2 { break }
            value = sum
            index += 1
        }
        guard index < text.count else { return .int(value) }
        // Beyond Int: check the rest, then spell the magnitude in decimal.
        for byte in text[index...] {
            guard let digit = digitValue(byte), digit < radix else { return nil }
        }
        let digits = UnsafeBufferPointer(rebasing: text[digitsStart...])
        var decimal = isHex ? decimalText(ofHexadecimal: digits) : String(decoding: digits.drop { $0 == 0x30 }, as: UTF8.self)
        if isNegative { decimal = "-" + decimal }
        return .bigInteger(decimal)
    }

    private static func digitValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
        default: nil
        }
    }

    /// The decimal text of the (checked, non-zero) hexadecimal digits
    /// `digits`: base 10^18 limbs, least significant first, each step taking
    /// fifteen hexadecimal digits (60 bits), so the work is about n²/1000
    /// limb operations for n digits.
    private static func decimalText(ofHexadecimal digits: UnsafeBufferPointer<UInt8>) -> String {
        let base: UInt64 = 1_000_000_000_000_000_000
        var limbs: [UInt64] = []
        var index = 0
        // The first chunk is short, so the rest come in whole chunks of fifteen.
        var chunk = digits.count % 15 == 0 ? 15 : digits.count % 15
        while index < digits.count {
            var addend: UInt64 = 0
            for byte in digits[index..<(index + chunk)] { addend = addend << 4 | UInt64(digitValue(byte)!) }
            let factor = UInt64(1) << UInt64(4 * chunk)
            var carry = addend
            for limb in limbs.indices {
                let product = limbs[limb].multipliedFullWidth(by: factor)
                let (low, overflow) = product.low.addingReportingOverflow(carry)
                let (quotient, remainder) = base.dividingFullWidth((product.high + (overflow ? 1 : 0), low))
                limbs[limb] = remainder
                carry = quotient
            }
            while carry > 0 {
                limbs.append(carry % base)
                carry /= base
            }
            index += chunk
            chunk = 15
        }
        while limbs.last == 0 { limbs.removeLast() }
        guard let top = limbs.last else { return "0" }
        var text = String(top)
        for limb in limbs.dropLast().reversed() {
            let part = String(limb)
            text += String(repeating: "0", count: 18 - part.count) + part
        }
        return text
    }

    /// A decimal real with an optional sign and exponent, or `nan`, `inf`,
    /// `infinity` (any case, optionally signed), after optional whitespace.
    /// Hexadecimal floats are not property-list reals.
    static func real(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        // Whitespace before the number, as Foundation (strtod) skips it.
        while index < text.count, XMLPropertyListReader.isWhitespace(text[index]) { index += 1 }
        guard index == 0 else { return real(UnsafeBufferPointer(rebasing: text[index...])) }
        var sign = 1.0
        if let first = text.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            sign = first == UInt8(ascii: "-") ? -1 : 1
            index = 1
        }
        let word = String(decoding: text[index...], as: UTF8.self).lowercased()
        if word == "nan" { return .nan }
        if word == "inf" || word == "infinity" { return sign * .infinity }
        func digits() -> Int {
            let start = index
            while index < text.count, text[index] >= 0x30, text[index] <= 0x39 { index += 1 }
            return index - start
        }
        var mantissa = digits()
        if index < text.count, text[index] == UInt8(ascii: ".") {
            index += 1
            mantissa += digits()
        }
        guard mantissa > 0 else { return nil }
        if index < text.count, text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E") {
            index += 1
            if index < text.count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") { index += 1 }
            guard digits() > 0 else { return nil }
        }
        guard index == text.count else { return nil }
        return Double(String(decoding: text, as: UTF8.self))
    }

    /// The bytes of base64 `text`, ignoring whitespace; padding may be left
    /// out. On failure, the offset of the first byte that does not fit.
    static func base64(_ text: UnsafeBufferPointer<UInt8>) -> Result<Data, Base64Failure> {
        var output = Data()
        output.reserveCapacity(text.count / 4 * 3)
        var group: UInt32 = 0
        var count = 0
        var paddedCount: Int?
        var pads = 0
        var groupStart = 0
        for (offset, byte) in text.enumerated() {
            let sextet: UInt32
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): sextet = UInt32(byte - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): sextet = UInt32(byte - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): sextet = UInt32(byte - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "+"): sextet = 62
            case UInt8(ascii: "/"): sextet = 63
            case 0x20, 0x09, 0x0A, 0x0D: continue
            case UInt8(ascii: "="):
                if paddedCount == nil {
                    guard count >= 2 else { return .failure(Base64Failure(offset: offset)) }
                    paddedCount = count
                }
                pads += 1
                guard pads <= 4 - paddedCount! else { return .failure(Base64Failure(offset: offset)) }
                continue
            default: return .failure(Base64Failure(offset: offset))
            }
            guard paddedCount == nil else { return .failure(Base64Failure(offset: offset)) }
            if count == 0 { groupStart = offset }
            group = group << 6 | sextet
            count += 1
            if count == 4 {
                output.append(UInt8(group >> 16))
                output.append(UInt8(group >> 8 & 0xFF))
                output.append(UInt8(group & 0xFF))
                group = 0
                count = 0
            }
        }
        switch paddedCount ?? count {
        case 0: break
        case 2: output.append(UInt8(group >> 4 & 0xFF))
        case 3:
            output.append(UInt8(group >> 10 & 0xFF))
            output.append(UInt8(group >> 2 & 0xFF))
        default: return .failure(Base64Failure(offset: groupStart))
        }
        return .success(output)
    }

    struct Base64Failure: Error {
        var offset: Int
    }

    /// The scalar value of the reference after `&#`: decimal, or hexadecimal after `x`.
    static func characterReference(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> UInt32? {
        var digits = text[...]
        var radix: UInt32 = 10
        if digits.first == UInt8(ascii: "x") {
            radix = 16
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, digits.count <= 8 else { return nil }
        var value: UInt32 = 0
        for byte in digits {
            guard let digit = digitValue(byte), digit < radix else { return nil }
            value = value * radix + UInt32(digit)
        }
        return value
    }
}
