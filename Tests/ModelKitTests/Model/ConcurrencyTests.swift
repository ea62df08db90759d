import Foundation
import Testing
@testable import ModelKit

@Suite struct ConcurrencyTests {
    /// Compiles only if the claims hold.
    @Test func modelsAndValuesAreSendable() {
        func requireSendable<T: Sendable>(_: T.Type) {}
        requireSendable(Note.self)
        requireSendable(ModelObject.self)
        requireSendable(ModelValue.self)
        requireSendable(ModelValue.Object.self)
        requireSendable(ModelError.self)
        requireSendable(ModelKeyPath.self)
        requireSendable(DateStrategy.self)
    }

    /// Readers on many threads at once, each with its own stacks and
    /// predicted shapes (and the empty stack header they all read before
    /// their first container), read records exactly as one reader alone.
    @Test func jsonDocumentsReadOnManyThreadsAtOnceGiveTheSameValues() async throws {
        let records = (0..<200).map { index in
            "{\"id\": \(index), \"name\": \"n\(index)\", \"tags\": [\"a\", {\"k\": \(index % 3)}]"
                + (index % 2 == 0 ? ", \"extra\": true}" : "}")
        }
        let text = "[\n  " + records.joined(separator: ",\n  ") + "\n]"
        let expected = try ModelValue(json: Data(text.utf8))
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    (0..<20).allSatisfy { _ in (try? ModelValue(json: Data(text.utf8))) == expected }
                        && (try? ModelValue(json: Data("42".utf8))) == .int(42)
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results == Array(repeating: true, count: 8))
    }

    @Test func concurrentReadersAndWritersSeeWholeValues() async {
        let note = Note()
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for step in 0..<2_000 {
                        note.count = worker * 10_000 + step
                        note.tags = [String(worker), String(step)]
                        _ = note.title
                        _ = note.hasChanges
                        if step % 100 == 0 { _ = note.dictionary }
                    }
                }
            }
        }
        #expect(note.tags.count == 2)
        #expect(note.changedKeys == ["count", "tags"])
    }

    @Test func objectsCanBeCreatedOnManyThreadsAtOnce() async {
        // Construction uses a per-thread stack; objects made in parallel must not mix.
        let made = await withTaskGroup(of: [Note].self) { group in
            for worker in 0..<8 {
                group.addTask {
                    (0..<500).map { index in
                        let note = Note()
                        note.count = worker * 1000 + index
                        return note
                    }
                }
            }
            var all: [Note] = []
            for await batch in group { all += batch }
            return all
        }
        #expect(made.count == 4000)
        #expect(made.allSatisfy { $0.title == "Untitled" && $0.tags.isEmpty })
        #expect(Set(made.map(\.count)).count == 4000)
    }

    /// Objects borrow their class's layout (they do not retain it), so the
    /// layout that two threads discover at once for a class's first objects
    /// must be one and the same, and stay alive: each class here is
    /// constructed for the first time on eight threads released together.
    @Test(arguments: [
        FirstRaceA.self, FirstRaceB.self, FirstRaceC.self, FirstRaceD.self,
    ] as [any FirstRace.Type])
    func aClassFirstMadeOnManyThreadsAtOnceHasOneLayout(_ type: any FirstRace.Type) throws {
        let threads = 8
        let start = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        let made = LockedTable<Int, [ModelObject]>()
        for worker in 0..<threads {
            done.enter()
            Thread.detachNewThread {
                start.wait()
                let objects = (0..<50).map { index -> ModelObject in
                    let object = type.init()
                    try! object.setValue(worker * 100 + index, forKey: "number")
                    return object
                }
                made.withLock { $0[worker] = objects }
                done.leave()
            }
        }
        for _ in 0..<threads { start.signal() }
        done.wait()
        let all = made.withLock { $0.values.flatMap { $0 } }
        #expect(all.count == threads * 50)
        let layout = try #require(ClassLayout.cached(type))
        #expect(all.allSatisfy { $0.layout === layout })
        for object in all {
            let number = try #require(object.value(forKey: "number") as? Int)
            let copy = try type.init(json: object.jsonData())
            #expect(copy.value(forKey: "number") as? Int == number)
            #expect(copy.value(forKey: "label") as? String == "first")
        }
    }

    /// The first thread to construct an object owns a shared fast stack
    /// until it ends; the next new thread then claims it. Rounds of short
    /// threads (each one new, so each may claim it) construct models with a
    /// nested model default, which push and pop on that stack in between.
    /// Run alone, the first round's threads are the process's first
    /// constructors, so the stack changes owner from round to round.
    @Test func objectsMadeOnThreadsThatEndKeepTheirDefaults() throws {
        let rounds = 12
        let threadsPerRound = 3
        let made = LockedTable<Int, [HandoverParent]>()
        for round in 0..<rounds {
            let done = DispatchGroup()
            for worker in 0..<threadsPerRound {
                done.enter()
                let id = round * threadsPerRound + worker
                Thread.detachNewThread {
                    let objects = (0..<20).map { index -> HandoverParent in
                        let object = HandoverParent()
                        object.count = id * 100 + index + 1
                        return object
                    }
                    made.withLock { $0[id] = objects }
                    done.leave()
                }
            }
            done.wait()
        }
        let all = made.withLock { $0 }
        #expect(all.count == rounds * threadsPerRound)
        for (id, objects) in all {
            for (index, object) in objects.enumerated() {
                #expect(object.count == id * 100 + index + 1)
                #expect(object.title == "parent")
                #expect(object.child.name == "child")
                #expect(object.child.tags == ["a", "b"])
                #expect(object.trailer == [1.5])
                #expect(object.changedKeys == ["count"])
                #expect(!object.child.hasChanges)
            }
        }
        // The objects' storages were filled from the stack: nothing they
        // hold is shared, so changing one leaves the others alone.
        let first = try #require(all[0]?.first)
        first.child.tags.append("c")
        #expect(all[1]?.first?.child.tags == ["a", "b"])
    }

    @Test func aModelCanCrossToTheMainActor() async throws {
        let loaded = try await Task.detached { try Note(dictionary: ["title": "background"]) }.value
        await MainActor.run { loaded.title = "main" }
        #expect(loaded.title == "main")
    }
}

/// Classes used by one test only, so that their first objects are made there.
protocol FirstRace: ModelObject {}
final class FirstRaceA: ModelObject, FirstRace, @unchecked Sendable {
    @Saved var number = 0
    @Saved var label = "first"
}
final class FirstRaceB: ModelObject, FirstRace, @unchecked Sendable {
    @Saved var label = "first"
    @Saved var number = 0
    @Saved var tags: [String] = []
}
final class FirstRaceC: ModelObject, FirstRace, @unchecked Sendable {
    @Saved var number = 0
    @Saved var note: String? = nil
    @Saved var label = "first"
}
final class FirstRaceD: ModelObject, FirstRace, @unchecked Sendable {
    @Saved var when = Date(timeIntervalSince1970: 0)
    @Saved var number = 0
    @Saved var label = "first"
}

final class HandoverChild: ModelObject, @unchecked Sendable {
    @Saved var name = "child"
    @Saved var tags = ["a", "b"]
}

final class HandoverParent: ModelObject, @unchecked Sendable {
    @Saved var title = "parent"
    @Saved var child = HandoverChild()
    @Saved var count = 0
    @Saved var trailer = [1.5]
}
