import Foundation
import Testing

@testable import ModelKit

/// Objects read with the keys of an object read before (same bytes, same
/// order) share its keys and key index: records must still read as they
/// would alone, find their keys, and change independently.
@Suite struct JSONReaderShapeTests {
    /// Builds the object of `members` by hand, member by member.
    static func object(_ members: [(String, ModelValue)]) -> ModelValue {
        var object = ModelValue.Object()
        for (key, value) in members { object[key] = value }
        return .object(object)
    }

    @Test func recordsOfOneShapeReadAsTheyWouldAlone() throws {
        // Small objects (searched in order) and large ones (with an index).
        for width in [1, 3, 8, 9, 20] {
            let keys = (0..<width).map { "key\($0)" }
            var records: [ModelValue] = []
            var text = "["
            for record in 0..<30 {
                let members = Array(keys.enumerated()).map { ($0.element, ModelValue.int(record * 100 + $0.offset)) }
                records.append(Self.object(members))
                text += (record > 0 ? "," : "") + "{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
            }
            text += "]"
            let read = try readJSON(text)
            #expect(read == .array(records))
            guard case .array(let elements) = read else { continue }
            for (record, element) in elements.enumerated() {
                guard case .object(let object) = element else { continue }
                #expect(object.keys == keys)
                for (position, key) in keys.enumerated() {
                    #expect(object[key] == .int(record * 100 + position))
                }
                #expect(object["missing"] == nil)
            }
        }
    }

    /// Same keys in another order, one key more or fewer, a key spelled
    /// with an escape (same bytes once read), and keys that are the same
    /// Unicode text in other bytes (two different keys in JSON).
    @Test func nearShapesAreToldApart() throws {
        let text = #"""
            [{"a":1,"b":2,"c":3},{"b":4,"a":5,"c":6},{"a":7,"b":8},{"a":9,"b":10,"c":11,"d":12},
             {"\u0061":13,"b":14,"c":15},{"é":16,"x":17},{"e\u0301":18,"x":19},{"é":20,"x":21}]
            """#
        let read = try readJSON(text)
        let expected: ModelValue = .array([
            Self.object([("a", 1), ("b", 2), ("c", 3)]), Self.object([("b", 4), ("a", 5), ("c", 6)]),
            Self.object([("a", 7), ("b", 8)]), Self.object([("a", 9), ("b", 10), ("c", 11), ("d", 12)]),
            Self.object([("a", 13), ("b", 14), ("c", 15)]), Self.object([("é", 16), ("x", 17)]),
            Self.object([("e\u{301}", 18), ("x", 19)]), Self.object([("é", 20), ("x", 21)]),
        ])
        #expect(read == expected)
        guard case .array(let elements) = read, case .object(let decomposed) = elements[6],
            case .object(let composed) = elements[7]
        else { return }
        #expect(decomposed.keys.map { Array($0.utf8) } == [Array("e\u{301}".utf8), [0x78]])
        #expect(decomposed["é"] == nil)
        #expect(decomposed["e\u{301}"] == 18)
        #expect(composed["é"] == 20)
        #expect(composed["e\u{301}"] == nil)
    }

    @Test func sharedKeysChangeOnlyTheObjectChanged() throws {
        let members = (0..<12).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        let read = try readJSON("[{\(members)},{\(members)}]")
        guard case .array(let elements) = read, case .object(var first) = elements[0],
            case .object(let second) = elements[1]
        else {
            Issue.record("not two objects")
            return
        }
        first["new"] = true
        first["k3"] = nil
        #expect(first.count == 12 && first["new"] == true && first["k3"] == nil && first["k11"] == 11)
        #expect(second.count == 12 && second["new"] == nil && second["k3"] == 3)
        #expect(second.keys == (0..<12).map { "k\($0)" })
    }

    /// A repeated key is refused in the second record too, and the first
    /// record's shape does not hide it.
    @Test func aRepeatedKeyIsFoundInEveryRecord() throws {
        let error = try #require(readFailure(#"[{"a":1,"b":2},{"a":1,"a":2}]"#))
        #expect(error.message.contains("\"a\""))
        #expect(error.location?.column == 23)
        let lastWins = try readJSON(
            #"[{"a":1,"b":2},{"a":1,"b":2,"a":3}]"#, options: JSONReadingOptions(duplicateKeys: .lastWins))
        #expect(lastWins == .array([Self.object([("a", 1), ("b", 2)]), Self.object([("a", 3), ("b", 2)])]))
    }

    /// Objects in the same place are read by comparing their keys with the
    /// shape read there before: every way of leaving that shape part way
    /// (another key, an early end, a key more, an escaped spelling, a
    /// repeat of a matched key) reads as the object would alone.
    @Test func predictedShapesAreLeftWhereverTheKeysDiffer() throws {
        let text = #"""
            {"rows":[{"id":1,"name":"a","tags":{"x":1,"y":2}},
                     {"id":2,"name":"b","tags":{"x":3,"y":4}},
                     {"id":3,"nom":"c","tags":{"x":5,"z":6}},
                     {"id":4,"name":"d"},
                     {"id":5,"name":"e","tags":{"x":7,"y":8},"more":true},
                     {"\u0069d":6,"name":"f","tags":{"x":9,"y":10}},
                     {"id":7,"name":"g","tags":{"x":11,"y":12}}]}
            """#
        let tags = { (x: Int, y: Int) in Self.object([("x", .int(x)), ("y", .int(y))]) }
        let expected = Self.object([
            (
                "rows",
                .array([
                    Self.object([("id", 1), ("name", "a"), ("tags", tags(1, 2))]),
                    Self.object([("id", 2), ("name", "b"), ("tags", tags(3, 4))]),
                    Self.object([("id", 3), ("nom", "c"), ("tags", Self.object([("x", 5), ("z", 6)]))]),
                    Self.object([("id", 4), ("name", "d")]),
                    Self.object([("id", 5), ("name", "e"), ("tags", tags(7, 8)), ("more", true)]),
                    Self.object([("id", 6), ("name", "f"), ("tags", tags(9, 10))]),
                    Self.object([("id", 7), ("name", "g"), ("tags", tags(11, 12))]),
                ])
            )
        ])
        let read = try readJSON(text)
        #expect(read == expected)
        // Keys in order, and found by lookup, in every record.
        #expect(try read.jsonString() == expected.jsonString())
        guard case .object(let root) = read, case .array(let rows)? = root["rows"] else { return }
        for (index, row) in rows.enumerated() {
            guard case .object(let object) = row else { continue }
            #expect(object["id"] == .int(index + 1))
        }

        // A matched key repeated later: refused, naming the second one.
        let repeated = try #require(readFailure(#"[{"a":1,"b":2,"c":3},{"a":1,"b":2,"a":3}]"#))
        #expect(repeated.message == "duplicate key \"a\" in object")
        #expect(repeated.location?.column == 35)
        #expect(repeated.keyPath.description == "[1]")
        let lastWins = try readJSON(
            #"[{"a":1,"b":2,"c":3},{"a":1,"b":2,"a":3}]"#, options: JSONReadingOptions(duplicateKeys: .lastWins))
        #expect(lastWins == .array([Self.object([("a", 1), ("b", 2), ("c", 3)]), Self.object([("a", 3), ("b", 2)])]))
    }

    /// A failure inside an object read along a predicted shape names the
    /// predicted key in its key path, at every depth.
    @Test(arguments: [
        (#"[{"a":{"b":1}},{"a":{"b":tru}}]"#, "[1].a.b", 26),
        (#"[{"a":{"b":1}},{"a":{"b":1,}}]"#, "[1].a", 28),
        (#"[{"a":1,"b":"x"},{"a":2,"b":"\q"}]"#, "[1].b", 30),
        (#"[{"a":1,"b":2},{"a":1 "b":2}]"#, "[1]", 23),
        (#"[{"a":1,"b":2},{"a" 1}]"#, "[1]", 21),
    ])
    func failuresInsidePredictedObjectsNameTheirKeyPath(text: String, path: String, column: Int) throws {
        let error = try #require(readFailure(text))
        #expect(error.keyPath.description == path)
        #expect(error.location?.column == column)
    }

    /// Only shapes whose keys need no escape are predicted: a key holding a
    /// backslash does not match the raw bytes of another key that spells an
    /// escape with the same characters.
    @Test func keysThatNeedEscapesAreNeverMatchedByTheirRawBytes() throws {
        // The first key is `a\b` (an escaped backslash); the second is `a`, backspace.
        let read = try readJSON(#"[{"a\\b":1,"c":2},{"a\b":3,"c":4},{"a\\b":5,"c":6}]"#)
        #expect(
            read
                == .array([
                    Self.object([("a\\b", 1), ("c", 2)]), Self.object([("a\u{8}", 3), ("c", 4)]),
                    Self.object([("a\\b", 5), ("c", 6)]),
                ]))
    }

    /// A random record whose keys are one of `keySets`, nested up to three
    /// levels: of each `rolls` outcomes, one makes a member a record, one an
    /// array of records, one (with fewer than ten) a string, the rest an integer.
    static func randomRecord(
        keySets: [[String]], rolls: Int, depth: Int = 0, using random: inout SeededGenerator
    ) -> ModelValue {
        var object = ModelValue.Object()
        for key in keySets.randomElement(using: &random)! {
            let roll = Int.random(in: 0..<rolls, using: &random)
            if depth < 3, roll == 0 {
                object[key] = randomRecord(keySets: keySets, rolls: rolls, depth: depth + 1, using: &random)
            } else if depth < 3, roll == 1 {
                object[key] = .array(
                    (0..<Int.random(in: 0...3, using: &random)).map { _ in
                        randomRecord(keySets: keySets, rolls: rolls, depth: depth + 1, using: &random)
                    })
            } else if rolls < 10, roll == 2 {
                object[key] = .string("v\(roll)")
            } else {
                object[key] = .int(Int.random(in: -9...99, using: &random))
            }
        }
        return .object(object)
    }

    /// Seeded random documents of records whose keys come from a few
    /// sets, nested, so that shapes repeat, change and come back: reading
    /// the written text gives the value back, with its keys in order.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func randomRecordsReadBackWithTheirKeysInOrder(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let keySets: [[String]] = [
            ["id", "name", "tags"], ["id", "name"], ["id", "nom", "tags"], ["name", "id", "tags"],
            ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"], ["é", "日本", "x"], ["q\"", "r"],
            ["a", "b", "c", "d", "e", "f", "g", "h", "i", "k"],
        ]
        let value = ModelValue.array(
            (0..<300).map { _ in Self.randomRecord(keySets: keySets, rolls: 10, using: &random) })
        for options in [JSONWritingOptions.compact, .pretty] {
            let text = try value.jsonString(options: options)
            let read = try readJSON(text)
            #expect(read == value)
            #expect(try read.jsonString(options: options) == text)
        }
    }

    /// A member is read at once (whitespace, key and colon) when its text is
    /// the one the shape's first object had there; every near miss is read
    /// the usual way: indented deeper or less, other whitespace around the
    /// colon, a key one byte longer or shorter, a key that is a prefix.
    @Test(arguments: [
        #"[{"id": 1, "name": "a"},  {"id": 2,  "name": "b"}]"#,
        "[\n  {\n    \"id\": 1,\n    \"name\": \"a\"\n  },\n  {\n      \"id\": 2,\n      \"name\": \"b\"\n  }\n]",
        "[{\"id\": 1, \"name\": \"a\"}, {\"id\" : 2, \"name\":\"b\"}]",
        "[{\"id\":\t1,\"name\":\"a\"},{\"id\":\n2,\"name\":\r\n\"b\"}]",
        #"[{"id":1,"name":"a"},{"idx":2,"name":"b"}]"#,
        #"[{"id":1,"name":"a"},{"i":2,"name":"b"}]"#,
        #"[{"idx":1,"name":"a"},{"id":2,"name":"b"}]"#,
        #"[{"id":1,"name":"a"},{"id":2,"nam":"b"}]"#,
        #"[{"id":1,"name":"a"},{"id":2,"names":"b"}]"#,
        #"[{"id":1,"name":"a"},{"id":2}]"#,
        #"[{"id":1,"name":"a"},{}]"#,
    ])
    func memberTextsAreReadAtOnceOnlyWhenTheyAreTheSame(text: String) throws {
        let expected = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        guard case .array(let rows) = try readJSON(text) else {
            Issue.record("not an array")
            return
        }
        #expect(rows.count == expected.count)
        for (row, reference) in zip(rows, expected) {
            guard case .object(let object) = row else {
                Issue.record("not an object")
                continue
            }
            #expect(Set(object.keys) == Set(reference.keys))
            for (key, value) in reference {
                if let number = value as? Int {
                    #expect(object[key] == .int(number))
                } else {
                    #expect(object[key] == .string(try #require(value as? String)))
                }
            }
        }
    }

    /// Records that alternate between two shapes (with and without a key,
    /// or ending early) are each read with their own keys, in order; so
    /// are records whose only key is empty.
    @Test func recordsAlternatingBetweenTwoShapesReadAsTheyWouldAlone() throws {
        let text = #"""
            [{"id":1,"name":"a","extra":true,"tail":0},{"id":2,"name":"b","tail":0},
             {"id":3,"name":"c","extra":false,"tail":1},{"id":4,"name":"d","tail":1},
             {"id":5,"name":"e"},{"id":6,"name":"f","tail":2},{"id":7,"name":"g","extra":null,"tail":3},
             {"id":8,"nom":"h","tail":4},{"id":9,"name":"i","tail":5},{"id":10,"name":"j"},
             {"id":11,"name":"k","extra":1,"tail":6},{"id":12,"name":"l","extra":2}]
            """#
        let expected: [[(String, ModelValue)]] = [
            [("id", 1), ("name", "a"), ("extra", true), ("tail", 0)], [("id", 2), ("name", "b"), ("tail", 0)],
            [("id", 3), ("name", "c"), ("extra", false), ("tail", 1)], [("id", 4), ("name", "d"), ("tail", 1)],
            [("id", 5), ("name", "e")], [("id", 6), ("name", "f"), ("tail", 2)],
            [("id", 7), ("name", "g"), ("extra", .null), ("tail", 3)], [("id", 8), ("nom", "h"), ("tail", 4)],
            [("id", 9), ("name", "i"), ("tail", 5)], [("id", 10), ("name", "j")],
            [("id", 11), ("name", "k"), ("extra", 1), ("tail", 6)], [("id", 12), ("name", "l"), ("extra", 2)],
        ]
        let read = try readJSON(text)
        #expect(read == .array(expected.map { Self.object($0) }))
        #expect(try read.jsonString() == ModelValue.array(expected.map { Self.object($0) }).jsonString())
        // A repeat inside a record read along the other shape is still found.
        let repeated = try #require(readFailure(#"[{"a":1,"b":2},{"a":1,"c":2},{"a":1,"b":2,"a":3}]"#))
        #expect(repeated.message == "duplicate key \"a\" in object")
        #expect(repeated.keyPath.description == "[2]")

        let empty = try readJSON(#"[{"":1},{"":2},{"":3,"x":4},{"":5}]"#)
        #expect(empty == .array([Self.object([("", 1)]), Self.object([("", 2)]), Self.object([("", 3), ("x", 4)]), Self.object([("", 5)])]))
    }

    /// Seeded random records written with whitespace that depends on the
    /// record's style and depth (so member texts repeat, and differ from
    /// style to style), with now and then whitespace at random: reading
    /// gives the value back, keys in order, whichever way each member was read.
    @Test(arguments: [5, 6, 7] as [UInt64])
    func recordsInMixedLayoutsReadBackWithTheirKeysInOrder(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let keySets: [[String]] = [
            ["id", "name", "tags"], ["id", "name"], ["id", "names", "tags"], ["ids", "name", "tags"],
            ["é", "日本", "x"], ["q\"", "r"], ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"],
        ]
        let layouts = ["", " ", "\n", "\n  ", "\n    ", "\t", " \r\n  "]
        func space(_ style: Int, _ depth: Int, _ place: Int) -> String {
            if Int.random(in: 0..<20, using: &random) == 0 { return layouts.randomElement(using: &random)! }
            return layouts[(style &* 3 &+ depth &* 2 &+ place) % layouts.count]
        }
        func write(_ value: ModelValue, style: Int, depth: Int, into text: inout String) throws {
            switch value {
            case .object(let object):
                text += "{"
                for (index, key) in object.keys.enumerated() {
                    if index > 0 { text += space(style, depth, 0) + "," }
                    text += space(style, depth, 1) + (try ModelValue.string(key).jsonString())
                    text += space(style, depth, 2) + ":" + space(style, depth, 3)
                    try write(object.values[index], style: style, depth: depth + 1, into: &text)
                }
                text += space(style, depth, 4) + "}"
            case .array(let elements):
                text += "["
                for (index, element) in elements.enumerated() {
                    if index > 0 { text += "," }
                    text += space(style, depth, 5)
                    try write(element, style: style, depth: depth + 1, into: &text)
                }
                text += space(style, depth, 6) + "]"
            default:
                text += try value.jsonString()
            }
        }
        let records = (0..<300).map { _ in Self.randomRecord(keySets: keySets, rolls: 8, using: &random) }
        var text = "["
        for (index, value) in records.enumerated() {
            text += (index > 0 ? "," : "") + "\n"
            try write(value, style: Int.random(in: 0..<3, using: &random), depth: 1, into: &text)
        }
        text += "]"
        let read = try readJSON(text)
        #expect(read == .array(records))
        #expect(try read.jsonString() == ModelValue.array(records).jsonString())
    }
}
