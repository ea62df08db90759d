import Foundation
import Testing

@testable import ModelKit

/// Members a class does not save survive a JSON round trip as their exact
/// text, and read everywhere else as their values.
@Suite struct JSONRawMembersTests {
    static func note(_ json: String) throws -> Note { try Note(json: Data(json.utf8)) }

    /// Unknown members of every spelling, after an edit of a saved key.
    static let spellings: [String] = [
        "1.10", "1e2", "3E-7", "-0", "-0.0", "0.1e+01", "3.14159265358979323846264338",
        "123456789012345678901234567890", "-9223372036854775809", #""caf\u00e9""#, #""\u00E9\n\/\"""#,
        #""\ud83d\ude00""#, #""😀 é""#, "true", "null", "[1.10,[],{}]", #"{"z":1.50,"a":[2E3]}"#,
    ]

    @Test(arguments: spellings)
    func anUnknownMemberKeepsItsExactText(_ text: String) throws {
        let note = try Self.note(#"{"type":"Note","version":1,"title":"A","extra":\#(text)}"#)
        note.title = "B"
        let written = try note.jsonString()
        #expect(written.hasSuffix(#""extra":\#(text)}"#), "\(written)")
    }

    @Test func editingOneBagKeyLeavesTheOthersVerbatim() throws {
        let note = try Self.note(#"{"a":1.10,"b":"caf\u00e9","c":1e2}"#)
        try note.setExtensibleProperty(5, forKey: "b")
        note.removeExtensibleProperty(forKey: "c")
        try note.setExtensibleProperty(1.1, forKey: "a")  // equal: not a change, text kept
        #expect(try note.jsonString().hasSuffix(#""a":1.10,"b":5}"#))
        #expect(note.changedKeys == ["b", "c"])
    }

    @Test func compactPrettyAndSortedOutputSpaceRawMembersLikeTheRest() throws {
        let pretty = """
            {
                "title" : "A",
                "zeta" : { "b" : 1.50, "a" : [ 1e2, "x" ] },
                "alpha" : [ ]
            }
            """
        let note = try Self.note(pretty)
        let compact = try note.jsonString()
        #expect(compact.hasSuffix(#""zeta":{"b":1.50,"a":[1e2,"x"]},"alpha":[]}"#))
        // The same document with canonical numbers is written identically from values.
        let canonicalJSON = #"{"title":"A","zeta":{"b":1.5,"a":[100.0,"x"]},"alpha":[]}"#
        let canonical = try Self.note(canonicalJSON)
        let values = Note()
        try values.load(ModelValue(json: Data(canonicalJSON.utf8)))
        for options in [JSONWritingOptions(), .pretty, .sorted, JSONWritingOptions(prettyPrinted: true, sortedKeys: true)] {
            let fromText = try canonical.jsonString(options: options)
            let fromValues = try values.modelValue.jsonString(options: options)
            #expect(fromText == fromValues)
        }
        #expect(
            try note.jsonString(options: JSONWritingOptions(prettyPrinted: true, sortedKeys: true)).contains(
                """
                  "zeta": {
                    "a": [
                      1e2,
                      "x"
                    ],
                    "b": 1.50
                  }
                """))
    }

    @Test func modelsInsideArraysKeepTheirUnknownMembersToo() throws {
        let json = #"{"children":[{"title":"x","n":1.10},{"k":"\u0041"}],"child":{"deep":2E0}}"#
        let note = try Self.note(json)
        note.count = 3
        let written = try note.jsonString()
        #expect(written.contains(#"{"type":"Note","version":1,"title":"x","#))
        #expect(written.contains(#""n":1.10}"#))
        #expect(written.contains(#""k":"\u0041"}"#))
        #expect(written.contains(#""deep":2E0}"#))
        #expect(note.children[1].extensibleProperty(forKey: "k") == "A")
    }

    /// Malformed unknown members are refused with the same messages as before.
    static let malformed: [(String, String)] = [
        (#"{"extra":[1,2,]}"#, "JSON at line 1, column 15 (byte 14), in extra[2]:"),
        (#"{"extra":{"a":1,"a":2}}"#, #"JSON at line 1, column 17 (byte 16), in extra: duplicate key "a" in object"#),
        (#"{"extra":"\ud800"}"#, "unpaired surrogate"),
        (#"{"extra":1e400}"#, "too large for a Double"),
        (#"{"extra":tru}"#, "did you mean 'true'"),
        ("{\"extra\":\"\u{01}\"}", "unescaped control character"),
    ]

    @Test(arguments: malformed)
    func malformedUnknownMembersAreRefusedWithTheirPlace(_ json: String, _ message: String) {
        do {
            _ = try Self.note(json)
            Issue.record("expected an error")
        } catch {
            #expect(String(describing: error).contains(message), "\(error)")
        }
    }

    @Test func invalidUTF8InAnUnknownMemberIsRefused() {
        var bytes = Array(#"{"extra":"ab"}"#.utf8)
        bytes.insert(0xFF, at: 11)
        #expect(throws: ModelError.self) { try Note(json: Data(bytes)) }
        let deep = #"{"extra":"# + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}"
        #expect(throws: ModelError.self) { try Note(json: Data(deep.utf8)) }
    }

    @Test func bagsSpelledDifferentlyAreEqual() throws {
        let first = try Self.note(#"{"x":1.10,"s":"A","a":[1, 2]}"#)
        let second = try Self.note(#"{"x":11e-1,"s":"\u0041","a":[1,2]}"#)
        #expect(first.extensibleProperties == second.extensibleProperties)
        #expect(first.orderedExtensibleProperties.hashValue == second.orderedExtensibleProperties.hashValue)
    }

    @Test func otherFormatsGetTheValues() throws {
        let note = try Self.note(#"{"x":1.10,"n":[1e2,{"k":null}],"s":"caf\u00e9"}"#)
        for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
            let copy = try Note(propertyList: note.propertyListData(format: format))
            #expect(copy.extensibleProperties == note.extensibleProperties)
        }
        #expect(note.dictionary["x"] as? Double == 1.1)
        #expect(note.dictionary["s"] as? String == "café")
    }

    /// Seeded random documents: a model loaded with its unknown members kept
    /// as text has the same bag as one loaded from values, and writes JSON
    /// that reads back to the same value.
    @Test(arguments: [21, 22, 23] as [UInt64])
    func rawAndParsedBagsAgree(seed: UInt64) throws {
        var documents = RandomDocuments(seed: seed)
        for _ in 0..<50 {
            var object = ModelValue.Object()
            object["title"] = "t"
            for index in 0..<4 { object["extra\(index)"] = documents.value(depth: 3) }
            let value = ModelValue.object(object)
            for options in [JSONWritingOptions(), .pretty] {
                let json = try value.jsonData(options: options)
                let raw = try Note(json: json)
                let parsed = Note()
                try parsed.load(ModelValue(json: json))
                #expect(raw.extensibleProperties == parsed.extensibleProperties)
                #expect(try ModelValue(json: raw.jsonData()) == ModelValue(json: parsed.jsonData()))
            }
        }
    }

    /// Calls `body` with each byte of `json` and whether it stands outside a
    /// string (quotes count as inside), following escapes byte by byte.
    static func forEachByte(of json: [UInt8], _ body: (UInt8, _ outsideStrings: Bool) -> Void) {
        var inString = false
        var escaped = false
        for byte in json {
            if inString {
                body(byte, false)
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else {
                inString = byte == UInt8(ascii: "\"")
                body(byte, !inString)
            }
        }
    }

    /// The whitespace of `json` dropped, byte by byte: the reference the
    /// sixteen-bytes-at-a-time compact writer must match.
    /// Writes each of `texts` (kept text, so valid JSON: the writer relies
    /// on it) compactly and compares with `referenceCompact(_:)`.
    static func expectCompactWrites(_ texts: [[UInt8]]) throws {
        for text in texts {
            _ = try ModelValue(json: Data(text))
            var writer = JSONWriter(options: JSONWritingOptions())
            text.withUnsafeBufferPointer { writer.writeRaw($0, depth: 0) }
            let written = Array(writer.takeData())
            #expect(written == Self.referenceCompact(text), "\(String(decoding: text, as: UTF8.self))")
        }
    }

    static func referenceCompact(_ json: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        forEachByte(of: json) { byte, outside in
            if !outside || ![0x20, 0x09, 0x0A, 0x0D].contains(byte) { result.append(byte) }
        }
        return result
    }

    /// `json` with random whitespace (spaces, tabs, line feeds, carriage
    /// returns, long runs) after each structural character outside strings.
    static func respaced(_ json: [UInt8], using generator: inout SeededGenerator) -> [UInt8] {
        let runs: [[UInt8]] = [[], [0x20], [0x09], [0x0A], [0x0D, 0x0A], Array(repeating: 0x20, count: 17)]
        var result: [UInt8] = []
        forEachByte(of: json) { byte, outside in
            result.append(byte)
            if outside, Array("{}[],:".utf8).contains(byte) {
                result += runs[Int.random(in: 0..<runs.count, using: &generator)]
            }
        }
        return result
    }

    /// Compact output of kept text is that text without its whitespace, for
    /// strings with escapes at every position around the writer's sixteen-byte
    /// chunks and for seeded random documents spaced at random.
    @Test(arguments: [31, 32, 33] as [UInt64])
    func compactOutputOfKeptTextIsThatTextWithoutItsWhitespace(seed: UInt64) throws {
        var documents = RandomDocuments(seed: seed)
        var generator = SeededGenerator(seed: seed)
        var texts: [[UInt8]] = []
        // Escapes and quotes on both sides of each chunk boundary.
        for length in [0, 1, 14, 15, 16, 17, 31, 32, 33, 47] {
            for escape in [#"\""#, #"\\"#, #"\n"#, #"\u00e9"#] {
                let text = String(repeating: "a", count: length) + escape + String(repeating: "b", count: 20)
                texts.append(Array("[ \"\(text)\" ,\t\"\(escape)\" , \"\\\\\" ]".utf8))
            }
        }
        for _ in 0..<200 {
            let pretty = try documents.value(depth: 3).jsonData(options: .pretty)
            texts.append(Self.respaced(Array(pretty), using: &generator))
        }
        try Self.expectCompactWrites(texts)
    }

    /// Kept members written with every option set come out exactly as the
    /// same members written from their values: scalars (copied as they are),
    /// strings with whitespace, slashes and escapes inside, and containers
    /// spaced oddly, under compact, pretty, sorted and escaped-slash output.
    @Test func keptMembersWriteAsTheirValuesUnderEveryOption() throws {
        let json = """
            {"title":"A", "n" : -12.5,"s":"a  b / c\\t \\"q\\" \\\\","t" :true,"u":null,
              "a/b" : [ 1 ,"x y",{ "k" : [ ] , "j":"/" } ],
              "o":{"z":{},"b":[false, 2],"a":"  "},
              "e" : [],"last":0
            }
            """
        let kept = try Self.note(json)
        let values = Note()
        try values.load(ModelValue(json: Data(json.utf8)))
        let optionSets: [JSONWritingOptions] = [
            JSONWritingOptions(), .pretty, .sorted, JSONWritingOptions(prettyPrinted: true, sortedKeys: true),
            JSONWritingOptions(escapesSlashes: true), JSONWritingOptions(prettyPrinted: true, escapesSlashes: true),
            JSONWritingOptions(sortedKeys: true, escapesSlashes: true),
        ]
        for options in optionSets {
            #expect(try kept.jsonString(options: options) == values.modelValue.jsonString(options: options), "\(options)")
        }
        let compact = try kept.jsonString()
        #expect(compact.contains(#""n":-12.5,"s":"a  b / c\t \"q\" \\","t":true,"u":null,"#), "\(compact)")
        #expect(compact.contains(#""a/b":[1,"x y",{"k":[],"j":"/"}],"o":{"z":{},"b":[false,2],"a":"  "},"e":[],"last":0}"#))
        let escaped = try kept.jsonString(options: JSONWritingOptions(escapesSlashes: true))
        #expect(escaped.contains(#""s":"a  b \/ c"#) && escaped.contains(#""a\/b":[1,"x y",{"k":[],"j":"\/"}]"#), "\(escaped)")
    }

    /// The compact writer looks at one byte before choosing how to go on: a
    /// lone space, indentation, a bracket, comma or colon before whitespace
    /// or a string, numbers and literals up to whitespace, at every distance
    /// from the end of the text and from its sixteen-byte chunks.
    @Test func compactOutputDropsEverySpacingOfTokens() throws {
        var texts: [[UInt8]] = []
        for length in 0..<34 {
            let filler = String(repeating: "x", count: length)
            texts.append(Array(#"{"k" : [ 1 , 22 ,"\#(filler)" ], "a b" :true , "n":null,"z":-1.5e3 }"#.utf8))
            texts.append(Array("[\n  \(length),\n  \"\(filler)\",\n  {\n    \"q\": [\n      10\n    ]\n  }\n]".utf8))
            texts.append(Array("[\(length == 0 ? "0" : String(repeating: "7", count: length)) ,\t\"\"]".utf8))
            texts.append(Array("{\"\(filler)\":\r\n\"v\\\\\\\"\"}".utf8))
            // A key's colon and the one space after it, before each kind of value, or before more whitespace.
            for value in ["\"v\"", "12", "[]", "{ }", "true", "null", " 1", "\n  2", "\t3"] {
                texts.append(Array("{\"\(filler)\": \(value),\"k\" :\(value)}".utf8))
            }
        }
        try Self.expectCompactWrites(texts)
    }
}
