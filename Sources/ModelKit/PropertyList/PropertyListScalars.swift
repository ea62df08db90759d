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
    /// An integer, decimal or `0x` hexadecimal, with an optional sign; beyond
    /// `Int` it is ``ModelValue/bigInteger(_:)``, whatever its size.
    static func integer(_ text: UnsafeBufferPointer<UInt8>) -> ModelValue? {
        var index = 0
        var isNegative = false
        if let first = text.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            isNegative = first == UInt8(ascii: "-")
            index = 1
        }
        let isHex = index + 1 < text.count && text[index] == UInt8(ascii: "0")
            && (text[index + 1] == UInt8(ascii: "x") || text[index + 1] == UInt8(ascii: "X"))
        if isHex { index += 2 }
        let radix = isHex ? 16 : 10
        guard index < text.count else { return nil }
        // Digits in little-endian base 10, used only once the value leaves Int.
        var value = 0
        var big: [UInt8]?
        for byte in text[index...] {
            guard let digit = digitValue(byte), digit < radix else { return nil }
            if big == nil {
                let (product, overflow) = value.multipliedReportingOverflow(by: radix)
                let (sum, overflow2) =
                    isNegative ? product.subtractingReportingOverflow(digit) : product.addingReportingOverflow(digit)
                if !overflow && !overflow2 {
                    value = sum
                    continue
                }
                big = decimalDigits(of: value.magnitude)
            }
            multiply(&big!, by: radix, adding: digit)
        }
        guard let big else { return .int(value) }
        var digits = String(decoding: big.reversed().drop { $0 == 0 }.map { $0 + 0x30 }, as: UTF8.self)
        if isNegative { digits = "-" + digits }
        return .bigInteger(digits)
    }

    private static func digitValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
        default: nil
        }
    }

    private static func decimalDigits(of magnitude: UInt) -> [UInt8] {
        var digits: [UInt8] = []
        var rest = magnitude
        repeat {
            digits.append(UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        return digits
    }

    private static func multiply(_ digits: inout [UInt8], by factor: Int, adding addend: Int) {
        var carry = addend
        for index in digits.indices {
            let product = Int(digits[index]) * factor + carry
            digits[index] = UInt8(product % 10)
            carry = product / 10
        }
        while carry > 0 {
            digits.append(UInt8(carry % 10))
            carry /= 10
        }
    }

    /// A decimal real with an optional sign and exponent, or `nan`, `inf`,
    /// `infinity` (any case, optionally signed). Hexadecimal floats are not
    /// property-list reals.
    static func real(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
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
