import Foundation
import Testing
@testable import ModelKit

/// Several threads change tracked models while another undoes and redoes;
/// `.ci/run` runs this suite under `swift test --sanitize=thread`, which
/// must report nothing.
@Suite struct HistoryConcurrencyTests {
    static let workers = 4
    static let steps = 300

    @Test func threadsChangingTrackedModelsWhileAnotherUndoes() async throws {
        let root = Note()
        root.children = (0..<3).map { _ in Note() }
        let history = ModelHistory(tracking: root)
        history.limit = 200
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<Self.workers {
                group.addTask {
                    var random = SeededGenerator(seed: UInt64(worker))
                    for step in 0..<Self.steps {
                        let child = root.children[Int.random(in: 0..<3, using: &random)]
                        switch Int.random(in: 0..<6, using: &random) {
                        case 0: root.count += 1
                        case 1: child.tags.append("w\(worker)s\(step)")
                        case 2: child.title = "w\(worker)"
                        case 3:
                            root.withLock {
                                root.tags.append("\(step)")
                                child.count += 1
                            }
                        case 4: history.group("g\(worker)") { child.child = Note() }
                        default: _ = try? root.jsonData()
                        }
                    }
                }
            }
            group.addTask {
                for index in 0..<Self.steps {
                    if index % 3 == 2 { history.redo() } else { history.undo() }
                    _ = history.undoName
                    _ = history.canRedo
                }
            }
        }
        // Whatever the interleaving: everything left can be undone and redone.
        #expect(root.children.count == 3)
        while history.canUndo { history.undo() }
        while history.canRedo { history.redo() }
        #expect(history.stepCounts.undo <= 200)
    }
}
