import Foundation
import Testing

@testable import ModelKit

/// `ModelJSONEncoder`'s strings byte for byte against Foundation's
/// `JSONEncoder`, with and without escaped slashes. The writer searches a
/// string sixteen bytes at a time (a shorter one as overlapping words) and
/// writes every escape of a chunk before loading the next, so the cases
/// put each escape class at every position of strings of every length up
/// to three chunks, next to each other, at the ends, in the last chunk
/// that overlaps the one before, and among bytes outside ASCII.
@Suite struct ModelJSONEncoderStringTests {
    /// One member, as the order of several in Foundation's output is unspecified.
    struct Member: Codable, Equatable {
        var text: String
    }

    /// One of every kind of byte JSON escapes (a short escape, `\u00XX`,
    /// quote, backslash, slash), and bytes that differ from one by a bit.
    static let specials: [Character] = ["\"", "\\", "/", "\n", "\r", "\t", "\u{08}", "\u{0C}", "\u{00}", "\u{01}", "\u{1F}"]
    static let neighbours: [Character] = ["a", " ", "!", "#", "]", "0", "\u{7F}", "é", "日", "😀"]

    /// Foundation's text for `value`, and ours, with both slash settings.
    static func expectSameBytes<Value: Encodable>(_ value: Value, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for formatting in [[], JSONEncoder.OutputFormatting.withoutEscapingSlashes] {
            let foundation = JSONEncoder()
            foundation.outputFormatting = formatting
            var ours = ModelJSONEncoder()
            ours.outputFormatting = formatting
            let expected = String(decoding: try foundation.encode(value), as: UTF8.self)
            let written = String(decoding: try ours.encode(value), as: UTF8.self)
            #expect(written == expected, sourceLocation: sourceLocation)
        }
    }

    static let table: [String] = [
        "", "a", "ab", "abc", "abcd", "abcdefg", "abcdefgh", "abcdefghijklmno", "abcdefghijklmnop",
        "abcdefghijklmnopq", "\"", "\\", "/", "\n", "\u{00}", "\u{1F}", "\u{7F}", "\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"",
        "\\/\\/\\/\\/\\/\\/\\/\\/\\/", "<a href=\"http://twitter.com/download/iphone\" rel=\"nofollow\">Twitter for iPhone</a>",
        "日本語のテキスト\nと改行\nhttp://t.co/abc", "é", "😀", "é\"", "\u{1F}😀\u{01}", "a/b", "///////",
        String(repeating: "x", count: 300), String(repeating: "日本/", count: 100), String(repeating: "\u{01}", count: 40),
    ]

    @Test(arguments: table)
    func tableOfStringsMatchesFoundation(_ text: String) throws {
        try Self.expectSameBytes(Member(text: text))
        try Self.expectSameBytes([text, text])
        try Self.expectSameBytes([Member(text: text), Member(text: text + "/")])
        try Self.expectSameBytes(text)
    }

    @Test func oneEscapeAtEveryPositionOfEveryLengthUpToFortyEight() throws {
        for length in 1...48 {
            for position in 0..<length {
                for special in Self.specials {
                    var characters = Array(repeating: Character("a"), count: length)
                    characters[position] = special
                    try Self.expectSameBytes(Member(text: String(characters)))
                }
            }
        }
    }

    /// Two escapes in every pair of positions, so that both halves of a
    /// chunk and the overlapping last chunk have escapes before and after.
    @Test func twoEscapesAtEveryPairOfPositions() throws {
        for length in [7, 8, 9, 15, 16, 17, 23, 24, 31, 32, 33] {
            for first in 0..<length {
                for second in first..<length {
                    var characters = Array(repeating: Character("#"), count: length)
                    characters[first] = "/"
                    characters[second] = second % 2 == 0 ? "\"" : "\u{1F}"
                    try Self.expectSameBytes(Member(text: String(characters)))
                }
            }
        }
    }

    /// An array makes room for the rest at its first element's size, to
    /// exactly that much; elements far longer than the first grow the buffer on from there.
    @Test func arraysOfElementsLongerThanTheFirstGrowPastTheRoomMade() throws {
        let texts = [""] + (1..<40).map { String(repeating: "ab\"/日", count: $0 * 50) }
        try Self.expectSameBytes(texts)
        try Self.expectSameBytes(texts.map { Member(text: $0) })
    }

    @Test(arguments: [7, 8, 9] as [UInt64])
    func randomStringsOutsideASCIIMatchFoundation(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let pieces = Self.specials + Self.neighbours
        for _ in 0..<1500 {
            let length = Int.random(in: 0...70, using: &random)
            let text = String((0..<length).map { _ in
                Int.random(in: 0..<4, using: &random) == 0
                    ? pieces.randomElement(using: &random)! : Self.neighbours.randomElement(using: &random)!
            })
            try Self.expectSameBytes(Member(text: text))
        }
    }
}
