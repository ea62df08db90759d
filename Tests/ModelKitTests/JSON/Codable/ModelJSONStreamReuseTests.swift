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
