import Foundation
import Testing

@testable import ModelKit

/// JSON kept as its text: written back byte for byte, re-spaced and
/// re-ordered exactly as the output options say, and equal by value.
@Suite struct RawJSONTests {
    static func rewrite(_ text: String, options: JSONWritingOptions = JSONWritingOptions()) throws -> String {
        let raw = try RawJSON(validating: Data(text.utf8))
        var writer = JSONWriter(options: options)
        raw.bytes.withUnsafeBytes { writer.writeRaw($0.bindMemory(to: UInt8.self), depth: 0) }
        return writer.takeString()
    }

    static let verbatim: [(String, String)] = [
        ("1.10", "1.10"), ("1e2", "1e2"), ("3E-7", "3E-7"), ("-0", "-0"), ("-0.0", "-0.0"),
        ("3.14159265358979323846264338", "3.14159265358979323846264338"),
        ("123456789012345678901234567890", "123456789012345678901234567890"),
        (#""caf\u00e9""#, #""caf\u00e9""#), (#""a\/b""#, #""a\/b""#), (#""\ud83d\ude00 \n""#, #""\ud83d\ude00 \n""#),
        ("  [ 1 ,\n 2.50 , true , null ]  ", "[1,2.50,true,null]"),
        (#"{ "b" : 1.0 , "a" : { "x y" : "p q" } }"#, #"{"b":1.0,"a":{"x y":"p q"}}"#),
        ("[ [ ] , { } , [ { } ] ]", "[[],{},[{}]]"),
    ]

    @Test(arguments: verbatim)
    func compactOutputKeepsEveryTokenAndDropsTheSpacing(_ input: String, _ expected: String) throws {
        #expect(try Self.rewrite(input) == expected)
    }

    @Test func prettyOutputIndentsLikeTheWriter() throws {
        let text = #"{"b":[1.10,{"k":"v"},[]],"a":{},"c":"x"}"#
        #expect(
            try Self.rewrite(text, options: .pretty) == """
                {
                  "b": [
                    1.10,
                    {
                      "k": "v"
                    },
                    []
                  ],
                  "a": {},
                  "c": "x"
                }
                """)
    }

    @Test func sortedOutputSortsEveryObjectByTheDecodedKey() throws {
        let text = #"{"b":{"z":1,"\u0061":2.50},"a":[{"y":1e2,"x":"\u00e9"}],"\u00e9":0,"e\u0301":1}"#
        #expect(
            try Self.rewrite(text, options: .sorted)
                == #"{"a":[{"x":"\u00e9","y":1e2}],"b":{"\u0061":2.50,"z":1},"e\u0301":1,"\u00e9":0}"#)
    }

    @Test func escapedSlashesAreEscapedOnlyWhereTheyAreNot() throws {
        var options = JSONWritingOptions()
        options.escapesSlashes = true
        #expect(try Self.rewrite(#"{"a/b":"c/d\/e"}"#, options: options) == #"{"a\/b":"c\/d\/e"}"#)
    }

    /// Seeded random values: their text written with one set of options and
    /// rewritten raw with another equals the value read from that text and
    /// written with the other.
    @Test(arguments: [11, 12, 13, 14] as [UInt64])
    func rewritingAgreesWithWritingTheValue(seed: UInt64) throws {
        var documents = RandomDocuments(seed: seed)
        var slashes = JSONWritingOptions()
        slashes.escapesSlashes = true
        var wide = JSONWritingOptions.pretty
        wide.indent = 4
        wide.sortedKeys = true
        let variants: [JSONWritingOptions] = [JSONWritingOptions(), .pretty, .sorted, slashes, wide]
        for _ in 0..<40 {
            let value = documents.value(depth: 4)
            for input in variants {
                let text = try value.jsonString(options: input)
                let read = try ModelValue(json: Data(text.utf8))  // in the text's order
                // `\/` read from the input is kept as it is: the one spelling difference.
                for output in variants where !input.escapesSlashes || output.escapesSlashes {
                    let rewritten = try Self.rewrite(text, options: output)
                    let written = try read.jsonString(options: output)
                    #expect(rewritten == written, "\(text.debugDescription) -> \(rewritten.debugDescription), expected \(written.debugDescription)")
                }
            }
        }
    }

    @Test func rawValuesAreEqualByValueNotBySpelling() throws {
        let pairs: [(String, String)] = [
            ("1.10", "11e-1"), (#""A""#, #""\u0041""#), ("[1, 2]", "[1,2]"), (#"{"a":1,"b":2}"#, #"{"b":2,"a":1}"#),
        ]
        for (left, right) in pairs {
            let lhs = try RawJSON(validating: Data(left.utf8))
            let rhs = try RawJSON(validating: Data(right.utf8))
            #expect(lhs == rhs)
            #expect(lhs.hashValue == rhs.hashValue)
        }
        #expect(try RawJSON(validating: Data("1.10".utf8)) != RawJSON(validating: Data("1.2".utf8)))
    }

    @Test func validatingRefusesWhatReadingRefuses() throws {
        for text in ["[1,]", #"{"a":1,"a":2}"#, "1 2", "", #""\ud800""#] {
            var expected = ""
            do { _ = try ModelValue(json: Data(text.utf8)) } catch { expected = String(describing: error) }
            #expect(throws: ModelError.self) { try RawJSON(validating: Data(text.utf8)) }
            do {
                _ = try RawJSON(validating: Data(text.utf8))
            } catch {
                #expect(String(describing: error) == expected)
            }
        }
    }

    @Test func aRawValueSharesItsDocumentsStorage() throws {
        let document = Data(#"  {"keep": [1.10, "x"]}  "#.utf8)
        let raw = try RawJSON(validating: document)
        #expect(raw.text == #"{"keep": [1.10, "x"]}"#)
        #expect(raw.value == ["keep": [1.1, "x"]])
    }
}
