import Foundation

@testable import ModelKit

/// A task as a DejalObject app saved it (class `Task`), and as this app
/// saves it back: in DejalObject's form. Version 2 renamed `name` to `title`.
class DejalTask: ModelObject, @unchecked Sendable {
    override class var archivedClassName: String { "Task" }
    override class var savedDialect: SavedDialect { .dejalObject }
    override class var version: Int { 2 }
    override class func upgrade(_ values: inout [String: ModelValue], from version: Int) throws {
        if version == 1, let name = values.removeValue(forKey: "name") { values["title"] = name }
    }
    @Saved var title = ""
    @Saved var colour: Color = .blue
    @Saved var due: Date? = nil
    @Saved var created = Date(timeIntervalSince1970: 0)
    @Saved var snooze = Interval(5, .minutes)
    @Saved var alarm: TimeOfDay? = nil
    @Saved var attachment = Data()
    @Saved var subtask: DejalTask? = nil
    @Saved var subtasks: [DejalTask] = []
}

/// A subclass the old app called `Checklist` (its `archivedClassName`).
final class DejalChecklist: DejalTask, @unchecked Sendable {
    override class var archivedClassName: String { "Checklist" }
    @Saved var items: [String] = []
}

/// A reminder as a DejalObject app saved it, with arrays of value classes.
final class DejalReminder: ModelObject, @unchecked Sendable {
    override class var archivedClassName: String { "Reminder" }
    override class var savedDialect: SavedDialect { .dejalObject }
    @Saved var title = ""
    @Saved var due: Date? = nil
    @Saved var snooze = Interval(5, .minutes)
    @Saved var alarm: TimeOfDay? = nil
    @Saved var attachment = Data()
    @Saved var times: [TimeOfDay] = []
    @Saved var repeats: [Interval] = []
}

/// The same task read by a class that keeps ModelKit's own form.
final class DejalReader: ModelObject, @unchecked Sendable {
    override class var archivedClassName: String { "Task" }
    override class var version: Int { 2 }
    override class func upgrade(_ values: inout [String: ModelValue], from version: Int) throws {
        if version == 1, let name = values.removeValue(forKey: "name") { values["title"] = name }
    }
    @Saved var title = ""
    @Saved var colour: Color = .blue
    @Saved var due: Date? = nil
    @Saved var snooze = Interval(5, .minutes)
    @Saved var subtasks: [DejalReader] = []
}

/// Documents built as DejalObject.m's `-dictionary` builds them: every saved
/// key, `representedClassName` and `version` in each object, the value
/// classes' own dictionaries, nil values left out.
enum DejalDocuments {
    static func color(_ red: Double, _ green: Double, _ blue: Double, _ alpha: Double) -> String {
        #"{"representedClassName":"DejalColor","version":1,"red":\#(red),"green":\#(green),"blue":\#(blue),"alpha":\#(alpha)}"#
    }
    static func date(_ string: String) -> String {
        #"{"representedClassName":"DejalDate","version":1,"string":"\#(string)"}"#
    }
    static func interval(range: Bool, _ first: Int, _ second: Int, units: Int, extra: String? = nil) -> String {
        let extraMember = extra.map { #","extraValues":\#($0)"# } ?? ""
        return #"{"representedClassName":"DejalInterval","version":1,"usingRange":\#(range),"firstAmount":\#(first),"secondAmount":\#(second),"units":\#(units)\#(extraMember)}"#
    }
    static func time(_ hour: Int, _ minute: Int, _ second: Int, zone: String? = nil) -> String {
        let zoneMember = zone.map { #","timeZoneName":"\#($0)""# } ?? ""
        return #"{"representedClassName":"DejalTime","version":1,"hour":\#(hour),"minute":\#(minute),"second":\#(second)\#(zoneMember)}"#
    }
    static func data(_ bytes: String, dataClass: String? = nil) -> String {
        let base64 = Data(bytes.utf8).base64EncodedString()
        let classMember = dataClass.map { #","dataClass":"\#($0)""# } ?? ""
        return #"{"representedClassName":"DejalData","version":1,"length":\#(bytes.utf8.count),"string":"\#(base64)"\#(classMember)}"#
    }

    /// A subtask: at version 1 (`name`, a colour), or at version 2 with
    /// every saved key but the nil ones, as `-dictionary` writes it.
    static func subtask(_ name: String, version: Int = 1) -> String {
        guard version == 2 else {
            return #"{"representedClassName":"Task","version":1,"name":"\#(name)","colour":\#(color(0, 0, 1, 1))}"#
        }
        return #"{"representedClassName":"Task","version":2,"title":"\#(name)","colour":\#(color(0, 0, 1, 1)),"#
            + #""created":\#(date("1970-01-01T00:00:00Z")),"snooze":\#(interval(range: false, 5, 5, units: 1)),"#
            + #""attachment":\#(data("")),"subtasks":[]}"#
    }

    /// A whole task at version 2, with every value class, a nested task, an
    /// array of tasks (the first at `firstVersion`) and a key this app does
    /// not save.
    static func task(firstVersion: Int) -> String {
        """
        {"representedClassName":"Task","version":2,"title":"Write the report a\\/b","colour":\(color(1, 0.5, 0, 1)),\
        "due":\(date("2026-11-21T14:30:00Z")),"created":\(date("2025-01-02T03:04:05Z")),\
        "snooze":\(interval(range: true, 2, 4, units: 2)),"alarm":\(time(7, 30, 15)),"attachment":\(data("hello")),\
        "subtask":\(subtask("Gather figures", version: 2)),\
        "subtasks":[\(subtask("Draft", version: firstVersion)),\(subtask("Review", version: 2))],"priority":3}
        """
    }

    /// A task with an old subtask, for reading.
    static let task = task(firstVersion: 1)
    /// A task all at the current version, which writing gives back as it was.
    static let currentTask = task(firstVersion: 2)

    /// A task all at the current version whose value dictionaries hold more
    /// than ModelKit's values (issue 57): a `DejalDate` with no date, an
    /// interval's `extraValues`, a time's `timeZoneName`, a data's
    /// `dataClass`, at the root and in a nested task.
    static let keepingTask = """
        {"representedClassName":"Task","version":2,"title":"Keep","colour":\(color(1, 0.5, 0, 1)),\
        "due":\(date("0001-01-01T00:00:00Z")),"created":\(date("2025-01-02T03:04:05Z")),\
        "snooze":\(interval(range: true, 2, 4, units: 2, extra: #"{"note":"keep","count":2}"#)),\
        "alarm":\(time(7, 30, 15, zone: "Europe/Paris")),"attachment":\(data("hello", dataClass: "NSImage")),\
        "subtask":{"representedClassName":"Task","version":2,"title":"Inner","colour":\(color(0, 0, 1, 1)),\
        "due":\(date("1899-12-30T00:00:00Z")),"created":\(date("1970-01-01T00:00:00Z")),\
        "snooze":\(interval(range: false, 5, 5, units: 1, extra: "[1,2]")),"attachment":\(data("")),"subtasks":[]},\
        "subtasks":[]}
        """

    /// A task at version 1 whose date has no date.
    static func oldTask(noDate: String) -> String {
        #"{"representedClassName":"Task","version":1,"name":"Old","due":\#(date(noDate)),"snooze":\#(interval(range: false, 10, 10, units: 6, extra: #"{"note":"keep"}"#))}"#
    }
}
