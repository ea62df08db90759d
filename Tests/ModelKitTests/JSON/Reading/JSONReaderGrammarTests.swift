import Foundation
import Testing

@testable import ModelKit

/// RFC 8259's grammar: literals, structure, whitespace, top level, depth.
@Suite struct JSONReaderGrammarTests {
    @Test(arguments: [
        ("null", ModelValue.null),
        ("true", .bool(true)),
        ("false", .bool(false)),
        ("0", .int(0)),
        ("\"\"", .string("")),
        ("\"a\"", .string("a")),
        ("[]", .array([])),
        ("{}", .object([:])),
        ("[1,[2,[3]],{}]", [1, [2, [3]], [:]]),
        (#"{"a":{"b":[null,true,false]}}"#, ["a": ["b": [nil, true, false]]]),
        (" \t\r\n[ \t\r\n1 \t\r\n, \t\r\n2 \t\r\n] \t\r\n", [1, 2]),
        ("{ \"a\" : 1 , \"b\" : [ ] }", ["a": 1, "b": []]),
    ] as [(String, ModelValue)])
    func readsValidDocuments(text: String, expected: ModelValue) throws {
        #expect(try readJSON(text) == expected)
    }

    @Test func keepsTheOrderOfKeys() throws {
        let value = try readJSON(#"{"z":1,"a":2,"m":3,"b":4,"y":5,"c":6,"x":7,"d":8,"w":9,"e":10}"#)
        #expect(value.objectValue?.keys == ["z", "a", "m", "b", "y", "c", "x", "d", "w", "e"])
        #expect(value["w"] == 9)
    }

    /// Each malformed document, the message, and the line and column of the failure.
    @Test(arguments: [
        ("", "expected a value, found end of input", 1, 1),
        ("   ", "expected a value, found end of input", 1, 4),
        ("[1,]", "expected a value, found ']'", 1, 4),
        ("[1 2]", "expected ',' or ']' after array element, found '2'", 1, 4),
        ("[1", "expected ',' or ']' after array element, found end of input", 1, 3),
        ("{\"a\":1,}", "expected a string key, found '}'", 1, 8),
        ("{\"a\" 1}", "expected ':' after object key, found '1'", 1, 6),
        ("{\"a\":1 \"b\":2}", "expected ',' or '}' after object member, found '\"'", 1, 8),
        ("{1:2}", "expected a string key, found '1'", 1, 2),
        ("{'a':1}", "expected a string key, found '''", 1, 2),
        ("[1]]", "expected end of input after the top-level value, found ']'", 1, 4),
        ("1 2", "expected end of input after the top-level value, found '2'", 1, 3),
        ("nul", "expected a value (did you mean 'null'?), found 'n'", 1, 1),
        ("True", "expected a value, found 'T'", 1, 1),
        ("[tru]", "expected a value (did you mean 'true'?), found 't'", 1, 2),
        ("falsey", "expected end of input after the top-level value, found 'y'", 1, 6),
        ("[\n  1,\n  x\n]", "expected a value, found 'x'", 3, 3),
        ("\u{0B}1", "expected a value, found U+000B", 1, 1),
        ("\u{A0}1", "expected a value, found '\u{A0}'", 1, 1),
        ("[1,\n\u{FEFF}2]", "expected a value, found '\u{FEFF}'", 2, 1),
        ("/* c */ 1", "expected a value, found '/'", 1, 1),
        ("NaN", "expected a value, found 'N'", 1, 1),
    ] as [(String, String, Int, Int)])
    func refusesMalformedDocuments(text: String, message: String, line: Int, column: Int) {
        let error = readFailure(text)
        #expect(error?.code == .malformedDocument)
        #expect(error?.message == message)
        #expect(error?.location?.line == line)
        #expect(error?.location?.column == column)
    }

    @Test func namesTheKeyPathOfTheFailure() {
        let text = #"{"children":[{},{"a":1 "b":2}]}"#
        let error = readFailure(text)
        #expect(error?.keyPath.description == "children[1]")
        #expect(error?.location == ModelError.Location(line: 1, column: 24, byteOffset: 23))
        #expect(
            error?.description
                == #"JSON at line 1, column 24 (byte 23), in children[1]: expected ',' or '}' after object member, found '"'"#
        )
        #expect(readFailure(#"{"a":[1,2,{"b":tru}]}"#)?.keyPath.description == "a[2].b")
        #expect(readFailure(#"{"a":[1,2,{"b":"x\q"}]}"#)?.keyPath.description == "a[2].b")
        #expect(readFailure(#"[0,[1,2,]]"#)?.keyPath.description == "[1][2]")
        #expect(readFailure(#"{"a b":{"c":1,}}"#)?.keyPath.description == #"["a b"]"#)
    }

    /// Arrays past the reader's threshold are counted ahead and built at
    /// their size: strings holding brackets, commas and escaped quotes,
    /// nested long arrays and objects must not upset the count.
    @Test(arguments: [0, 1, 511, 512, 513, 1024, 3000])
    func readsLongArraysAtTheirSize(count: Int) throws {
        var generator = SeededGenerator(seed: UInt64(count) &+ 11)
        let pieces: [ModelValue] = [
            1, -2.5, "a,b", "]", "[{", #"q"],"#, nil, true, [1, 2], ["k": [3, "]"]], [], [:],
        ]
        let elements = (0..<count).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &generator)] }
        let nested: ModelValue = ["a": .array(elements), "b": [.array(elements), .array(elements), 7]]
        for options in [JSONWritingOptions(), .pretty] {
            let value = try readJSON(String(decoding: try nested.jsonData(options: options), as: UTF8.self))
            #expect(value == nested)
            if case .array(let read)? = value["a"] { #expect(read.capacity == read.count) }
        }
    }

    @Test func namesTheKeyPathOfAFailureInALongArray() {
        let numbers = (0..<700).map(String.init).joined(separator: ",")
        #expect(readFailure("[\(numbers),x]")?.keyPath.description == "[700]")
        #expect(readFailure(#"{"a":["# + numbers + #",[1,2,]]}"#)?.keyPath.description == "a[700][2]")
        #expect(readFailure(#"[["# + numbers + #"],["# + numbers + #",{"k":1,"k":2}]]"#)?.keyPath.description == "[1][700]")
        let unterminated = readFailure("[\(numbers),\"abc")
        #expect(unterminated?.keyPath.description == "[700]")
        #expect(unterminated?.message == "unterminated string")
        let unclosed = readFailure("[\(numbers)")
        #expect(unclosed?.message == "expected ',' or ']' after array element, found end of input")
        #expect(unclosed?.location?.column == numbers.utf8.count + 2)
    }

    @Test func acceptsAnyValueAtTheTopLevel() throws {
        #expect(try readJSON("42") == 42)
        #expect(try readJSON(" \"x\" ") == "x")
        #expect(try readJSON("null") == .null)
        #expect(try readJSON("-1.5e3") == -1500.0)
    }

    @Test func skipsALeadingByteOrderMarkOnly() throws {
        #expect(try readJSON(bytes: [0xEF, 0xBB, 0xBF] + Array("[1]".utf8)) == [1])
        let twice = readFailure(bytes: [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array("1".utf8))
        #expect(twice?.message == "expected a value, found '\u{FEFF}'")
        #expect(twice?.location?.byteOffset == 3)
        // UTF-16 is not JSON's encoding (RFC 8259 §8.1).
        #expect(readFailure(bytes: [0xFF, 0xFE, 0x31, 0x00])?.message == "expected a value, found invalid UTF-8 byte 0xFF")
        #expect(readFailure(bytes: [0xEF, 0xBB])?.message == "expected a value, found invalid UTF-8 byte 0xEF")
    }

    @Test func acceptsNestingUpToTheLimit() throws {
        let depth = 512
        let text = String(repeating: "[", count: depth - 1) + #"{"a":1}"# + String(repeating: "]", count: depth - 1)
        var expected: ModelValue = ["a": 1]
        for _ in 0..<(depth - 1) { expected = [expected] }
        #expect(try readJSON(text) == expected)
    }

    @Test func refusesNestingBeyondTheLimit() {
        let text = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        let error = readFailure(text)
        #expect(error?.code == .nestingTooDeep)
        #expect(error?.message == "arrays and objects nested deeper than 512 levels, found '['")
        #expect(error?.location?.byteOffset == 512)
        #expect(error?.keyPath.components.count == 512)

        let shallow = readFailure(#"{"a":{"b":[[1]]}}"#, options: JSONReadingOptions(maximumDepth: 3))
        #expect(shallow?.code == .nestingTooDeep)
        #expect(shallow?.keyPath.description == "a.b[0]")
        #expect(shallow?.location?.column == 12)
    }

    @Test func refuses200000OpenBracketsWithoutCrashing() {
        let error = readFailure(String(repeating: "[", count: 200_000))
        #expect(error?.code == .nestingTooDeep)
        // With the limit lifted, the reader still does not recurse: it runs out of input instead.
        let unlimited = readFailure(String(repeating: "[", count: 200_000), options: JSONReadingOptions(maximumDepth: .max))
        #expect(unlimited?.message == "expected a value, found end of input")
        let objects = readFailure(String(repeating: #"{"a":"#, count: 200_000))
        #expect(objects?.code == .nestingTooDeep)
    }

    @Test func refusesDuplicateKeysByDefault() {
        let error = readFailure("{\"a\":1,\n \"b\":2,\n \"a\":3}")
        #expect(error?.code == .malformedDocument)
        #expect(error?.message == #"duplicate key "a" in object"#)
        #expect(error?.location == ModelError.Location(line: 3, column: 2, byteOffset: 17))
        // Past the point where objects index their keys.
        let many = "{" + (0..<20).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + ",\"k7\":0}"
        #expect(readFailure(many)?.message == #"duplicate key "k7" in object"#)
        #expect(readFailure(#"{"x":[{"a":1,"a":1}]}"#)?.keyPath.description == "x[0]")
        // The same key, once escaped: keys compare by their text, not their spelling.
        #expect(readFailure(#"{"é":1,"\u00e9":2}"#)?.message == #"duplicate key "é" in object"#)
        let escapedMany = "{" + (0..<20).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + ",\"\\u006b7\":0}"
        #expect(readFailure(escapedMany)?.message == #"duplicate key "k7" in object"#)
    }

    @Test func lastWinsKeepsTheFirstPositionAndTheLastValue() throws {
        let options = JSONReadingOptions(duplicateKeys: .lastWins)
        let value = try readJSON(#"{"a":1,"b":2,"a":3}"#, options: options)
        #expect(value.objectValue?.keys == ["a", "b"])
        #expect(value["a"] == 3)
        let many = "{" + (0..<20).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + ",\"k7\":0}"
        let large = try readJSON(many, options: options)
        #expect(large.objectValue?.count == 20)
        #expect(large["k7"] == 0)
        #expect(large.objectValue?.keys[7] == "k7")
    }

    @Test func readsFromRawBytes() throws {
        let bytes = Array(#"{"a":[1,2]}"#.utf8)
        let value = try bytes.withUnsafeBytes { try ModelValue(jsonBytes: $0) }
        #expect(value == ["a": [1, 2]])
        let empty = try? [UInt8]().withUnsafeBytes { try ModelValue(jsonBytes: $0) }
        #expect(empty == nil)
    }
}
