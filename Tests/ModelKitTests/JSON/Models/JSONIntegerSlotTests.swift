import Foundation
import Testing

@testable import ModelKit

/// Integers read straight into `Int` and `Int?` slots by the direct
/// decoder's short path (at most 18 digits), against the `ModelValue` path:
/// the same values at and past the short path's edges, and the same errors.
@Suite struct JSONIntegerSlotTests {
    final class Counts: ModelObject, @unchecked Sendable {
        @Saved var count = 0
        @Saved var maybe: Int? = nil
    }

    static let numbers: [(text: String, count: Int?)] = [
        ("0", 0),
        ("-0", 0),
        ("7", 7),
        ("-7", -7),
        ("123456789012345678", 123_456_789_012_345_678),
        ("-123456789012345678", -123_456_789_012_345_678),
        ("999999999999999999", 999_999_999_999_999_999),
        ("1234567890123456789", 1_234_567_890_123_456_789),
        ("9223372036854775807", Int.max),
        ("-9223372036854775808", Int.min),
        ("9223372036854775808", nil),
        ("-9223372036854775809", nil),
        ("00", nil),
        ("01", nil),
        ("-01", nil),
        ("-", nil),
        ("-a", nil),
        ("1.0", nil),
        ("1.5", nil),
        ("1e2", nil),
        ("1E2", nil),
        ("12e", nil),
        ("1.", nil),
        ("0x10", nil),
        ("+1", nil),
        ("123456789012345678.0", nil),
    ]

    @Test(arguments: numbers.indices)
    func integersReadAsTheModelValuePathReadsThem(_ index: Int) throws {
        let (text, expected) = Self.numbers[index]
        // In the middle of an object, at its end before a space, and as the
        // last bytes before the closing brace, in both slots.
        let documents = [
            "{\"count\":\(text),\"maybe\":1}", "{\"maybe\":2,\"count\":\(text) }", "{\"count\":\(text)}",
            "{\"maybe\":\(text)}", "{\"maybe\":\(text),\"count\":3}",
        ]
        for document in documents {
            let data = Data(document.utf8)
            let direct = JSONDirectPathTests.direct(Counts.self, data)
            #expect(direct == JSONDirectPathTests.viaModelValue(Counts.self, data), "\(document)")
            let object = try? Counts(json: data)
            if let expected {
                let value = document.contains("\"count\":\(text)") ? object?.count : object?.maybe
                #expect(value == expected, "\(document)")
            }
        }
    }

    /// Seeded random integers of 1 to 19 digits, both signs: the short path
    /// and the general one give the same `Int`.
    @Test func seededRandomIntegersRoundTrip() throws {
        var generator = SeededGenerator(seed: 0x494E_5453)
        for _ in 0..<2_000 {
            let digits = Int.random(in: 1...19, using: &generator)
            let limit = digits == 19 ? Int.max : Int(pow(10, Double(digits))) - 1
            let lower = digits == 1 ? 0 : Int(pow(10, Double(digits - 1)))
            var value = Int.random(in: lower...limit, using: &generator)
            if Bool.random(using: &generator) { value = -value }
            let object = try Counts(json: Data("{\"count\":\(value),\"maybe\":\(value)}".utf8))
            #expect(object.count == value)
            #expect(object.maybe == value)
        }
    }
}
