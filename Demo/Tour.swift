import Foundation
import ModelKit

/// The tour `swift run Demo` prints: the same text on every run but for the
/// run counter kept in the standard ModelDefaults store.
enum Tour {
    static func section(_ title: String) { print("\n== \(title)") }

    static func run() throws {
        print("ModelKit tour (swift run Demo --help lists the commands)")

        section("A new note has its default values and no changes")
        let note = Note()
        print("title: \(note.title) | count: \(note.count) | colour: \(note.colour.hexString)")
        print("due: \(try ModelValue.date(note.due!).jsonString()) | snooze: \(note.snooze)")
        print("hasChanges: \(note.hasChanges)")

        section("Changing it records which keys changed")
        note.title = "Groceries"
        note.tags.append("home")
        note.colour = Color(hex: "#FF8000")!
        print("hasChanges: \(note.hasChanges) | changedKeys: \(note.changedKeys.sorted())")
        let milk = Note()
        milk.title = "Milk"
        note.children = [milk]
        note.clearChanges()
        milk.count = 2
        print("after editing a child: hasChanges: \(note.hasChanges) | hasAnyChanges: \(note.hasAnyChanges)")

        section("Its JSON")
        print(try note.jsonString(options: .pretty))

        section("A version 1 document is upgraded on load (number becomes count)")
        let old = #"{"type":"Note","version":1,"title":"Old","number":7}"#
        print("in:  \(old)")
        let upgraded = try Note(json: Data(old.utf8))
        print("count: \(upgraded.count)")

        section("A document from a newer version keeps what this one does not know")
        let newer =
            #"{"type":"Note","version":3,"title":"From the future","count":1,"priority":1.10,"#
            + #""reminder":{"at":"2030-01-01T09:00:00Z","repeat":"weekly"}}"#
        print("in:  \(newer)")
        let future = try Note(json: Data(newer.utf8))
        print("extensibleProperties: \(future.extensibleProperties.keys.sorted())")
        future.count += 1
        print("out: \(try future.jsonString())")

        section("Bad input is a clear error, and the object is left as it was")
        do {
            try note.update(from: ["title": "Changed", "children": [["count": "three"]]])
        } catch {
            print("error: \(error)")
        }
        print("title is still: \(note.title)")
        do {
            _ = try Note(json: Data("{\"title\": \"A\",\n \"count\": 1 2}".utf8))
        } catch {
            print("error: \(error)")
        }

        section("A history undoes and redoes changes, nested models included")
        let history = ModelHistory(tracking: note)
        note.tags.append("shop")
        history.group("Rename") {
            note.title = "Shopping"
            milk.title = "Oat milk"
        }
        print("undo: \(history.undoName ?? "-") | title: \(note.title) | child: \(milk.title) | tags: \(note.tags)")
        try history.undo()
        print("undone: title: \(note.title) | child: \(milk.title) | redo: \(history.redoName ?? "-")")
        try history.undo()
        print("undone: tags: \(note.tags) | canUndo: \(history.canUndo)")
        try history.redo()
        print("redone: tags: \(note.tags) | canRedo: \(history.canRedo)")

        section("ModelDefaults keeps a counter between runs")
        let store = ModelDefaults.standard
        if let problem = store.loadError {
            print("the store could not be read, so the counter is not kept: \(problem)")
            return
        }
        let runs = (store.integer(forKey: "tour.runs") ?? 0) + 1
        store.set(runs, forKey: "tour.runs")
        // No save() here: the store saves by itself when the process exits.
        print("run #\(runs) (\(store.url.path))")
    }
}
