import Foundation
import Testing
@testable import ModelKit

/// A model with containers and limits, for in-place mutation.
final class Ledger: ModelObject, @unchecked Sendable {
    @Saved var count = 0
    @Saved var limit = 10
    @Saved var items: [Int] = []
    @Saved var names: [String: Int] = [:]
    @Saved var note = ""
}

private struct Refusal: Error {}

@Suite struct InPlaceMutationTests {
    @Test func appendingDoesNotCopyTheArray() {
        let ledger = Ledger()
        ledger.items.reserveCapacity(1_000)
        let before = ledger.items.withUnsafeBufferPointer { $0.baseAddress }
        for value in 0..<500 { ledger.items.append(value) }
        let after = ledger.items.withUnsafeBufferPointer { $0.baseAddress }
        #expect(before == after)
        #expect(ledger.items == Array(0..<500))
    }

    @Test func inPlaceMutationsNeitherLeakNorFreeTooEarly() {
        let folder = Folder()
        weak var weakNote: Note?
        do {
            let note = Note()
            weakNote = note
            folder.notes.append(note)
            folder.byName["n"] = note
        }
        #expect(weakNote != nil)
        folder.notes.sort { $0.title < $1.title }
        #expect(folder.notes.first === weakNote)
        folder.notes.removeAll()
        folder.byName["n"] = nil
        #expect(weakNote == nil)
    }

    @Test(arguments: [
        ("append", ["items"]), ("sort", ["items"]), ("removeAll", ["items"]), ("subscript", ["names"]),
        ("compound", ["count"]), ("none", []),
    ])
    func inPlaceMutationsAreChanges(mutation: String, changed: [String]) {
        let ledger = Ledger()
        switch mutation {
        case "append": ledger.items.append(1)
        case "sort": ledger.items.sort()
        case "removeAll": ledger.items.removeAll { $0 > 3 }
        case "subscript": ledger.names["a"] = 1
        case "compound": ledger.count += 1
        default: break
        }
        #expect(ledger.changedKeys == Set(changed))
        #expect(ledger.hasChanges == !changed.isEmpty)
    }

    @Test func otherSavedPropertiesAreUsableInsideAMutation() {
        let ledger = Ledger()
        ledger.items = Array(0..<20)
        ledger.limit = 5
        ledger.items.removeAll { value in
            ledger.note = "filtered"  // a write of another property, same lock
            return value > ledger.limit
        }
        #expect(ledger.items == Array(0...5))
        #expect(ledger.note == "filtered")
    }

    @Test func aChangeWalkThroughACycleDuringAMutationPassesOverTheProperty() {
        let folder = Folder()
        let inner = Folder()
        inner.subfolders = [folder]  // a cycle back to folder
        folder.subfolders = [inner, Folder()]
        folder.clearChanges()
        inner.name = "changed"
        var seen: [Bool] = []
        folder.subfolders.removeAll { child in
            seen.append(child.hasAnyChanges)
            return false
        }
        #expect(seen == [true, false])
        inner.subfolders = []
    }

    @Test func withLockIsReentrantAndGroupsChanges() {
        let ledger = Ledger()
        let total = ledger.withLock { () -> Int in
            ledger.count += 2
            ledger.items.append(ledger.count)
            return ledger.withLock { ledger.count + ledger.items.count }
        }
        #expect(total == 3)
        #expect(ledger.items == [2])
    }

    @Test func aThrowingMutationKeepsWhatItDidAndReleasesTheLock() async {
        let ledger = Ledger()
        func appendThenThrow(_ items: inout [Int]) throws {
            items.append(7)
            throw Refusal()
        }
        #expect(throws: Refusal.self) { try appendThenThrow(&ledger.items) }
        #expect(ledger.items == [7])
        // Another thread can take the lock: it was released.
        await Task.detached { ledger.items.append(8) }.value
        #expect(ledger.items == [7, 8])
    }

    @Test func compoundAssignmentsFromManyTasksLoseNothing() async {
        let ledger = Ledger()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for step in 0..<2_000 {
                        ledger.count += 1
                        ledger.items.append(step)
                        ledger.names["n\(step % 10)", default: 0] += 1
                    }
                }
            }
        }
        #expect(ledger.count == 8_000)
        #expect(ledger.items.count == 8_000)
        #expect(ledger.names.values.reduce(0, +) == 8_000)
    }

    @Test func withLockMakesACheckAndAnUpdateOneStep() async {
        let ledger = Ledger()
        ledger.limit = 1_000
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<1_000 {
                        ledger.withLock {
                            if ledger.count < ledger.limit { ledger.count += 1 }
                        }
                    }
                }
            }
        }
        #expect(ledger.count == 1_000)
    }

    @Test func mutatingANestedModelLocksTheChild() {
        let folder = Folder()
        folder.pinned = Note()
        folder.pinned?.tags.append("x")
        folder.pinned!.count += 2
        #expect(folder.pinned?.tags == ["x"])
        #expect(folder.pinned?.count == 2)
        #expect(folder.pinned?.changedKeys == ["tags", "count"])
        // Mutating a model reached through a property changes the model only.
        folder.clearChanges()
        folder.pinned?.tags.append("y")
        #expect(!folder.hasChanges)
        #expect(folder.pinned?.changedKeys == ["tags"])
        folder.notes = [Note()]
        folder.clearChanges()
        folder.notes[0].count += 1
        #expect(!folder.hasChanges)
        #expect(folder.notes[0].changedKeys == ["count"])
    }
}

