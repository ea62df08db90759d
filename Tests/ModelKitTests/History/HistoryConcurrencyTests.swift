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
                    // Steps of threads that end in another order than they
                    // were made may no longer fit: those throw and change nothing.
                    do {
                        if index % 3 == 2 { try history.redo() } else { try history.undo() }
                    } catch let error as ModelError {
                        #expect(error.code == .historyConflict)
                    } catch {
                        Issue.record("unexpected \(error)")
                    }
                    _ = history.undoName
                    _ = history.canRedo
                }
            }
        }
        #expect(root.children.count == 3)
        // Alone now: each step either undoes, or throws and leaves the
        // model and the steps as they were.
        var undone = 0
        while history.canUndo {
            let before = try root.jsonString(options: [.sorted])
            let counts = history.stepCounts
            do {
                try history.undo()
                undone += 1
            } catch let error as ModelError {
                #expect(error.code == .historyConflict)
                #expect(try root.jsonString(options: [.sorted]) == before)
                #expect(history.stepCounts == counts)
                history.removeAll()
            }
        }
        var redone = 0
        while history.canRedo, redone < undone {
            do {
                try history.redo()
                redone += 1
            } catch let error as ModelError {
                #expect(error.code == .historyConflict)
                break
            }
        }
        #expect(history.stepCounts.undo <= 200)
    }
}
