import Foundation
import Testing

@testable import ModelKit

/// Strings: escapes, surrogates, control characters, UTF-8.
@Suite struct JSONReaderStringTests {
    @Test(arguments: [
        (#""\"""#, "\""),
        (#""\\""#, "\\"),
        (#""\/""#, "/"),
        (#""\b""#, "\u{08}"),
        (#""\f""#, "\u{0C}"),
        (#""\n""#, "\n"),
        (#""\r""#, "\r"),
        (#""\t""#, "\t"),
        (#""\u0000""#, "\u{00}"),
        (#""\u001f""#, "\u{1F}"),
        (#""\u0041\u00e9\u20AC""#, "Aé€"),
        (#""\uD83D\uDE00""#, "😀"),
        (#""\udbff\udfff""#, "\u{10FFFF}"),
        (#""a\"b\\c\/d\be\ff\ng\rh\ti\u00e9j""#, "a\"b\\c/d\u{08}e\u{0C}f\ng\rh\ti\u{E9}j"),
        (#""plain text that is longer than eight bytes""#, "plain text that is longer than eight bytes"),
        ("\"日本語のテキスト and 😀 mixed\"", "日本語のテキスト and 😀 mixed"),
        ("\"\u{7F}\"", "\u{7F}"),
        ("\"\u{FEFF}x\"", "\u{FEFF}x"),
    ])
    func decodesEscapesAndText(text: String, expected: String) throws {
        #expect(try readJSON(text) == .string(expected))
    }

    @Test func findsTheEndOfStringsOfEveryLength() throws {
        // Exercises the eight-bytes-at-a-time scan at every alignment.
        for length in 0..<40 {
            for special in ["\\n", "\\\"", "é", ""] {
                let body = String(repeating: "x", count: length) + special + "yz"
                let decoded = try readJSON("[\"\(body)\",1]")
                let expected = String(repeating: "x", count: length)
                    + ["\\n": "\n", "\\\"": "\"", "é": "é", "": ""][special]! + "yz"
                #expect(decoded == [.string(expected), 1])
            }
        }
    }

    @Test(arguments: [
        (#""\x""#, #"invalid escape sequence '\x' in string"#, 2),
        (#""\U0041""#, #"invalid escape sequence '\U' in string"#, 2),
        (#""\'""#, #"invalid escape sequence '\'' in string"#, 2),
        (#""\u12""#, #"expected four hexadecimal digits after '\u'"#, 2),
        (#""\u12G4""#, #"expected four hexadecimal digits after '\u'"#, 2),
        (#""\uD800""#, #"unpaired surrogate \uD800 in string"#, 2),
        (#""\uD800x""#, #"unpaired surrogate \uD800 in string"#, 2),
        (#""\uD800\u0041""#, #"unpaired surrogate \uD800 in string"#, 2),
        (#""\uD800\uD800""#, #"unpaired surrogate \uD800 in string"#, 2),
        (#""ab\uDC00""#, #"unpaired surrogate \uDC00 in string"#, 4),
        (#""\uD800\u""#, #"expected four hexadecimal digits after '\u'"#, 8),
        ("\"abc", "unterminated string", 1),
        ("\"abc\\", "unterminated string", 1),
        ("[\"a\\\"]", "unterminated string", 2),
        ("\"a\nb\"", "unescaped control character U+000A in string", 3),
        ("\"\t\"", "unescaped control character U+0009 in string", 2),
        ("\"\u{0}\"", "unescaped control character U+0000 in string", 2),
        ("\"x\\n\u{1F}\"", "unescaped control character U+001F in string", 5),
    ])
    func refusesMalformedStrings(text: String, message: String, column: Int) {
        let error = readFailure(text)
        #expect(error?.code == .malformedDocument)
        #expect(error?.message == message)
        #expect(error?.location?.column == column)
    }

    /// Ill-formed UTF-8 (RFC 3629 §3 and the Unicode standard's table 3-7) and where it starts.
    @Test(arguments: [
        ([0x80], 1),  // a continuation byte alone
        ([0xBF], 1),
        ([0xC0, 0x80], 1),  // overlong NUL
        ([0xC1, 0xBF], 1),  // overlong
        ([0xE0, 0x80, 0x80], 1),  // overlong three-byte form
        ([0xE0, 0x9F, 0xBF], 1),
        ([0xF0, 0x8F, 0xBF, 0xBF], 1),  // overlong four-byte form
        ([0xED, 0xA0, 0x80], 1),  // U+D800 encoded in UTF-8
        ([0xED, 0xBF, 0xBF], 1),  // U+DFFF encoded in UTF-8
        ([0xF4, 0x90, 0x80, 0x80], 1),  // beyond U+10FFFF
        ([0xF5, 0x80, 0x80, 0x80], 1),
        ([0xFF], 1),
        ([0xFE], 1),
        ([0xC3], 1),  // truncated by the closing quote
        ([0xE2, 0x82], 1),
        ([0xF0, 0x9F, 0x98], 1),
        ([0x61, 0x62, 0xC3, 0x28], 3),  // a lead byte followed by ASCII
        ([0x61, 0xE2, 0x28, 0xA1], 2),
    ] as [([UInt8], Int)])
    func refusesIllFormedUTF8(sequence: [UInt8], offset: Int) {
        let error = readFailure(bytes: [0x22] + sequence + [0x22])
        #expect(error?.code == .invalidUTF8)
        #expect(error?.location?.byteOffset == offset)
        #expect(error?.message.hasPrefix("invalid UTF-8 (byte 0x") == true)
        // In a string with an escape before it, too.
        let escaped = readFailure(bytes: Array(#"["\n"#.utf8) + sequence + [0x22, 0x5D])
        #expect(escaped?.code == .invalidUTF8)
        #expect(escaped?.location?.byteOffset == offset + 3)
        #expect(escaped?.keyPath.description == "[0]")
        // In a key.
        let key = readFailure(bytes: [0x7B, 0x22] + sequence + Array(#"": 1}"#.utf8))
        #expect(key?.code == .invalidUTF8)
        #expect(key?.location?.byteOffset == offset + 1)
        #expect(key?.message.hasPrefix("invalid UTF-8 (byte 0x") == true)
    }

    /// The reader's UTF-8 check (`String(validUTF8:)`: decode, then compare
    /// the bytes) against the standard library's `String(validating:as:)`,
    /// on seeded random byte strings built mostly from pieces of well-formed
    /// and ill-formed sequences, including repairs that keep the length
    /// (a truncated four-byte sequence becomes one three-byte U+FFFD) and
    /// U+FFFD itself.
    @Test(arguments: [11, 12, 13] as [UInt64])
    func utf8CheckAgreesWithTheStandardLibrary(seed: UInt64) {
        let wellFormed: [[UInt8]] = [
            [0x61], [0x7F], [0x00], [0xC3, 0xA9], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x98, 0x80], [0xEF, 0xBF, 0xBD],
        ]
        let illFormed: [[UInt8]] = [
            [0xF0, 0x9F, 0x98], [0xE2, 0x82], [0xC3], [0x80], [0xFF], [0xED, 0xA0, 0x80], [0xC0, 0x80],
            [0xF4, 0x90, 0x80, 0x80], [0xE0, 0x80, 0x80],
        ]
        var random = SeededGenerator(seed: seed)
        var invalid = 0
        for _ in 0..<3000 {
            // Half the strings get one ill-formed piece or random byte somewhere.
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...12, using: &random) {
                bytes += wellFormed.randomElement(using: &random)!
            }
            if Bool.random(using: &random) {
                let flaw =
                    Bool.random(using: &random)
                    ? illFormed.randomElement(using: &random)! : [UInt8.random(in: 0...255, using: &random)]
                bytes.insert(contentsOf: flaw, at: Int.random(in: 0...bytes.count, using: &random))
            }
            let expected = String(validating: bytes, as: UTF8.self)
            let checked = bytes.withUnsafeBufferPointer { String(validUTF8: $0) }
            #expect(checked == expected, "bytes \(bytes)")
            if expected == nil { invalid += 1 }
        }
        // Both outcomes come up often.
        #expect(invalid > 500 && invalid < 2500, "\(invalid) ill-formed of 3000")
    }

    @Test func truncatedUTF8AtTheEndOfInput() {
        let error = readFailure(bytes: [0x22, 0x61, 0xE2, 0x82])
        #expect(error?.code == .invalidUTF8)
        #expect(error?.location?.byteOffset == 2)
    }

    @Test func acceptsWellFormedUTF8AtTheEdges() throws {
        let scalars: [Unicode.Scalar] = ["\u{80}", "\u{7FF}", "\u{800}", "\u{D7FF}", "\u{E000}", "\u{FFFD}", "\u{FFFF}", "\u{10000}", "\u{10FFFF}"]
        for scalar in scalars {
            let text = String(Character(scalar))
            #expect(try readJSON("\"\(text)\"") == .string(text))
        }
    }

    @Test func keysFollowTheSameRules() throws {
        #expect(try readJSON(#"{"\u00e9\n":1}"#) == ["é\n": 1])
        let error = readFailure(#"{"a":{"b\x":1}}"#)
        #expect(error?.message == #"invalid escape sequence '\x' in string"#)
        #expect(error?.keyPath.description == "a")
        #expect(readFailure(bytes: Array(#"{"a":1,""#.utf8) + [0xC0, 0x80, 0x22, 0x3A, 0x31, 0x7D])?.code == .invalidUTF8)
    }
}
