import Foundation
import Testing

@testable import ModelKit

/// Properties of the three-way merge on seeded random documents.
@Suite struct MergePropertyTests {
    /// Random documents and edits. Every scalar made is new (a counter), so
    /// the elements of an array are distinct and an edited element can only
    /// match itself.
    struct Documents {
        var random: SeededGenerator
        var counter = 0

        mutating func scalar() -> ModelValue {
            counter += 1
            return Bool.random(using: &random) ? .int(counter) : .string("v\(counter)")
        }

        mutating func document(depth: Int = 0) -> ModelValue {
            if depth >= 4 || (depth > 0 && Int.random(in: 0..<10, using: &random) < 3) { return scalar() }
            if Bool.random(using: &random) {
                var members = ModelValue.Object()
                for key in (0..<6).shuffled(using: &random).prefix(Int.random(in: 1...4, using: &random)) {
                    members.appendNew(key: "k\(key)", value: document(depth: depth + 1))
                }
                return .object(members)
            }
            return .array((0..<Int.random(in: 1...5, using: &random)).map { _ in document(depth: depth + 1) })
        }

        /// `value` with one random edit somewhere inside; arrays change
        /// length only when `resizing`.
        mutating func edited(_ value: ModelValue, resizing: Bool, depth: Int = 0) -> ModelValue {
            switch value {
            case .object(var members):
                let keys = members.keys
                switch Int.random(in: 0..<4, using: &random) {
                case 0 where depth < 6:
                    let key = keys.randomElement(using: &random)!
                    _ = members.updateValue(edited(members[key]!, resizing: resizing, depth: depth + 1), forKey: key)
                case 1:
                    _ = members.updateValue(scalar(), forKey: keys.randomElement(using: &random)!)
                case 2:
                    _ = members.updateValue(document(depth: 2), forKey: "k\(Int.random(in: 0..<8, using: &random))")
                default:
                    if members.count > 1 { _ = members.removeValue(forKey: keys.randomElement(using: &random)!) }
                }
                return .object(members)
            case .array(var elements):
                let index = Int.random(in: 0..<elements.count, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0 where depth < 6: elements[index] = edited(elements[index], resizing: resizing, depth: depth + 1)
                case 2 where resizing: elements.insert(document(depth: 3), at: Int.random(in: 0...elements.count, using: &random))
                case 3 where resizing && elements.count > 1: elements.remove(at: index)
                default: elements[index] = scalar()
                }
                return .array(elements)
            default:
                return scalar()
            }
        }

        mutating func edits(of value: ModelValue, resizing: Bool) -> ModelValue {
            var result = value
            for _ in 0..<Int.random(in: 1...3, using: &random) { result = edited(result, resizing: resizing) }
            return result
        }
    }

    /// Every value in `value` by its path, containers as their kind.
    static func flattened(_ value: ModelValue) -> [String: ModelValue] {
        var result: [String: ModelValue] = [:]
        var pending: [(String, ModelValue)] = [("", value)]
        while let (path, value) = pending.popLast() {
            switch value {
            case .object(let members):
                result[path] = "{}"
                for (key, member) in members { pending.append((path + "/" + key, member)) }
            case .array(let elements):
                result[path] = "[]"
                for (index, element) in elements.enumerated() { pending.append((path + "/\(index)", element)) }
            default:
                result[path] = value
            }
        }
        return result
    }

    static let seeds: [UInt64] = Array(1...300)

    @Test(arguments: seeds)
    func aSideEqualToTheBaseGivesTheOtherSide(seed: UInt64) throws {
        var documents = Documents(random: SeededGenerator(seed: seed))
        let base = documents.document()
        let changed = documents.edits(of: base, resizing: true)
        let theirs = try ModelValue.merge(base: base, ours: base, theirs: changed, policy: .fail)
        #expect(theirs.merged == changed)
        let ours = try ModelValue.merge(base: base, ours: changed, theirs: base, policy: .fail)
        #expect(ours.merged == changed)
        let itself = try ModelValue.merge(base: changed, ours: changed, theirs: changed, policy: .fail)
        #expect(itself.merged == changed)
    }

    @Test func aCleanMergeHasEveryChangeOfBothSidesAndNothingElse() throws {
        var clean = 0
        for seed in Self.seeds {
            var documents = Documents(random: SeededGenerator(seed: seed))
            let base = documents.document()
            let ours = documents.edits(of: base, resizing: false)
            let theirs = documents.edits(of: base, resizing: false)
            let result = try ModelValue.merge(base: base, ours: ours, theirs: theirs)
            guard result.conflicts.isEmpty else { continue }
            clean += 1
            // With arrays keeping their lengths, paths are stable: compare
            // the differences from the base path by path.
            let before = Self.flattened(base), mine = Self.flattened(ours), other = Self.flattened(theirs)
            let merged = Self.flattened(result.merged)
            for path in Set(before.keys).union(mine.keys).union(other.keys).union(merged.keys) {
                let expected = mine[path] != before[path] ? mine[path] : other[path]
                #expect(merged[path] == expected, "seed \(seed), \(path)")
            }
            // The differences agree too: the merge's operations are those of both sides.
            let difference = Set(try Self.operations(JSONPatch.difference(from: base, to: result.merged)))
            let sides = try Self.operations(JSONPatch.difference(from: base, to: ours))
                + Self.operations(JSONPatch.difference(from: base, to: theirs))
            #expect(difference == Set(sides), "seed \(seed)")
        }
        #expect(clean > Self.seeds.count / 4)
    }

    static func operations(_ patch: JSONPatch) throws -> [ModelValue] {
        try ModelValue(json: patch.jsonData()).arrayValue ?? []
    }

    @Test func swappingTheSidesGivesTheSameCleanMerge() throws {
        var clean = 0
        for seed in Self.seeds {
            var documents = Documents(random: SeededGenerator(seed: seed &+ 1000))
            let base = documents.document()
            let ours = documents.edits(of: base, resizing: true)
            let theirs = documents.edits(of: base, resizing: true)
            let result = try ModelValue.merge(base: base, ours: ours, theirs: theirs)
            let swapped = try ModelValue.merge(base: base, ours: theirs, theirs: ours)
            #expect(result.conflicts.count == swapped.conflicts.count, "seed \(seed)")
            guard result.conflicts.isEmpty else { continue }
            clean += 1
            #expect(result.merged == swapped.merged, "seed \(seed)")
        }
        #expect(clean > Self.seeds.count / 4)
    }
}
