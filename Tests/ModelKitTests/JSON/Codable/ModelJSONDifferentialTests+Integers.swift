import Foundation
import Testing

@testable import ModelKit

/// Integers of every width decoded from numbers with fractions and
/// exponents: read from the digits, exact when the value is integral and
/// fits, `dataCorrupted` otherwise (never through a rounded `Double`).
extension ModelJSONDifferentialTests {
    /// The value of the number `text` as `Integer`, worked out on its text
    /// (the decimal point moved by the exponent, then `Integer(String)`):
    /// `nil` when it is not integral or does not fit.
    static func exactInteger<Integer: FixedWidthInteger>(_: Integer.Type, _ text: String) -> Integer? {
        var rest = Substring(text)
        let sign = rest.hasPrefix("-") ? "-" : ""
        if !sign.isEmpty { rest = rest.dropFirst() }
        let mantissa = rest.prefix { $0 != "e" && $0 != "E" }
        let exponentText = rest.dropFirst(mantissa.count + 1)
        guard let exponent = exponentText.isEmpty ? 0 : Int(exponentText) else { return nil }
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        let fraction = parts.count > 1 ? parts[1] : ""
        var digits = String(parts[0] + fraction).drop { $0 == "0" }
        var power = exponent - fraction.count
        while digits.hasSuffix("0") {
            digits.removeLast()
            power += 1
        }
        if digits.isEmpty { return 0 }
        guard power >= 0, digits.count + power <= 45 else { return nil }
        return Integer(sign + digits + String(repeating: "0", count: power))
    }

    /// A spelling of `value` (its digits, signed) with a fraction, an
    /// exponent or both, and sometimes a non-zero digit more, so not integral.
    static func spelling(_ digits: String, negative: Bool, _ generator: inout SeededGenerator) -> String {
        let sign = negative ? "-" : ""
        let point = Int.random(in: 1...digits.count, using: &generator)
        let shift = digits.count - point
        let exponentLetter = Bool.random(using: &generator) ? "e" : "E"
        let extra = Int.random(in: 0..<5, using: &generator) == 0 ? String(Int.random(in: 1...9, using: &generator)) : ""
        let zeros = String(repeating: "0", count: Int.random(in: 0...3, using: &generator))
        switch Int.random(in: 0..<5, using: &generator) {
        case 0:  // 123.000
            return sign + digits + "." + zeros + "0" + extra
        case 1:  // 1.23e2
            let fraction = digits.dropFirst(point)
            let exponentSign = ["", "+"].randomElement(using: &generator)!
            return sign + digits.prefix(point) + (fraction.isEmpty && extra.isEmpty ? "" : ".") + fraction + extra
                + exponentLetter + exponentSign + String(shift)
        case 2:  // 12300e-2
            return sign + digits + zeros + "00" + extra + exponentLetter + "-" + String(zeros.count + 2 + extra.count)
        case 3:  // 0.00123e5
            return sign + "0." + zeros + digits + extra + exponentLetter + String(zeros.count + digits.count)
        default:  // 1230e-1 and the like, around the value
            return sign + digits + "0" + exponentLetter + "-1" + (extra.isEmpty ? "" : extra)
        }
    }

    /// The issue's cases, and the edges of the exact reading.
    static let integerCases: [String] = [
        "12345678901234567890.5", "1.338910060664305e+19", "3.6685974670258514e+18", "1.5e2", "1e2", "-0.0", "0e5",
        "1.0000000000000001", "9007199254740993.5", "4503599627370495.5", "1e20", "-1e19", "-9.223372036854775808e18",
        "1.8446744073709551615e19", "1.8446744073709551616e19", "18446744073709551615.0", "1e-400", "0.5e1", "1E2",
        "170141183460469231731687303715884105727.0", "1.70141183460469231731687303715884105728e38", "1e39", "-1e-1",
        "100e-2", "1e999999999", "0e-999999999", "-9223372036854775808.000", "127.0", "1.28e2", "-1.28E+2", "255e0",
    ]

    @Test(arguments: integerCases)
    func integersWithFractionsAndExponentsAreReadFromTheirDigits(text: String) throws {
        try expectIntegers(text)
    }

    @Test(arguments: 0..<24 as Range<UInt64>)
    func randomIntegersWithFractionsAndExponentsAreReadFromTheirDigits(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed &+ 9100)
        for _ in 0..<16 {
            // A value near the edge of some width, or anywhere in 128 bits.
            let bits = [7, 8, 15, 16, 31, 32, 53, 54, 63, 64, 100, 127, 128].randomElement(using: &generator)!
            var magnitude = UInt128.random(in: 0...(bits == 128 ? .max : (1 << bits) - 1), using: &generator)
            if Bool.random(using: &generator) { magnitude = bits == 128 ? .max : (1 << bits) &- UInt128(Int.random(in: 0...2, using: &generator)) }
            let text = Self.spelling(String(magnitude), negative: Bool.random(using: &generator), &generator)
            try expectIntegers(text)
        }
    }

    /// `text` as each integer type, at the top and in an array: ModelKit's
    /// answer is the exact one, and Foundation's the same or documented.
    func expectIntegers(_ text: String) throws {
        func check<Integer: FixedWidthInteger & Codable>(_ type: Integer.Type) {
            let exact = Self.exactInteger(type, text)
            for (document, path) in [(text, [String]()), ("[\(text)]", ["Index 0"])] {
                let data = Data(document.utf8)
                let actual = DecodeOutcome(
                    Result { path.isEmpty ? try ModelJSONDecoder().decode(type, from: data) : try ModelJSONDecoder().decode([Integer].self, from: data)[0] })
                let wanted: DecodeOutcome = exact.map { .value(String(reflecting: $0)) } ?? .failure(kind: "dataCorrupted", path: path)
                #expect(actual == wanted, "\(type) \(document)")
                let expected = DecodeOutcome(
                    Result { path.isEmpty ? try JSONDecoder().decode(type, from: data) : try JSONDecoder().decode([Integer].self, from: data)[0] })
                FoundationDifference.check(
                    "\(type) \(document)", expected: expected, actual: actual, allowing: [.integersFromDigits, .corruptedAtItsPath])
            }
        }
        check(Int8.self)
        check(Int16.self)
        check(Int32.self)
        check(Int64.self)
        check(Int.self)
        check(UInt8.self)
        check(UInt16.self)
        check(UInt32.self)
        check(UInt64.self)
        check(UInt.self)
        check(Int128.self)
        check(UInt128.self)
    }

    /// A model's `Codable` property goes the direct model path, which leaves
    /// these integers to the `ModelValue` path: the same exact answers.
    final class Reading: ModelObject, @unchecked Sendable {
        struct Values: Codable, Equatable, ModelValueConvertible {
            var unsigned: UInt64
            var signed: [Int64]
            var small: Int8?
        }
        @Saved var values = Values(unsigned: 0, signed: [], small: nil)
        @Saved var label = ""
    }

    @Test func integersOfAModelsCodablePropertyAreReadFromTheirDigits() throws {
        let json = #"{"label":"x","values":{"unsigned":1.338910060664305e+19,"signed":[3.6685974670258514e+18,-1e2,2],"small":1.27e2}}"#
        let reading = try Reading(json: Data(json.utf8))
        #expect(reading.values == Reading.Values(unsigned: 13_389_100_606_643_050_000, signed: [3_668_597_467_025_851_400, -100, 2], small: 127))
        let decoded = try ModelJSONDecoder().decode(Reading.Values.self, from: Data(
            #"{"unsigned":1.338910060664305e+19,"signed":[3.6685974670258514e+18,-1e2,2],"small":1.27e2}"#.utf8))
        #expect(decoded == reading.values)
        for bad in [
            #""unsigned":12345678901234567890.5,"signed":[]"#, #""unsigned":1,"signed":[1.5]"#,
            #""unsigned":1,"signed":[],"small":1.28e2"#,
        ] {
            let document = #"{"values":{"# + bad + "}}"
            #expect(throws: ModelError.self, "\(document)") { try Reading(json: Data(document.utf8)) }
        }
    }
}
