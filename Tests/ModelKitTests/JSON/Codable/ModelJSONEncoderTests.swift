import Foundation
import Testing

@testable import ModelKit

/// `ModelJSONEncoder` against Foundation's `JSONEncoder`: what it writes,
/// `JSONDecoder` reads back to the value `JSONEncoder`'s output gives.
@Suite struct ModelJSONEncoderTests {
    /// Encodes `value` with both encoders and reads both outputs back with
    /// Foundation's decoder; returns ModelKit's text.
    @discardableResult
    func agree<Value: Codable & Equatable>(
        _ value: Value, _ settings: CoderSettings = CoderSettings(), sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        let ours = try settings.encoder.encode(value)
        let theirs = try settings.foundationEncoder.encode(value)
        let back = try settings.foundationDecoder.decode(Value.self, from: ours)
        let expected = try settings.foundationDecoder.decode(Value.self, from: theirs)
        #expect(back == expected, "\(String(decoding: ours, as: UTF8.self))", sourceLocation: sourceLocation)
        // The same JSON values, whatever the spelling of numbers and the order of keys.
        #expect(
            try numbersAsDoubles(ModelValue(json: ours)) == numbersAsDoubles(ModelValue(json: theirs)),
            sourceLocation: sourceLocation)
        return String(decoding: ours, as: UTF8.self)
    }

    /// `value` with every number as a `Double`: `1` and `1.0` are the same JSON number.
    func numbersAsDoubles(_ value: ModelValue) -> ModelValue {
        switch value {
        case .int(let number): return .double(Double(number))
        case .bigInteger(let digits): return .double(Double(digits) ?? .nan)
        case .array(let elements): return .array(elements.map(numbersAsDoubles))
        case .object(let object):
            var result = ModelValue.Object()
            for (key, member) in object { result[key] = numbersAsDoubles(member) }
            return .object(result)
        default: return value
        }
    }

    static let profile = Profile(
        name: "Ada \"the\" Countess/é\n\u{1}", tags: ["a", ""], scores: ["x": 1, "y": -2], byNumber: [3: "three"],
        home: Profile.Place(city: "Paris", zip: nil, point: [2.35, 48.85, 1e-300, -0.0]),
        places: [Profile.Place(city: "Rome", zip: "00100", point: [])], matrix: [[1, 2], [], [3]],
        contact: .phone(country: 44, number: "555"), history: [.email("a@b.c"), .none],
        nested: ["k": [Profile.Place(city: "Lyon", zip: nil, point: [0.5])]], flags: ["on"])

    @Test func valuesEncodeAsFoundationEncodesThem() throws {
        try agree(Self.profile)
        try agree(
            Scalars(
                int: .min, int8: -128, int16: .max, int32: -5, int64: .max, uint: .max, uint8: 255, uint16: 1,
                uint32: .max, uint64: .max, float: 0.1, double: .leastNonzeroMagnitude, flag: true, text: "😀", maybeInt: nil,
                maybeText: "x", maybeFlag: false, maybeDouble: 1e300))
        try agree(Handmade(first: 7, second: ["ab", "cd"], extras: ["p": 1], nothing: false, wrapped: 9))
        try agree([1: "one"])
        try agree(Optional<Int>.none)
        try agree("top level")
        try agree([[String: [Int]]]([["a": [1]], [:]]))
    }

    @Test func compactOutputIsExact() throws {
        struct Point: Codable, Equatable { var x = 1.5; var y = 2; var label = "a/b"; var none: Int? = nil }
        #expect(try agree(Point()) == #"{"x":1.5,"y":2,"label":"a\/b"}"#)
        var settings = CoderSettings()
        settings.formatting = [.sortedKeys, .withoutEscapingSlashes]
        let sorted = try agree(Point(), settings)
        #expect(sorted == #"{"label":"a/b","x":1.5,"y":2}"#)
        #expect(sorted == String(decoding: try settings.foundationEncoder.encode(Point()), as: UTF8.self))
        settings.formatting = [.prettyPrinted, .sortedKeys]
        #expect(try agree(Point(), settings) == "{\n  \"label\": \"a\\/b\",\n  \"x\": 1.5,\n  \"y\": 2\n}")
        // Sorted by bytes, as Foundation sorts.
        let keys = ["a10": 1, "a9": 2, "B": 3, "a": 4, "é": 5, "e": 6, "_": 7]
        settings.formatting = [.sortedKeys]
        #expect(try agree(keys, settings) == String(decoding: try settings.foundationEncoder.encode(keys), as: UTF8.self))
    }

    @Test func classesEncodeTheirSuperclassThroughSuperEncoder() throws {
        let dog = Dog(name: "Rex", tricks: ["sit"])
        let text = String(decoding: try ModelJSONEncoder().encode(dog), as: UTF8.self)
        #expect(text == #"{"tricks":["sit"],"super":{"name":"Rex"}}"#)
        let back = try JSONDecoder().decode(Dog.self, from: Data(text.utf8))
        #expect(back == dog)
    }

    @Test(arguments: ModelJSONCoderStrategies.all)
    func strategiesEncodeAsInFoundation(settings: CoderSettings) throws {
        let special = Special(
            date: Date(timeIntervalSince1970: 1_600_000_000.25), data: Data([0, 1, 2, 250]),
            url: URL(string: "https://a.b/c?d=e")!, decimal: Decimal(string: "-12345678901234567890.125")!,
            dates: [Date(timeIntervalSince1970: 0)], maybeDate: Date(timeIntervalSinceReferenceDate: 0.5))
        // iso8601 keeps whole seconds, in both encoders.
        try agree(special, settings)
        try agree(CamelKeys(fooBar: 1, aURL: "u", myURLProperty: 3, simple: nil, dictionaryValue: ["keepThis": 1]), settings)
        let floats = Floats(double: .infinity, float: -.infinity, values: [.nan, 1.5])
        if case .convertToString = settings.floatEncoding {
            try agree(floats, settings)
        } else {
            let error = #expect(throws: EncodingError.self) { try settings.encoder.encode(floats) }
            #expect(debugDescription(error!) == "double: JSON cannot represent the Double inf")
            #expect(throws: EncodingError.self) { try settings.foundationEncoder.encode(floats) }
        }
    }

    @Test func snakeCaseKeysAreFoundations() throws {
        var settings = CoderSettings()
        settings.keyEncoding = .convertToSnakeCase
        settings.formatting = .sortedKeys
        struct Keys: Codable, Equatable {
            var URLValue = 1, myURLProperty = 2, ABC = 3, _fooBar_ = 4, foo1Bar = 5, fooBAR = 6, été = 7, x_y = 8
        }
        let ours = try settings.encoder.encode(Keys())
        #expect(ours == (try settings.foundationEncoder.encode(Keys())))
        #expect(
            String(decoding: ours, as: UTF8.self)
                == #"{"_foo_bar_":4,"a_bc":3,"foo1_bar":5,"foo_bar":6,"my_url_property":2,"u_rl_value":1,"x_y":8,"été":7}"#)
        #expect(SnakeCase.camelCased("a_u_r_l") == "aURL")
        #expect(SnakeCase.camelCased("__foo_bar__") == "__fooBar__")
        #expect(SnakeCase.camelCased("plain") == "plain")
    }

    @Test func errorsAreEncodingErrorsWithTheirCodingPath() throws {
        struct Holder: Encodable { var values: [String: [Double]] }
        let error = #expect(throws: EncodingError.self) { try ModelJSONEncoder().encode(Holder(values: ["k": [1, .nan]])) }
        guard case .invalidValue(_, let context) = error else { return }
        // Array positions are "Index 1", as in JSONEncoder.
        #expect(context.codingPath.map(\.stringValue) == ["values", "k", "Index 1"])
        #expect(context.debugDescription == "values.k[1]: JSON cannot represent the Double nan")
        let decimal = #expect(throws: EncodingError.self) { try ModelJSONEncoder().encode(["d": Decimal.nan]) }
        #expect(debugDescription(decimal!) == "d: JSON cannot represent the Decimal NaN")
        struct Nothing: Encodable { func encode(to encoder: any Encoder) throws {} }
        #expect(throws: EncodingError.self) { try ModelJSONEncoder().encode(Nothing()) }
        #expect(try ModelJSONEncoder().encode([Nothing()]) == Data("[{}]".utf8))
    }

    @Test func repeatedKeysKeepTheirFirstPlaceAndLastValue() throws {
        struct Twice: Encodable {
            enum Keys: String, CodingKey { case a, b }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode(1, forKey: .a)
                try container.encode(2, forKey: .b)
                try container.encode(3, forKey: .a)
            }
        }
        #expect(String(decoding: try ModelJSONEncoder().encode(Twice()), as: UTF8.self) == #"{"a":3,"b":2}"#)
    }

    /// Compiles only if both coders are `Sendable`: configured once, shared by tasks.
    @Test func codersAreSendableAndShareable() async throws {
        var configured = ModelJSONEncoder()
        configured.outputFormatting = .sortedKeys
        let encoder = configured
        let decoder = ModelJSONDecoder()
        let results = try await withThrowingTaskGroup(of: [Int].self) { group in
            for index in 0..<4 {
                group.addTask { try decoder.decode([Int].self, from: encoder.encode([index, index])) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 4 && results.allSatisfy { $0[0] == $0[1] })
    }

    @Test func userInfoReachesEveryEncoder() throws {
        var encoder = ModelJSONEncoder()
        encoder.userInfo[Greeting.key] = "hi "
        #expect(try encoder.encode([Greeting(text: "a")]) == Data(#"["hi a"]"#.utf8))
    }

    @Test func nestingPastTheLimitIsRefused() throws {
        indirect enum Chain: Encodable {
            case end
            case link(Chain)
            func encode(to encoder: any Encoder) throws {
                var container = encoder.unkeyedContainer()
                if case .link(let next) = self { try container.encode(next) }
            }
        }
        var chain = Chain.end
        for _ in 0..<511 { chain = .link(chain) }
        #expect(try ModelJSONDecoder().decode(ModelValueJSON.self, from: ModelJSONEncoder().encode(chain)) != .null)
        chain = .link(chain)
        #expect(throws: EncodingError.self) { try ModelJSONEncoder().encode(chain) }
    }
}
