import Foundation
import Testing

@testable import ModelKit

/// The streaming encoder reuses the encoder of each record level and the
/// keyed containers it hands out, once nothing holds them. Whatever the
/// code keeps (an encoder, a keyed container, a container of a super
/// encoder) must keep its coding path while later values reuse the rest:
/// each case keeps something, encodes more values of the same shapes after
/// it, then reads the kept thing's path once the whole encode is over, in
/// the stream and in the tree.
@Suite struct ModelJSONStreamReuseTests {
    enum Keys: String, CodingKey { case a, b, c, inner, items }

    /// What the code kept, and the paths read from it after the encode.
    final class Kept: @unchecked Sendable {
        var encoders: [any Encoder] = []
        var keyed: [KeyedEncodingContainer<Keys>] = []
        var paths: [String] {
            encoders.map { Self.text($0.codingPath) } + keyed.map { Self.text($0.codingPath) }
        }

        static func text(_ path: [any CodingKey]) -> String {
            path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        }
    }

    enum Keep: String, CaseIterable, Sendable {
        /// The record's encoder.
        case encoder
        /// The record's keyed container (one the stream caches and hands out again).
        case container
        /// The first of two keyed containers of one record.
        case firstOfTwoContainers
        /// The second of two keyed containers of one record.
        case secondOfTwoContainers
        /// The keyed container of a super encoder.
        case superContainer
        /// Nothing: the next records reuse everything.
        case nothing
    }

    /// A record that keeps, when `keeps`, what `keep` says, then writes a member.
    struct Leaf: Encodable {
        let keep: Keep
        let keeps: Bool
        let kept: Kept

        func encode(to encoder: any Encoder) throws {
            guard keeps else {
                var keyed = encoder.container(keyedBy: Keys.self)
                try keyed.encode(1, forKey: .a)
                return
            }
            switch keep {
            case .encoder:
                kept.encoders.append(encoder)
                var keyed = encoder.container(keyedBy: Keys.self)
                try keyed.encode(1, forKey: .a)
            case .container:
                var keyed = encoder.container(keyedBy: Keys.self)
                try keyed.encode(1, forKey: .a)
                kept.keyed.append(keyed)
            case .firstOfTwoContainers, .secondOfTwoContainers:
                var first = encoder.container(keyedBy: Keys.self)
                try first.encode(1, forKey: .a)
                var second = encoder.container(keyedBy: Keys.self)
                try second.encode(2, forKey: .b)
                kept.keyed.append(keep == .firstOfTwoContainers ? first : second)
            case .superContainer:
                var keyed = encoder.container(keyedBy: Keys.self)
                try keyed.encode(1, forKey: .a)
                let superEncoder = keyed.superEncoder(forKey: .c)
                var inner = superEncoder.container(keyedBy: Keys.self)
                try inner.encode(2, forKey: .b)
                kept.keyed.append(inner)
            case .nothing:
                var keyed = encoder.container(keyedBy: Keys.self)
                try keyed.encode(1, forKey: .a)
            }
        }
    }

    /// Two levels of records around the leaves, so that the kept thing's parents are reused too.
    struct Middle: Encodable {
        let leaves: [Leaf]
        let label: Int

        func encode(to encoder: any Encoder) throws {
            var keyed = encoder.container(keyedBy: Keys.self)
            try keyed.encode(label, forKey: .a)
            try keyed.encode(leaves, forKey: .items)
            try keyed.encode(leaves.first, forKey: .inner)
        }
    }

    /// `count` middles of two leaves each; the leaf at `keptAt` (a middle and a leaf) keeps.
    static func document(keep: Keep, keptAt: (Int, Int), count: Int, kept: Kept) -> [Middle] {
        (0..<count).map { middle in
            Middle(
                leaves: (0..<2).map { leaf in Leaf(keep: keep, keeps: (middle, leaf) == keptAt, kept: kept) },
                label: middle)
        }
    }

    /// What keeps, where, and the paths read afterwards (a middle's first leaf is also its `inner`, kept twice).
    static let cases: [(keep: Keep, keptAt: (Int, Int), paths: [String])] = [
        (.encoder, (0, 0), ["0.items.0", "0.inner"]),
        (.encoder, (1, 1), ["1.items.1"]),
        (.container, (0, 0), ["0.items.0", "0.inner"]),
        (.container, (2, 1), ["2.items.1"]),
        (.firstOfTwoContainers, (1, 0), ["1.items.0", "1.inner"]),
        (.secondOfTwoContainers, (1, 1), ["1.items.1"]),
        (.superContainer, (0, 1), ["0.items.1.c"]),
        (.superContainer, (3, 0), ["3.items.0.c", "3.inner.c"]),
        (.nothing, (0, 0), []),
    ]

    @Test(arguments: 0..<cases.count)
    func keptEncodersAndContainersKeepTheirPaths(index: Int) throws {
        let (keep, keptAt, paths) = Self.cases[index]
        let streamed = Kept()
        let tree = Kept()
        let encoder = ModelJSONEncoder()
        let text = try encoder.encode(Self.document(keep: keep, keptAt: keptAt, count: 4, kept: streamed))
        let treeText = try encoder.encodeThroughTree(
            Self.document(keep: keep, keptAt: keptAt, count: 4, kept: tree), options: JSONEncodingState(encoder))
        #expect(String(decoding: text, as: UTF8.self) == String(decoding: treeText, as: UTF8.self))
        #expect(streamed.paths == paths)
        #expect(tree.paths == paths)
    }

    /// The output of a whole document, exactly: the kept containers do not change it.
    @Test func keepingChangesNoOutput() throws {
        let expected =
            #"[{"a":0,"items":[{"a":1},{"a":1}],"inner":{"a":1}},{"a":1,"items":[{"a":1},{"a":1}],"inner":{"a":1}}]"#
        for keep in Keep.allCases where keep == .encoder || keep == .container || keep == .nothing {
            let text = try ModelJSONEncoder().encode(Self.document(keep: keep, keptAt: (0, 1), count: 2, kept: Kept()))
            #expect(String(decoding: text, as: UTF8.self) == expected, "\(keep)")
        }
    }
}

/// Cached containers whose key type is one byte (an enum) write each key's
/// text remembered by the key's byte. Keys that need escapes, keys outside
/// ASCII (two of them canonically equal), a key too long to remember, and
/// repeated keys, in objects encoded again and again, give the tree's output.
@Suite struct ModelJSONStreamKeyTextTests {
    enum OddKeys: String, CodingKey {
        case plain
        case quote = "a\"b"
        case slash = "a/b"
        case control = "tab\there"
        case accent = "caf\u{E9}"
        case decomposed = "cafe\u{301}"
        case emoji = "😀"
        case long = "a key far longer than the forty-eight bytes a remembered key text may have"
        case snakeMe = "someKeyName"
    }

    /// Writes `keys` in order, each with its position as the value.
    struct Object: Encodable {
        let keys: [OddKeys]
        func encode(to encoder: any Encoder) throws {
            var keyed = encoder.container(keyedBy: OddKeys.self)
            for (position, key) in keys.enumerated() { try keyed.encode(position, forKey: key) }
        }
    }

    /// `keys`, then the expected compact output of one object (default settings).
    static let cases: [([OddKeys], String)] = [
        ([.plain, .snakeMe], #"{"plain":0,"someKeyName":1}"#),
        ([.quote, .slash, .control], #"{"a\"b":0,"a\/b":1,"tab\there":2}"#),
        ([.accent, .emoji], "{\"caf\u{E9}\":0,\"😀\":1}"),
        ([.long, .plain, .long], #"{"a key far longer than the forty-eight bytes a remembered key text may have":2,"plain":1}"#),
        ([.plain, .quote, .plain], #"{"plain":2,"a\"b":1}"#),
        ([.snakeMe, .snakeMe], #"{"someKeyName":1}"#),
        // Canonically equal `String`s of different lengths: the tree keeps both.
        ([.accent, .decomposed], "{\"caf\u{E9}\":0,\"cafe\u{301}\":1}"),
        ([.decomposed, .plain, .decomposed], "{\"cafe\u{301}\":2,\"plain\":1}"),
        ([.emoji, .plain, .emoji, .slash], #"{"😀":2,"plain":1,"a\/b":3}"#),
        ([], "{}"),
    ]

    @Test(arguments: 0..<cases.count)
    func oneByteKeysGiveTheTreesOutput(index: Int) throws {
        let (keys, expected) = Self.cases[index]
        // Many objects of the one key type, so that the container and its key texts are reused.
        let objects = Array(repeating: Object(keys: keys), count: 5)
        let text = String(decoding: try ModelJSONEncoder().encode(objects), as: UTF8.self)
        #expect(text == "[" + Array(repeating: expected, count: 5).joined(separator: ",") + "]")
        for (_, encoder) in ModelJSONStreamingTests.settings {
            ModelJSONStreamingTests.agree(objects, encoder)
            ModelJSONStreamingTests.agree([Object(keys: [.plain, .quote]), Object(keys: keys), Object(keys: keys)], encoder)
        }
    }

    /// The same key type, written first with its keys converted (a key strategy), never shares texts with plain output.
    @Test func convertedAndPrettyOutputsAreExact() throws {
        var snake = ModelJSONEncoder()
        snake.keyEncodingStrategy = .convertToSnakeCase
        let objects = Array(repeating: Object(keys: [.snakeMe, .plain]), count: 3)
        let snakeText = String(decoding: try snake.encode(objects), as: UTF8.self)
        #expect(snakeText == #"[{"some_key_name":0,"plain":1},{"some_key_name":0,"plain":1},{"some_key_name":0,"plain":1}]"#)
        var pretty = ModelJSONEncoder()
        pretty.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes]
        let prettyText = String(decoding: try pretty.encode([Object(keys: [.slash, .plain])]), as: UTF8.self)
        #expect(prettyText == "[\n  {\n    \"a/b\": 0,\n    \"plain\": 1\n  }\n]")
    }
}

/// Records nested deeper than the stream's first allocation of record
/// levels (32), so that the encoders' slots move while records run, then
/// encoded again at every level.
@Suite struct ModelJSONStreamDeepRecordTests {
    final class Chain: Encodable {
        let depth: Int
        let next: Chain?
        init(depth: Int) {
            self.depth = depth
            next = depth > 0 ? Chain(depth: depth - 1) : nil
        }
        enum CodingKeys: String, CodingKey { case depth, next }
        func encode(to encoder: any Encoder) throws {
            var keyed = encoder.container(keyedBy: CodingKeys.self)
            try keyed.encode(depth, forKey: .depth)
            try keyed.encodeIfPresent(next, forKey: .next)
        }
    }

    static func expected(_ depth: Int) -> String {
        depth == 0 ? #"{"depth":0}"# : #"{"depth":\#(depth),"next":"# + expected(depth - 1) + "}"
    }

    @Test(arguments: [31, 32, 33, 70])
    func deepRecordsTwice(depth: Int) throws {
        let chains = [Chain(depth: depth), Chain(depth: depth)]
        let text = String(decoding: try ModelJSONEncoder().encode(chains), as: UTF8.self)
        #expect(text == "[" + Self.expected(depth) + "," + Self.expected(depth) + "]")
        for (_, encoder) in ModelJSONStreamingTests.settings { ModelJSONStreamingTests.agree(chains, encoder) }
    }
}
