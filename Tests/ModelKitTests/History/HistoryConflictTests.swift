import Foundation
import Testing
@testable import ModelKit

/// A step recorded on a child, then a change the history does not see (made
/// while the child is out of the tracked graph), then the undos.
struct DetachedEditCase: CustomStringConvertible, Sendable {
    let description: String
    /// The child's values before the history tracks it.
    var prepare: @Sendable (Note) -> Void = { _ in }
    /// The recorded step.
    let step: @Sendable (Note) throws -> Void
    /// The change made while the child is detached.
    let detached: @Sendable (Note) throws -> Void
    /// The error the second undo throws, or `nil` when it undoes the step.
    let conflict: String?
    /// When the undo applies: the child's tags and title after it.
    var undone: (tags: [String], title: String)? = nil
}

@Suite struct HistoryConflictTests {
    static func form(_ model: ModelObject) throws -> String { try model.jsonString(options: [.sorted]) }

    /// The issue's case: undo must not remove the "x" it never added.
    @Test func undoDoesNotRemoveAnElementTheStepDidNotInsert() throws {
        let root = Note(), child = Note()
        let history = ModelHistory(tracking: root)
        root.children = [child]
        child.tags.append("a")
        root.children = []
        child.tags.insert("x", at: 0)
        try history.undo()
        #expect(root.children.count == 1 && root.children[0] === child)
        let counts = history.stepCounts
        let error = #expect(throws: ModelError.self) { try history.undo() }
        #expect(error?.code == .historyConflict)
        #expect(
            error?.description
                == "children[0].tags: this Note changed since the step was recorded, so the step cannot be undone: "
                + #"it no longer holds the element the step inserted at index 0 (["a"]), but ["x"]; nothing was changed"#)
        #expect(child.tags == ["x", "a"])
        #expect(history.stepCounts == counts)
        #expect(history.canUndo)
        // Still the step to undo, and still refused; forgetting it is the way on.
        #expect(throws: ModelError.self) { try history.undo() }
        #expect(child.tags == ["x", "a"])
        history.removeAll()
        #expect(!history.canUndo)
    }

    static let detachedCases: [DetachedEditCase] = [
        DetachedEditCase(
            description: "an element inserted before the step's", step: { $0.tags.append("a") },
            detached: { $0.tags.insert("x", at: 0) },
            conflict: "children[0].tags: this Note changed since the step was recorded, so the step cannot be undone: "
                + #"it no longer holds the element the step inserted at index 0 (["a"]), but ["x"]; nothing was changed"#),
        DetachedEditCase(
            description: "an element appended after the step's", step: { $0.tags.append("a") },
            detached: { $0.tags.append("y") }, conflict: nil, undone: (["y"], "Untitled")),
        DetachedEditCase(
            description: "the step's element replaced", step: { $0.tags.append("a") },
            detached: { $0.tags[0] = "b" },
            conflict: "children[0].tags: this Note changed since the step was recorded, so the step cannot be undone: "
                + #"it no longer holds the element the step inserted at index 0 (["a"]), but ["b"]; nothing was changed"#),
        DetachedEditCase(
            description: "the step's element mutated in place", step: { $0.tags.append("a") },
            detached: { $0.tags[0].append("!") },
            conflict: "children[0].tags: this Note changed since the step was recorded, so the step cannot be undone: "
                + #"it no longer holds the element the step inserted at index 0 (["a"]), but ["a!"]; nothing was changed"#),
        DetachedEditCase(
            description: "the array emptied", prepare: { $0.tags = ["p", "q"] }, step: { $0.tags.append("a") },
            detached: { $0.tags.removeAll() },
            conflict: "children[0].tags: this Note changed since the step was recorded, so the step cannot be undone: "
                + "it has 0 elements, too few to hold the element the step inserted at index 2; nothing was changed"),
        DetachedEditCase(
            description: "a removal undone over a shorter array", prepare: { $0.tags = ["p", "q", "r"] },
            step: { $0.tags.remove(at: 1) }, detached: { $0.tags.removeLast() }, conflict: nil,
            undone: (["p", "q"], "Untitled")),
        DetachedEditCase(
            description: "several elements, one of them changed", prepare: { $0.tags = ["p"] },
            step: { $0.tags += ["a", "b", "c"] }, detached: { $0.tags[2] = "B" },
            conflict: "children[0].tags: this Note changed since the step was recorded, so the step cannot be undone: "
                + #"it no longer holds the 3 elements the step inserted at index 1 (["a", "b", "c"]), but ["a", "B", "c"]; "#
                + "nothing was changed"),
        DetachedEditCase(
            description: "a value set again", step: { $0.title = "A" }, detached: { $0.title = "B" },
            conflict: "children[0].title: this Note changed since the step was recorded, so the step cannot be undone: "
                + #"undo expects "A", found "B"; nothing was changed"#),
        DetachedEditCase(
            description: "a value set to what the step set", step: { $0.title = "A" },
            detached: {
                $0.title = "B"
                $0.title = "A"
            }, conflict: nil, undone: ([], "Untitled")),
        DetachedEditCase(
            description: "a bag key set again", step: { try $0.setExtensibleProperty(1, forKey: "k") },
            detached: { try $0.setExtensibleProperty(2, forKey: "k") },
            conflict: "children[0].k: this Note changed since the step was recorded, so the step cannot be undone: "
                + "undo expects 1, found 2; nothing was changed"),
        DetachedEditCase(
            description: "a bag key removed", step: { try $0.setExtensibleProperty("v", forKey: "k") },
            detached: { $0.removeExtensibleProperty(forKey: "k") },
            conflict: "children[0].k: this Note changed since the step was recorded, so the step cannot be undone: "
                + #"undo expects "v", found absent; nothing was changed"#),
        DetachedEditCase(
            description: "a group, checked whole before anything changes",
            step: { note in
                note.withLock {
                    note.tags.append("a")
                    note.title = "T"
                }
            },
            detached: { $0.tags.insert("x", at: 0) },
            conflict: "children[0].tags: this Note changed since the step was recorded, so the step cannot be undone: "
                + #"it no longer holds the element the step inserted at index 0 (["a"]), but ["x"]; nothing was changed"#),
        DetachedEditCase(
            description: "two appends in one step, one element put between them",
            step: { note in
                note.withLock {
                    note.tags.append("a")
                    note.tags.append("b")
                }
            },
            detached: { $0.tags.insert("x", at: 1) },
            conflict: "children[0].tags: this Note changed since the step was recorded, so the step cannot be undone: "
                + #"it no longer holds the element the step inserted at index 1 (["b"]), but ["x"]; nothing was changed"#),
        DetachedEditCase(
            description: "two appends in one step, untouched",
            step: { note in
                note.withLock {
                    note.tags.append("a")
                    note.tags.append("b")
                    note.tags.remove(at: 0)
                    note.title = "T"
                }
            },
            detached: { $0.tags.append("z") }, conflict: nil, undone: (["z"], "Untitled")),
    ]

    @Test(arguments: detachedCases)
    func undoAppliesOnlyWhereTheModelHoldsWhatTheStepLeft(_ test: DetachedEditCase) throws {
        let root = Note(), child = Note()
        test.prepare(child)
        let history = ModelHistory(tracking: root)
        root.children = [child]
        try test.step(child)
        root.children = []
        try test.detached(child)
        let detached = try Self.form(child)
        try history.undo()
        #expect(root.children.count == 1 && root.children[0] === child)
        let counts = history.stepCounts
        var heard: [String] = []
        let observation = child.observe(keys: nil) { heard.append($0.key) }
        defer { observation.cancel() }
        if let conflict = test.conflict {
            let error = #expect(throws: ModelError.self) { try history.undo() }
            #expect(error?.code == .historyConflict)
            #expect(error?.description == conflict)
            #expect(try Self.form(child) == detached, "the model changed")
            #expect(history.stepCounts == counts, "the history changed")
            #expect(heard.isEmpty, "observers heard \(heard)")
        } else {
            try history.undo()
            #expect(child.tags == test.undone?.tags)
            #expect(child.title == test.undone?.title)
            #expect(history.stepCounts.undo == counts.undo - 1)
            #expect(history.stepCounts.redo == counts.redo + 1)
        }
    }

    /// Two threads append to one array; the first one's step ends after
    /// the second's (it is inside `withLock` on another model). Undoing the
    /// later-ending step first leaves the other's element where that step
    /// did not record it: that undo is refused, not applied elsewhere.
    @Test func stepsThatEndOutOfOrderAreRefusedRatherThanMisapplied() throws {
        let root = Note(), child = Note()
        root.child = child
        let history = ModelHistory(tracking: root)
        let appended = DispatchSemaphore(value: 0), resume = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            root.withLock {
                child.tags.append("a")
                appended.signal()
                resume.wait()
            }
            finished.signal()
        }
        thread.start()
        appended.wait()
        child.tags.append("b")  // a step of its own, ended at once
        #expect(history.stepCounts.undo == 1)
        resume.signal()
        finished.wait()
        #expect(history.stepCounts.undo == 2)
        #expect(child.tags == ["a", "b"])
        try history.undo()  // the other thread's "a", the last step to end
        #expect(child.tags == ["b"])
        let error = #expect(throws: ModelError.self) { try history.undo() }
        #expect(
            error?.description
                == "child.tags: this Note changed since the step was recorded, so the step cannot be undone: "
                + "it has 1 element, too few to hold the element the step inserted at index 1; nothing was changed")
        #expect(child.tags == ["b"])
        #expect(history.stepCounts == (1, 1))
    }

    /// The error names the property by its key path from the tracked root.
    @Test func theErrorNamesThePropertysKeyPathFromTheRoot() throws {
        let root = Note(), middle = Note(), leaf = Note()
        root.child = middle
        middle.children = [Note(), leaf]
        let history = ModelHistory(tracking: root)
        leaf.title = "set"
        middle.children = []
        leaf.title = "unseen"
        try history.undo()
        let error = #expect(throws: ModelError.self) { try history.undo() }
        #expect(error?.keyPath.description == "child.children[1].title")
        #expect(leaf.title == "unseen")
    }

    /// A step undone, its model changed while detached, then redone.
    @Test func redoAppliesOnlyWhereTheModelHoldsWhatTheUndoLeft() throws {
        let root = Note(), child = Note()
        child.tags = ["a", "b"]
        let history = ModelHistory(tracking: root)
        root.children = [child]
        child.withLock {
            child.tags.remove(at: 0)
            child.title = "T"
        }
        try history.undo()
        #expect(child.tags == ["a", "b"] && child.title == "Untitled")
        try history.undo()
        #expect(root.children.isEmpty)
        child.tags[0] = "z"
        try history.redo()
        #expect(root.children.first === child)
        let counts = history.stepCounts
        let error = #expect(throws: ModelError.self) { try history.redo() }
        #expect(
            error?.description
                == "children[0].tags: this Note changed since the step was recorded, so the step cannot be redone: "
                + #"it no longer holds the element the step removed at index 0 (["a"]), but ["z"]; nothing was changed"#)
        #expect(child.tags == ["z", "b"] && child.title == "Untitled")
        #expect(history.stepCounts == counts)
        // Put back as the step left it, the redo applies.
        child.tags[0] = "a"
        history.removeAll()
        #expect(!history.canRedo)
    }

    /// Many steps on one array, undone and redone through a detached spell
    /// in which nothing changes: everything still applies.
    @Test func stepsStillApplyAfterADetachedSpellThatChangedNothing() throws {
        let root = Note(), child = Note()
        let history = ModelHistory(tracking: root)
        root.children = [child]
        for index in 0..<50 { child.tags.insert("t\(index)", at: index % 3 == 0 ? 0 : child.tags.count) }
        let full = child.tags
        root.children = []
        try history.undo()
        while history.canUndo { try history.undo() }
        #expect(child.tags.isEmpty && root.children.isEmpty)
        while history.canRedo { try history.redo() }
        #expect(child.tags == full && root.children.isEmpty)
        try history.undo()
        #expect(child.tags == full && root.children.first === child)
    }
}
