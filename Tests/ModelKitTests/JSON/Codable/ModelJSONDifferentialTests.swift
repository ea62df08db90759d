import Foundation
import Testing

@testable import ModelKit

/// Seeded random values and documents, through ModelKit's coders and Foundation's.
@Suite struct ModelJSONDifferentialTests {
    struct Record: Codable, Equatable {
        var id: Int
        var count: Int?
        var ratio: Double
        var small: Float
        var name: String
        var note: String?
        var flag: Bool
        var numbers: [Int]
        var weights: [String: Double]
        var contact: Contact
        var when: Date
        var blob: Data
        var children: [Record]
    }

    static func randomText(_ generator: inout SeededGenerator) -> String {
        let pieces = ["a", "Z", " ", "\"", "\\", "/", "\n", "\t", "\u{1}", "\u{1F}", "é", "e\u{301}", "日本", "😀", "\u{2028}", "{", "]", ":", ","]
        return String((0..<Int.random(in: 0...12, using: &generator)).flatMap { _ in pieces.randomElement(using: &generator)! })
    }

    static func randomDouble(_ generator: inout SeededGenerator) -> Double {
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: return Double(Int.random(in: -1000...1000, using: &generator))
        case 1: return Double.random(in: -1...1, using: &generator)
        case 2:
            let value = Double(bitPattern: generator.next())
            return value.isFinite ? value : 0.5
        default: return Double.random(in: -1e20...1e20, using: &generator)
        }
    }

    static func randomRecord(_ generator: inout SeededGenerator, depth: Int = 0) -> Record {
        let integers: [Int] = [0, -1, .max, .min, 1 << 53, Int.random(in: -1_000_000...1_000_000, using: &generator)]
        return Record(
            id: integers.randomElement(using: &generator)!,
            count: Bool.random(using: &generator) ? nil : Int.random(in: 0...99, using: &generator),
            ratio: randomDouble(&generator),
            small: Float(bitPattern: UInt32.random(in: 0...0x7F7F_FFFF, using: &generator)),
            name: randomText(&generator),
            note: Bool.random(using: &generator) ? nil : randomText(&generator),
            flag: Bool.random(using: &generator),
            numbers: (0..<Int.random(in: 0...4, using: &generator)).map { _ in integers.randomElement(using: &generator)! },
            weights: Dictionary(
                (0..<Int.random(in: 0...3, using: &generator)).map { _ in (randomText(&generator), randomDouble(&generator)) },
                uniquingKeysWith: { first, _ in first }),
            contact: [Contact.none, .email(randomText(&generator)), .phone(country: 1, number: randomText(&generator))]
                .randomElement(using: &generator)!,
            when: Date(timeIntervalSinceReferenceDate: Double(Int.random(in: -1_000_000_000...1_000_000_000, using: &generator)) / 8),
            blob: Data((0..<Int.random(in: 0...6, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }),
            children: depth < 2 ? (0..<Int.random(in: 0...2, using: &generator)).map { _ in randomRecord(&generator, depth: depth + 1) } : [])
    }

    @Test(arguments: 0..<100 as Range<UInt64>)
    func randomValuesRoundTripThroughBothCoders(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let settings = ModelJSONCoderStrategies.all[Int(seed) % ModelJSONCoderStrategies.all.count]
        let record = Self.randomRecord(&generator)
        let foundationText = try settings.foundationEncoder.encode(record)
        // Decoding Foundation's text gives what Foundation's decoder gives.
        let expected = try settings.foundationDecoder.decode(Record.self, from: foundationText)
        #expect(try settings.decoder.decode(Record.self, from: foundationText) == expected)
        // Foundation reads ModelKit's text back to the same value.
        let ours = try settings.encoder.encode(record)
        #expect(try settings.foundationDecoder.decode(Record.self, from: ours) == expected)
        #expect(try settings.decoder.decode(Record.self, from: ours) == expected)
    }

    /// Random documents for `SomeScalars`: members in any order, some repeated,
    /// unknown members around them, random spacing, values of the right type
    /// or not. Both decoders must agree, on the value or on the kind of failure.
    @Test(arguments: 0..<200 as Range<UInt64>)
    func randomDocumentsDecodeAsInFoundation(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed &+ 1000)
        let candidates: KeyValuePairs<String, [String]> = [
            "int": ["0", "-7", "9223372036854775807", "9223372036854775808", "1.0", "1.5", "2e3", "\"1\"", "null", "true"],
            "int8": ["127", "-128", "128", "null"],
            "int64": ["-9223372036854775808", "5", "-0"],
            "uint": ["18446744073709551615", "18446744073709551616", "-1", "3"],
            "uint8": ["255", "256", "0"],
            "float": ["0.1", "3.4028235e38", "3.5e38", "1e-50", "16777217", "\"x\""],
            "double": ["0.1", "1e308", "-2.5E-3", "5e-324", "123456789012345678901234567890", "[]", "{}"],
            "flag": ["true", "false", "0", "null"],
            "text": [
                #""plain""#, #""esc\"aped\n\u00e9\ud83d\ude00""#, #""日本""#, "12", "null", #""\/""#, #""bad\q""#,
                "\"tab\there\"", #""\udc00""#,
            ],
        ]
        let junk = [
            "1", "\"j\"", "[1, [2, {\"x\": null}]]", "{\"a\": {\"b\": [true, false]}}", "null", "-0.5e-3", #""\q\u12""#,
            "1e999", "{\"k\\q\": 1}",
        ]
        func space() -> String { ["", " ", "\n  ", "\t"].randomElement(using: &generator)! }
        var members: [String] = []
        for (key, values) in candidates where Int.random(in: 0..<4, using: &generator) > 0 {
            let value = values.randomElement(using: &generator)!
            members.append("\"\(key)\"\(space()):\(space())\(value)")
            if Int.random(in: 0..<8, using: &generator) == 0 {
                members.append("\"\(key)\":\(values.randomElement(using: &generator)!)")
            }
        }
        for index in 0..<Int.random(in: 0...4, using: &generator) {
            members.append("\"junk\(index)\": \(junk.randomElement(using: &generator)!)")
        }
        members.shuffle(using: &generator)
        let json = "\(space()){\(space())" + members.joined(separator: ",\(space())") + "\(space())}\(space())"
        let data = Data(json.utf8)
        let expected = Result { try JSONDecoder().decode(SomeScalars.self, from: data) }
        let actual = Result { try ModelJSONDecoder().decode(SomeScalars.self, from: data) }
        switch (expected, actual) {
        case (.success(let expected), .success(let actual)):
            #expect(actual == expected, "\(json)")
        case (.failure(let expected), .failure(let actual)):
            #expect(failureKind(actual) == failureKind(expected), "\(json): \(actual)")
        default:
            Issue.record("\(json): JSONDecoder \(expected), ModelJSONDecoder \(actual)")
        }
    }
}
