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

    @Test func aModelCanCrossToTheMainActor() async throws {
        let loaded = try await Task.detached { try Note(dictionary: ["title": "background"]) }.value
        await MainActor.run { loaded.title = "main" }
        #expect(loaded.title == "main")
    }
}
