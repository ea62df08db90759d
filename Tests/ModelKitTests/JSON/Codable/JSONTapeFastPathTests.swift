import Foundation
import Testing

@testable import ModelKit

/// The decoder's fast paths (the keyed container's lookup from the member
/// after the last one found, containers handed out again, scalars and
/// escaped strings read without the reader) against Foundation's
/// `JSONDecoder` and against the exact messages of the full paths.
@Suite struct JSONTapeFastPathTests {
    /// Five keys, asked for in declaration order by the synthesized `init(from:)`.
    struct Five: Codable, Equatable {
        var a: Int
        var bb: String
        var ccc: Bool
        var dddd: Double
        var eeeee: Int?
    }

    /// The same keys, asked for last to first.
    struct FiveBackwards: Decodable, Equatable {
        var values: [String]
        enum CodingKeys: String, CodingKey { case a, bb, ccc, dddd, eeeee }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            values = try [CodingKeys.eeeee, .dddd, .ccc, .bb, .a].map { key in
                try container.decodeIfPresent(ModelValueJSON.self, forKey: key).map { "\($0)" } ?? "-"
            }
        }
    }

    /// Decodes `json` with both decoders: they must agree on the value, or both fail.
    @discardableResult
    func agree<Value: Decodable & Equatable>(
        _ type: Value.Type, _ json: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Value? {
        ModelJSONDecoderTests().agree(type, json, sourceLocation: sourceLocation)
    }

    /// The debug description of what decoding `json` as `type` throws.
    func message<Value: Decodable>(_ type: Value.Type, _ json: String) -> String? {
        do {
            _ = try ModelJSONDecoder().decode(type, from: Data(json.utf8))
            return nil
        } catch {
            return debugDescription(error)
        }
    }

    static let keyOrders: [(json: String, value: Five?)] = [
        (#"{"a": 1, "bb": "x", "ccc": true, "dddd": 2.5, "eeeee": 3}"#, Five(a: 1, bb: "x", ccc: true, dddd: 2.5, eeeee: 3)),
        (#"{"eeeee": 3, "dddd": 2.5, "ccc": true, "bb": "x", "a": 1}"#, Five(a: 1, bb: "x", ccc: true, dddd: 2.5, eeeee: 3)),
        (#"{"ccc": false, "a": 1, "eeeee": null, "bb": "y", "dddd": 4}"#, Five(a: 1, bb: "y", ccc: false, dddd: 4, eeeee: nil)),
        // Members the type does not ask for, before, between and after.
        (#"{"z": 0, "a": 1, "zz": [1, {"a": 9}], "bb": "x", "ccc": true, "y": {}, "dddd": 1, "w": "a"}"#,
         Five(a: 1, bb: "x", ccc: true, dddd: 1, eeeee: nil)),
        // Repeated keys: the first occurrence wins, wherever the search starts.
        (#"{"a": 1, "a": 2, "bb": "x", "ccc": true, "dddd": 1, "bb": "y"}"#, Five(a: 1, bb: "x", ccc: true, dddd: 1, eeeee: nil)),
        (#"{"bb": "x", "ccc": true, "a": 1, "dddd": 1, "a": 2, "eeeee": 5, "eeeee": 6}"#,
         Five(a: 1, bb: "x", ccc: true, dddd: 1, eeeee: 5)),
        (#"{"dddd": 1, "a": 7, "bb": "x", "a": 8, "ccc": true, "bb": "z", "dddd": 2}"#,
         Five(a: 7, bb: "x", ccc: true, dddd: 1, eeeee: nil)),
        // Keys that are prefixes or extensions of the ones asked for.
        (#"{"aa": 0, "a": 1, "b": "no", "bb": "x", "cc": false, "ccc": true, "ddddd": 0, "dddd": 3}"#,
         Five(a: 1, bb: "x", ccc: true, dddd: 3, eeeee: nil)),
        // Escaped keys (matched by their text), before and after a plain one.
        (#"{"\u0061": 1, "bb": "x", "c\u0063c": true, "dddd": 1}"#, Five(a: 1, bb: "x", ccc: true, dddd: 1, eeeee: nil)),
        (#"{"a": 1, "\u0061": 2, "bb": "x", "ccc": true, "dddd": 1}"#, Five(a: 1, bb: "x", ccc: true, dddd: 1, eeeee: nil)),
        (#"{"\u0061": 2, "a": 1, "bb": "x", "ccc": true, "dddd": 1}"#, Five(a: 2, bb: "x", ccc: true, dddd: 1, eeeee: nil)),
        // Keys outside ASCII around the ones asked for.
        (#"{"é": 0, "a": 1, "日本": 2, "bb": "x", "ccc": true, "dddd": 1}"#, Five(a: 1, bb: "x", ccc: true, dddd: 1, eeeee: nil)),
        // A missing key.
        (#"{"a": 1, "bb": "x", "dddd": 1}"#, nil),
        (#"{}"#, nil),
    ]

    @Test(arguments: keyOrders)
    func keysAreFoundInAnyOrderAndTheFirstOccurrenceWins(json: String, value: Five?) {
        #expect(agree(Five.self, json) == value)
        agree(FiveBackwards.self, json)
    }

    /// Asks for the keys that `userInfo[Probe.orderKey]` lists, in that
    /// order, each as an optional `Int`, and keeps what it finds.
    struct Probe: Decodable, Equatable {
        static let orderKey = CodingUserInfoKey(rawValue: "order")!
        var values: [Int?]
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            let order = decoder.userInfo[Probe.orderKey] as? [String] ?? []
            values = try order.map { try container.decodeIfPresent(Int.self, forKey: Key(stringValue: $0)) }
        }
    }

    /// Objects of up to 60 members (so that many keys share a bit of the
    /// search's filter of passed keys), shuffled, some repeated, some
    /// missing, read for keys asked in random orders, again and again:
    /// the values are Foundation's, the first occurrence winning.
    @Test(arguments: 0..<60 as Range<UInt64>)
    func manyKeysAskedForInAnyOrderFindTheFirstOccurrence(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed &+ 500)
        let names = (0..<60).map { index -> String in
            let stem = ["k", "key", "longer_key_", "a_key_of_more_than_sixteen_bytes_"][index % 4]
            return stem + String(index, radix: 7)
        }
        var members: [String] = []
        var value = 0
        for name in names where Int.random(in: 0..<5, using: &generator) > 0 {
            for _ in 0..<(Int.random(in: 0..<6, using: &generator) == 0 ? 2 : 1) {
                members.append("\"\(name)\": \(value)")
                value += 1
            }
        }
        members.shuffle(using: &generator)
        let data = Data(("{" + members.joined(separator: ", ") + "}").utf8)
        var order = (0..<Int.random(in: 1...45, using: &generator)).map { _ in names.randomElement(using: &generator)! }
        order.append(contentsOf: ["absent", names[0]])
        var ours = ModelJSONDecoder()
        ours.userInfo[Probe.orderKey] = order
        let foundation = JSONDecoder()
        foundation.userInfo[Probe.orderKey] = order
        let expected = try foundation.decode(Probe.self, from: data)
        #expect(try ours.decode(Probe.self, from: data) == expected, "\(order)")
        #expect(expected.values.contains { $0 != nil })
    }

    @Test func missingKeysAndWrongTypesAtDepthNameTheirPath() {
        struct Outer: Decodable { var items: [Inner] }
        struct Inner: Decodable {
            var five: Five
            var list: [Five]?
        }
        let five = #"{"a": 1, "bb": "x", "ccc": true, "dddd": 1}"#
        let cases: [(json: String, message: String)] = [
            (#"{"items": [{"five": \#(five)}, {"five": {"a": 1, "bb": "x", "dddd": 1}}]}"#,
             #"items[1].five: no value for the key "ccc""#),
            (#"{"items": [{"five": \#(five)}, {"five": \#(five), "list": [\#(five), {"a": "1"}]}]}"#,
             #"items[1].list[1].a: expected Int, found a string ("1")"#),
            (#"{"items": [{"five": {"a": 1, "bb": 2, "ccc": true, "dddd": 1}}]}"#,
             #"items[0].five.bb: expected String, found an integer (2)"#),
            (#"{"items": [{"five": {"a": 1, "bb": "x", "ccc": 1, "dddd": 1}}]}"#,
             #"items[0].five.ccc: expected Bool, found an integer (1)"#),
            (#"{"items": [{"five": {"a": 1, "bb": "x", "ccc": true, "dddd": "1"}}]}"#,
             #"items[0].five.dddd: expected Double, found a string ("1")"#),
            (#"{"items": [{"five": {"a": 1, "bb": "x", "ccc": true, "dddd": 1, "eeeee": 1.5}}]}"#,
             #"items[0].five.eeeee: number 1.5 does not fit in Int"#),
            (#"{"items": [{"five": {"a": null, "bb": "x", "ccc": true, "dddd": 1}}]}"#,
             #"items[0].five.a: expected Int, found null"#),
            (#"{"items": [{"five": {"a": 1, "bb": "x", "ccc": true, "dddd": 1, "eeeee": "2"}}]}"#,
             #"items[0].five.eeeee: expected Int, found a string ("2")"#),
            (#"{"items": [{"five": {"a": 12345678901234567890, "bb": "x", "ccc": true, "dddd": 1}}]}"#,
             #"items[0].five.a: number 12345678901234567890 does not fit in Int"#),
            (#"{"items": [{"five": [1]}]}"#, #"items[0].five: expected an object, found an array of 1 element"#),
            // Arrays of any element type are decoded without an unkeyed container.
            (#"{"items": {"five": 1}}"#, #"items: expected an array, found an object with 1 key"#),
            (#"{"items": [{"five": \#(five), "list": null}, {"five": \#(five), "list": "x"}]}"#,
             #"items[1].list: expected an array, found a string ("x")"#),
            (#"{"items": [{"five": \#(five), "list": [\#(five), \#(five), null]}]}"#,
             #"items[0].list[2]: expected an object, found null"#),
        ]
        for (json, expected) in cases {
            #expect(message(Outer.self, json) == expected, "\(json)")
        }
    }

    @Test func arraysOfAnyElementTypeDecodeAsInFoundation() {
        let five = #"{"a": 1, "bb": "x", "ccc": true, "dddd": 1}"#
        #expect(agree([Five].self, "[\(five), \(five)]")?.count == 2)
        #expect(agree([[Five]].self, "[[], [\(five)], [\(five), \(five)]]")?.map(\.count) == [0, 1, 2])
        #expect(agree([Five?].self, "[null, \(five)]")?.first == .some(nil))
        #expect(agree([[Int]?].self, "[[1, 2], null, []]") == [[1, 2], nil, []])
        #expect(agree([Bool].self, "[true, false]") == [true, false])
        agree([Five].self, "[\(five), 1]")
        agree([Five].self, #"{"a": 1}"#)
        agree([[Five]].self, "[[\(five)], [null]]")
    }

    /// Keys of every length around the tape's fast path for short plain keys
    /// (up to 23 bytes, the colon right after), spaced and spelled in every way.
    @Test(arguments: 0...27)
    func keysOfEveryLengthAreTaped(length: Int) throws {
        let key = String((0..<length).map { Character(UnicodeScalar(UInt8(ascii: "a") + UInt8($0 % 26))) })
        for json in [
            #"{"\#(key)":1}"#, #"{"\#(key)" : 1}"#, "{\"\(key)\"\n:1}", #"{"x":0,"\#(key)":1}"#, #"{"\#(key)":1,"x":0}"#,
            #"{"\#(key)":1}  "#, #"[{"\#(key)":1}]"#, #"{"\#(key)": 1}"#, #"{"\#(key)":  1}"#, "{\"\(key)\": \n1}",
            #"{"\#(key)": 1, "x": 0}"#,
        ] {
            let expected = key == "x" && json.contains("\"x\":0") ? nil : [key: 1]
            let value = json.hasPrefix("[") ? agree([[String: Int]].self, json)?.first : agree([String: Int].self, json)
            if let expected { #expect(value?[key] == expected[key], "\(json)") }
        }
        // Outside ASCII, escaped, or with a control character within the first sixteen bytes.
        let accented = key + "é"
        #expect(agree([String: Int].self, #"{"\#(accented)":2}"#) == [accented: 2])
        #expect(agree([String: Int].self, #"{"\#(key)\u0041":3}"#) == [key + "A": 3])
        #expect(agree([String: Int].self, #"{"\u0041\#(key)":3}"#) == ["A" + key: 3])
        let control = "{\"\(key)\u{1}\":1}"
        agree([String: Int].self, control)
        #expect(message([String: Int].self, control)?.hasPrefix("in a key: unescaped control character U+0001 in string") == true)
        // Cut short at the end of the document.
        agree([String: Int].self, #"{"\#(key)"#)
        agree([String: Int].self, #"{"\#(key)""#)
        agree([String: Int].self, #"{"\#(key)":"#)
        agree([String: Int].self, #"{"\#(key)": "#)
        agree([String: Int].self, #"{"\#(key)": 1"#)
        agree([String: Int].self, #"{"\#(key)": }"#)
    }

    @Test func rawKeysOutsideASCIIMatchByCanonicalEquivalence() {
        struct Accented: Codable, Equatable { var café: Int }
        // Decomposed, raw (not escaped) in the document; precomposed in the type.
        #expect(agree(Accented.self, "{\"cafe\u{301}\": 2}") == Accented(café: 2))
        #expect(agree(Accented.self, "{\"x\": 1, \"cafe\u{301}\": 3}") == Accented(café: 3))
        #expect(agree(Accented.self, "{\"caf\u{E9}\": 4}") == Accented(café: 4))
        // The Kelvin sign is canonically "K": a key outside ASCII equal to an ASCII coding key.
        struct Kelvin: Codable, Equatable {
            var k: Int
            enum CodingKeys: String, CodingKey { case k = "K" }
        }
        #expect(agree(Kelvin.self, "{\"\u{212A}\": 5}") == Kelvin(k: 5))
        #expect(agree(Kelvin.self, "{\"a\": 0, \"\u{212A}\": 6, \"K\": 7}") == Kelvin(k: 6))
    }

    static let integers: [(text: String, value: Int?)] = [
        ("0", 0), ("-0", 0), ("7", 7), ("-7", -7),
        ("123456789012345678", 123_456_789_012_345_678), ("-123456789012345678", -123_456_789_012_345_678),
        ("1234567890123456789", 1_234_567_890_123_456_789), ("9223372036854775807", Int.max),
        ("-9223372036854775808", Int.min), ("9223372036854775808", nil), ("1e2", 100), ("1.0", 1), ("1.5", nil),
        ("-1E1", -10),
    ]

    @Test(arguments: integers)
    func integersReadInPlaceAsByTheFullConversion(text: String, value: Int?) {
        #expect(agree(Five.self, #"{"a": \#(text), "bb": "", "ccc": false, "dddd": \#(text), "eeeee": \#(text)}"#)?.a == value)
        #expect(agree([Int].self, "[\(text)]") == value.map { [$0] })
        #expect(agree(Int.self, text) == value)
        if value == nil {
            let expected = "number \(text) does not fit in Int"
            #expect(message(Five.self, #"{"a": \#(text), "bb": "", "ccc": false, "dddd": 0}"#) == "a: " + expected)
            #expect(message(Five.self, #"{"a": 0, "bb": "", "ccc": false, "dddd": 0, "eeeee": \#(text)}"#) == "eeeee: " + expected)
        }
    }

    static let escapedStrings: [(json: String, text: String)] = [
        (#""plain""#, "plain"),
        (#""a\"b""#, "a\"b"),
        (#""\\\/\b\f\n\r\t""#, "\\/\u{8}\u{C}\n\r\t"),
        (#""\u0041\u00e9\u00E9\u4e2d""#, "Aéé中"),
        (#""\ud83d\ude00 and \uD83D\uDE00""#, "😀 and 😀"),
        (#""\u0000""#, "\u{0}"),
        (#""日本\n語 \"é\"""#, "日本\n語 \"é\""),
        (#""<a href=\"http:\/\/twitter.com\" rel=\"nofollow\">Twitter Web Client<\/a>""#,
         #"<a href="http://twitter.com" rel="nofollow">Twitter Web Client</a>"#),
        (#""\\""#, "\\"),
        (#""long \#(String(repeating: "x", count: 300))\n\#(String(repeating: "é", count: 300))""#,
         "long \(String(repeating: "x", count: 300))\n\(String(repeating: "é", count: 300))"),
    ]

    @Test(arguments: escapedStrings)
    func escapedStringsDecodeAsInFoundation(json: String, text: String) {
        #expect(agree(String.self, json) == text)
        #expect(agree([String].self, "[\(json), \(json)]") == [text, text])
        #expect(agree(Five.self, #"{"a": 1, "bb": \#(json), "ccc": true, "dddd": 1}"#)?.bb == text)
        // As a key.
        #expect(agree([String: Int].self, "{\(json): 1}") == [text: 1])
    }

    /// Each as the value of "bb" in `{"a": 1, "bb": …, "ccc": true, "dddd": 1}`: the string starts at byte 15.
    static let malformedStrings: [(json: String, message: String)] = [
        (#""\ud83d""#, #"unpaired surrogate \uD83D in string at line 1, column 17 (byte 16)"#),
        (#""\ude00x""#, #"unpaired surrogate \uDE00 in string at line 1, column 17 (byte 16)"#),
        (#""\ud83d\u0041""#, #"unpaired surrogate \uD83D in string at line 1, column 17 (byte 16)"#),
        (#""\ud83dx\ude00""#, #"unpaired surrogate \uD83D in string at line 1, column 17 (byte 16)"#),
        (#""a\qb""#, #"invalid escape sequence '\q' in string at line 1, column 18 (byte 17)"#),
        (#""\u12G4""#, #"expected four hexadecimal digits after '\u' at line 1, column 17 (byte 16)"#),
        ("\"a\\n\u{1}\"", #"unescaped control character U+0001 in string at line 1, column 20 (byte 19)"#),
        ("\"\u{1F}\\n\"", #"unescaped control character U+001F in string at line 1, column 17 (byte 16)"#),
    ]

    @Test(arguments: malformedStrings)
    func malformedEscapesFailWithTheReadersMessage(json: String, message expected: String) {
        agree(Five.self, #"{"a": 1, "bb": \#(json), "ccc": true, "dddd": 1}"#)
        #expect(message(Five.self, #"{"a": 1, "bb": \#(json), "ccc": true, "dddd": 1}"#) == "bb: " + expected)
    }

    @Test func invalidUTF8BesideEscapesFailsWithTheReadersMessage() throws {
        for json in [#"{"bb": "a\nbXc", "a": 1, "ccc": true, "dddd": 1}"#, #"{"bb": "\u00e9\nX", "a": 1, "ccc": true, "dddd": 1}"#] {
            var data = Data(json.utf8)
            let offset = try #require(data.firstIndex(of: UInt8(ascii: "X")))
            data[offset] = 0xE6  // a lead byte with no continuation
            let error = #expect(throws: DecodingError.self) { try ModelJSONDecoder().decode(Five.self, from: data) }
            #expect(debugDescription(error!) == "bb: invalid UTF-8 (byte 0xE6) in string at line 1, column \(offset + 1) (byte \(offset))")
            #expect(failureKind(error!) == failureKind(Result { try JSONDecoder().decode(Five.self, from: data) }.failure!))
        }
    }

    /// A tree, whose every level holds its container while its children
    /// open theirs, of the same key type.
    struct Tree: Codable, Equatable {
        var name: String
        var children: [Tree]
        var size: Int
    }

    /// Holds a container of a key type while a nested value of that key
    /// type is decoded, then reads from it again; also opens the same
    /// object twice at once.
    struct Holder: Decodable, Equatable {
        var before: Int
        var inner: [Holder]
        var after: Int
        var again: Int
        enum CodingKeys: String, CodingKey { case before, inner, after }
        init(from decoder: any Decoder) throws {
            let first = try decoder.container(keyedBy: CodingKeys.self)
            let second = try decoder.container(keyedBy: CodingKeys.self)
            before = try first.decode(Int.self, forKey: .before)
            inner = try first.decodeIfPresent([Holder].self, forKey: .inner) ?? []
            after = try first.decode(Int.self, forKey: .after)
            again = try second.decode(Int.self, forKey: .after)
        }
    }

    @Test func containersInUseAreNotHandedOutAgain() throws {
        let json = #"""
            {"name": "root", "size": 1, "children": [
              {"name": "a", "size": 2, "children": [{"name": "a1", "size": 3, "children": []}]},
              {"name": "b", "size": 4, "children": []},
              {"children": [{"size": 6, "children": [], "name": "c1"}], "size": 5, "name": "c"}]}
            """#
        let tree = try #require(agree(Tree.self, json))
        #expect(tree.children.map(\.name) == ["a", "b", "c"] && tree.children[2].children[0].size == 6)
        let holder = try ModelJSONDecoder().decode(
            Holder.self,
            from: Data(#"{"before": 1, "inner": [{"before": 2, "after": 3}, {"after": 5, "inner": [], "before": 4}], "after": 6}"#.utf8))
        #expect(holder.before == 1 && holder.after == 6 && holder.again == 6)
        #expect(holder.inner.map(\.before) == [2, 4] && holder.inner.map(\.after) == [3, 5] && holder.inner.map(\.again) == [3, 5])
        // Many key types and levels at once: more than the state keeps.
        let leaf = #"{"name": "leaf", "size": 0, "children": []}"#
        var nested = leaf
        for level in 1...40 { nested = #"{"name": "n\#(level)", "size": \#(level), "children": [\#(leaf), \#(nested)]}"# }
        let deep = try #require(agree(Tree.self, nested))
        #expect(deep.size == 40 && deep.children[1].children[1].size == 38 && deep.children[1].children[0].name == "leaf")
    }
}
