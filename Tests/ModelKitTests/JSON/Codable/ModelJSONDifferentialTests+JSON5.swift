import Foundation
import Testing

@testable import ModelKit

/// `allowsJSON5`: ModelKit's decoder against `JSONDecoder` with the same option.

extension ModelJSONDifferentialTests {
    struct Shape: Codable, Equatable {
        var a: Double?
        var b: String?
        var list: [Int]?
        var nested: [String: Int]?

        static func == (lhs: Shape, rhs: Shape) -> Bool {
            (lhs.a == rhs.a || (lhs.a?.isNaN == true && rhs.a?.isNaN == true)) && lhs.b == rhs.b && lhs.list == rhs.list
                && lhs.nested == rhs.nested
        }
    }
}

/// Equal shapes read the same (`DecodeOutcome` compares descriptions): the dictionary's keys in order.
extension ModelJSONDifferentialTests.Shape: CustomDebugStringConvertible {
    var debugDescription: String {
        let nested = self.nested.map { $0.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" } }
        return "Shape(a: \(a.map(String.init(describing:)) ?? "nil"), b: \(b.map(\.debugDescription) ?? "nil"), list: \(list.map(\.description) ?? "nil"), nested: \(nested.map(\.description) ?? "nil"))"
    }
}

extension ModelJSONDifferentialTests {

    @Test(arguments: [
        "{a:0x1F, b:'x'}", "{a:Infinity}", "{'a':1,}", "{a:+1}", "{a:.5}", "{a:5.}", "{a:1 /* c */}", "{a:1, b:'\\x41'}",
        "{a:1, b:'a\\\nb'}", "{a:1,,}", "{a:NaN}", "{\"a\":-Infinity}", "{a:1e3}", "{a:0x}", "{a:01}", "{b:\"\\u00e9\"}",
        "{a:1 /* open", "// lead\n{list:[1,2,],}", "{b:'say \"hi\"'}", "{b:'it\\'s'}", "{nested:{$x_1:2, _y:3}}", "{a:-0x10}",
        "{b:'tab\there'}", "{a:1}//end", "{a:1} x", "{a:+Infinity}", "{a:-NaN}", "{a:.}", "{a:1e}", "[1]", "{list:[1,,2]}",
        "{b:'\\v\\0'}", "{b:'line\nbreak'}", "{a:Infinit}", "{a:5.e2}", "\u{FEFF}{a:2}", "{a:1}\u{00A0}", "{b:\"\\q\"}",
        "{a:0X1f}", "{a:true}", "{ \"a\" : 1 , list : [ ] , }", "{b:'\\v'}", "{b:'\\0'}", "{b:'a\\\r\nb'}",
        "{b:'\u{2028}'}", "{\u{0B}b:'\\/'}", "{\\u0062:'k'}", "{b:'\u{1}'}", "{b:\"\\'\"}",
    ])
    func json5DocumentsDecodeAsInFoundation(text: String) throws {
        let data = Data(text.utf8)
        let foundation = JSONDecoder()
        foundation.allowsJSON5 = true
        var decoder = ModelJSONDecoder()
        decoder.allowsJSON5 = true
        // Strings JSON5 allows that Foundation refuses once it reads them (`\v`, `\0`, a control character).
        FoundationDifference.decode(
            Shape.self, from: data, text.debugDescription, foundation: foundation, modelKit: decoder, allowing: [.json5StringContents])
    }

    @Test func json5ErrorsNameTheLineAndColumnInTheJSON5Text() throws {
        var decoder = ModelJSONDecoder()
        decoder.allowsJSON5 = true
        let cases: [(String, String)] = [
            ("{a: 1,\n  b: 'x\n'}", "JSON5 at line 2, column 8 (byte 14): a line break in a string (escape it with \\)"),
            ("{a: 1 /* open", "JSON5 at line 1, column 7 (byte 6): a comment opened with /* is not closed"),
            ("{\n list: [1,,2]}", "JSON5 at line 2, column 11 (byte 12): expected a value, found ','"),
            ("{a: 012}", "JSON5 at line 1, column 5 (byte 4): a number with a leading zero"),
            ("{a: 0x}", "JSON5 at line 1, column 7 (byte 6): expected hexadecimal digits after 0x, found '}'"),
        ]
        for (text, message) in cases {
            let error = #expect(throws: DecodingError.self) { try decoder.decode(Shape.self, from: Data(text.utf8)) }
            guard case .dataCorrupted(let context) = error else { continue }
            #expect((context.underlyingError as? ModelError)?.description == message, "\(text.debugDescription)")
        }
    }

    @Test func json5MembersWithoutBracesAndStrictDocumentsStayAsTheyWere() throws {
        var decoder = ModelJSONDecoder()
        decoder.allowsJSON5 = true
        decoder.assumesTopLevelDictionary = true
        #expect(try decoder.decode(Shape.self, from: Data("a:1, b:'x',".utf8)) == Shape(a: 1, b: "x"))
        // Strings that look like JSON5's Infinity stay strings; without the option, JSON5 is refused.
        #expect(try decoder.decode(Shape.self, from: Data(#"b: "\u0000Infinity""#.utf8)).b == "\u{0}Infinity")
        // And are no Infinity to a Double.
        #expect(throws: DecodingError.self) { try decoder.decode(Shape.self, from: Data(#"a: "\u0000Infinity""#.utf8)) }
        #expect(throws: DecodingError.self) { try ModelJSONDecoder().decode(Shape.self, from: Data("{a:1}".utf8)) }
        var strict = ModelJSONDecoder()
        strict.allowsJSON5 = false
        #expect(throws: DecodingError.self) { try strict.decode(Double.self, from: Data(#""\u0000Infinity""#.utf8)) }
        // The doc comment's example.
        var json5 = ModelJSONDecoder()
        json5.allowsJSON5 = true
        let box = try json5.decode(
            [String: Double].self, from: Data("{width: 0x10, 'ratio': .5, /* comment */ depth: Infinity,}".utf8))
        #expect("\(box["width"]!) \(box["ratio"]!) \(box["depth"]!)" == "16.0 0.5 inf")
    }
}

/// JSON5's `Infinity` and `NaN` are numbers to every type, and JSON5's
/// strings hold what its specification allows.
extension ModelJSONDifferentialTests {
    /// Every type reading JSON5's special numbers.
    struct Specials: Codable {
        var double: Double?
    }

    @Test(arguments: ["NaN", "Infinity", "-Infinity", "+Infinity", "-NaN", "+NaN"])
    func json5SpecialNumbersAreNumbersToEveryType(word: String) throws {
        let foundation = JSONDecoder()
        foundation.allowsJSON5 = true
        var decoder = ModelJSONDecoder()
        decoder.allowsJSON5 = true
        func check<Value: Decodable>(_ type: Value.Type, wanted: DecodeOutcome? = nil, allowing allowed: [FoundationDifference] = []) {
            for (document, path) in [("[\(word)]", ["Index 0"]), ("{a: \(word)}", ["a"])] {
                let data = Data(document.utf8)
                let actual: DecodeOutcome
                let expected: DecodeOutcome
                if path == ["a"] {
                    actual = DecodeOutcome(Result { try decoder.decode([String: Value].self, from: data)["a"]! })
                    expected = DecodeOutcome(Result { try foundation.decode([String: Value].self, from: data)["a"]! })
                } else {
                    actual = DecodeOutcome(Result { try decoder.decode([Value].self, from: data)[0] })
                    expected = DecodeOutcome(Result { try foundation.decode([Value].self, from: data)[0] })
                }
                if let wanted {
                    let placed: DecodeOutcome = if case .failure(let kind, _) = wanted { .failure(kind: kind, path: path) } else { wanted }
                    #expect(actual == placed, "\(Value.self) \(document)")
                }
                FoundationDifference.check("\(Value.self) \(document)", expected: expected, actual: actual, allowing: allowed)
            }
        }
        let number = (word.hasPrefix("-") ? "-" : "") + (word.contains("NaN") ? "nan" : "inf")
        check(Double.self, wanted: .value(number))
        check(Float.self, wanted: .value(number))
        check(Decimal.self, wanted: .value("NaN"))
        // Not a string: no marker reaches a String or a URL.
        check(String.self, wanted: .failure(kind: "typeMismatch", path: []))
        check(URL.self, wanted: .failure(kind: "typeMismatch", path: []))
        check(Data.self, wanted: .failure(kind: "typeMismatch", path: []))
        check(Bool.self, wanted: .failure(kind: "typeMismatch", path: []))
        check(Specials.self, wanted: .failure(kind: "typeMismatch", path: []))
        check([Int].self, wanted: .failure(kind: "typeMismatch", path: []))
        // An integer: a number that does not fit (README 8: at its path).
        check(Int.self, wanted: .failure(kind: "dataCorrupted", path: []), allowing: [.corruptedAtItsPath])
        check(UInt8.self, wanted: .failure(kind: "dataCorrupted", path: []), allowing: [.corruptedAtItsPath])
        check(Int128.self, wanted: .failure(kind: "dataCorrupted", path: []), allowing: [.corruptedAtItsPath])
        // A string written with the marker's text is a string.
        let text = #"['\u0000NaN', "\u0000Infinity"]"#
        #expect(try decoder.decode([String].self, from: Data(text.utf8)) == ["\u{0}NaN", "\u{0}Infinity"])
        #expect(throws: DecodingError.self) { try decoder.decode([Double].self, from: Data(text.utf8)) }
    }

    /// A model's `Codable` property (the direct model path, strict JSON):
    /// a string with the marker's text is a string, and no Double.
    final class Marked: ModelObject, @unchecked Sendable {
        struct Box: Codable, Equatable, ModelValueConvertible {
            var text: String
            var ratio: Double?
        }
        @Saved var box = Box(text: "", ratio: nil)
    }

    @Test func markerTextsInAModelsCodablePropertyAreStrings() throws {
        let marked = try Marked(json: Data(#"{"box":{"text":"\u0000NaN","ratio":0.5}}"#.utf8))
        #expect(marked.box == Marked.Box(text: "\u{0}NaN", ratio: 0.5))
        #expect(throws: ModelError.self) { try Marked(json: Data(#"{"box":{"text":"x","ratio":"\u0000NaN"}}"#.utf8)) }
    }

    /// Strings as JSON5 specifies them: control characters, `\v`, `\0`,
    /// `\u0000` and characters escaped to themselves. A member no type reads
    /// is accepted on both sides; one that is read ModelKit reads, where
    /// Foundation refuses it (README 6, 14).
    @Test(arguments: [
        "'\\a'", "\"\\a\"", "'x\u{1}y'", "'tab\there'", "'\\v'", "'\\0'", "'\\u0000'", "'\\é'", "'\\\u{7F}'", "'\u{1F}'",
        "'\\\u{1}'", "'a\\\u{2028}b'",
    ])
    func json5StringsHoldWhatJSON5Allows(string: String) throws {
        let foundation = JSONDecoder()
        foundation.allowsJSON5 = true
        var decoder = ModelJSONDecoder()
        decoder.allowsJSON5 = true
        let unread = Data("{a: 1, other: \(string)}".utf8)
        #expect(throws: Never.self) { try decoder.decode(Shape.self, from: unread) }
        FoundationDifference.decode(Shape.self, from: unread, "unread \(string)", foundation: foundation, modelKit: decoder, allowing: [])
        let read = Data("{a: 1, b: \(string)}".utf8)
        let value = try decoder.decode(Shape.self, from: read)
        let expected: [String: String] = [
            "'\\a'": "a", "\"\\a\"": "a", "'x\u{1}y'": "x\u{1}y", "'tab\there'": "tab\there", "'\\v'": "\u{B}", "'\\0'": "\u{0}",
            "'\\u0000'": "\u{0}", "'\\é'": "é", "'\\\u{7F}'": "\u{7F}", "'\u{1F}'": "\u{1F}", "'\\\u{1}'": "\u{1}", "'a\\\u{2028}b'": "ab",
        ]
        #expect(value.b == expected[string], "\(string.debugDescription)")
        FoundationDifference.decode(
            Shape.self, from: read, "read \(string)", foundation: foundation, modelKit: decoder, allowing: [.json5StringContents])
        // `\1` and `\0` before a digit are no JSON5.
        for bad in ["'\\1'", "'\\01'"] {
            #expect(throws: DecodingError.self) { try decoder.decode(Shape.self, from: Data("{b: \(bad)}".utf8)) }
        }
    }
}

/// Seeded random JSON5 documents, and JSON5 numbers alone at the top level.
extension ModelJSONDifferentialTests {
    static func randomJSON5(_ generator: inout SeededGenerator) -> String {
        func pick(_ options: [String]) -> String { options.randomElement(using: &generator)! }
        func space() -> String { pick(["", " ", "\n", "\t", " /* c */ ", " // line\n", "\u{0B}", "\u{0C}"]) }
        func key(_ name: String) -> String { pick([name, "'\(name)'", "\"\(name)\""]) }
        func string() -> String {
            let quote = pick(["'", "\""])
            let pieces = [
                "a", "é", "😀", "\\'", "\\\"", "\\n", "\\x41", "\\u00e9", "\\\n", "\\t", "/", quote == "'" ? "\"" : "'",
                "\\\\", "\\b", "\\f", "\\r",
            ]
            return quote + (0..<Int.random(in: 0...5, using: &generator)).map { _ in pick(pieces) }.joined() + quote
        }
        let doubles = ["1", "-2.5", ".5", "5.", "+1", "0x1F", "-0x10", "1e3", "1E-2", "Infinity", "-Infinity", "NaN", "+NaN", "0", "-0", "1.5e+2", "+.25"]
        let integers = ["1", "-2", "+3", "0x1F", "0XaB", "-0x10", "5.", "1e2", "0", "1.5", "9223372036854775807"]
        var members: [String] = []
        if Bool.random(using: &generator) { members.append(key("a") + space() + ":" + space() + pick(doubles)) }
        if Bool.random(using: &generator) { members.append(key("b") + ":" + space() + string()) }
        if Bool.random(using: &generator) {
            let elements = (0..<Int.random(in: 0...3, using: &generator)).map { _ in space() + pick(integers) }
            members.append(key("list") + ":[" + elements.joined(separator: ",") + (Bool.random(using: &generator) && !elements.isEmpty ? "," : "") + "]")
        }
        if Bool.random(using: &generator) {
            let names = ["$x", "_y", "z9", "\"q r\"", "'s'"]
            let inner = (0..<Int.random(in: 0...2, using: &generator)).map { position in names[position] + ":" + space() + pick(integers) }
            members.append(key("nested") + ":{" + inner.joined(separator: ",") + "}")
        }
        if Bool.random(using: &generator) { members.append(key("other") + ":" + pick([string(), "[1, 'x', {a: null}]", "true", "null"])) }
        members.shuffle(using: &generator)
        let trailing = Bool.random(using: &generator) && !members.isEmpty ? "," : ""
        return space() + "{" + members.map { space() + $0 + space() }.joined(separator: ",") + trailing + "}" + space()
    }

    @Test(arguments: 0..<200 as Range<UInt64>)
    func randomJSON5DocumentsDecodeAsInFoundation(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed &+ 5500)
        let text = Self.randomJSON5(&generator)
        let foundation = JSONDecoder()
        foundation.allowsJSON5 = true
        var decoder = ModelJSONDecoder()
        decoder.allowsJSON5 = true
        FoundationDifference.decode(
            Shape.self, from: Data(text.utf8), text.debugDescription, foundation: foundation, modelKit: decoder,
            allowing: [.corruptedAtItsPath])
    }

    @Test(arguments: [
        "1", "12", "1.", ".5", "+1", "-1", "0x1", "-0x1", "1e3", "1E+3", "Infinity", "-Infinity", "NaN", "+NaN", "5.e2", "0", "-0",
        "00", "1.5", "1 ", " 1", "0x", "+.5", ".", "1e", "9223372036854775808", "1e400", "0e1", "1e+", "1e-", "1.5e+", "-1E+",
    ])
    func json5NumbersAloneDecodeAsInFoundation(text: String) throws {
        var decoder = ModelJSONDecoder()
        decoder.allowsJSON5 = true
        // Foundation on Linux stops the program on a JSON5 document that ends
        // in an exponent's sign (`1e+`, README difference 18): ModelKit refuses it, unchecked against Foundation.
        if text.hasSuffix("e+") || text.hasSuffix("e-") || text.hasSuffix("E+") || text.hasSuffix("E-") {
            #expect(throws: DecodingError.self) { try decoder.decode(Double.self, from: Data(text.utf8)) }
            return
        }
        let foundation = JSONDecoder()
        foundation.allowsJSON5 = true
        let data = Data(text.utf8)
        FoundationDifference.decode(Double.self, from: data, "Double \(text)", foundation: foundation, modelKit: decoder, allowing: [.zeroWithAnExponent])
        FoundationDifference.decode(Int.self, from: data, "Int \(text)", foundation: foundation, modelKit: decoder, allowing: [.integersFromDigits])
        FoundationDifference.decode(Int128.self, from: data, "Int128 \(text)", foundation: foundation, modelKit: decoder, allowing: [.integersFromDigits])
    }

    /// A document that ends in a number is read within its bytes, though
    /// the bytes after it in memory would continue the number: Foundation
    /// on Linux reads past such a JSON5 document (README difference 19).
    @Test(arguments: [
        "9223372036854775808", "123456789012345", "1234567890123.5", "12345678901234e5", "1.5", "7", "-0", "1e3", "0x1F",
        "Infinity", "1e",
    ])
    func aDocumentEndingInANumberIsReadWithinItsBytes(text: String) throws {
        for allowsJSON5 in [false, true] {
            var decoder = ModelJSONDecoder()
            decoder.allowsJSON5 = allowsJSON5
            let trailingSpace = Data((text + " ").utf8)
            for after in ["9", ".5", "e9", "0x"] {
                let storage = Data((text + after).utf8)
                let document = storage[storage.startIndex..<storage.startIndex + text.utf8.count]
                func same<Value: Decodable>(_ type: Value.Type) {
                    let wanted = DecodeOutcome(Result { try decoder.decode(type, from: trailingSpace) })
                    let found = DecodeOutcome(Result { try decoder.decode(type, from: document) })
                    #expect(found == wanted, "\(text.debugDescription) before \(after.debugDescription) as \(type), JSON5 \(allowsJSON5)")
                }
                same(Double.self)
                same(Float.self)
                same(Int.self)
                same(Int128.self)
                same(Decimal.self)
            }
        }
        var decoder = ModelJSONDecoder()
        decoder.allowsJSON5 = true
        let storage = Data((text + "99").utf8)
        let value = try? decoder.decode(Double.self, from: storage[storage.startIndex..<storage.startIndex + text.utf8.count])
        #expect(value == Double(text) ?? (text == "0x1F" ? 31 : text == "Infinity" ? .infinity : nil))
    }
}
