import Foundation
import Testing

@testable import ModelKit

@Suite struct InPlaceMergeTests {
    @Test func theirChangesComeInAndUntouchedModelsStayTheSameObjects() throws {
        let list = MergeList.sample()
        let base = list.copy(), theirs = list.copy()
        let milk = list.items[0], eggs = list.items[1], firstNote = list.notes[0]
        list.items[0].done = true  // ours
        list.clearChanges()
        theirs.items[1].title = "brown eggs"
        theirs.items.append(MergeItem("d", "tea"))
        theirs.name = "Shopping"
        var seen: [String] = []
        let observation = list.observe(keys: nil) { change in seen.append(change.key) }
        defer { observation.cancel() }
        let conflicts = try list.merge(base: base, theirs: theirs)
        #expect(conflicts.isEmpty)
        #expect(list.name == "Shopping")
        #expect(list.items.map(\.title) == ["milk", "brown eggs", "bread", "tea"])
        #expect(list.items[0] === milk && milk.done)
        #expect(list.items[1] === eggs)
        #expect(list.notes[0] === firstNote)
        #expect(Set(list.changedKeys) == ["name", "items"])
        #expect(Set(seen) == ["name", "items"])
        // Neither base nor theirs changed.
        #expect(base.name == "Groceries" && base.items.count == 3 && theirs.items[0].done == false)
    }

    @Test func theWholeMergeIsOneUndoableStep() throws {
        let list = MergeList.sample()
        let base = list.copy(), theirs = list.copy()
        theirs.items[1].title = "brown eggs"
        theirs.notes[0].count = 3
        theirs.limit = 6
        let history = ModelHistory(tracking: list)
        let before = list.form
        try list.merge(base: base, theirs: theirs)
        let after = list.form
        #expect(after != before)
        #expect(history.stepCounts.undo == 1)
        try history.undo()
        #expect(list.form == before)
        #expect(!history.canUndo)
        try history.redo()
        #expect(list.form == after)
    }

    @Test func aFailingMergeChangesNothing() throws {
        let list = MergeList.sample()
        let base = list.copy(), theirs = list.copy()
        list.items.append(MergeItem("d", "tea"))
        list.limit = 5
        theirs.limit = 6
        theirs.items.insert(MergeItem("e", "jam"), at: 0)
        theirs.items.insert(MergeItem("f", "figs"), at: 0)
        let history = ModelHistory(tracking: list)
        let before = list.form
        #expect {
            try list.merge(base: base, theirs: theirs)
        } throws: { error in
            (error as? ModelError)?.description
                == "items: a list holds at most 5 items, found 6 (the merged value, after 1 conflict settled by the policy: limit: base 4, ours 5, theirs 6)"
        }
        #expect {
            try list.merge(base: base, theirs: theirs, policy: .fail)
        } throws: { error in
            (error as? ModelError)?.mergeConflicts.map(\.description) == ["limit: base 4, ours 5, theirs 6"]
        }
        #expect(list.form == before)
        #expect(!history.canUndo)
    }

    @Test func didLoadRunsAsAfterAPatch() throws {
        let list = HookedList()
        list.name = "L"
        list.items = [HookedItem()]
        list.items[0].title = "one"
        list.didLoad()
        let base = list.copy(), theirs = list.copy()
        let added = HookedItem()
        added.title = "two"
        theirs.items.append(added)
        try list.merge(base: base, theirs: theirs)
        #expect(list.items.map(\.title) == ["one", "two"])
        #expect(list.itemCount == 2)
        #expect(list.items.allSatisfy { $0.list === list })
    }
}
