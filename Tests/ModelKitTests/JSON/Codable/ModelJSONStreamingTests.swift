import Foundation
import Testing

@testable import ModelKit

/// The streaming `ModelJSONEncoder` against its definition, the
/// `EncodedJSON` tree (`encodeThroughTree`): the same bytes, or the same
/// error with the same coding path and message, for containers used in
/// every order `Encoder` allows.
@Suite struct ModelJSONStreamingTests {
    static let settings: [(String, ModelJSONEncoder)] = {
        var pretty = ModelJSONEncoder()
        pretty.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes]
        var snake = ModelJSONEncoder()
        snake.keyEncodingStrategy = .convertToSnakeCase
        var strings = ModelJSONEncoder()
        strings.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        strings.dateEncodingStrategy = .iso8601
        strings.dataEncodingStrategy = .deferredToData
        return [("default", ModelJSONEncoder()), ("pretty", pretty), ("snake", snake), ("strings", strings)]
    }()

    /// Expects the stream and the tree to agree on `value` under `encoder`; returns the stream's text.
    @discardableResult
    static func agree<Value: Encodable>(
        _ value: Value, _ encoder: ModelJSONEncoder = ModelJSONEncoder(), sourceLocation: SourceLocation = #_sourceLocation
    ) -> String? {
        let streamed = Result { try encoder.encode(value) }
        let tree = Result { try encoder.encodeThroughTree(value, options: JSONEncodingState(encoder)) }
        switch (streamed, tree) {
        case (.success(let streamedData), .success(let treeData)):
            #expect(
                String(decoding: streamedData, as: UTF8.self) == String(decoding: treeData, as: UTF8.self),
                sourceLocation: sourceLocation)
            #expect((try? JSONSerialization.jsonObject(with: streamedData, options: .fragmentsAllowed)) != nil,
                sourceLocation: sourceLocation)
            return String(decoding: streamedData, as: UTF8.self)
        case (.failure(let streamedError), .failure(let treeError)):
            #expect(describe(streamedError) == describe(treeError), sourceLocation: sourceLocation)
            return nil
        default:
            Issue.record("stream \(streamed) but tree \(tree)", sourceLocation: sourceLocation)
            return nil
        }
    }

    static func describe(_ error: any Error) -> String {
        guard let error = error as? EncodingError, case .invalidValue(_, let context) = error else { return "\(error)" }
        return "\(context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }): \(context.debugDescription)"
    }

    enum Keys: String, CodingKey { case a, b, c, someKey, nested, `super` }

    /// Hand-written `encode(to:)`s that use containers in the orders the stream cannot write as they come.
    enum Trick: String, CaseIterable, Encodable {
        case keyedTwice, keyedTwiceRepeatingAKey, keyedThenUnkeyed, unkeyedTwice, unkeyedThenKeyed
        case singleThenKeyed, keyedThenSingle, singleTwice, singleNested, singleNestedNothing
        case nestedLeftThenUsed, nestedFilledAlternately, nestedUnkeyedUsedLate, nestedNeverFilled
        case superEncoderAtOnce, superEncoderLate, superEncoderUnused, superEncoderForKey, superEncoderOfUnkeyed
        case superEncoderTwice, superEncoderSingleValue, superEncoderKeyRepeated
        case keyRepeated, keyRepeatedWithContainers, keyRepeatedAfterMany, keyRepeatedInDictionary
        case nothingAsMember, nothingAsElement, nothingAtAll
        case nanCaughtByTheCode, nestedThrowCaught, nestedThrowCaughtThenContainerUsed, nanInNested, decimalNaN
        case parentContainerUsedByChild, containerKeptAfterItsValue, encoderUsedByChild
        case nonASCIIKeysCanonicallyEqual, kelvinAndK, nonASCIIKeysDifferent, escapedKeysRepeated
        case deepPastTheLimit, deepPastTheLimitThenNaN, deepPastTheLimitCaught
        case codingPaths, datesAndData, dictionaryKeys

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .keyedTwice:
                var first = encoder.container(keyedBy: Keys.self)
                try first.encode(1, forKey: .a)
                var second = encoder.container(keyedBy: Keys.self)
                try second.encode(2, forKey: .b)
                try first.encode(3, forKey: .c)
            case .keyedTwiceRepeatingAKey:
                var first = encoder.container(keyedBy: Keys.self)
                try first.encode(1, forKey: .a)
                try first.encode(Leaf(), forKey: .b)
                var second = encoder.container(keyedBy: Keys.self)
                try second.encode(2, forKey: .a)
            case .keyedThenUnkeyed:
                var keyed = encoder.container(keyedBy: Keys.self)
                try keyed.encode(1, forKey: .a)
                var unkeyed = encoder.unkeyedContainer()
                try unkeyed.encode(2)
                try keyed.encode(3, forKey: .b)
            case .unkeyedTwice:
                var first = encoder.unkeyedContainer()
                try first.encode(1)
                var second = encoder.unkeyedContainer()
                try second.encode(Leaf())
                try first.encode(3)
                #expect(first.count == 3 && second.count == 3)
            case .unkeyedThenKeyed:
                var unkeyed = encoder.unkeyedContainer()
                try unkeyed.encode("x")
                var keyed = encoder.container(keyedBy: Keys.self)
                try keyed.encode(1, forKey: .a)
            case .singleThenKeyed:
                var single = encoder.singleValueContainer()
                try single.encode("x")
                var keyed = encoder.container(keyedBy: Keys.self)
                try keyed.encode(1, forKey: .a)
            case .keyedThenSingle:
                var keyed = encoder.container(keyedBy: Keys.self)
                try keyed.encode(1, forKey: .a)
                var single = encoder.singleValueContainer()
                try single.encode(Leaf())
            case .singleTwice:
                var single = encoder.singleValueContainer()
                try single.encode(1)
                try single.encode([Leaf()])
            case .singleNested:
                var single = encoder.singleValueContainer()
                try single.encode([[Leaf()]])
            case .singleNestedNothing:
                var single = encoder.singleValueContainer()
                try single.encode(Nothing())
            case .nestedLeftThenUsed:
                var keyed = encoder.container(keyedBy: Keys.self)
                var nested = keyed.nestedContainer(keyedBy: Keys.self, forKey: .nested)
                try nested.encode(1, forKey: .a)
                try keyed.encode(2, forKey: .b)
                try nested.encode(3, forKey: .c)
            case .nestedFilledAlternately:
                var unkeyed = encoder.unkeyedContainer()
                var first = unkeyed.nestedUnkeyedContainer()
                var second = unkeyed.nestedContainer(keyedBy: Keys.self)
                try first.encode(1)
                try second.encode(2, forKey: .a)
                try first.encode(3)
            case .nestedUnkeyedUsedLate:
                var keyed = encoder.container(keyedBy: Keys.self)
                var nested = keyed.nestedUnkeyedContainer(forKey: .a)
                try nested.encode(1)
                var deeper = nested.nestedContainer(keyedBy: Keys.self)
                try deeper.encode(true, forKey: .b)
                try nested.encode(2)
                try deeper.encode(false, forKey: .c)
            case .nestedNeverFilled:
                var keyed = encoder.container(keyedBy: Keys.self)
                _ = keyed.nestedContainer(keyedBy: Keys.self, forKey: .a)
                _ = keyed.nestedUnkeyedContainer(forKey: .b)
                try keyed.encode(1, forKey: .c)
            case .superEncoderAtOnce:
                var keyed = encoder.container(keyedBy: Keys.self)
                try keyed.encode(1, forKey: .a)
                try Base(value: 2).encode(to: keyed.superEncoder())
                try keyed.encode(3, forKey: .b)
            case .superEncoderLate:
                var keyed = encoder.container(keyedBy: Keys.self)
                let superEncoder = keyed.superEncoder()
                try keyed.encode(1, forKey: .a)
                try Base(value: 2).encode(to: superEncoder)
            case .superEncoderUnused:
                var keyed = encoder.container(keyedBy: Keys.self)
                _ = keyed.superEncoder()
                try keyed.encode(1, forKey: .a)
            case .superEncoderForKey:
                var keyed = encoder.container(keyedBy: Keys.self)
                try Base(value: 2).encode(to: keyed.superEncoder(forKey: .someKey))
            case .superEncoderOfUnkeyed:
                var unkeyed = encoder.unkeyedContainer()
                try unkeyed.encode(1)
                try Base(value: 2).encode(to: unkeyed.superEncoder())
                _ = unkeyed.superEncoder()
                try unkeyed.encode(3)
            case .superEncoderTwice:
                var keyed = encoder.container(keyedBy: Keys.self)
                let superEncoder = keyed.superEncoder()
                try Base(value: 1).encode(to: superEncoder)
                try Base(value: 2).encode(to: superEncoder)
            case .superEncoderSingleValue:
                var keyed = encoder.container(keyedBy: Keys.self)
                var single = keyed.superEncoder().singleValueContainer()
                try single.encode("base")
                try keyed.encode(1, forKey: .a)
            case .superEncoderKeyRepeated:
                var keyed = encoder.container(keyedBy: Keys.self)
                try keyed.encode(1, forKey: .super)
                try Base(value: 2).encode(to: keyed.superEncoder())
            case .keyRepeated:
                var keyed = encoder.container(keyedBy: Keys.self)
                try keyed.encode(1, forKey: .a)
                try keyed.encode(2, forKey: .b)
                try keyed.encode(3, forKey: .a)
            case .keyRepeatedWithContainers:
                var keyed = encoder.container(keyedBy: Keys.self)
                try keyed.encode([Leaf()], forKey: .a)
                var nested = keyed.nestedContainer(keyedBy: Keys.self, forKey: .b)
                try nested.encode(1, forKey: .c)
                try keyed.encode("again", forKey: .b)
            case .keyRepeatedAfterMany:
                var keyed = encoder.container(keyedBy: AnyCodingKey.self)
                for index in 0..<100 { try keyed.encode(index, forKey: AnyCodingKey(stringValue: "key\(index % 70)")) }
            case .keyRepeatedInDictionary:
                var keyed = encoder.container(keyedBy: AnyCodingKey.self)
                try keyed.encode(["x": 1], forKey: AnyCodingKey(stringValue: "some_key"))
                try keyed.encode(["y": 2], forKey: AnyCodingKey(stringValue: "someKey"))
            case .nothingAsMember:
                var keyed = encoder.container(keyedBy: Keys.self)
                try keyed.encode(Nothing(), forKey: .a)
                try keyed.encode(1, forKey: .b)
            case .nothingAsElement:
                var unkeyed = encoder.unkeyedContainer()
                try unkeyed.encode(Nothing())
                try unkeyed.encode([Nothing()])
            case .nothingAtAll:
                break
            case .nanCaughtByTheCode:
                var keyed = encoder.container(keyedBy: Keys.self)
                try keyed.encode(1, forKey: .a)
                try? keyed.encode(Double.nan, forKey: .b)
                try? keyed.encode([Float.infinity], forKey: .c)
                try keyed.encode(2, forKey: .c)
            case .nestedThrowCaught:
                var unkeyed = encoder.unkeyedContainer()
                try unkeyed.encode(1)
                try? unkeyed.encode(Thrower())
                try unkeyed.encode(2)
            case .nestedThrowCaughtThenContainerUsed:
                var keyed = encoder.container(keyedBy: Keys.self)
                let box = Box()
                try? keyed.encode(Thrower(box: box), forKey: .a)
                try keyed.encode(1, forKey: .b)
                try box.container?.encode(2, forKey: .c)
            case .nanInNested:
                var keyed = encoder.container(keyedBy: Keys.self)
                var nested = keyed.nestedUnkeyedContainer(forKey: .a)
                try nested.encode(1.5)
                try nested.encode(-Double.infinity)
            case .decimalNaN:
                var keyed = encoder.container(keyedBy: Keys.self)
                try keyed.encode(Decimal(string: "12.50")!, forKey: .a)
                try keyed.encode([Decimal.nan], forKey: .b)
            case .parentContainerUsedByChild:
                var keyed = encoder.container(keyedBy: Keys.self)
                try keyed.encode(1, forKey: .a)
                try keyed.encode(Meddler(box: Box(keyed)), forKey: .b)
                try keyed.encode(3, forKey: .c)
            case .containerKeptAfterItsValue:
                var unkeyed = encoder.unkeyedContainer()
                let box = Box()
                try unkeyed.encode(Keeper(box: box))
                try unkeyed.encode(1)
                try box.container?.encode("late", forKey: .b)
            case .encoderUsedByChild:
                var keyed = encoder.container(keyedBy: Keys.self)
                try keyed.encode(EncoderMeddler(box: EncoderBox(encoder)), forKey: .a)
            case .nonASCIIKeysCanonicallyEqual:
                var keyed = encoder.container(keyedBy: AnyCodingKey.self)
                try keyed.encode(1, forKey: AnyCodingKey(stringValue: "caf\u{E9}"))
                try keyed.encode(2, forKey: AnyCodingKey(stringValue: "other"))
                try keyed.encode(3, forKey: AnyCodingKey(stringValue: "cafe\u{301}"))
                // Equal as `String`s, with the same length and first byte: the tree finds the repeat.
                try keyed.encode(4, forKey: AnyCodingKey(stringValue: "e\u{301}\u{327}"))
                try keyed.encode(5, forKey: AnyCodingKey(stringValue: "e\u{327}\u{301}"))
            case .kelvinAndK:
                var keyed = encoder.container(keyedBy: AnyCodingKey.self)
                try keyed.encode(1, forKey: AnyCodingKey(stringValue: "K"))
                try keyed.encode(2, forKey: AnyCodingKey(stringValue: "\u{212A}"))
            case .nonASCIIKeysDifferent:
                var keyed = encoder.container(keyedBy: AnyCodingKey.self)
                try keyed.encode(1, forKey: AnyCodingKey(stringValue: "日本"))
                try keyed.encode(2, forKey: AnyCodingKey(stringValue: "😀"))
            case .escapedKeysRepeated:
                var keyed = encoder.container(keyedBy: AnyCodingKey.self)
                try keyed.encode(1, forKey: AnyCodingKey(stringValue: "a\"b/c\n"))
                try keyed.encode(2, forKey: AnyCodingKey(stringValue: "a\"b"))
                try keyed.encode(3, forKey: AnyCodingKey(stringValue: "a\"b/c\n"))
            case .deepPastTheLimit:
                var keyed = encoder.container(keyedBy: Keys.self)
                try keyed.encode(Deep(levels: 520), forKey: .a)
            case .deepPastTheLimitThenNaN:
                var keyed = encoder.container(keyedBy: Keys.self)
                try keyed.encode(Deep(levels: 520), forKey: .a)
                try keyed.encode(Float.nan, forKey: .b)
            case .deepPastTheLimitCaught:
                var keyed = encoder.container(keyedBy: Keys.self)
                try? keyed.encode(Deep(levels: 520, throwsAtEnd: true), forKey: .a)
                try keyed.encode(Deep(levels: 500), forKey: .b)
            case .codingPaths:
                var keyed = encoder.container(keyedBy: Keys.self)
                try keyed.encode(PathEcho(), forKey: .a)
                try keyed.encode([[PathEcho()], [PathEcho(), PathEcho()]], forKey: .someKey)
                var nested = keyed.nestedUnkeyedContainer(forKey: .nested)
                try nested.encode(PathEcho())
                var deeper = nested.nestedContainer(keyedBy: Keys.self)
                try deeper.encode(PathEcho(), forKey: .b)
                try PathEcho().encode(to: keyed.superEncoder(forKey: .c))
                try PathEcho().encode(to: keyed.superEncoder())
            case .datesAndData:
                var keyed = encoder.container(keyedBy: Keys.self)
                try keyed.encode(Date(timeIntervalSince1970: 1_000_000), forKey: .a)
                try keyed.encode([Data([1, 2, 3])], forKey: .b)
                try keyed.encode(URL(string: "https://example.com/a b")!, forKey: .c)
            case .dictionaryKeys:
                var keyed = encoder.container(keyedBy: Keys.self)
                try keyed.encode(["someKey": ["innerKey": 1]], forKey: .someKey)
                try keyed.encode([1: "one"], forKey: .a)
            }
        }
    }

    struct Leaf: Encodable { var someKey = 1; var text = "a/b" }
    struct Nothing: Encodable { func encode(to encoder: any Encoder) throws {} }
    struct Failure: Error {}

    class Base: Encodable {
        let value: Int
        init(value: Int) { self.value = value }
        enum CodingKeys: CodingKey { case value }
    }

    final class Box: @unchecked Sendable {
        var container: KeyedEncodingContainer<Keys>?
        init(_ container: KeyedEncodingContainer<Keys>? = nil) { self.container = container }
    }

    final class EncoderBox: @unchecked Sendable {
        let encoder: any Encoder
        init(_ encoder: any Encoder) { self.encoder = encoder }
    }

    /// Fills a container, keeps it in `box`, then throws.
    struct Thrower: Encodable {
        var box: Box?
        func encode(to encoder: any Encoder) throws {
            var keyed = encoder.container(keyedBy: Keys.self)
            try keyed.encode(1, forKey: .a)
            box?.container = keyed
            throw Failure()
        }
    }

    /// Keeps its container in `box`, to be used after its value is written.
    struct Keeper: Encodable {
        let box: Box
        func encode(to encoder: any Encoder) throws {
            var keyed = encoder.container(keyedBy: Keys.self)
            try keyed.encode(1, forKey: .a)
            box.container = keyed
        }
    }

    /// Writes into the container of the value it is inside.
    struct Meddler: Encodable {
        let box: Box
        func encode(to encoder: any Encoder) throws {
            var keyed = encoder.container(keyedBy: Keys.self)
            try keyed.encode(1, forKey: .a)
            try box.container?.encode("meddled", forKey: .nested)
            try keyed.encode(2, forKey: .b)
        }
    }

    /// Asks the encoder of the value it is inside for a container.
    struct EncoderMeddler: Encodable {
        let box: EncoderBox
        func encode(to encoder: any Encoder) throws {
            var single = encoder.singleValueContainer()
            try single.encode(1)
            var outer = box.encoder.container(keyedBy: Keys.self)
            try outer.encode(2, forKey: .b)
        }
    }

    /// Arrays nested `levels` deep.
    struct Deep: Encodable {
        var levels: Int
        var throwsAtEnd = false
        func encode(to encoder: any Encoder) throws {
            var unkeyed = encoder.unkeyedContainer()
            if levels > 0 { try unkeyed.encode(Deep(levels: levels - 1, throwsAtEnd: throwsAtEnd)) } else if throwsAtEnd {
                throw Failure()
            }
        }
    }

    /// Writes its own coding path, as its encoder and its containers see it.
    struct PathEcho: Encodable {
        func encode(to encoder: any Encoder) throws {
            var keyed = encoder.container(keyedBy: Keys.self)
            try keyed.encode(encoder.codingPath.map(\.stringValue), forKey: .a)
            try keyed.encode(keyed.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }, forKey: .b)
            var nested = keyed.nestedUnkeyedContainer(forKey: .c)
            try nested.encode(nested.codingPath.map(\.stringValue).joined(separator: "."))
            try nested.encode(nested.count)
        }
    }

    @Test(arguments: Trick.allCases, 0..<settings.count)
    func trickyContainersGiveTheTreesOutput(trick: Trick, setting: Int) {
        let encoder = Self.settings[setting].1
        Self.agree(trick, encoder)
        Self.agree([trick, trick], encoder)
        Self.agree(["first": [trick], "second": [trick]], encoder)
        Self.agree(Wrapper(inner: trick), encoder)
    }

    struct Wrapper: Encodable {
        var before = 1
        var inner: Trick
        var after = [2]
    }

    @Test func outputsAndErrorsAreExact() throws {
        #expect(Self.agree(Trick.keyRepeated) == #"{"a":3,"b":2}"#)
        #expect(Self.agree(Trick.keyedTwice) == #"{"a":1,"b":2,"c":3}"#)
        #expect(Self.agree(Trick.nestedLeftThenUsed) == #"{"nested":{"a":1,"c":3},"b":2}"#)
        #expect(Self.agree(Trick.superEncoderLate) == #"{"super":{"value":2},"a":1}"#)
        #expect(Self.agree(Trick.superEncoderUnused) == #"{"super":{},"a":1}"#)
        #expect(Self.agree(Trick.nothingAsMember) == #"{"a":{},"b":1}"#)
        #expect(Self.agree(Trick.nanCaughtByTheCode) == #"{"a":1,"c":2}"#)
        #expect(Self.agree(Trick.nestedThrowCaught) == #"[1,2]"#)
        // The tree compares keys of the same length and first byte only.
        #expect(Self.agree(Trick.kelvinAndK) == "{\"K\":1,\"\u{212A}\":2}")
        #expect(Self.agree(Trick.nonASCIIKeysCanonicallyEqual) == "{\"caf\u{E9}\":1,\"other\":2,\"cafe\u{301}\":3,\"e\u{301}\u{327}\":5}")
        #expect(Self.agree(Trick.containerKeptAfterItsValue) == #"[{"a":1,"b":"late"},1]"#)
        // The child's member comes in when its value is finished.
        #expect(Self.agree(Trick.parentContainerUsedByChild) == #"{"a":1,"nested":"meddled","b":{"a":1,"b":2},"c":3}"#)

        let messages: [(Trick, String)] = [
            (.nothingAtAll, "[]: Trick encoded no value"),
            (.nanInNested, "[\"a\", \"1\"]: a[1]: JSON cannot represent the Double -inf"),
            (.decimalNaN, "[\"b\", \"0\"]: b[0]: JSON cannot represent the Decimal NaN"),
            (.deepPastTheLimit, "[]: arrays and objects nested deeper than 512 levels, which no reader with the default limit accepts"),
            (.deepPastTheLimitThenNaN, "[\"b\"]: b: JSON cannot represent the Float nan"),
        ]
        for (trick, message) in messages {
            let error = #expect(throws: EncodingError.self) { try ModelJSONEncoder().encode(trick) }
            #expect(error.map(Self.describe) == message)
            Self.agree(trick)
        }
        #expect(Self.agree(Trick.deepPastTheLimitCaught)?.hasPrefix(#"{"b":[[[["#) == true)
    }

    /// A value whose `encode(to:)` picks, from a seed, how it uses its containers.
    indirect enum Shape: Encodable {
        case leaf(Int, String, Double)
        case object([(String, Shape)], superAt: Int?, nestedAt: Int?)
        case array([Shape])
        case single(Shape)
        case repeated(String, Shape, Shape)

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .leaf(let number, let text, let double):
                var single = encoder.singleValueContainer()
                switch number % 3 {
                case 0: try single.encode(number)
                case 1: try single.encode(text)
                default: try single.encode(double)
                }
            case .object(let members, let superAt, let nestedAt):
                var keyed = encoder.container(keyedBy: AnyCodingKey.self)
                for (position, (key, value)) in members.enumerated() {
                    if position == superAt { try value.encode(to: keyed.superEncoder()) }
                    if position == nestedAt {
                        var nested = keyed.nestedContainer(keyedBy: AnyCodingKey.self, forKey: AnyCodingKey(stringValue: key + "Nested"))
                        try nested.encode(value, forKey: AnyCodingKey(stringValue: key))
                    }
                    try keyed.encode(value, forKey: AnyCodingKey(stringValue: key))
                }
            case .array(let elements):
                var unkeyed = encoder.unkeyedContainer()
                for element in elements { try unkeyed.encode(element) }
            case .single(let inner):
                var single = encoder.singleValueContainer()
                try single.encode(inner)
            case .repeated(let key, let first, let second):
                var keyed = encoder.container(keyedBy: AnyCodingKey.self)
                try keyed.encode(first, forKey: AnyCodingKey(stringValue: key))
                try keyed.encode(1, forKey: AnyCodingKey(stringValue: "between"))
                var again = encoder.container(keyedBy: AnyCodingKey.self)
                try again.encode(second, forKey: AnyCodingKey(stringValue: key))
            }
        }

        static func random(_ generator: inout SeededGenerator, depth: Int = 0) -> Shape {
            let keys = ["a", "b", "someKey", "some_key", "é", "e\u{301}", "a/b", "K", "\u{212A}", "x\"y"]
            let choice = depth > 3 ? 0 : Int.random(in: 0..<12, using: &generator)
            switch choice {
            case 0...3:
                let doubles: [Double] = [1.5, -0.0, 1e300, .nan, .infinity, 3]
                return .leaf(
                    Int.random(in: -5...1000, using: &generator),
                    ModelJSONDifferentialTests.randomText(&generator),
                    doubles[Int.random(in: 0..<(Int.random(in: 0..<8, using: &generator) == 0 ? 6 : 3), using: &generator)])
            case 4...6:
                let count = Int.random(in: 0...5, using: &generator)
                let members = (0..<count).map { _ in
                    (keys[Int.random(in: 0..<(Bool.random(using: &generator) ? 4 : keys.count), using: &generator)],
                        random(&generator, depth: depth + 1))
                }
                return .object(
                    members, superAt: Int.random(in: 0..<10, using: &generator) == 0 ? Int.random(in: 0...count, using: &generator) : nil,
                    nestedAt: Int.random(in: 0..<6, using: &generator) == 0 ? Int.random(in: 0...count, using: &generator) : nil)
            case 7...9:
                return .array((0..<Int.random(in: 0...4, using: &generator)).map { _ in random(&generator, depth: depth + 1) })
            case 10:
                return .single(random(&generator, depth: depth + 1))
            default:
                return .repeated(
                    keys[Int.random(in: 0..<keys.count, using: &generator)], random(&generator, depth: depth + 1),
                    random(&generator, depth: depth + 1))
            }
        }
    }

    @Test(arguments: 0..<settings.count)
    func seededRandomShapesGiveTheTreesOutput(setting: Int) {
        var generator = SeededGenerator(seed: 0x5EED_0031 &+ UInt64(setting))
        for _ in 0..<300 {
            Self.agree(Shape.random(&generator), Self.settings[setting].1)
        }
    }

    /// Arrays are written without `Array.encode(to:)` (see `JSONStreamArray`): the same text, errors and paths.
    @Test(arguments: 0..<settings.count)
    func arraysGiveTheTreesOutput(setting: Int) {
        let encoder = Self.settings[setting].1
        Self.agree([Leaf]((0..<40).map { Leaf(someKey: $0, text: String(repeating: "x", count: $0)) }), encoder)
        Self.agree([[Leaf]](), encoder)
        Self.agree([[Leaf()], [], [Leaf(), Leaf()]], encoder)
        Self.agree([Int?](repeating: nil, count: 20) + [1, nil], encoder)
        Self.agree([Bool](repeating: true, count: 3), encoder)
        Self.agree([[String]]([["a"], [], ["b/c", "é"]]), encoder)
        Self.agree(["values": [Float](repeating: 1.5, count: 17) + [.nan]], encoder)
        Self.agree([[Double]]([[1, 2], [3, .infinity]]), encoder)
        Self.agree([Trick.nanInNested, .keyRepeated, .nestedThrowCaught], encoder)
        Self.agree((0..<20).map { $0 == 13 ? Trick.decimalNaN : Trick.keyedTwice }, encoder)
    }

    @Test func seededRandomRecordsGiveTheTreesOutput() {
        var generator = SeededGenerator(seed: 31)
        for round in 0..<60 {
            let records = (0..<3).map { _ in ModelJSONDifferentialTests.randomRecord(&generator) }
            for (_, encoder) in Self.settings { Self.agree(records, encoder) }
            if round < 10, let written = try? ModelJSONEncoder().encode(records) {
                #expect((try? JSONDecoder().decode([ModelJSONDifferentialTests.Record].self, from: written)) == records)
            }
        }
    }

    /// An encoder kept after its value is written (reused otherwise) keeps its coding path.
    @Test func encodersKeptAfterTheirValueKeepTheirCodingPath() throws {
        final class Kept: @unchecked Sendable { var encoders: [any Encoder] = [] }
        struct Keeping: Encodable {
            let kept: Kept
            func encode(to encoder: any Encoder) throws {
                kept.encoders.append(encoder)
                var single = encoder.singleValueContainer()
                try single.encode(1)
            }
        }
        struct Outer: Encodable {
            let kept: Kept
            func encode(to encoder: any Encoder) throws {
                var keyed = encoder.container(keyedBy: Keys.self)
                try keyed.encode(Keeping(kept: kept), forKey: .a)
                try keyed.encode([Keeping(kept: kept)], forKey: .someKey)
                try keyed.encode(Leaf(), forKey: .b)
            }
        }
        let streamed = Kept()
        let tree = Kept()
        let text = try ModelJSONEncoder().encode(Outer(kept: streamed))
        #expect(try ModelJSONEncoder().encodeThroughTree(Outer(kept: tree), options: JSONEncodingState(ModelJSONEncoder())) == text)
        let paths = { (kept: Kept) in kept.encoders.map { $0.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } } }
        #expect(paths(streamed) == [["a"], ["someKey", "0"]])
        #expect(paths(streamed) == paths(tree))
        #expect(streamed.encoders.first?.codingPath.first is Keys)
    }

    /// A value whose containers are used out of order has its `encode(to:)` run again, through the tree.
    @Test func aValueEncodedOutOfOrderIsEncodedAgainAndOnlyItself() throws {
        final class Counter: @unchecked Sendable { var calls: [String: Int] = [:] }
        struct Counted: Encodable {
            let name: String
            let outOfOrder: Bool
            let counter: Counter
            func encode(to encoder: any Encoder) throws {
                counter.calls[name, default: 0] += 1
                var keyed = encoder.container(keyedBy: Keys.self)
                var nested = keyed.nestedContainer(keyedBy: Keys.self, forKey: .nested)
                try keyed.encode(1, forKey: .a)
                if outOfOrder { try nested.encode(2, forKey: .b) }
            }
        }
        let counter = Counter()
        let values = [
            Counted(name: "first", outOfOrder: false, counter: counter),
            Counted(name: "second", outOfOrder: true, counter: counter),
        ]
        let text = String(decoding: try ModelJSONEncoder().encode(values), as: UTF8.self)
        #expect(text == #"[{"nested":{},"a":1},{"nested":{"b":2},"a":1}]"#)
        #expect(counter.calls == ["first": 1, "second": 2])
    }
}

extension ModelJSONStreamingTests.Base {
    func encode(to encoder: any Encoder) throws {
        var keyed = encoder.container(keyedBy: CodingKeys.self)
        try keyed.encode(value, forKey: .value)
    }
}
