import Foundation
import Testing
@testable import ModelKit

/// Seeded random sequences of edits on a graph of notes: undoing every step
/// gives back each earlier saved form in turn, down to the first, and
/// redoing every step gives back the last.
@Suite struct HistoryRandomTests {
    static func notes(in root: Note) -> [Note] {
        var found: [Note] = []
        root.walkGraph(from: root) { if let note = $0 as? Note { found.append(note) } }
        return found
    }

    /// One random top-level change, or none; `detached` collects models that
    /// left the graph, whose changes the history must ignore.
    static func edit(
        _ root: Note, _ history: ModelHistory, _ random: inout SeededGenerator, _ detached: inout [Note]
    ) throws {
        let notes = notes(in: root)
        let note = notes[Int.random(in: 0..<notes.count, using: &random)]
        let word = ["a", "b", "c", "dd", "é"][Int.random(in: 0..<5, using: &random)]
        switch Int.random(in: 0..<16, using: &random) {
        case 0: note.title = word
        case 1: note.count += Int.random(in: -3...3, using: &random)
        case 2: note.tags.append(word)
        case 3: note.tags.insert(word, at: Int.random(in: 0...note.tags.count, using: &random))
        case 4: if !note.tags.isEmpty { note.tags.remove(at: Int.random(in: 0..<note.tags.count, using: &random)) }
        case 5: note.tags.shuffle(using: &random)
        case 6: if !note.tags.isEmpty { note.tags[Int.random(in: 0..<note.tags.count, using: &random)] += word }
        case 7:
            if let child = note.child { detached.append(child) }
            note.child = Bool.random(using: &random) ? Note() : nil
        case 8: note.children.append(Note())
        case 9:
            if !note.children.isEmpty {
                detached.append(note.children.remove(at: Int.random(in: 0..<note.children.count, using: &random)))
            }
        case 10: note.children.reverse()
        case 11:
            note.withLock {
                note.title = word
                note.tags.append(word)
                note.child?.count += 1
            }
        case 12:
            try history.group("group \(word)") {
                note.renamed += word
                note.children.first?.tags.append(word)
                try note.setExtensibleProperty(.string(word), forKey: "extra")
            }
        case 13: try note.update(from: ["title": word, "count": Int.random(in: 0...3, using: &random)])
        case 14: try note.setExtensibleProperty(Bool.random(using: &random) ? nil : 7, forKey: "bag")
        default:
            // A model that left the graph: not recorded (and put back, as it
            // may come back into the graph with an undo).
            if let gone = detached.randomElement(using: &random) {
                let (title, steps) = (gone.title, history.stepCounts.undo)
                gone.title += word
                gone.title = title
                #expect(history.stepCounts.undo == steps)
            }
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func undoingEverythingRestoresEveryEarlierFormAndRedoingRestoresTheEnd(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let root = Note()
        root.children = [Note(), Note()]
        root.child = Note()
        let history = ModelHistory(tracking: root)
        var forms = [try ModelHistoryTests.form(root)]
        var names: [String?] = []
        var detached: [Note] = []
        for _ in 0..<300 {
            let steps = history.stepCounts.undo
            try Self.edit(root, history, &random, &detached)
            let form = try ModelHistoryTests.form(root)
            switch history.stepCounts.undo - steps {
            case 0: #expect(form == forms.last!, "a change with no step")
            case 1:
                forms.append(form)
                names.append(history.undoName)
            default: Issue.record("one edit made several steps")
            }
        }
        #expect(forms.count > 150)
        let end = forms.last!
        while history.canUndo {
            #expect(history.undoName == names.removeLast())
            try history.undo()
            forms.removeLast()
            #expect(try ModelHistoryTests.form(root) == forms.last!)
        }
        #expect(forms.count == 1)
        while history.canRedo { try history.redo() }
        #expect(try ModelHistoryTests.form(root) == end)
    }
}
