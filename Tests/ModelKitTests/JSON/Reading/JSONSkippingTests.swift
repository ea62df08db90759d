import Foundation
import Testing

@testable import ModelKit

/// Skipping a value (validating it without building it) must accept exactly
/// what reading accepts and fail with exactly the same error.
@Suite struct JSONSkippingTests {
    /// The outcome of reading `bytes`: nil, or the error's description.
    static func readOutcome(_ bytes: [UInt8], options: JSONReadingOptions) -> String? {
        do {
            _ = try ModelValue(json: Data(bytes), options: options)
            return nil
        } catch {
            return String(describing: error)
        }
    }

    /// The outcome of validating `bytes`, as `readOutcome` gives it.
    static func validateOutcome(_ bytes: [UInt8], options: JSONReadingOptions) -> String? {
        do {
            try ModelValue.validateJSON(Data(bytes), options: options)
            return nil
        } catch {
            return String(describing: error)
        }
    }

    /// Whether the fast scan alone accepts `bytes` as one value filling the
    /// input but for whitespace around it.
    static func scanAccepts(_ bytes: [UInt8], options: JSONReadingOptions = JSONReadingOptions()) -> Bool {
        let isSpace: (UInt8) -> Bool = { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
        let start = bytes.firstIndex { !isSpace($0) } ?? bytes.count
        let end = (bytes.lastIndex { !isSpace($0) } ?? -1) + 1
        return bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(buffer, options: options)
            return reader.scanValue(from: start) == end
        }
    }

    static let cases: [String] = [
        // Valid, every kind.
        #"{"a":[1,-2,3.5,-0.0,1e10,2E-5,0,true,false,null,"x"],"b":{"c":{}},"d":[]}"#,
        " \t\r\n[ 1 , { \"k\" : \"v\" } ] \n",
        #""esc \" \\ \/ \b \f \n \r \t \u00e9 \ud83d\ude00""#,
        "\"caf\u{E9} \u{4E2D}\u{6587} \u{1F600}\"",
        #"{"a":1,"A":2,"é":3,"é":4}"#,
        "12345678901234567890123456789",
        "1e308", "1e309", "-1e309", "1.5e-400", "123456789e300", "0.000000001e308",
        String(repeating: "9", count: 320) + ".5",
        String(repeating: "9", count: 320) + "e-30",
        // Repeated keys, plain and escaped.
        #"{"a":1,"b":2,"a":3}"#,
        #"{"a":1,"\u0061":2}"#,
        #"{"x":{"a":1,"b":{"a":1},"a":2}}"#,
        // Invalid grammar.
        "", " ", "[", "]", "{", "[1,]", "[1 2]", #"{"a" 1}"#, #"{"a":1,}"#, #"{a:1}"#, "[01]", "[-]", "[1.]",
        "[1e]", "[.5]", "[+1]", "tru", "nul", "falsy", "[true false]", "1 2", #"{"a":1}}"#, "[[]]]",
        // Literals alone (skipped without the container scan), whole, cut short or misspelt.
        "true", "false", "null", " null ", "t", "f", "n", "fals", "nult", "trUe", "falsE", "nulll", "truefalse",
        // Invalid strings.
        "\"abc", "\"a\u{01}b\"", #""\x""#, #""\u12""#, #""\u12G4""#, #""\ud800""#, #""\udc00""#,
        #""\ud800\u0041""#, #""\ud800x""#,
    ]

    @Test(arguments: cases)
    func skippingAgreesWithReading(_ text: String) {
        let bytes = Array(text.utf8)
        for options in [JSONReadingOptions(), JSONReadingOptions(duplicateKeys: .lastWins)] {
            let read = Self.readOutcome(bytes, options: options)
            #expect(Self.validateOutcome(bytes, options: options) == read)
            if read != nil {
                let accepted = Self.scanAccepts(bytes, options: options)
                #expect(!accepted)
            }
        }
    }

    static let badBytes: [[UInt8]] = [
        [0x22, 0xC3, 0x22],  // a lead byte cut short
        [0x22, 0x80, 0x22],  // a stray continuation byte
        [0x22, 0xC0, 0xAF, 0x22],  // overlong
        [0x22, 0xED, 0xA0, 0x80, 0x22],  // an encoded surrogate
        [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // beyond U+10FFFF
        [0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D],  // in a key
        [0xEF, 0xBB, 0xBF, 0x5B, 0x5D],  // a byte order mark, allowed at the start
        [0x5B, 0xEF, 0xBB, 0xBF, 0x5D],  // and nowhere else
    ]

    @Test(arguments: badBytes)
    func skippingAgreesOnUTF8(_ bytes: [UInt8]) {
        let read = Self.readOutcome(bytes, options: JSONReadingOptions())
        #expect(Self.validateOutcome(bytes, options: JSONReadingOptions()) == read)
        if read != nil {
            let accepted = Self.scanAccepts(bytes)
            #expect(!accepted)
        }
    }

    @Test(arguments: [1, 63, 64, 65, 200, 511, 512, 513])
    func skippingAgreesOnDepth(_ depth: Int) {
        let bytes = Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
        let objects = Array((String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)).utf8)
        for options in [JSONReadingOptions(), JSONReadingOptions(maximumDepth: 100)] {
            #expect(Self.validateOutcome(bytes, options: options) == Self.readOutcome(bytes, options: options))
            #expect(Self.validateOutcome(objects, options: options) == Self.readOutcome(objects, options: options))
        }
    }

    /// Objects of every size, with and without a repeated key (up to eight
    /// members the scan compares hashes pairwise, past that in a table), and
    /// keys of every length up to 30 bytes (short plain keys followed by
    /// their colon take a faster path up to 23), with and without spaces
    /// around the colon, at the end of the input too. (The scan keeps the
    /// hashes of 128 keys in its frame, more on the heap.)
    @Test(arguments: [1, 2, 8, 9, 16, 17, 40, 100, 127, 128, 129, 300])
    func skippingAgreesOnRepeatedKeys(memberCount: Int) {
        for keyLength in 0...30 {
            let keys = (0..<memberCount).map { member in
                String(repeating: "k", count: max(0, keyLength - 3)) + String(1000 + member).suffix(min(keyLength, 3))
            }
            for (repeated, colon) in [(nil, ":"), (0, ":"), (memberCount - 1, ":"), (0, ": "), (0, " :\n ")]
                as [(Int?, String)]
            {
                var members = Array(keys.enumerated()).map { #""\#($0.element)"\#(colon)\#($0.offset)"# }
                if let repeated, keyLength >= 3 || memberCount == 1 {
                    members.append(#""\#(keys[repeated])"\#(colon)null"#)
                }
                for text in ["{" + members.joined(separator: ",") + "}", #"{"x":[{"# + members.joined(separator: ",") + "}]}"] {
                    let bytes = Array(text.utf8)
                    let read = Self.readOutcome(bytes, options: JSONReadingOptions())
                    #expect(Self.validateOutcome(bytes, options: JSONReadingOptions()) == read, "\(text)")
                    // Plain keys: the fast scan itself decides, both ways.
                    #expect(Self.scanAccepts(bytes) == (read == nil), "\(text)")
                }
            }
        }
    }

    /// Long strings of seeded random pieces of well-formed and ill-formed
    /// UTF-8 (every kind of lead at the edges of what it allows) and ASCII,
    /// so that faults fall at every place in a word and between the scan's
    /// paths (ASCII words, runs of three-byte sequences, one sequence at a
    /// time), and strings end with sequences cut short: the scan accepts
    /// exactly what the standard library's `String(validating:as:)` does,
    /// and skipping fails with the read's own message.
    @Test(arguments: [21, 22, 23] as [UInt64])
    func skippingAgreesWithTheStandardLibraryOnLongStrings(seed: UInt64) {
        let wellFormed: [[UInt8]] = [
            [0x61], [0x7A], Array("plain ascii".utf8), [0xC2, 0x80], [0xDF, 0xBF], [0xE0, 0xA0, 0x80],
            [0xE4, 0xB8, 0xAD], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80], [0xEF, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80],
            [0xF3, 0xBF, 0xBF, 0xBF], [0xF4, 0x8F, 0xBF, 0xBF],
        ]
        let illFormed: [[UInt8]] = [
            [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xF0, 0x8F, 0xBF, 0xBF],
            [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0x80], [0xBF], [0xE4, 0xB8], [0xF0, 0x90, 0x80],
            [0xC2], [0xE4, 0x41, 0x80],
        ]
        var random = SeededGenerator(seed: seed)
        var invalid = 0
        for _ in 0..<1500 {
            var text: [UInt8] = []
            for _ in 0..<Int.random(in: 0...30, using: &random) {
                text += wellFormed.randomElement(using: &random)!
            }
            if Int.random(in: 0..<3, using: &random) == 0 {
                text.insert(contentsOf: illFormed.randomElement(using: &random)!, at: Int.random(in: 0...text.count, using: &random))
            }
            let isValid = String(validating: text, as: UTF8.self) != nil
            if !isValid { invalid += 1 }
            // As a value after other members, as a key, and as the whole input.
            let documents: [[UInt8]] = [
                Array(#"{"a":1,"b":""#.utf8) + text + Array(#""}"#.utf8),
                Array(#"[{"#.utf8) + [0x22] + text + Array(#"":true}]"#.utf8),
                [0x22] + text + [0x22],
            ]
            for bytes in documents {
                let read = Self.readOutcome(bytes, options: JSONReadingOptions())
                #expect((read == nil) == isValid, "\(bytes)")
                #expect(Self.scanAccepts(bytes) == isValid, "\(bytes)")
                #expect(Self.validateOutcome(bytes, options: JSONReadingOptions()) == read, "\(bytes)")
            }
        }
        // Both outcomes come up often.
        #expect(invalid > 300 && invalid < 1200, "\(invalid) ill-formed of 1500")
    }

    /// Three-byte UTF-8 sequences, which the scan checks in one load, at the
    /// edges of their ranges and at the end of the input.
    @Test func skippingAgreesOnThreeByteSequences() {
        let sequences: [[UInt8]] = [
            [0xE0, 0xA0, 0x80], [0xE0, 0x9F, 0xBF], [0xE1, 0x80, 0x80], [0xEC, 0xBF, 0xBF], [0xED, 0x9F, 0xBF],
            [0xED, 0xA0, 0x80], [0xEE, 0x80, 0x80], [0xEF, 0xBF, 0xBF], [0xEF, 0xBF], [0xEF, 0x7F, 0xBF],
            [0xE4, 0xB8, 0xC0], [0xE4, 0xB8, 0x22],
        ]
        for sequence in sequences {
            for prefix in [[], Array("abcdefgh".utf8)] as [[UInt8]] {
                for bytes in [[0x22] + prefix + sequence + [0x22], [0x22] + sequence + sequence + prefix + [0x22]] {
                    let read = Self.readOutcome(bytes, options: JSONReadingOptions())
                    #expect(Self.validateOutcome(bytes, options: JSONReadingOptions()) == read, "\(bytes)")
                    #expect(Self.scanAccepts(bytes) == (read == nil), "\(bytes)")
                }
            }
        }
    }

    @Test func aRepeatedKeyIsReportedWithItsPlaceAndPath() throws {
        let bytes = Array(#"{"list":[{"id":1,"id":2}]}"#.utf8)
        let message = try #require(Self.validateOutcome(bytes, options: JSONReadingOptions()))
        #expect(message == Self.readOutcome(bytes, options: JSONReadingOptions()))
        #expect(message.contains("line 1, column 18"))
        #expect(message.contains("list[0]"))
    }

    @Test func skipValueReturnsTheValuesBytesAndStopsAfterIt() throws {
        let text = #"  {"a": [1, "x"] } , 7"#
        let bytes = Array(text.utf8)
        let range = try bytes.withUnsafeBufferPointer { buffer throws(ModelError) in
            var reader = JSONReader(buffer, options: JSONReadingOptions())
            let range = try reader.skipValue()
            #expect(reader.position == range.upperBound)
            return range
        }
        #expect(String(decoding: bytes[range], as: UTF8.self) == #"{"a": [1, "x"] }"#)
    }

    /// Seeded random documents, compact and pretty, and single-byte damage to
    /// them: validating and reading always agree, and the fast scan never
    /// accepts what reading refuses.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func randomDocumentsAgree(seed: UInt64) throws {
        var documents = RandomDocuments(seed: seed)
        var damage = SeededGenerator(seed: seed &* 31 &+ 7)
        let replacements = Array(#"{}[],:"\ 0123456789-+.eEtfnul"#.utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xED, 0xFF]
        for _ in 0..<60 {
            let value = documents.value(depth: 4)
            for options in [JSONWritingOptions(), .pretty] {
                let bytes = Array(try value.jsonData(options: options))
                #expect(Self.validateOutcome(bytes, options: JSONReadingOptions()) == nil)
                for _ in 0..<8 {
                    var damaged = bytes
                    let position = Int.random(in: 0...damaged.count, using: &damage)
                    switch Int.random(in: 0..<3, using: &damage) {
                    case 0 where position < damaged.count: damaged.remove(at: position)
                    case 1 where position < damaged.count:
                        damaged[position] = replacements.randomElement(using: &damage)!
                    default: damaged.insert(replacements.randomElement(using: &damage)!, at: position)
                    }
                    let read = Self.readOutcome(damaged, options: JSONReadingOptions())
                    #expect(Self.validateOutcome(damaged, options: JSONReadingOptions()) == read)
                    if read != nil {
                        let accepted = Self.scanAccepts(damaged)
                        #expect(!accepted, "the fast scan accepted \(String(decoding: damaged, as: UTF8.self).debugDescription)")
                    }
                }
            }
        }
    }

    /// The whitespace runs that scanning passes in line (one space; a line
    /// break and up to fifteen spaces) and every other run, each
    /// before a token, before more whitespace, before a control character
    /// (refused) and at the end of the input, everywhere whitespace may go:
    /// reading, validating, the fast scan and `ModelJSONDecoder`'s tape agree.
    @Test func whitespaceRunsAgreeEverywhere() throws {
        struct Inner: Codable, Equatable { var c: String }
        struct Document: Codable, Equatable {
            var a: [Int]
            var b: Inner
        }
        let expected = Document(a: [1, 2], b: Inner(c: "x"))
        var runs: [String] = ["", " ", "  ", "\t", "\r\n", "\n\t", " \n", "\t ", "\n\r  "]
        for spaces in Array(0...18) + [23, 24, 31, 32, 33] {
            let indentation = String(repeating: " ", count: spaces)
            runs += ["\n" + indentation, "\n" + indentation + "\t", "\n" + indentation + "\n  ", " " + indentation]
        }
        for run in runs {
            let text = #"{"a":\#(run)[\#(run)1\#(run),\#(run)2\#(run)]\#(run),\#(run)"b"\#(run):\#(run){\#(run)"c":\#(run)"x"\#(run)}\#(run)}"#
            for document in [text, run + text + run] {
                let bytes = Array(document.utf8)
                let read = Self.readOutcome(bytes, options: JSONReadingOptions())
                #expect(read == nil, "\(document.debugDescription)")
                #expect(Self.validateOutcome(bytes, options: JSONReadingOptions()) == nil)
                #expect(Self.scanAccepts(bytes), "\(document.debugDescription)")
                #expect(try ModelJSONDecoder().decode(Document.self, from: Data(bytes)) == expected)
            }
            // A control character after the run, between tokens and after the
            // top-level value: refused alike, at the same line and column.
            for bad in [#"{"a":\#(run)\#u{0B}[1,2],"b":{"c":"x"}}"#, #"[1,\#(run)\#u{01}2]"#, "[1]\(run)\u{0C}"] {
                let bytes = Array(bad.utf8)
                let read = try #require(Self.readOutcome(bytes, options: JSONReadingOptions()), "\(bad.debugDescription)")
                #expect(Self.validateOutcome(bytes, options: JSONReadingOptions()) == read)
                #expect(!Self.scanAccepts(bytes))
                #expect(throws: DecodingError.self) { try ModelJSONDecoder().decode([Int].self, from: Data(bytes)) }
            }
            // The input ending inside the run.
            let cut = Array(("[1," + run).utf8)
            #expect(Self.readOutcome(cut, options: JSONReadingOptions()) != nil)
            #expect(Self.validateOutcome(cut, options: JSONReadingOptions()) == Self.readOutcome(cut, options: JSONReadingOptions()))
        }
    }

    /// A fault inside a pretty-printed member that a class ignores (after
    /// indentation, in a short key, in a repeated key) is reported with its
    /// key path, line and column, as a read of it would be.
    @Test func faultsInIgnoredMembersNameTheirPlace() throws {
        let cases: [(json: String, message: String)] = [
            (
                "{\n  \"title\": \"t\",\n  \"skipped\": {\n    \"a\": 1,\n    \u{0B}\"b\": 2\n  }\n}",
                "line 5, column 5"
            ),
            (
                "{\n  \"title\": \"t\",\n  \"skipped\": [1,\n      \u{01}2]\n}",
                "line 4, column 7"
            ),
            (
                "{\n  \"title\": \"t\",\n  \"skipped\": {\n    \"twenty-two-bytes-key!!\": 1,\n    \"twenty-two-bytes-key!!\": 2\n  }\n}",
                "duplicate key \"twenty-two-bytes-key!!\""
            ),
            // Literals skipped on their own: misspelt, cut short.
            ("{\n  \"title\": \"t\",\n  \"skipped\": nul,\n  \"other\": 1\n}", "line 3, column 14"),
            ("{\n  \"title\": \"t\",\n  \"skipped\": fAlse\n}", "line 3, column 14"),
            ("{\n  \"title\": \"t\",\n  \"skipped\": tru", "line 3, column 14"),
        ]
        for (json, expected) in cases {
            do {
                _ = try IgnoringNote(json: Data(json.utf8))
                Issue.record("expected an error for \(json.debugDescription)")
            } catch {
                let message = String(describing: error)
                #expect(message.contains(expected), "\(message)")
                #expect(message.contains("skipped"), "\(message)")
            }
        }
    }

    /// Keys of about the longest length the short-key path takes, at the
    /// very end of the input: cut after their quote, after their colon, or
    /// complete. (Run under the address sanitizer, this catches a read past
    /// the input.)
    @Test func shortKeysAtTheEndOfTheInputAreReadWithinIt() throws {
        for length in 20...26 {
            let key = String(repeating: "k", count: length)
            for text in [#"{"\#(key)""#, #"{"\#(key)":"#, #"{"\#(key)":1}"#, #"[{"\#(key)""#] {
                let bytes = Array(text.utf8)
                // Exactly as long as the bytes, so that a read past them is a read past the allocation.
                let data = Data(bytes)
                let read = Self.readOutcome(bytes, options: JSONReadingOptions())
                #expect(Self.validateOutcome(bytes, options: JSONReadingOptions()) == read, "\(text)")
                #expect(Self.scanAccepts(bytes) == (read == nil), "\(text)")
                #expect(((try? ModelJSONDecoder().decode([String: Int].self, from: data)) != nil) == (read == nil), "\(text)")
            }
        }
    }

    /// Ordinary documents take the fast scan all the way (falling back to the
    /// reader would be correct but slow).
    @Test func ordinaryDocumentsTakeTheFastScan() throws {
        let value: ModelValue = [
            "name": "Ada", "tags": ["a", "b\n", "é😀"], "n": 12, "x": -1.5e-3, "ok": true, "none": nil,
            "nested": ["deep": [[1], [2, [3]]], "k\u{E9}y": "v"],
        ]
        #expect(Self.scanAccepts(Array(try value.jsonData())))
        #expect(Self.scanAccepts(Array(try value.jsonData(options: .pretty))))
        for name in ["twitter.json", "citm_catalog.json", "canada.json"] {
            guard let url = corpusURL(name) else { continue }
            let accepted = Self.scanAccepts(Array(try Data(contentsOf: url)))
            #expect(accepted, "\(name)")
        }
    }
}
