import Foundation
import Testing

@testable import ModelKit

/// Containers opened more than once, and root dictionaries under key
/// strategies: ModelKit's coders against Foundation's, byte for byte.
extension ModelJSONDifferentialTests {
    /// Two nested keyed containers for one key, each writing one member.
    struct NestedTwice: Codable, Equatable {
        var first: String
        var second: String
        enum Keys: String, CodingKey { case top }
        enum Inner: String, CodingKey { case first, second }

        init(first: String, second: String) {
            self.first = first
            self.second = second
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            first = try container.nestedContainer(keyedBy: Inner.self, forKey: .top).decode(String.self, forKey: .first)
            second = try container.nestedContainer(keyedBy: Inner.self, forKey: .top).decode(String.self, forKey: .second)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var one = container.nestedContainer(keyedBy: Inner.self, forKey: .top)
            try one.encode(first, forKey: .first)
            var two = container.nestedContainer(keyedBy: Inner.self, forKey: .top)
            try two.encode(second, forKey: .second)
        }
    }

    /// Two `container(keyedBy:)` calls of different key types, a nested
    /// container filled after the outer one went on, and a nested unkeyed
    /// container opened twice.
    struct OpenedTwice: Codable, Equatable {
        var name: String
        var count: Int
        var inner: Int
        var later: Int
        var list: [Int]
        enum Keys: String, CodingKey { case name, box, list }
        enum More: String, CodingKey { case count }
        enum Inner: String, CodingKey { case inner, later }

        init(name: String, count: Int, inner: Int, later: Int, list: [Int]) {
            (self.name, self.count, self.inner, self.later, self.list) = (name, count, inner, later, list)
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            name = try container.decode(String.self, forKey: .name)
            count = try decoder.container(keyedBy: More.self).decode(Int.self, forKey: .count)
            let box = try container.nestedContainer(keyedBy: Inner.self, forKey: .box)
            inner = try box.decode(Int.self, forKey: .inner)
            later = try box.decode(Int.self, forKey: .later)
            list = try container.decode([Int].self, forKey: .list)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(name, forKey: .name)
            var box = container.nestedContainer(keyedBy: Inner.self, forKey: .box)
            try box.encode(inner, forKey: .inner)
            var more = encoder.container(keyedBy: More.self)
            try more.encode(count, forKey: .count)
            try box.encode(later, forKey: .later)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            for number in self.list.prefix(1) { try list.encode(number) }
            var again = container.nestedUnkeyedContainer(forKey: .list)
            for number in self.list.dropFirst() { try again.encode(number) }
        }
    }

    static let sortedSettings: [CoderSettings] = [
        CoderSettings(name: "sorted", formatting: [.sortedKeys]),
        CoderSettings(
            name: "sorted snake", keyDecoding: .convertFromSnakeCase, keyEncoding: .convertToSnakeCase,
            formatting: [.sortedKeys]),
        CoderSettings(name: "sorted pretty", formatting: [.sortedKeys, .prettyPrinted]),
    ]

    static let streamingSettings: [CoderSettings] = [
        CoderSettings(),
        CoderSettings(name: "snake", keyDecoding: .convertFromSnakeCase, keyEncoding: .convertToSnakeCase),
    ]

    /// Foundation's text for `value` and ModelKit's agree (sorted, so the
    /// order is defined; compact, since pretty output differs as documented)
    /// and both decoders read both back to `value`.
    func expectSameAsFoundation<Value: Codable & Equatable>(_ value: Value, _ settings: CoderSettings) throws {
        let expected = try settings.foundationEncoder.encode(value)
        let actual = try settings.encoder.encode(value)
        if settings.formatting.contains(.sortedKeys), !settings.formatting.contains(.prettyPrinted) {
            #expect(String(decoding: actual, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        }
        #expect(try settings.foundationDecoder.decode(Value.self, from: actual) == value)
        #expect(try settings.decoder.decode(Value.self, from: expected) == value)
        #expect(try settings.decoder.decode(Value.self, from: actual) == value)
    }

    @Test(arguments: sortedSettings + streamingSettings)
    func nestedContainersOpenedTwiceForOneKeyMergeAsInFoundation(settings: CoderSettings) throws {
        let value = NestedTwice(first: "Johnny Appleseed", second: "appleseed@apple.com")
        try expectSameAsFoundation(value, settings)
        let text = String(decoding: try settings.encoder.encode(value), as: UTF8.self)
        #expect(text.contains("Johnny Appleseed") && text.contains("appleseed@apple.com"))
        // Inside an array and inside a dictionary: the stream meets the repeat below its root.
        try expectSameAsFoundation([value, value], settings)
        try expectSameAsFoundation(["a": value], settings)
    }

    @Test(arguments: sortedSettings + streamingSettings)
    func containersOpenedTwiceKeepEveryMemberAsInFoundation(settings: CoderSettings) throws {
        let value = OpenedTwice(name: "n", count: 3, inner: 4, later: 5, list: [1, 2, 3])
        try expectSameAsFoundation(value, settings)
        try expectSameAsFoundation([value], settings)
        var compact = settings.encoder
        compact.outputFormatting.remove(.prettyPrinted)
        let text = String(decoding: try compact.encode(value), as: UTF8.self)
        #expect(["\"count\":3", "\"later\":5", "[1,2,3]"].allSatisfy(text.contains), "\(text)")
    }

    @Test(arguments: [false, true])
    func rootStringKeyedDictionariesKeepTheirKeysAsInFoundation(sorted: Bool) throws {
        var encoder = ModelJSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let foundation = JSONEncoder()
        foundation.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = sorted ? [.sortedKeys] : []
        foundation.outputFormatting = [.sortedKeys]
        let root = ["leaveMeAlone": "test", "andMe": "too"]
        let expected = String(decoding: try foundation.encode(root), as: UTF8.self)
        #expect(expected == #"{"andMe":"too","leaveMeAlone":"test"}"#)
        let actual = try encoder.encode(root)
        #expect(try JSONDecoder().decode([String: String].self, from: actual) == root)
        if sorted { #expect(String(decoding: actual, as: UTF8.self) == expected) }
        // Nested values of the dictionary are still converted.
        let nested = ["keepMe": CamelKeys(fooBar: 1, aURL: nil, myURLProperty: nil, simple: nil, dictionaryValue: ["innerKey": 2])]
        let nestedText = try encoder.encode(nested)
        #expect(
            try JSONSerialization.jsonObject(with: nestedText) as? NSDictionary
                == JSONSerialization.jsonObject(with: try foundation.encode(nested)) as? NSDictionary)
        // And the decoder leaves root keys alone too.
        var decoder = ModelJSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let foundationDecoder = JSONDecoder()
        foundationDecoder.keyDecodingStrategy = .convertFromSnakeCase
        let snake = Data(#"{"leave_me_alone":"test"}"#.utf8)
        #expect(try decoder.decode([String: String].self, from: snake) == ["leave_me_alone": "test"])
        #expect(try foundationDecoder.decode([String: String].self, from: snake) == ["leave_me_alone": "test"])
    }
}

/// One value given two kinds of container: `JSONEncoder` stops the program
/// (a precondition failure), so there is nothing of Foundation's to compare
/// with; ``ModelJSONEncoder`` throws instead, naming the value.
extension ModelJSONDifferentialTests {
    enum Conflict: String, CaseIterable, Sendable {
        case keyedThenUnkeyed, unkeyedThenKeyed, singleThenKeyed, keyedThenSingle, singleThenSingle, unkeyedThenSingle
        case nestedKeyedThenUnkeyed, nestedUnkeyedThenKeyed, valueThenNestedKeyed
    }

    struct Conflicting: Encodable {
        let conflict: Conflict
        enum Keys: String, CodingKey { case a }

        func encode(to encoder: any Encoder) throws {
            switch conflict {
            case .keyedThenUnkeyed:
                _ = encoder.container(keyedBy: Keys.self)
                _ = encoder.unkeyedContainer()
            case .unkeyedThenKeyed:
                var list = encoder.unkeyedContainer()
                try list.encode(1)
                _ = encoder.container(keyedBy: Keys.self)
            case .singleThenKeyed:
                var single = encoder.singleValueContainer()
                try single.encode(1)
                var keyed = encoder.container(keyedBy: Keys.self)
                try keyed.encode(2, forKey: .a)
            case .keyedThenSingle:
                var keyed = encoder.container(keyedBy: Keys.self)
                try keyed.encode(2, forKey: .a)
                var single = encoder.singleValueContainer()
                try single.encode(1)
            case .singleThenSingle:
                var single = encoder.singleValueContainer()
                try single.encode(1)
                try single.encode("two")
            case .unkeyedThenSingle:
                _ = encoder.unkeyedContainer()
                var single = encoder.singleValueContainer()
                try single.encodeNil()
            case .nestedKeyedThenUnkeyed:
                var keyed = encoder.container(keyedBy: Keys.self)
                _ = keyed.nestedContainer(keyedBy: Keys.self, forKey: .a)
                _ = keyed.nestedUnkeyedContainer(forKey: .a)
            case .nestedUnkeyedThenKeyed:
                var keyed = encoder.container(keyedBy: Keys.self)
                _ = keyed.nestedUnkeyedContainer(forKey: .a)
                _ = keyed.nestedContainer(keyedBy: Keys.self, forKey: .a)
            case .valueThenNestedKeyed:
                var keyed = encoder.container(keyedBy: Keys.self)
                try keyed.encode(1, forKey: .a)
                _ = keyed.nestedContainer(keyedBy: Keys.self, forKey: .a)
            }
        }
    }

    @Test(arguments: Conflict.allCases)
    func conflictingContainerKindsThrowNamingTheValue(conflict: Conflict) throws {
        let nested = [Conflict.nestedKeyedThenUnkeyed, .nestedUnkeyedThenKeyed, .valueThenNestedKeyed].contains(conflict)
        for settings in Self.sortedSettings.prefix(1) + Self.streamingSettings.prefix(1) {
            for (value, path) in [(AnyEncodable(Conflicting(conflict: conflict)), ""), (AnyEncodable(["x": [Conflicting(conflict: conflict)]]), "x[0]")] {
                let error = #expect(throws: EncodingError.self, "\(conflict) \(settings)") { try settings.encoder.encode(value) }
                let place = nested ? (path.isEmpty ? "a" : path + ".a") : path
                let message = try #require(error.flatMap(debugDescription))
                #expect(message.hasPrefix(place.isEmpty ? "a" : "\(place): a"), "\(message)")
                #expect(message.contains("for a value that already has another kind"), "\(message)")
            }
        }
    }

    /// Any `Encodable`, for tables of values of different types.
    struct AnyEncodable: Encodable {
        let value: any Encodable
        init(_ value: any Encodable) { self.value = value }
        func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
    }
}

/// Seeded random values through hand-written containers opened more than
/// once, with super encoders, under every strategy.
extension ModelJSONDifferentialTests {
    struct Reopened: Codable, Equatable {
        var head: Record
        var name: String
        var count: Int
        var numbers: [Int]
        var base: Record?

        enum Keys: String, CodingKey { case box, list, base }
        enum Inner: String, CodingKey { case head, name }
        enum More: String, CodingKey { case count }

        init(head: Record, name: String, count: Int, numbers: [Int], base: Record?) {
            (self.head, self.name, self.count, self.numbers, self.base) = (head, name, count, numbers, base)
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            head = try container.nestedContainer(keyedBy: Inner.self, forKey: .box).decode(Record.self, forKey: .head)
            name = try container.nestedContainer(keyedBy: Inner.self, forKey: .box).decode(String.self, forKey: .name)
            count = try decoder.container(keyedBy: More.self).decode(Int.self, forKey: .count)
            var list = try container.nestedUnkeyedContainer(forKey: .list)
            var numbers: [Int] = []
            while !list.isAtEnd { numbers.append(try list.decode(Int.self)) }
            self.numbers = numbers
            base = try container.decodeNil(forKey: .base) ? nil : Record(from: container.superDecoder(forKey: .base))
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var box = container.nestedContainer(keyedBy: Inner.self, forKey: .box)
            try box.encode(head, forKey: .head)
            var more = encoder.container(keyedBy: More.self)
            try more.encode(count, forKey: .count)
            var again = container.nestedContainer(keyedBy: Inner.self, forKey: .box)
            try again.encode(name, forKey: .name)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            for number in numbers.prefix(2) { try list.encode(number) }
            var rest = container.nestedUnkeyedContainer(forKey: .list)
            for number in numbers.dropFirst(2) { try rest.encode(number) }
            if let base { try base.encode(to: container.superEncoder(forKey: .base)) } else { try container.encodeNil(forKey: .base) }
        }
    }

    @Test(arguments: 0..<60 as Range<UInt64>)
    func randomValuesThroughContainersOpenedTwiceDecodeAsInFoundation(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed &+ 5000)
        let strategies = ModelJSONCoderStrategies.all + Self.sortedSettings
        let settings = strategies[Int(seed) % strategies.count]
        let value = Reopened(
            head: Self.randomRecord(&generator, depth: 1), name: Self.randomText(&generator),
            count: Int.random(in: -5...5, using: &generator),
            numbers: (0..<Int.random(in: 0...5, using: &generator)).map { _ in Int.random(in: -99...99, using: &generator) },
            base: Bool.random(using: &generator) ? Self.randomRecord(&generator, depth: 2) : nil)
        let values = [value, value]
        let foundationText = try settings.foundationEncoder.encode(values)
        let expected = try settings.foundationDecoder.decode([Reopened].self, from: foundationText)
        #expect(try settings.decoder.decode([Reopened].self, from: foundationText) == expected, "\(settings)")
        let ours = try settings.encoder.encode(values)
        #expect(try settings.foundationDecoder.decode([Reopened].self, from: ours) == expected, "\(settings)")
        #expect(try settings.decoder.decode([Reopened].self, from: ours) == expected, "\(settings)")
    }
}
