import Foundation
import Testing

@testable import ModelKit

/// The writer's search for bytes to escape works in words of sixteen,
/// eight and four bytes, and on the last bytes of a string in a word that
/// overlaps bytes already passed: escapes at every position of strings of
/// every short length, next to each other and to the end, come out as a
/// byte-by-byte escaper writes them, and so do long strings whose escapes
/// grow the buffer.
@Suite struct JSONWriterEscapeTests {
    /// What JSON requires, one scalar at a time.
    static func escaped(_ text: String, slashes: Bool) -> String {
        var out = "\""
        for unit in text.unicodeScalars {
            switch unit {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/" where slashes: out += "\\/"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case let scalar where scalar.value < 0x20:
                out += "\\u00" + String(scalar.value >> 4, radix: 16) + String(scalar.value & 0xF, radix: 16)
            default: out.unicodeScalars.append(unit)
            }
        }
        return out + "\""
    }

    static func check(_ text: String) throws {
        for slashes in [false, true] {
            let options = JSONWritingOptions(escapesSlashes: slashes)
            #expect(try ModelValue.string(text).jsonString(options: options) == escaped(text, slashes: slashes))
        }
    }

    static let specials: [Character] = ["\"", "\\", "/", "\n", "\u{01}", "\u{1F}"]

    @Test func oneEscapeAtEveryPositionOfEveryShortLength() throws {
        for length in 1...40 {
            for position in 0..<length {
                for special in Self.specials {
                    var characters = Array(repeating: Character("a"), count: length)
                    characters[position] = special
                    try Self.check(String(characters))
                }
            }
        }
    }

    /// Two or more escapes, adjacent or apart; bytes that follow a byte to
    /// escape in the same word ("#" and "]" are one above `"` and `\`).
    /// Long strings whose escapes grow the text sixfold, so that the buffer
    /// grows in the middle of a string, many times, between chunks copied whole.
    @Test(arguments: [4 as UInt64, 5, 6])
    func longStringsOfDenseEscapesGrowTheBufferMidString(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let pieces: [Character] = ["\u{01}", "\u{1F}", "a", "日", "\"", "/", "0123456789abcdef", "\n"].flatMap { Array("\($0)") }
        for length in [15, 16, 17, 31, 32, 33, 4_095, 4_096, 20_000] {
            let text = String((0..<length).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &random)] })
            try Self.check(text)
            // Inside an array and an object, after other values, as documents hold them.
            let value: ModelValue = [1, ["key \u{02}": .string(text), "b": .string(String(text.reversed()))], .string(text)]
            let written = try value.jsonData()
            #expect(try ModelValue(json: written) == value)
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func severalEscapesAtRandomPositions(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let plain: [Character] = ["a", "#", "]", "0", "é", " ", "~"]
        for _ in 0..<3000 {
            let length = Int.random(in: 0...40, using: &random)
            var characters = (0..<length).map { _ in plain.randomElement(using: &random)! }
            for _ in 0..<Int.random(in: 0...4, using: &random) where length > 0 {
                characters[Int.random(in: 0..<length, using: &random)] = Self.specials.randomElement(using: &random)!
            }
            try Self.check(String(characters))
        }
    }
}
