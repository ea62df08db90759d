import Foundation
import Testing

@testable import ModelKit

/// The writer's own shortest round-trip digits (`ShortestDecimal`) against
/// the standard library's `description`, which they replace: same digits,
/// same layout, and the text reads back as the same `Double`.
@Suite struct JSONWriterDoubleTests {
    /// What the writer wrote before it had its own digits: `description`,
    /// with ".0" where that has neither a period nor an exponent.
    static func expected(_ value: Double) -> String {
        let text = value.description
        return text.contains(".") || text.contains("e") ? text : text + ".0"
    }

    static func written(_ value: Double) throws -> String {
        var writer = JSONWriter(options: JSONWritingOptions())
        defer { writer.deallocate() }
        try writer.writeDouble(value)
        return writer.takeString()
    }

    static func check(_ value: Double) throws {
        let text = try written(value)
        #expect(text == expected(value), "bits \(String(value.bitPattern, radix: 16))")
        #expect(Double(text)?.bitPattern == value.bitPattern, "\(text) reads back as another double")
    }

    static let edges: [Double] = {
        var values: [Double] = [
            0, -0.0, .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude,
            .leastNormalMagnitude.nextDown, .ulpOfOne, 1, 0.1, 0.2, 0.3, 1.0 / 3, 2.0 / 3,
            0.0001, 0.0001.nextDown, 0.0001.nextUp, 0.00009999, 0.000123, 1e-5,
            1e15, 1e15.nextDown, 1e15.nextUp, 1e16, 0x1p53, 0x1p53.nextDown, 0x1p53.nextUp,
            123_456_789_012_345.6, 1_234_567_890_123_456.7, 1e23, 1e22, 1e21,
            8.41e21, 5.0e22, 9.5, 0.5, 2.5e-7, 1.7976931348623157e308, 2.2250738585072014e-308,
            1.5e300, 3e-7, 1.10, 65.613616999999977,
        ]
        for power in -1074...1023 { values.append(Double(sign: .plus, exponent: power, significand: 1)) }
        for power in -323...308 {
            if let value = Double("1e\(power)") { values.append(value) }
        }
        // Values with many trailing decimal zeros, near integers and halves.
        for digits in 1...17 {
            let scale = pow(10.0, Double(digits))
            values += [scale - 1, scale + 1, (scale - 1) / 4, scale / 3, 1 / scale, 5 / scale]
        }
        return values + values.map { -$0 }
    }()

    @Test func edgeValuesMatchTheStandardLibrary() throws {
        for value in Self.edges { try Self.check(value) }
    }

    /// Every bit pattern is as likely: so every exponent, subnormals
    /// included, and every table entry comes up.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func randomBitPatternsMatchTheStandardLibrary(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var checked = 0
        while checked < 50_000 {
            let value = Double(bitPattern: random.next())
            guard value.isFinite else { continue }
            try Self.check(value)
            checked += 1
        }
    }

    /// Both ends of every binade: the power of two itself (whose interval
    /// is narrower below), its neighbours, and the largest significands;
    /// and the smallest subnormals one by one.
    @Test func everyBinadeAtBothEndsMatchesTheStandardLibrary() throws {
        for biased: UInt64 in 0...2046 {
            for fraction: UInt64 in [0, 1, 2, 3, 4, (1 << 52) - 1, (1 << 52) - 2, (1 << 51), (1 << 51) + 1] {
                let value = Double(bitPattern: biased << 52 | fraction)
                if value != 0 { try Self.check(value) }
            }
        }
        for significand: UInt64 in 1...2000 { try Self.check(Double(bitPattern: significand)) }
    }

    /// The three logarithm formulas the scaling is chosen by, for every
    /// exponent a double can have, against `log10` and `log2` (the exact
    /// values are never within 10^-5 of a whole number in these ranges,
    /// far more than a `Double`'s error).
    @Test func scalingLogarithmsAreExactForEveryExponent() {
        for q in -1074...971 {
            #expect(ShortestDecimal.floorLog10Pow2(q) == Int((Double(q) * log10(2.0)).rounded(.down)), "q = \(q)")
            #expect(
                ShortestDecimal.floorLog10ThreeQuartersPow2(q)
                    == Int((Double(q) * log10(2.0) + log10(0.75)).rounded(.down)), "q = \(q)")
        }
        for e in -292...324 {
            #expect(ShortestDecimal.floorLog2Pow10(e) == Int((Double(e) * log2(10.0)).rounded(.down)), "e = \(e)")
        }
    }

    /// Short decimals (what people type) and doubles one step from them,
    /// where the shortest digits are decided by ties and bounds.
    @Test(arguments: [5, 6] as [UInt64])
    func typedDecimalsAndTheirNeighboursMatchTheStandardLibrary(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<40_000 {
            let digits = UInt64.random(in: 1...999_999_999, using: &random)
            let power = Int.random(in: -30...30, using: &random)
            guard let value = Double("\(digits)e\(power)") else { continue }
            try Self.check(value)
            try Self.check(value.nextUp)
            try Self.check(value.nextDown)
        }
    }

    /// The eight-digit groups of the digit writer, against `String`.
    @Test func eightDigitGroupsMatchTheirDecimalText() {
        var random = SeededGenerator(seed: 7)
        var values: [UInt32] = [0, 1, 9, 10, 99, 100, 9999, 10000, 10001, 99_999_999, 12_345_678, 10_000_000]
        for _ in 0..<20_000 { values.append(UInt32.random(in: 0..<100_000_000, using: &random)) }
        for value in values {
            let word = JSONWriter.eightDigits(value) | 0x3030_3030_3030_3030
            let text = withUnsafeBytes(of: word.littleEndian) { String(decoding: $0, as: UTF8.self) }
            let expected = String(repeating: "0", count: 8 - String(value).count) + String(value)
            #expect(text == expected)
        }
    }

    /// Integers go through the same digit writer: every length, both signs.
    @Test func integersOfEveryLengthMatchTheirDecimalText() {
        var values: [Int] = [0, 1, -1, 9, 10, .max, .min, .max - 1, .min + 1]
        var power = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 1, -power, -(power - 1)]
        }
        var random = SeededGenerator(seed: 8)
        for _ in 0..<20_000 { values.append(Int(truncatingIfNeeded: random.next()) >> Int.random(in: 0..<63, using: &random)) }
        for value in values {
            var writer = JSONWriter(options: JSONWritingOptions())
            writer.writeInteger(value)
            #expect(writer.takeString() == String(value))
        }
    }

    @Test func notFiniteIsRefusedWithItsValue() throws {
        for value in [Double.infinity, -.infinity, .nan] {
            #expect {
                try Self.written(value)
            } throws: { error in
                "\(error)".contains("JSON cannot represent the floating-point number")
            }
        }
    }
}
