import Foundation
import Testing
@testable import ModelKit

/// The root of the stress test's graph.
final class Hub: ModelObject, @unchecked Sendable {
    @Saved var label = ""
    @Saved var count = 0
    @Saved var log: [Int] = []
    @Saved var ledgers: [Ledger] = []
    @Saved var pinned: Ledger? = nil
}

/// Many tasks at once on one object graph; `.ci/run` also runs this suite
/// under `swift test --sanitize=thread`, which must report nothing.
@Suite struct ThreadSafetyStressTests {
    static let workers = 8
    static let steps = 400

    @Test func manyTasksOnOneGraphKeepEveryInvariant() async throws {
        let hub = Hub()
        let ledgers = (0..<3).map { _ in Ledger() }
        hub.ledgers = ledgers
        hub.pinned = ledgers[0]  // shared: reachable twice
        try hub.setExtensibleProperty("kept", forKey: "extra")

        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<Self.workers {
                group.addTask {
                    var generator = SplitMix(seed: UInt64(worker))
                    for step in 0..<Self.steps {
                        hub.count += 1
                        hub.log.append(worker)
                        let ledger = hub.ledgers[Int(generator.next() % 3)]
                        ledger.count += 1
                        ledger.items.append(step)
                        ledger.names["w\(worker)", default: 0] += 1
                        switch generator.next() % 10 {
                        case 0: hub.log.sort()
                        case 1: ledger.items.sort(by: >)
                        case 2: hub.label = "w\(worker)s\(step)"
                        case 3: _ = hub.copy()
                        case 4: _ = try? hub.jsonData()
                        case 5: _ = hub.dictionary
                        case 6: _ = hub.hasAnyChanges
                        case 7: hub.clearChanges()
                        case 8: _ = try? JSONEncoder().encode(hub)
                        default:
                            hub.withLock {
                                hub.pinned?.limit = hub.count
                                _ = hub.label.count
                            }
                        }
                    }
                }
            }
        }

        let total = Self.workers * Self.steps
        #expect(hub.count == total)
        #expect(hub.log.count == total)
        for worker in 0..<Self.workers {
            #expect(hub.log.filter { $0 == worker }.count == Self.steps)
        }
        #expect(ledgers.map(\.count).reduce(0, +) == total)
        #expect(ledgers.map(\.items.count).reduce(0, +) == total)
        #expect(ledgers.flatMap(\.names.values).reduce(0, +) == total)
        #expect(hub.pinned === hub.ledgers[0])
        #expect(hub.extensibleProperty(forKey: "extra") == "kept")

        // The graph reloads equal to itself, through each path.
        let fromJSON = try Hub(json: hub.jsonData())
        #expect(fromJSON.isEquivalent(to: hub))
        let fromDictionary = try Hub(dictionary: hub.dictionary)
        #expect(fromDictionary.isEquivalent(to: hub))
        let fromCodable = try JSONDecoder().decode(Hub.self, from: JSONEncoder().encode(hub))
        #expect(fromCodable.isEquivalent(to: hub))
        #expect(hub.copy().isEquivalent(to: hub))
    }
}

/// A small seeded generator, so each worker's choices repeat from run to run.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
