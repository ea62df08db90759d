import Foundation
import Testing

@testable import ModelKit

/// Seeded random trees, and edits of them, for patch round trips.
struct RandomTrees {
    var generator: SeededGenerator

    init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

    /// Keys that need escapes in a pointer or look like indices, and keys
    /// that Swift's `==` finds equal and JSON does not (NFC and NFD).
    static let keys = ["a", "b", "title", "a/b", "m~n", "~1", "-", "0", "10", "", "\u{E9}", "e\u{301}", "x y"]
    static let strings = ["", "x", "milk", "/", "~", "\u{E9}🎉", "e\u{301}🎉", "1", "\u{212B}", "\u{C5}"]
    var keys = RandomTrees.keys

    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &generator) < percent }
    mutating func pick<T>(_ options: [T]) -> T { options[Int.random(in: 0..<options.count, using: &generator)] }

    /// A scalar; doubles are never integral, so `==` and JSON equality agree on these trees.
    mutating func scalar(allowingNull: Bool = true) -> ModelValue {
        switch Int.random(in: 0..<6, using: &generator) {
        case 0: return allowingNull ? .null : .bool(false)
        case 1: return .bool(chance(50))
        case 2: return .int(Int.random(in: -3...3, using: &generator))
        case 3: return .double(Double(Int.random(in: -100...100, using: &generator)) + 0.25)
        default: return .string(pick(Self.strings))
        }
    }

    mutating func value(depth: Int = 0, allowingNull: Bool = true) -> ModelValue {
        guard depth < 4, chance(60 - depth * 10) else { return scalar(allowingNull: allowingNull) }
        if chance(50) {
            return .array((0..<Int.random(in: 0...6, using: &generator)).map { _ in value(depth: depth + 1, allowingNull: allowingNull) })
        }
        var members = ModelValue.Object()
        for _ in 0..<Int.random(in: 0...6, using: &generator) {
            members[pick(keys)] = value(depth: depth + 1, allowingNull: allowingNull)
        }
        return .object(members)
    }

    /// `value` with a few random edits: changed scalars, elements inserted
    /// and removed, members added and removed, kinds changed.
    mutating func edited(_ value: ModelValue, depth: Int = 0, allowingNull: Bool = true) -> ModelValue {
        switch value {
        case .array(var elements):
            if chance(15) { return self.value(depth: depth, allowingNull: allowingNull) }
            for index in elements.indices.reversed() where chance(30) {
                elements[index] = edited(elements[index], depth: depth + 1, allowingNull: allowingNull)
            }
            if !elements.isEmpty, chance(30) { elements.remove(at: Int.random(in: 0..<elements.count, using: &generator)) }
            if chance(30) {
                elements.insert(self.value(depth: depth + 1, allowingNull: allowingNull), at: Int.random(in: 0...elements.count, using: &generator))
            }
            return .array(elements)
        case .object(var members):
            if chance(10) { return self.value(depth: depth, allowingNull: allowingNull) }
            for key in members.keys where chance(30) {
                members[key] = edited(members[key]!, depth: depth + 1, allowingNull: allowingNull)
            }
            if let key = members.keys.first, chance(25) { members[key] = nil }
            if chance(30) { members[pick(keys)] = self.value(depth: depth + 1, allowingNull: allowingNull) }
            return .object(members)
        default:
            return chance(50) ? scalar(allowingNull: allowingNull) : value
        }
    }

    /// `value` with every null replaced (merge patches cannot set null).
    static func withoutNulls(_ value: ModelValue) -> ModelValue {
        switch value {
        case .null: .int(0)
        case .array(let elements): .array(elements.map(withoutNulls))
        case .object(let members): .object(ModelValue.Object(members.map { ($0.key, withoutNulls($0.value)) }))
        default: value
        }
    }

    /// Pairs (a, b): b an edit of a, or unrelated.
    mutating func pairs(_ count: Int, nullsInTarget: Bool = true) -> [(ModelValue, ModelValue)] {
        (0..<count).map { index in
            let a = value()
            var b = index % 5 == 4 ? value() : edited(a)
            if !nullsInTarget { b = Self.withoutNulls(b) }
            return (a, b)
        }
    }
}

@Suite struct PatchRoundTripTests {
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func aJSONPatchDifferenceTurnsOneTreeIntoTheOther(seed: UInt64) throws {
        var trees = RandomTrees(seed: seed)
        for (a, b) in trees.pairs(500) {
            let patch = JSONPatch.difference(from: a, to: b)
            let result = try patch.applied(to: a)
            #expect(result == b, "\(a) -> \(b) by \((try? patch.jsonString()) ?? "")")
            // Through its JSON text too.
            #expect(try JSONPatch(json: patch.jsonData()).applied(to: a) == b)
            if a == b { #expect(patch.isEmpty) }
        }
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func aMergePatchDifferenceTurnsOneTreeIntoTheOther(seed: UInt64) throws {
        var trees = RandomTrees(seed: seed)
        for (a, b) in trees.pairs(500, nullsInTarget: false) {
            let patch = JSONMergePatch.difference(from: a, to: b)
            #expect(try patch.applied(to: a) == b, "\(a) -> \(b) by \((try? patch.jsonString()) ?? "")")
            #expect(try JSONMergePatch(json: patch.jsonData()).applied(to: a) == b)
        }
    }

    @Test func aDifferenceOfAnEditIsNoLongerThanTheEditNeeds() throws {
        // Changing one scalar deep in a tree is one operation.
        var trees = RandomTrees(seed: 9)
        for _ in 0..<200 {
            let a: ModelValue = ["root": ["list": [trees.value(), ["deep": ["leaf": 1]], trees.value()], "other": trees.value()]]
            var b = a
            if case .object(var root) = b, case .object(var inner)? = root["root"], case .array(var list)? = inner["list"] {
                list[1] = ["deep": ["leaf": 2]]
                inner["list"] = .array(list)
                root["root"] = .object(inner)
                b = .object(root)
            }
            #expect(JSONPatch.difference(from: a, to: b).operations == [.replace(path: try JSONPointer("/root/list/1/deep/leaf"), value: 2)])
        }
    }
}
