import Foundation
import Testing

@testable import ModelKit

/// `ModelJSONDecoder` against Foundation's `JSONDecoder` on the same types and documents.
@Suite struct ModelJSONDecoderTests {
    /// Decodes `json` as `type` with both decoders; they must agree, on the value or on failing.
    @discardableResult
    func agree<Value: Decodable & Equatable>(
        _ type: Value.Type, _ json: String, _ settings: CoderSettings = CoderSettings(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Value? {
        let data = Data(json.utf8)
        let expected = Result { try settings.foundationDecoder.decode(type, from: data) }
        let actual = Result { try settings.decoder.decode(type, from: data) }
        switch (expected, actual) {
        case (.success(let expected), .success(let actual)):
            #expect(actual == expected, "\(json)", sourceLocation: sourceLocation)
            return actual
        case (.failure(let expected), .failure(let actual)):
            #expect(failureKind(actual) == failureKind(expected), "\(json): \(actual)", sourceLocation: sourceLocation)
        case (.success(let value), .failure(let error)):
            Issue.record("\(json): JSONDecoder read \(value), ModelJSONDecoder threw \(error)", sourceLocation: sourceLocation)
        case (.failure(let error), .success(let value)):
            Issue.record("\(json): JSONDecoder threw \(error), ModelJSONDecoder read \(value)", sourceLocation: sourceLocation)
        }
        return nil
    }

    @Test func scalarsDecodeAsFoundationDecodesThem() {
        let value = agree(
            Scalars.self,
            #"""
            {"int": -9223372036854775808, "int8": -128, "int16": 32767, "int32": -5, "int64": 9223372036854775807,
             "uint": 18446744073709551615, "uint8": 255, "uint16": 1, "uint32": 4294967295, "uint64": 12,
             "float": 0.1, "double": 2.5e-300, "flag": true, "text": "a\"b\\c\/d\u00e9\ud83d\ude00\n",
             "maybeInt": null, "maybeText": "x", "maybeDouble": 1e2}
            """#)
        #expect(value?.uint == UInt.max)
        #expect(value?.text == "a\"b\\c/dé😀\n")
        #expect(value?.float == 0.1)
        #expect(value?.maybeDouble == 100)
        // Integers written with a fraction or exponent, doubles written as integers.
        agree(SomeScalars.self, #"{"int": 1.0, "int8": 1e2, "double": 12, "float": 16777217, "int64": -0}"#)
        agree(SomeScalars.self, #"{"double": 123456789012345678901234567890, "float": 3.4028234e38}"#)
        agree(SomeScalars.self, #"{"double": 0.30000000000000004, "float": 1.17549435e-38, "int": 12}"#)
        agree(SomeScalars.self, "\u{FEFF} {\"text\": \"bom\"} \n")
        agree([Int].self, "[1, -2, 300000000000]")
        agree(Int.self, " 5 ")
        agree(String.self, #""top-level string""#)
        agree(Int?.self, "null")
        agree([Int?].self, "[1, null, 3]")
        agree([Bool].self, "[true, false]")
    }

    @Test func containersDecodeAsFoundationDecodesThem() {
        let json = #"""
            {"name": "Ada", "tags": ["a", "b"], "scores": {"x": 1, "y": 2}, "byNumber": {"1": "one", "20": "twenty"},
             "home": {"city": "Paris", "point": [2.35, 48.85]},
             "places": [{"city": "Rome", "zip": "00100", "point": []}, {"city": "Oslo", "zip": null, "point": [1]}],
             "matrix": [[1, 2], [], [3]],
             "contact": {"phone": {"country": 44, "number": "555"}},
             "history": [{"email": {"_0": "a@b.c"}}, {"none": {}}],
             "nested": {"k": [{"city": "Lyon", "point": [0.5]}]},
             "flags": ["on", "off"], "ignored": {"deep": [1, {"x": null}]}}
            """#
        let value = agree(Profile.self, json)
        #expect(value?.home?.city == "Paris")
        #expect(value?.history == [.email("a@b.c"), .none])
        #expect(value?.byNumber == [1: "one", 20: "twenty"])
    }

    @Test func handWrittenContainersAndSuperDecodersWork() throws {
        let json = #"{"outer": {"inner": 7}, "list": [["a", "b"], null, ["c", "d"]], "rest": {"p": 1, "q": 2}, "empty": null, "wrapped": 9}"#
        let value = agree(Handmade.self, json)
        #expect(value == Handmade(first: 7, second: ["ab", "cd"], extras: ["p": 1, "q": 2], nothing: true, wrapped: 9))
        let dog = try ModelJSONDecoder().decode(Dog.self, from: Data(#"{"tricks": ["sit"], "super": {"name": "Rex"}}"#.utf8))
        #expect(dog.name == "Rex" && dog.tricks == ["sit"])
        // A missing "super" member decodes as null, as in Foundation.
        let dogs = Result { try ModelJSONDecoder().decode(Dog.self, from: Data(#"{"tricks": []}"#.utf8)) }
        let foundationDogs = Result { try JSONDecoder().decode(Dog.self, from: Data(#"{"tricks": []}"#.utf8)) }
        #expect(failureKind(dogs.failure!) == failureKind(foundationDogs.failure!))
    }

    @Test func repeatedKeysKeepTheFirstValueAsInFoundation() {
        let value = agree(SomeScalars.self, #"{"int": 1, "text": "a", "int": 2, "text": "b"}"#)
        #expect(value?.int == 1 && value?.text == "a")
        // Keys asked for out of document order, with repeats.
        agree(SomeScalars.self, #"{"text": "a", "flag": true, "int": 1, "text": "b", "int": 2, "flag": false}"#)
        agree(CamelKeys.self, #"{"simple": 1, "fooBar": 2, "fooBar": 3, "simple": 4}"#)
    }

    @Test func largeObjectsInAnyOrderDecode() {
        var members = (0..<200).map { #""k\#($0)": \#($0)"# }
        var generator = SeededGenerator(seed: 7)
        members.shuffle(using: &generator)
        let value = agree([String: Int].self, "{" + members.joined(separator: ",") + "}")
        #expect(value?.count == 200 && value?["k150"] == 150)
        agree(Profile.Place.self, #"{"point": [1], "a": 1, "b": 2, "c": 3, "zip": "z", "city": "c"}"#)
        // Many members, some repeated, asked for in another order than the document's.
        var repeated = (0..<60).map { #""k\#($0 % 45)": \#($0)"# }
        repeated.shuffle(using: &generator)
        repeated.append(contentsOf: [#""city": "first""#, #""point": []"#, #""city": "second""#])
        repeated.shuffle(using: &generator)
        agree([String: Int?].self, "{" + repeated.joined(separator: ",").replacingOccurrences(of: "\"point\": []", with: "\"point\": null")
            .replacingOccurrences(of: "\"first\"", with: "1").replacingOccurrences(of: "\"second\"", with: "2") + "}")
        agree(Profile.Place.self, "{" + repeated.joined(separator: ",") + "}")
    }

    @Test func escapedAndNonASCIIKeysMatchByTheirText() {
        // "zip" spelled with an escape, and keys outside ASCII.
        agree(Profile.Place.self, #"{"city": "x", "z\u0069p": "1", "point": []}"#)
        agree([String: Int].self, #"{"é": 1, "e\u0301": 2, "日本": 3}"#)
        struct Accented: Codable, Equatable { var café: Int }
        agree(Accented.self, #"{"café": 1}"#)
        // Decomposed in the document, precomposed in the type: Swift's strings are equal.
        agree(Accented.self, #"{"cafe\u0301": 2}"#)
        struct Blank: Codable, Equatable {
            var blank: Int
            enum CodingKeys: String, CodingKey { case blank = "" }
        }
        agree(Blank.self, #"{"a": 1, "": 2, "": 3}"#)
        agree([String: Int].self, #"{"": 1, "a": 2}"#)
    }

    @Test func malformedDocumentsFailAsInFoundationWithTheReadersMessage() throws {
        for json in [
            "", " ", "{", #"{"a":1"#, #"{"a" 1}"#, #"{"a":1 "b":2}"#, "[1 2]", "nul", "tru", #""abc"#, "{} {}", "[1] x",
        ] {
            agree(ModelValueJSON.self, json)
        }
        // Foundation checks numbers and escapes when a value is read: read them.
        for json in ["[01]", "[1.]", "[-]", "[1e999]", "[2e400]"] { agree([Double].self, json) }
        for json in [#"["\q"]"#, #"["\ud800"]"#, #"["\u12"]"#] { agree([String].self, json) }
        // A number too large for a Double fails where it is read, not in a member no type reads.
        #expect(agree(SomeScalars.self, #"{"int": 1, "junk": [1e400, -2E+999]}"#)?.int == 1)
        agree(SomeScalars.self, #"{"int": 1, "double": 1e400}"#)
        // Trailing commas: JSONDecoder on Linux accepts them; RFC 8259 and ModelKit do not.
        #expect(throws: DecodingError.self) { try ModelJSONDecoder().decode([Int].self, from: Data("[1,]".utf8)) }
        let error = #expect(throws: DecodingError.self) {
            try ModelJSONDecoder().decode(SomeScalars.self, from: Data(#"{"int": 1,, "text": "x"}"#.utf8))
        }
        #expect(failureKind(error!) == "dataCorrupted")
        #expect(debugDescription(error!) == "The given data was not valid JSON: JSON at line 1, column 11 (byte 10): expected a string key, found ','")
        guard case .dataCorrupted(let context) = error else { return }
        #expect((context.underlyingError as? ModelError)?.code == .malformedDocument)
    }

    @Test func typeErrorsFailAsInFoundationAndNameTheKeyPath() throws {
        let cases: [(json: String, message: String)] = [
            (#"{"home": {"city": 12, "point": []}}"#, #"home.city: expected String, found an integer (12)"#),
            (#"{"places": [{"city": "a", "point": []}, {"city": "b", "point": [1, "x"]}]}"#,
             #"places[1].point[1]: expected Double, found a string ("x")"#),
            (#"{"places": [{"city": "a", "point": []}, null]}"#, #"places[1]: expected an object, found null"#),
            (#"{"places": [{"point": []}]}"#, #"places[0]: no value for the key "city""#),
            (#"{"home": {"city": null, "point": []}}"#, #"home.city: expected String, found null"#),
            (#"{"tags": {"a": 1}}"#, #"tags: expected an array, found an object with 1 key"#),
        ]
        struct Partial: Codable, Equatable {
            var home: Profile.Place?
            var places: [Profile.Place]?
            var tags: [String]?
        }
        for (json, message) in cases {
            agree(Partial.self, json)
            let error = #expect(throws: DecodingError.self) { try ModelJSONDecoder().decode(Partial.self, from: Data(json.utf8)) }
            #expect(debugDescription(error!) == message)
            // ModelKit's own error keeps the key path apart from the message.
            let modelError = ModelError(error!)
            #expect(modelError.description == message, "\(modelError.keyPath)")
        }
        for json in [
            #"{"int": 1.5}"#, #"{"int8": 128}"#, #"{"uint": -1}"#, #"{"uint8": 256}"#, #"{"float": 1e300}"#,
            #"{"int": "1"}"#, #"{"flag": 1}"#, #"{"text": true}"#, #"{"int": null}"#, #"{"int": [1]}"#,
            #"{"int64": 9223372036854775808}"#, #"{"double": "NaN"}"#,
        ] {
            agree(SomeScalars.self, json)
        }
        let error = #expect(throws: DecodingError.self) {
            try ModelJSONDecoder().decode(SomeScalars.self, from: Data(#"{"uint8": 256}"#.utf8))
        }
        #expect(debugDescription(error!) == "uint8: number 256 does not fit in UInt8")
        agree(Profile.self, #"{"name": "x"}"#)
        agree([Int].self, #"{"a": 1}"#)
        agree([Int: String].self, #"{"x": "1"}"#)
    }

    @Test func nestingPastTheReadersLimitIsRefused() throws {
        /// Nested arrays, read one unkeyed container per level.
        struct Nest: Decodable {
            var depth: Int
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                depth = container.isAtEnd ? 1 : try container.decode(Nest.self).depth + 1
            }
        }
        let deepest = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(try ModelJSONDecoder().decode(Nest.self, from: Data(deepest.utf8)).depth == 512)
        let tooDeep = "[" + deepest + "]"
        let error = #expect(throws: DecodingError.self) { try ModelJSONDecoder().decode(Nest.self, from: Data(tooDeep.utf8)) }
        guard case .dataCorrupted(let context) = error else { return }
        #expect((context.underlyingError as? ModelError)?.code == .nestingTooDeep)
    }

    @Test func stringsAreCheckedForUTF8WhenRead() throws {
        var bad = Data(#"{"text": "ab", "other": "cd"}"#.utf8)
        bad[11] = 0xFF  // inside "ab"
        let error = #expect(throws: DecodingError.self) { try ModelJSONDecoder().decode(SomeScalars.self, from: bad) }
        #expect(debugDescription(error!)?.hasPrefix("text: invalid UTF-8 (byte 0xFF) in string") == true, "\(error!)")
        #expect(failureKind(error!) == failureKind(Result { try JSONDecoder().decode(SomeScalars.self, from: bad) }.failure!))
        // In a member no type reads, as in JSONDecoder, only the grammar is checked.
        var unread = Data(#"{"text": "ab", "other": "cd"}"#.utf8)
        unread[25] = 0xFF
        #expect(try ModelJSONDecoder().decode(SomeScalars.self, from: unread).text == "ab")
        #expect(try JSONDecoder().decode(SomeScalars.self, from: unread).text == "ab")
        // So are escapes and control characters.
        #expect(agree(SomeScalars.self, "{\"int\": 1, \"junk\": [\"a\\qb\u{1}\", \"\\ud800\"]}")?.int == 1)
        agree(SomeScalars.self, "{\"int\": 1, \"text\": \"a\\qb\"}")
        agree(SomeScalars.self, "{\"int\": 1, \"text\": \"a\tb\"}")
        agree(SomeScalars.self, "{\"int\": 1, \"j\\qunk\": 2}")
    }

    @Test(arguments: ModelJSONCoderStrategies.all)
    func strategiesDecodeAsInFoundation(settings: CoderSettings) throws {
        let special = Special(
            date: Date(timeIntervalSince1970: 1_600_000_000), data: Data([0, 1, 2, 250]), url: URL(string: "https://a.b/c?d=e")!,
            decimal: Decimal(string: "12345678901234567890.125")!, dates: [Date(timeIntervalSince1970: 0)], maybeDate: nil)
        let camel = CamelKeys(fooBar: 1, aURL: "u", myURLProperty: 3, simple: nil, dictionaryValue: ["keepThis": 1])
        let floats = Floats(double: .infinity, float: -.infinity, values: [.nan, 1.5])
        for data in [try? settings.foundationEncoder.encode(special), try? settings.foundationEncoder.encode(camel)] {
            guard let data else { continue }
            agree(Special.self, String(decoding: data, as: UTF8.self), settings)
            agree(CamelKeys.self, String(decoding: data, as: UTF8.self), settings)
        }
        if let data = try? settings.foundationEncoder.encode(floats) {
            agree(Floats.self, String(decoding: data, as: UTF8.self), settings)
        }
        agree(CamelKeys.self, #"{"foo_bar": 1, "a_u_r_l": "x", "my_url_property": 2, "fooBar": 3, "dictionary_value": {"a_b": 1}}"#, settings)
        agree(Floats.self, #"{"double": "inf", "float": "-inf", "values": ["nan", 1]}"#, settings)
    }

    @Test func iso8601DatesReadAsInFoundation() {
        var settings = CoderSettings()
        settings.dateDecoding = .iso8601
        for text in [
            "2020-01-02T03:04:05Z", "2020-01-02T03:04:05.123Z", "2020-01-02T03:04:05+01:00", "2020-01-02T03:04:05.5-07:30",
            "2020-01-02", "2020-01-02T03:04:05", "bad", "2020-13-02T03:04:05Z",
        ] {
            agree([Date].self, "[\"\(text)\"]", settings)
        }
        agree([Date].self, "[12.5]", settings)
    }

    @Test func userInfoReachesEveryDecoder() throws {
        var decoder = ModelJSONDecoder()
        decoder.userInfo[Greeting.key] = "hello, "
        #expect(try decoder.decode([Greeting].self, from: Data(#"["a", "b"]"#.utf8)) == [Greeting(text: "hello, a"), Greeting(text: "hello, b")])
    }

    @Test func theTwitterCorpusDecodesAsInFoundation() throws {
        guard let url = corpusURL("twitter.json") else { return }
        let data = try Data(contentsOf: url)
        struct Search: Codable, Equatable {
            struct Status: Codable, Equatable {
                struct User: Codable, Equatable {
                    var id: Int, screen_name: String, description: String, followers_count: Int, verified: Bool
                    var url: String?
                }
                var id: Int, id_str: String, text: String, source: String, truncated: Bool
                var in_reply_to_status_id: Int?, in_reply_to_screen_name: String?
                var user: User
                var entities: [String: [[String: ModelValueJSON]]]
                var metadata: [String: String]
            }
            var statuses: [Status]
            var search_metadata: [String: ModelValueJSON]
        }
        let expected = try JSONDecoder().decode(Search.self, from: data)
        let actual = try ModelJSONDecoder().decode(Search.self, from: data)
        #expect(actual.statuses.count == 100)
        #expect(actual == expected)
        var snake = CoderSettings()
        snake.keyDecoding = .convertFromSnakeCase
        struct Camel: Codable, Equatable {
            struct Status: Codable, Equatable { var idStr: String; var inReplyToScreenName: String?; var retweetCount: Int }
            var statuses: [Status]
        }
        #expect(try snake.decoder.decode(Camel.self, from: data) == snake.foundationDecoder.decode(Camel.self, from: data))
    }
}

/// Any JSON value, decoded through every kind of container, for comparing whole subtrees.
enum ModelValueJSON: Codable, Equatable {
    case null, bool(Bool), int(Int), double(Double), string(String), array([ModelValueJSON]), object([String: ModelValueJSON])

    init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let flag = try? single.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? single.decode(Int.self) {
            self = .int(number)
        } else if let number = try? single.decode(Double.self) {
            self = .double(number)
        } else if let text = try? single.decode(String.self) {
            self = .string(text)
        } else if var unkeyed = try? decoder.unkeyedContainer() {
            var elements: [ModelValueJSON] = []
            while !unkeyed.isAtEnd { elements.append(try unkeyed.decode(ModelValueJSON.self)) }
            self = .array(elements)
        } else {
            self = .object(try single.decode([String: ModelValueJSON].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        switch self {
        case .null: try single.encodeNil()
        case .bool(let flag): try single.encode(flag)
        case .int(let number): try single.encode(number)
        case .double(let number): try single.encode(number)
        case .string(let text): try single.encode(text)
        case .array(let elements): try single.encode(elements)
        case .object(let members): try single.encode(members)
        }
    }
}

/// The strategy combinations both coders are compared under.
enum ModelJSONCoderStrategies {
    static let all: [CoderSettings] = {
        var settings: [CoderSettings] = [CoderSettings()]
        var snake = CoderSettings(name: "snake case")
        snake.keyDecoding = .convertFromSnakeCase
        snake.keyEncoding = .convertToSnakeCase
        settings.append(snake)
        var custom = CoderSettings(name: "custom keys")
        custom.keyDecoding = .custom { path in AnyCodingKey(stringValue: String(path.last!.stringValue.dropFirst(2))) }
        custom.keyEncoding = .custom { path in AnyCodingKey(stringValue: "k_" + path.last!.stringValue) }
        settings.append(custom)
        var seconds = CoderSettings(name: "seconds")
        seconds.dateDecoding = .secondsSince1970
        seconds.dateEncoding = .secondsSince1970
        seconds.dataDecoding = .deferredToData
        seconds.dataEncoding = .deferredToData
        settings.append(seconds)
        var milliseconds = CoderSettings(name: "milliseconds")
        milliseconds.dateDecoding = .millisecondsSince1970
        milliseconds.dateEncoding = .millisecondsSince1970
        settings.append(milliseconds)
        var iso = CoderSettings(name: "iso8601")
        iso.dateDecoding = .iso8601
        iso.dateEncoding = .iso8601
        settings.append(iso)
        var customValues = CoderSettings(name: "custom dates and data")
        customValues.dateDecoding = .custom { decoder in
            Date(timeIntervalSince1970: try decoder.singleValueContainer().decode(Double.self) * 60)
        }
        customValues.dateEncoding = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.timeIntervalSince1970 / 60)
        }
        customValues.dataDecoding = .custom { decoder in
            Data(try decoder.singleValueContainer().decode(String.self).utf8)
        }
        customValues.dataEncoding = .custom { data, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(String(decoding: data, as: UTF8.self))
        }
        settings.append(customValues)
        var floats = CoderSettings(name: "non-conforming floats")
        floats.floatDecoding = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        floats.floatEncoding = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        settings.append(floats)
        return settings
    }()
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
