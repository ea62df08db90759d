import Foundation
import Observation
import Testing

@testable import ModelKit

/// Observation from many threads at once: every real change is told exactly
/// once, on the thread that made it, with nothing lost or doubled; run under
/// ThreadSanitizer by `.ci/run`.
@Suite struct ObservationConcurrencyTests {
    @Test func everyChangeFromManyThreadsIsToldOnce() async {
        let note = Note()
        let recorder = Recorder()
        let token = note.observe(keys: ["count", "tags"]) { recorder.record($0) }
        let stream = note.keyChanges()
        let tasks = 4
        let rounds = 250
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<tasks {
                group.addTask {
                    for _ in 0..<rounds {
                        note.count += 1  // always a real change
                        note.tags.append("x")
                        _ = note.title  // reads alongside
                    }
                }
            }
        }
        #expect(note.count == tasks * rounds)
        #expect(note.tags.count == tasks * rounds)
        #expect(recorder.changes.filter { $0.key == "count" }.count == tasks * rounds)
        #expect(recorder.changes.filter { $0.key == "tags" }.count == tasks * rounds)
        var streamed = 0
        for await _ in stream {
            streamed += 1
            if streamed == 2 * tasks * rounds { break }
        }
        #expect(streamed == 2 * tasks * rounds)
        token.cancel()
    }

    @Test func trackingAndObserversCanBeAddedAndRemovedWhileOthersChangeTheObject() async {
        let note = Note()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for index in 0..<500 { note.title = "t\(index)" }
            }
            group.addTask {
                for _ in 0..<200 {
                    let token = note.observe("title") { _ in }
                    withObservationTracking { _ = note.title } onChange: {}
                    token.cancel()
                }
            }
        }
        #expect(note.title == "t499")
    }
}
