import Foundation
import Testing

@testable import ModelKit

/// The writer: exact output for every option, every kind of value, and errors.
@Suite struct JSONWriterTests {
    static let sample: ModelValue = [
        "name": "Ada", "tags": ["a/b", "c"], "empty": [], "none": [:], "nested": ["z": 1, "a": nil],
        "ratio": 0.5, "ok": true,
    ]

    @Test func writesCompactOutputInInsertionOrder() throws {
        #expect(
            try Self.sample.jsonString()
                == #"{"name":"Ada","tags":["a/b","c"],"empty":[],"none":{},"nested":{"z":1,"a":null},"ratio":0.5,"ok":true}"#
        )
        #expect(try Self.sample.jsonString(options: .compact) == Self.sample.jsonString())
    }

    @Test func writesPrettyOutput() throws {
        let expected = """
            {
              "name": "Ada",
              "tags": [
                "a/b",
                "c"
              ],
              "empty": [],
              "none": {},
              "nested": {
                "z": 1,
                "a": null
              },
              "ratio": 0.5,
              "ok": true
            }
            """
        #expect(try Self.sample.jsonString(options: .pretty) == expected)
        let four = try (["a": [1]] as ModelValue).jsonString(options: JSONWritingOptions(prettyPrinted: true, indent: 4))
        #expect(four == "{\n    \"a\": [\n        1\n    ]\n}")
        let none = try (["a": [1]] as ModelValue).jsonString(options: JSONWritingOptions(prettyPrinted: true, indent: 0))
        #expect(none == "{\n\"a\": [\n1\n]\n}")
        #expect(try ModelValue.int(1).jsonString(options: .pretty) == "1")
    }

    @Test func writesSortedKeysAtEveryLevel() throws {
        #expect(
            try Self.sample.jsonString(options: .sorted)
                == #"{"empty":[],"name":"Ada","nested":{"a":null,"z":1},"none":{},"ok":true,"ratio":0.5,"tags":["a/b","c"]}"#
        )
        // Byte order: uppercase before lowercase, shorter prefix first, non-ASCII last.
        let value: ModelValue = ["é": 1, "b": 2, "B": 3, "ab": 4, "a": 5, "": 6]
        #expect(try value.jsonString(options: .sorted) == #"{"":6,"B":3,"a":5,"ab":4,"b":2,"é":1}"#)
        let both = try (["b": 1, "a": [2]] as ModelValue).jsonString(
            options: JSONWritingOptions(prettyPrinted: true, sortedKeys: true))
        #expect(both == "{\n  \"a\": [\n    2\n  ],\n  \"b\": 1\n}")
    }

    @Test func escapesWhatJSONRequires() throws {
        let text = "q\" b\\ s/ n\n r\r t\t b\u{08} f\u{0C} z\u{00} u\u{1F} d\u{7F} é 😀"
        #expect(
            try ModelValue.string(text).jsonString()
                == #""q\" b\\ s/ n\n r\r t\t b\b f\f z\u0000 u\u001f d"# + "\u{7F} é 😀\"")
        #expect(try ModelValue.string("</script>").jsonString(options: JSONWritingOptions(escapesSlashes: true)) == #""<\/script>""#)
        #expect(try (["a/b": "c/d"] as ModelValue).jsonString(options: JSONWritingOptions(escapesSlashes: true)) == #"{"a\/b":"c\/d"}"#)
    }

    /// Strings of every length up to forty, with each escape the writer
    /// makes at every position (around its sixteen-byte chunks and its short
    /// copies), written as a byte-by-byte reference escapes them.
    @Test func escapesAtEveryPositionOfEveryLength() throws {
        func reference(_ text: String, slashes: Bool) -> String {
            var result = "\""
            for unit in text.utf8 {
                switch unit {
                case 0x22: result += "\\\""
                case 0x5C: result += "\\\\"
                case 0x2F where slashes: result += "\\/"
                case 0x0A: result += "\\n"
                case 0x0D: result += "\\r"
                case 0x09: result += "\\t"
                case 0x08: result += "\\b"
                case 0x0C: result += "\\f"
                case ..<0x20: result += String(format: "\\u%04x", unit)
                default: result += String(UnicodeScalar(unit))
                }
            }
            return result + "\""
        }
        for length in 0...40 {
            for special in ["", "\"", "\\", "/", "\n", "\u{01}", "\u{1F}"] {
                for position in 0...length {
                    let plain = String(repeating: "a", count: length)
                    let index = plain.index(plain.startIndex, offsetBy: position)
                    let text = plain[..<index] + special + plain[index...]
                    for slashes in [false, true] {
                        let written = try ModelValue.string(String(text)).jsonString(
                            options: JSONWritingOptions(escapesSlashes: slashes))
                        #expect(written == reference(String(text), slashes: slashes), "\(text.debugDescription)")
                    }
                    if special.isEmpty { break }
                }
            }
        }
    }

    @Test(arguments: [
        (ModelValue.int(0), "0"), (.int(-7), "-7"), (.int(.max), "9223372036854775807"),
        (.int(.min), "-9223372036854775808"), (.int(1_000_000_000), "1000000000"),
        (.bigInteger("-123456789012345678901234567890"), "-123456789012345678901234567890"),
        (.double(1), "1.0"), (.double(-2), "-2.0"), (.double(0), "0.0"), (.double(-0.0), "-0.0"),
        (.double(0.1), "0.1"), (.double(1e300), "1e+300"), (.double(1e16), "1e+16"),
        (.double(123_456_789_012_345.0), "123456789012345.0"), (.double(.leastNonzeroMagnitude), "5e-324"),
        (.double(-1.5e-7), "-1.5e-07"), (.null, "null"), (.bool(false), "false"),
    ] as [(ModelValue, String)])
    func writesNumbersThatReadBackAlike(value: ModelValue, text: String) throws {
        #expect(try value.jsonString() == text)
        #expect(try readJSON(text) == value)
    }


    /// Every integer from -1,000 to 1,000 (the inline one- and two-digit
    /// path, and either side of it), each power of ten and its neighbours,
    /// and seeded random values of every length, written as `description` writes them.
    @Test func writesEveryIntegerAsItsDescription() {
        var values = Array(-1_000...1_000) + [Int.min, Int.min + 1, Int.max, Int.max - 1]
        var power = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 1, -power, -(power - 1)]
        }
        var generator = SeededGenerator(seed: 31)
        for _ in 0..<2_000 {
            let bits = Int.random(in: 1...62, using: &generator)
            values.append(Int.random(in: -(1 << bits)...((1 << bits) - 1), using: &generator))
        }
        var writer = JSONWriter(options: JSONWritingOptions())
        defer { writer.deallocate() }
        for value in values {
            writer.writeInteger(value)
            writer.append(JSONByte.comma)
        }
        let written = writer.takeString().split(separator: ",").map(String.init)
        #expect(written == values.map(\.description))
    }
    @Test func writesDatesAsISO8601AndDataAsBase64() throws {
        let date = Date(timeIntervalSince1970: 1_763_307_200.25)
        let value: ModelValue = ["at": .date(date), "bytes": .data(Data([0, 1, 2, 250, 255]))]
        #expect(try value.jsonString() == #"{"at":"2025-11-16T15:33:20.250000Z","bytes":"AAEC+v8="}"#)
        #expect(try ModelValue.date(Date(timeIntervalSince1970: 0)).jsonString() == #""1970-01-01T00:00:00Z""#)
    }

    @Test(arguments: [Double.infinity, -.infinity, .nan, .signalingNaN])
    func refusesNonFiniteDoublesNamingTheirKeyPath(number: Double) {
        let value: ModelValue = ["children": [["ratio": 1.0], ["name": "b", "ratio": .double(number)]]]
        for options in [JSONWritingOptions.compact, .pretty, .sorted] {
            do {
                _ = try value.jsonData(options: options)
                Issue.record("wrote \(number)")
            } catch let error as ModelError {
                #expect(error.code == .notRepresentable)
                #expect(error.keyPath.description == "children[1].ratio")
                #expect(error.description.hasPrefix("children[1].ratio") || error.description.contains("in children[1].ratio"))
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
        #expect(throws: ModelError.self) { try ModelValue.double(number).jsonString() }
    }

    @Test func refusesBigIntegersThatAreNotDigits() {
        for digits in ["", "-", "12a", "01", "-0012", "1.5", "1e5", " 1"] {
            #expect(throws: ModelError.self, "\(digits)") { try ModelValue.array([.bigInteger(digits)]).jsonString() }
        }
    }

    /// Writing recurses only a few levels (deeper containers go on a stack
    /// on the heap), and refuses what the reader would refuse: nesting past
    /// 512 levels (empty containers count).
    @Test func deepValuesAreRefusedPastTheReadersLimitWithoutRecursion() throws {
        func nested(_ levels: Int) -> ModelValue {
            var value: ModelValue = []
            for level in 1..<levels { value = level.isMultiple(of: 2) ? [value] : ["k": value] }
            return value
        }
        var value = nested(512)
        let data = try value.jsonData()
        #expect(try ModelValue(json: data) == value)
        for levels in [513, 50_000] {
            value = nested(levels)
            // Free the chain iteratively, since the enum's own destructor recurses.
            defer {
                var unwinding = true
                while unwinding {
                    switch value {
                    case .array(let elements) where !elements.isEmpty: value = elements[0]
                    case .object(let object) where !object.isEmpty: value = object.values[0]
                    default: unwinding = false
                    }
                }
            }
            let error = #expect(throws: ModelError.self) { try value.jsonData() }
            #expect(error?.code == .nestingTooDeep)
            #expect(error?.message.contains("nested deeper than 512 levels") == true)
        }
    }

    /// Values nested across the depth where the writer stops recursing and
    /// goes on with its stack of frames: the same text, indentation and key
    /// paths on both sides of it.
    @Test(arguments: [1, 23, 24, 25, 26, 40])
    func nestingAcrossTheRecursionDepthWritesTheSameText(levels: Int) throws {
        // Alternating objects and arrays, a scalar beside each container.
        var value: ModelValue = .double(0.5)
        var compact = "0.5"
        var pretty = "0.5"
        for level in (1...levels).reversed() {
            let outer = String(repeating: "  ", count: level - 1)
            let inner = outer + "  "
            if level.isMultiple(of: 2) {
                value = [.int(level), value]
                compact = "[\(level),\(compact)]"
                pretty = "[\n\(inner)\(level),\n\(inner)\(pretty)\n\(outer)]"
            } else {
                value = ["n": .int(level), "k\(level)": value]
                compact = #"{"n":\#(level),"k\#(level)":\#(compact)}"#
                pretty = #"{\#n\#(inner)"n": \#(level),\#n\#(inner)"k\#(level)": \#(pretty)\#n\#(outer)}"#
            }
        }
        #expect(try value.jsonString() == compact)
        #expect(try value.jsonString(options: .pretty) == pretty)
        #expect(try ModelValue(json: Data(pretty.utf8)) == value)

        // The same nesting with an infinite double at the bottom: the key path names every level.
        var broken: ModelValue = .double(.infinity)
        var components: [ModelKeyPath.Component] = []
        for level in (1...levels).reversed() {
            if level.isMultiple(of: 2) {
                broken = [.int(level), broken]
                components.insert(.index(1), at: 0)
            } else {
                broken = ["n": .int(level), "k\(level)": broken]
                components.insert(.key("k\(level)"), at: 0)
            }
        }
        for options in [JSONWritingOptions.compact, .pretty, .sorted] {
            let error = #expect(throws: ModelError.self) { try broken.jsonData(options: options) }
            #expect(error?.code == .notRepresentable)
            #expect(error?.keyPath == ModelKeyPath(components))
        }

        // A limit just below the nesting: refused with the path to the first container too deep.
        let limited = JSONWritingOptions(maximumDepth: levels - 1)
        if levels > 1 {
            let error = #expect(throws: ModelError.self) { try value.jsonData(options: limited) }
            #expect(error?.code == .nestingTooDeep)
            #expect(error?.message.contains("deeper than \(levels - 1) levels") == true)
            #expect(error?.keyPath == ModelKeyPath(Array(components.dropLast())))
        }
        #expect(try value.jsonString(options: JSONWritingOptions(maximumDepth: levels)) == compact)
    }

    /// Past a few dozen keys the writer reuses the text of keys it wrote
    /// before, found by the strings' two words: seeded random keys (escapes,
    /// non-ASCII, slashes, keys too long to remember, equal keys made apart)
    /// give the text that writing each record alone gives, with every option.
    @Test(arguments: [1, 2, 3])
    func repeatedKeysWriteTheSameTextAsKeysWrittenOnce(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let pieces = ["a", "id", "name", "é", "日本", "\"", "\\", "/", "\n", "\u{1}", "\u{7F}", "😀", "key_", " "]
        var keys: [String] = []
        for _ in 0..<300 {
            var key = ""
            let parts = Int.random(in: 0...12, using: &random)
            for _ in 0..<parts { key += pieces.randomElement(using: &random)! }
            keys.append(key)
        }
        // Long keys, and equal keys in separate storage (large strings made apart).
        keys.append(String(repeating: "long", count: 20))
        keys.append(String(repeating: "x", count: 45))
        keys.append(String(repeating: "y", count: 46))
        let shared = String(repeating: "shared-key/", count: 3)
        var records: [ModelValue] = []
        for _ in 0..<200 {
            var object = ModelValue.Object()
            for _ in 0..<Int.random(in: 0...12, using: &random) {
                object[keys.randomElement(using: &random)!] = .int(Int.random(in: -5...5, using: &random))
            }
            object[String(decoding: Array(shared.utf8), as: UTF8.self)] = .bool(true)
            object[shared] = .null
            records.append(.object(object))
        }
        let value = ModelValue.array(records)
        let optionSets: [JSONWritingOptions] = [
            .compact, .pretty, .sorted, JSONWritingOptions(escapesSlashes: true),
            JSONWritingOptions(prettyPrinted: true, indent: 3, sortedKeys: true, escapesSlashes: true),
        ]
        for options in optionSets {
            let whole = try value.jsonString(options: options)
            // Each record alone writes fewer keys than the writer needs before it remembers any.
            var alone = try records.map { record -> String in
                var text = try record.jsonString(options: options)
                if options.prettyPrinted { text = text.replacingOccurrences(of: "\n", with: "\n" + String(repeating: " ", count: options.indent)) }
                return text
            }
            if options.prettyPrinted {
                let indent = String(repeating: " ", count: options.indent)
                alone = alone.map { indent + $0 }
                #expect(whole == "[\n" + alone.joined(separator: ",\n") + "\n]")
            } else {
                #expect(whole == "[" + alone.joined(separator: ",") + "]")
            }
            #expect(try ModelValue(json: Data(whole.utf8)) == value)
        }
    }
}
