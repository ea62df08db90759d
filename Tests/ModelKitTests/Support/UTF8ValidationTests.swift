import Foundation
import Testing

@testable import ModelKit

/// ModelKit's own UTF-8 check, which every reader's strings go through,
/// judged by the standard library's `String(validating:as:)`.
@Suite struct UTF8ValidationTests {
    /// ModelKit's answer for `bytes`, by both the check and the string it makes.
    private func modelKit(_ bytes: [UInt8]) -> Bool {
        let valid = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { UTF8Validation.isValid($0, count: buffer.count) } ?? true
        }
        let string = bytes.withUnsafeBufferPointer { String(validUTF8: $0) }
        #expect((string != nil) == valid, "the check and String(validUTF8:) disagree on \(hexText(bytes))")
        if let string { #expect(Array(string.utf8) == bytes, "the string's bytes are not the input's") }
        return valid
    }

    private func standardLibrary(_ bytes: [UInt8]) -> Bool {
        String(validating: bytes, as: UTF8.self) != nil
    }

    private func hexText(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16, uppercase: true) }.joined(separator: " ")
    }

    static let cases: [(name: String, bytes: [UInt8], valid: Bool)] = [
        ("empty", [], true),
        ("ASCII", Array("plain text, longer than eight bytes".utf8), true),
        ("two bytes", [0xC3, 0xA9], true),
        ("three bytes", [0xE6, 0x97, 0xA5], true),
        ("four bytes", [0xF0, 0x9F, 0x98, 0x80], true),
        ("smallest three-byte after E0", [0xE0, 0xA0, 0x80], true),
        ("overlong three-byte after E0", [0xE0, 0x9F, 0xBF], false),
        ("last before the surrogates", [0xED, 0x9F, 0xBF], true),
        ("high surrogate", [0xED, 0xA0, 0x80], false),
        ("low surrogate", [0xED, 0xBF, 0xBF], false),
        ("after the surrogates", [0xEE, 0x80, 0x80], true),
        ("overlong two-byte C0", [0xC0, 0x80], false),
        ("overlong two-byte C1", [0xC1, 0xBF], false),
        ("smallest two-byte", [0xC2, 0x80], true),
        ("overlong four-byte", [0xF0, 0x8F, 0xBF, 0xBF], false),
        ("smallest four-byte", [0xF0, 0x90, 0x80, 0x80], true),
        ("U+10FFFF", [0xF4, 0x8F, 0xBF, 0xBF], true),
        ("past U+10FFFF", [0xF4, 0x90, 0x80, 0x80], false),
        ("F5 lead", [0xF5, 0x80, 0x80, 0x80], false),
        ("FF", [0xFF], false),
        ("stray continuation", [0x41, 0x80, 0x41], false),
        ("two-byte cut short at the end", [0x41, 0xC3], false),
        ("three-byte cut short at the end", [0x41, 0xE6, 0x97], false),
        ("four-byte cut short at the end", [0x41, 0xF0, 0x9F, 0x98], false),
        ("three-byte with an ASCII third byte", [0xE6, 0x97, 0x41, 0x41], false),
        ("three-byte run, then a stray byte", [0xE6, 0x97, 0xA5, 0xE6, 0x97, 0xA5, 0x97, 0x41], false),
        ("three-byte run, then an overlong E0", [0xE6, 0x97, 0xA5, 0xE0, 0x80, 0x80, 0x41], false),
        ("three-byte run, then a surrogate", [0xE6, 0x97, 0xA5, 0xED, 0xB0, 0x80, 0x41], false),
        ("three-byte run ending the input", [0x41, 0xE6, 0x97, 0xA5, 0xE6, 0x97, 0xA5], true),
        ("four-byte whose last byte is ASCII", [0xF0, 0x9F, 0x98, 0x41], false),
        ("NUL is ASCII", [0x00, 0x41, 0x00], true),
    ]

    @Test(arguments: cases.indices)
    func aTableOfSequences(_ index: Int) {
        let (name, bytes, valid) = Self.cases[index]
        #expect(standardLibrary(bytes) == valid, "the table is wrong about \(name)")
        #expect(modelKit(bytes) == valid, "\(name): \(hexText(bytes))")
        // The same bytes after ASCII of every length up to 17, so that each
        // case lands on every offset of the eight-byte skip and the four-byte
        // loads, and before ASCII, so that it is not always at the end.
        for padding in 0...17 {
            let padded = Array(repeating: UInt8(ascii: "a"), count: padding) + bytes
            #expect(modelKit(padded) == valid, "\(name) after \(padding) bytes")
            #expect(modelKit(padded + [0x41, 0x42, 0x43, 0x44, 0x45]) == valid, "\(name) after \(padding), then ASCII")
        }
    }

    @Test func everyTwoByteSequenceAndEveryLeadWithEverySecondByte() {
        for first in 0...255 {
            for second in 0...255 {
                let pair = [UInt8(first), UInt8(second)]
                #expect(modelKit(pair) == standardLibrary(pair), "\(hexText(pair))")
                // Completed with continuation bytes, so three- and four-byte
                // leads meet every second byte, in the word path and at the end.
                let three = pair + [0x80]
                let four = pair + [0xBF, 0x80]
                #expect(modelKit(three) == standardLibrary(three), "\(hexText(three))")
                #expect(modelKit(four) == standardLibrary(four), "\(hexText(four))")
                #expect(modelKit(four + [0x41]) == standardLibrary(four + [0x41]), "\(hexText(four)) 41")
            }
        }
    }

    /// Seeded random text of every kind of sequence, mutated by a byte or
    /// two, against the standard library.
    @Test(arguments: 0..<8)
    func seededRandomTextAgreesWithTheStandardLibrary(_ seed: UInt64) {
        var generator = SeededGenerator(seed: 0x5554_4638 &+ seed)
        let scalars: [Unicode.Scalar] = ["a", " ", "é", "日", "本", "\u{FFFD}", "😀", "\u{10FFFF}", "\u{E000}", "\u{D7FF}"]
        for _ in 0..<400 {
            var text = ""
            for _ in 0..<Int.random(in: 0...40, using: &generator) {
                text.unicodeScalars.append(scalars.randomElement(using: &generator)!)
            }
            var bytes = Array(text.utf8)
            #expect(modelKit(bytes), "\(hexText(bytes))")
            if !bytes.isEmpty {
                for _ in 0..<Int.random(in: 1...2, using: &generator) {
                    bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                }
            }
            if Bool.random(using: &generator), !bytes.isEmpty { bytes.removeLast() }
            #expect(modelKit(bytes) == standardLibrary(bytes), "\(hexText(bytes))")
        }
    }

    /// Every reader refuses ill-formed UTF-8 in a string value and names the
    /// first bad byte, and reads the same text well-formed.
    @Test(arguments: ["\"日本", "\"a\\n日本", "\"a\\u00e9\\/"])
    func theReadersAgree(_ prefix: String) throws {
        let bad: [UInt8] = Array("{\"a\":\(prefix)".utf8) + [0xED, 0xA0, 0x80] + Array("\"}".utf8)
        // Columns count characters, bytes count bytes (from 0).
        let place = "line 1, column \(prefix.count + 6) (byte \(prefix.utf8.count + 5))"
        let expected = "invalid UTF-8 (byte 0xED) in string"
        do {
            _ = try ModelValue(json: Data(bad))
            Issue.record("ModelValue(json:) read ill-formed UTF-8")
        } catch {
            #expect("\(error)".contains(expected) && "\(error)".contains(place), "\(error)")
        }
        do {
            _ = try ModelJSONDecoder().decode([String: String].self, from: Data(bad))
            Issue.record("ModelJSONDecoder read ill-formed UTF-8")
        } catch {
            #expect("\(error)".contains(expected) && "\(error)".contains(place), "\(error)")
        }
        let good = Data("{\"a\":\(prefix) ok 😀\"}".utf8)
        let text = try #require((try JSONSerialization.jsonObject(with: good) as? [String: String])?["a"])
        #expect(try ModelValue(json: good) == ["a": .string(text)])
        #expect(try ModelJSONDecoder().decode([String: String].self, from: good) == ["a": text])
    }

    /// String literals with escapes of every kind, well-formed or not, in
    /// seeded random mixes: ModelKit reads what Foundation reads, to the
    /// same text, and refuses what it refuses.
    @Test(arguments: 0..<4)
    func escapedStringsAgreeWithFoundation(_ seed: UInt64) throws {
        var generator = SeededGenerator(seed: 0x4553_4341_5045 &+ seed)
        let pieces: [String] = [
            "a", "日本", "😀", " ", "\\n", "\\\"", "\\\\", "\\/", "\\t", "\\u00e9", "\\u65e5", "\\ud83d\\ude00",
            "\\u0000", "\\x", "\\ud83d", "\\ude00", "\\u12", "\u{01}", "\\",
        ]
        for _ in 0..<300 {
            var literal = ""
            for _ in 0..<Int.random(in: 1...12, using: &generator) {
                literal += pieces.randomElement(using: &generator)!
            }
            let document = Data("[\"\(literal)\"]".utf8)
            let foundation = (try? JSONSerialization.jsonObject(with: document)) as? [String]
            let modelKit = try? ModelValue(json: document)
            if let foundation {
                #expect(modelKit == .array([.string(foundation[0])]), "\(literal)")
            } else {
                #expect(modelKit == nil, "ModelKit read \(literal) as \(String(describing: modelKit))")
            }
        }
    }
}
