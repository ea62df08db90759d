import Foundation
import Observation
import Testing
@testable import ModelKit

/// One kind of top-level change, made on a fresh `Note` graph.
struct HistoryEditCase: CustomStringConvertible, Sendable {
    let description: String
    let edit: @Sendable (Note) throws -> Void
}

@Suite struct ModelHistoryTests {
    /// The saved form, the judge of "restored exactly".
    static func form(_ model: ModelObject) throws -> String {
        try model.jsonString(options: [.sorted])
    }

    static let edits: [HistoryEditCase] = [
        HistoryEditCase(description: "assignment") { $0.title = "Milk" },
        HistoryEditCase(description: "compound assignment") { $0.count += 5 },
        HistoryEditCase(description: "append") { $0.tags.append("new") },
        HistoryEditCase(description: "insert at the start") { $0.tags.insert("first", at: 0) },
        HistoryEditCase(description: "remove in the middle") { $0.tags.remove(at: 1) },
        HistoryEditCase(description: "sort") { $0.tags.sort(by: >) },
        HistoryEditCase(description: "remove all") { $0.tags.removeAll() },
        HistoryEditCase(description: "element in place") { $0.tags[1].append("!") },
        HistoryEditCase(description: "update(from:)") { try $0.update(from: ["title": "Upd", "count": 9, "tags": ["u"]]) },
        HistoryEditCase(description: "withLock") { note in
            note.withLock {
                note.title = "Locked"
                note.count = 1
                note.tags.append("l")
                note.child?.title = "child too"
            }
        },
        HistoryEditCase(description: "JSON Patch") { note in
            try note.apply(
                JSONPatch(
                    json: Data(
                        #"[{"op":"replace","path":"/title","value":"P"},{"op":"add","path":"/tags/-","value":"p"},{"op":"add","path":"/extra","value":1}]"#
                            .utf8)))
        },
        HistoryEditCase(description: "merge patch") { note in
            try note.apply(JSONMergePatch(json: Data(#"{"title":"M","count":3}"#.utf8)))
        },
        HistoryEditCase(description: "three-way merge into nested models") { note in
            let base = note.copy(), theirs = note.copy()
            theirs.title = "Merged"
            theirs.children[1].count += 1
            theirs.child?.tags = ["theirs"]
            try note.merge(base: base, theirs: theirs)
        },
        HistoryEditCase(description: "setValue(_:forKey:) on a key path") { try $0.setValue("deep", forKey: "child.title") },
        HistoryEditCase(description: "extensible property") { try $0.setExtensibleProperty(["a": 1], forKey: "extra") },
        HistoryEditCase(description: "revertChanges") { note in
            note.revertChanges()
        },
        HistoryEditCase(description: "nested model's property") { $0.children[0].count += 1 },
        HistoryEditCase(description: "model replaced") { note in
            let replacement = Note()
            replacement.title = "replacement"
            note.child = replacement
        },
        HistoryEditCase(description: "model appended") { $0.children.append(Note()) },
    ]

    static func sample() -> Note {
        let note = Note()
        note.tags = ["a", "b", "c"]
        note.child = Note()
        note.children = [Note(), Note()]
        note.clearChanges()
        note.count = 2  // a change for revertChanges to take back
        return note
    }

    @Test(arguments: edits)
    func eachTopLevelChangeIsOneStepThatUndoAndRedoRestore(_ edit: HistoryEditCase) throws {
        let note = Self.sample()
        let history = ModelHistory(tracking: note)
        let before = try Self.form(note)
        try edit.edit(note)
        let after = try Self.form(note)
        #expect(before != after)
        #expect(history.canUndo)
        try history.undo()
        #expect(try Self.form(note) == before)
        #expect(!history.canUndo)
        #expect(history.canRedo)
        try history.redo()
        #expect(try Self.form(note) == after)
        #expect(!history.canRedo)
        try history.undo()
        #expect(try Self.form(note) == before)
    }

    @Test func anEqualValueOrAnUnchangedArrayMakesNoStep() throws {
        let note = Note()
        note.tags = ["a", "b"]
        let history = ModelHistory(tracking: note)
        note.title = "Untitled"
        note.tags.sort()
        #expect(!history.canUndo)
    }

    @Test func namesAreTheGroupsNamesAndNilOtherwise() throws {
        let note = Note()
        let history = ModelHistory(tracking: note)
        #expect(history.undoName == nil)
        note.title = "A"
        #expect(history.canUndo)
        #expect(history.undoName == nil)
        history.group("Rename") {
            note.title = "B"
            note.tags.append("x")
        }
        history.group("Outer") {
            history.group("Inner") { note.count = 1 }
            note.count = 2
        }
        history.group("Nothing") {}
        #expect(history.undoName == "Outer")
        try history.undo()
        #expect(note.count == 0)
        #expect(history.undoName == "Rename")
        #expect(history.redoName == "Outer")
        try history.undo()
        #expect(note.title == "A")
        #expect(note.tags == [])
        #expect(history.undoName == nil)
        #expect(history.redoName == "Rename")
    }

    @Test func aThrowingGroupKeepsWhatItChangedAsOneStep() throws {
        struct Stop: Error {}
        let note = Note()
        let history = ModelHistory(tracking: note)
        #expect(throws: Stop.self) {
            try history.group("Half") {
                note.title = "half"
                throw Stop()
            }
        }
        #expect(history.undoName == "Half")
        try history.undo()
        #expect(note.title == "Untitled")
    }

    @Test func aNewChangeAfterAnUndoClearsRedo() throws {
        let note = Note()
        let history = ModelHistory(tracking: note)
        note.title = "A"
        note.title = "B"
        try history.undo()
        #expect(history.canRedo)
        note.count = 1
        #expect(!history.canRedo)
        try history.redo()  // nothing to redo
        #expect(note.title == "A")
        try history.undo()
        try history.undo()
        #expect(note.title == "Untitled")
        #expect(note.count == 0)
    }

    @Test(arguments: [0, 1, 3])
    func limitBoundsTheStepsKept(_ limit: Int) throws {
        let note = Note()
        let history = ModelHistory(tracking: note)
        history.limit = limit
        for value in 1...5 { note.count = value }
        var undone = 0
        while history.canUndo {
            try history.undo()
            undone += 1
        }
        #expect(undone == limit)
        #expect(note.count == 5 - limit)
    }

    @Test func loweringTheLimitForgetsTheOldestSteps() throws {
        let note = Note()
        let history = ModelHistory(tracking: note)
        for value in 1...5 { note.count = value }
        history.limit = 2
        try history.undo()
        try history.undo()
        #expect(!history.canUndo)
        #expect(note.count == 3)
        history.removeAll()
        #expect(!history.canRedo)
        #expect(history.limit == 2)
    }

    @Test func modelsAddedLaterAreTrackedAndModelsThatLeaveAreNot() throws {
        let root = Note()
        let history = ModelHistory(tracking: root)
        let child = Note()
        root.children.append(child)
        child.title = "tracked"
        let grandchild = Note()
        child.child = grandchild
        grandchild.count = 7
        try history.undo()
        #expect(grandchild.count == 0)
        try history.undo()
        #expect(child.child == nil)
        try history.undo()
        #expect(child.title == "Untitled")
        try history.redo()
        try history.redo()
        try history.redo()
        #expect(grandchild.count == 7)

        root.children.removeAll()
        history.removeAll()
        child.title = "detached"
        grandchild.count = 8
        #expect(!history.canUndo)
    }

    @Test func aModelAddedInAGroupIsTrackedForTheRestOfIt() throws {
        let root = Note()
        let history = ModelHistory(tracking: root)
        let child = Note()
        history.group("Add") {
            root.child = child
            child.title = "named"
        }
        try history.undo()
        #expect(root.child == nil)
        // The child's own change was undone too.
        #expect(child.title == "Untitled")
        try history.redo()
        #expect(root.child === child)
        #expect(child.title == "named")
    }

    @Test func weakReferencesAreNotFollowed() throws {
        final class Node: ModelObject, @unchecked Sendable {
            @Saved var name = ""
            @Saved(reference: .weak) var other: Node? = nil
        }
        let root = Node()
        let outside = Node()
        let history = ModelHistory(tracking: root)
        root.other = outside
        #expect(history.canUndo)
        history.removeAll()
        outside.name = "not tracked"
        #expect(!history.canUndo)
        root.other = nil
        var heard: [String] = []
        let token = root.observe("other") { change in
            heard.append("\((change.oldValue as? Node)?.name ?? "nil") → \((change.newValue as? Node)?.name ?? "nil")")
        }
        try history.undo()
        #expect(root.other === outside)
        // Observers get the model, not the weak reference's box.
        withExtendedLifetime(token) {}
        #expect(heard == ["nil → not tracked"])
    }

    @Test func modelsInArraysComeBackAsTheSameObjects() throws {
        let root = Note()
        let first = Note(), second = Note(), third = Note()
        root.children = [first, second, third]
        let history = ModelHistory(tracking: root)
        root.children.remove(at: 1)
        root.children.reverse()
        root.children = []
        try history.undo()
        try history.undo()
        try history.undo()
        #expect(root.children.count == 3)
        #expect(root.children[0] === first)
        #expect(root.children[1] === second)
        #expect(root.children[2] === third)
        // `second` is tracked again.
        history.removeAll()
        second.title = "back"
        #expect(history.canUndo)
    }

    @Test func undoingIsAChangeThatObserversAndHasChangesSee() throws {
        let note = Note()
        let history = ModelHistory(tracking: note)
        note.title = "A"
        note.tags.append("x")
        note.clearChanges()
        var seen: [String] = []
        let token = note.observe(keys: nil) { change in seen.append(change.description) }
        try history.undo()
        #expect(note.hasChanges)
        #expect(note.changedKeys == ["tags"])
        #expect(note.changes["tags"] as? [String] == ["x"])
        try history.undo()
        #expect(note.changedKeys == ["tags", "title"])
        #expect(seen == [#"tags: ["x"] → []"#, #"title: "A" → "Untitled""#])
        try history.redo()
        try history.redo()
        #expect(seen.count == 4)
        token.cancel()
    }

    @Test func observationTrackingSeesAnUndo() throws {
        let note = Note()
        let history = ModelHistory(tracking: note)
        note.title = "A"
        let fired = Locked(false)
        withObservationTracking {
            _ = note.title
        } onChange: {
            fired.set(true)
        }
        try history.undo()
        #expect(fired.value)
    }

    @Test func anObserversReactionIsAStepOfItsOwn() throws {
        let note = Note()
        let history = ModelHistory(tracking: note)
        let token = note.observe("title") { _ in note.count += 1 }
        note.title = "A"
        #expect(note.count == 1)
        try history.undo()
        #expect(note.count == 0)
        #expect(note.title == "A")
        try history.undo()
        #expect(note.title == "Untitled")
        // Undoing tells the observer, whose reaction is not recorded.
        #expect(note.count == 1)
        token.cancel()
    }

    @Test func anAppendKeepsOneElementNotTheArray() throws {
        let note = Note()
        let history = ModelHistory(tracking: note)
        let count = 100_000
        for index in 0..<count { note.tags.append("tag \(index)") }
        // One inserted element per step: linear, where keeping the arrays
        // would keep count * (count + 1) / 2 elements.
        #expect(history.storedCount == count)
        for _ in 0..<count { try history.undo() }
        #expect(note.tags.isEmpty)
        #expect(history.storedCount == count)
        #expect(!history.canUndo)
        for _ in 0..<10 { try history.redo() }
        #expect(note.tags == (0..<10).map { "tag \($0)" })
    }

    @Test func theHistoryKeepsNoModelAliveOnceReleased() throws {
        weak var weakHistory: ModelHistory?
        let note = Note()
        do {
            let history = ModelHistory(tracking: note)
            note.title = "A"
            weakHistory = history
        }
        #expect(weakHistory == nil)
        note.title = "B"  // no tracker left to tell
        #expect(note.title == "B")
    }
}

/// A value shared with a `@Sendable` closure.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
    func set(_ value: Value) {
        lock.lock()
        stored = value
        lock.unlock()
    }
}
