import Foundation
import Synchronization
import Testing

@testable import ModelKit

/// Models counted as they are freed.
let freedModels = Atomic<Int>(0)

/// A list of models linked by `next`: a thread of replies.
final class Link: ModelObject, @unchecked Sendable {
    @Saved var next: Link? = nil
    @Saved var text = "reply"
    deinit { freedModels.add(1, ordering: .relaxed) }
}

/// Models nested through arrays of arrays.
final class Nest: ModelObject, @unchecked Sendable {
    @Saved var rows: [[Nest]] = []
    deinit { freedModels.add(1, ordering: .relaxed) }
}

/// Dropping a graph of any length frees every model at a constant depth of
/// stack: on a thread with the 512 KiB stack of a secondary thread on Apple
/// platforms, a recursive release would overflow after a few thousand.
@Suite(.serialized) struct ReleaseTests {
    static let million = 1_000_000

    @Test func aChainOfAMillionModelsIsFreedOnASmallStack() {
        let before = freedModels.load(ordering: .relaxed)
        DeepGraphTests.onThread {
            var head: Link? = nil
            for _ in 0..<Self.million {
                let link = Link()
                link.next = head
                head = link
            }
            head = nil  // the release
        }
        #expect(freedModels.load(ordering: .relaxed) - before == Self.million)
    }

    @Test func aMillionModelsNestedThroughArraysOfArraysAreFreedOnASmallStack() {
        let before = freedModels.load(ordering: .relaxed)
        DeepGraphTests.onThread {
            var inner: Nest? = nil
            for _ in 0..<Self.million {
                let nest = Nest()
                if let inner { nest.rows = [[], [inner]] }
                inner = nest
            }
            inner = nil
        }
        #expect(freedModels.load(ordering: .relaxed) - before == Self.million)
    }

    /// A value 200,000 levels deep, of arrays and of objects, which the
    /// direct paths build past their depth and free themselves: freed at a
    /// constant depth of stack (a recursive free overflows a 512 KiB stack).
    @Test(arguments: [false, true])
    func aDeepValueIsFreedWithoutRecursion(objects: Bool) {
        DeepGraphTests.onThread {
            var value = ModelValue.int(7)
            for level in 0..<200_000 {
                value = objects ? .object(ModelValue.Object([("next", value), ("level", .int(level))])) : .array([value, .null])
            }
            value.releaseWithoutRecursion()
            #expect(value == .null)
        }
    }

    @Test func aChainLoadedFromJSONIsFreedWhole() {
        let before = freedModels.load(ordering: .relaxed)
        DeepGraphTests.onThread {
            var text = ""
            for _ in 0..<5_000 { text += #"{"next":"# }
            text += "null" + String(repeating: "}", count: 5_000)
            var loaded: Link? = try? Link(json: Data(text.utf8), options: JSONReadingOptions(maximumDepth: 6_000))
            #expect(loaded != nil)
            loaded = nil
        }
        #expect(freedModels.load(ordering: .relaxed) - before == 5_000)
    }
}
