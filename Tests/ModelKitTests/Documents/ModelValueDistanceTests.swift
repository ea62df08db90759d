import Foundation
import Testing

@testable import ModelKit

/// The leaf distance that finds a copy's ancestor: leaves added, removed and
/// changed, objects by key and arrays by position.
@Suite struct ModelValueDistanceTests {
    /// Each case: two values and their distance.
    static let cases: [(ModelValue, ModelValue, Int)] = [
        (1, 1, 0),
        (1, 2, 1),
        (1, 1.0, 1),
        ("a", "a", 0),
        ("\u{E9}", "e\u{301}", 1),  // by Unicode scalars, as `==`
        (nil, false, 1),
        ([:], [:], 0),
        ([], [:], 1),
        ([], [], 0),
        (["a": 1], ["a": 1], 0),
        (["a": 1, "b": 2], ["b": 2, "a": 1], 0),  // order of keys is no difference
        (["a": 1], ["a": 2], 1),
        (["a": 1], ["b": 1], 2),
        (["a": 1], [:], 1),
        ([:], ["a": ["b": 1, "c": [1, 2, 3]]], 4),
        ([1, 2, 3], [1, 2, 3], 0),
        ([1, 2, 3], [1, 2], 1),
        ([1, 2, 3], [2, 3], 3),  // by position
        ([1, [2, 3]], [1, 4], 3),  // a container replaced by a leaf: its leaves and the leaf
        (["title": "Milk", "tags": ["a"]], ["title": "Oat milk", "tags": ["a", "b"], "done": true], 3),
        (["x": [:]], ["x": ["y": 1]], 1),  // a container filled: its new leaves
        (["x": []], ["x": [:]], 1),
    ]

    @Test(arguments: cases.indices)
    func theDistanceCountsDifferingLeaves(index: Int) {
        let (a, b, distance) = Self.cases[index]
        #expect(a.leafDistance(to: b) == distance, "\(a) to \(b)")
        #expect(b.leafDistance(to: a) == distance, "\(b) to \(a)")
    }

    /// Counting stops once past the limit: the result is then only "more
    /// than the limit", and never smaller than the distance it stands for.
    @Test func countingStopsPastTheLimit() {
        let many = ModelValue.array((0..<10_000).map { .int($0) })
        let other = ModelValue.array((0..<10_000).map { .int($0 + 1) })
        #expect(many.leafDistance(to: other) == 10_000)
        let limited = many.leafDistance(to: other, limit: 5)
        #expect(limited > 5 && limited <= 7)
        #expect(many.leafDistance(to: .null, limit: 3) <= 5)
        #expect(many.leafDistance(to: many, limit: 0) == 0)
    }

    /// On seeded random values: zero exactly for equal values, symmetric,
    /// and within a limit the same as without one.
    @Test func randomValuesHaveASymmetricDistanceThatIsZeroOnlyForEqualValues() {
        var generator = SeededGenerator(seed: 6060)
        func value(_ depth: Int) -> ModelValue {
            switch Int.random(in: 0..<(depth > 3 ? 3 : 6), using: &generator) {
            case 0: return .int(Int.random(in: 0..<3, using: &generator))
            case 1: return .string(["a", "b", "c"][Int.random(in: 0..<3, using: &generator)])
            case 2: return .bool(Bool.random(using: &generator))
            case 3:
                return .array((0..<Int.random(in: 0..<4, using: &generator)).map { _ in value(depth + 1) })
            default:
                var object = ModelValue.Object()
                for _ in 0..<Int.random(in: 0..<4, using: &generator) {
                    _ = object.updateValue(value(depth + 1), forKey: ["k", "l", "m", "n"][Int.random(in: 0..<4, using: &generator)])
                }
                return .object(object)
            }
        }
        for _ in 0..<500 {
            let a = value(0)
            let b = value(0)
            let distance = a.leafDistance(to: b)
            #expect(distance == b.leafDistance(to: a))
            #expect((distance == 0) == (a == b), "\(a) \(b)")
            #expect(a.leafDistance(to: a) == 0)
            let limit = Int.random(in: 0..<5, using: &generator)
            let limited = a.leafDistance(to: b, limit: limit)
            #expect(distance <= limit ? limited == distance : limited > limit)
        }
    }

    /// Values nested far deeper than any document are walked without
    /// running out of stack.
    @Test func deepValuesAreWalkedWithoutRunningOutOfStack() {
        var a: ModelValue = 1
        var b: ModelValue = 2
        for _ in 0..<20_000 {
            a = ["next": a]
            b = ["next": b]
        }
        #expect(a.leafDistance(to: b) == 1)
    }
}
