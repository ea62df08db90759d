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
        let expected = Result { try foundation.decode(Shape.self, from: data) }
        let actual = Result { try decoder.decode(Shape.self, from: data) }
        switch (expected, actual) {
        case (.success(let expected), .success(let actual)): #expect(actual == expected, "\(text.debugDescription)")
        case (.failure(let expected), .failure(let actual)):
            #expect(failureKind(actual) == failureKind(expected), "\(text.debugDescription): \(actual)")
        default: Issue.record("\(text.debugDescription): JSONDecoder \(expected), ModelJSONDecoder \(actual)")
        }
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
