import Foundation
import Testing

@testable import ModelKit

/// Issue 57, items 5 and 6: a `.dejalObject` class keeps what DejalObject's
/// value dictionaries held beyond ModelKit's values (a `DejalDate` with no
/// date, `extraValues`, `timeZoneName`, `dataClass`) and writes it back while
/// the property still has the value read with it.
@Suite struct DejalObjectKeepingTests {
    static func foundationObject(_ data: Data) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: data) as? NSDictionary)
    }

    static func reminder(_ key: String, _ member: String) -> String {
        #"{"representedClassName":"Reminder","version":1,"title":"Call",""# + key + #"":"# + member + "}"
    }

    /// A property and its member as the old app wrote it.
    static let members: [(key: String, member: String)] = [
        ("due", DejalDocuments.date("0001-01-01T00:00:00Z")),
        ("due", DejalDocuments.date("1899-12-30T00:00:00Z")),
        ("due", DejalDocuments.date("")),
        ("due", #"{"representedClassName":"DejalDate","version":1}"#),
        ("snooze", DejalDocuments.interval(range: false, 10, 10, units: 1, extra: #"{"note":"keep","n":[1,2]}"#)),
        ("snooze", DejalDocuments.interval(range: true, 1, 3, units: 3, extra: #""text""#)),
        ("alarm", DejalDocuments.time(7, 30, 0, zone: "Europe/Paris")),
        ("attachment", DejalDocuments.data("hi", dataClass: "NSImage")),
        ("times", "[\(DejalDocuments.time(8, 0, 0)),\(DejalDocuments.time(9, 0, 0, zone: "UTC"))]"),
        ("repeats", "[\(DejalDocuments.interval(range: false, 1, 1, units: 4, extra: "{\"a\":1}"))]"),
    ]

    /// Each way in and out: the member comes back as the old app wrote it.
    @Test(arguments: members, ["json", "plist", "dictionary", "archive", "archive-inline", "copy"])
    func anUneditedOpenAndSaveKeepsWhatTheOldAppWrote(_ entry: (key: String, member: String), path: String) throws {
        let document = Data(Self.reminder(entry.key, entry.member).utf8)
        let read = try DejalReminder(json: document)
        let reminder: DejalReminder = try withTemporaryFolder { folder in
            switch path {
            case "plist":
                let url = folder.appendingPathComponent("reminder.plist")
                try read.write(to: url)
                return try DejalReminder(contentsOf: url)
            case "dictionary": return try DejalReminder(dictionary: read.dictionary)
            case "archive": return try DejalReminder(keyedArchive: read.keyedArchiveData())
            case "archive-inline":
                return try DejalReminder(keyedArchive: read.keyedArchiveData(style: .inlineScalars))
            case "copy": return read.copy()
            default: return read
            }
        }
        let saved = try Self.foundationObject(reminder.jsonData())
        let expected = try Self.foundationObject(document)
        #expect(saved[entry.key] as? NSObject == expected[entry.key] as? NSObject, "\(entry.key) via \(path)")
        #expect(NSDictionary(dictionary: reminder.dictionary)[entry.key] as? NSObject == expected[entry.key] as? NSObject)
    }

    /// An edit: the property in the saved file, or `nil` when it is left out.
    struct Edit: Sendable, CustomStringConvertible {
        let description: String
        let key: String
        let member: String
        let change: @Sendable (DejalReminder) -> Void
        let saved: String?
    }

    static let noDate = DejalDocuments.date("0001-01-01T00:00:00Z")
    static let withExtras = DejalDocuments.interval(range: false, 10, 10, units: 1, extra: #"{"note":"keep"}"#)
    static let zoned = DejalDocuments.time(7, 30, 0, zone: "Europe/Paris")

    static let edits: [Edit] = [
        Edit(description: "a date given", key: "due", member: noDate,
             change: { $0.due = Date(timeIntervalSince1970: 0) }, saved: DejalDocuments.date("1970-01-01T00:00:00Z")),
        Edit(description: "a date given, then taken away", key: "due", member: noDate,
             change: { $0.due = Date(timeIntervalSince1970: 0); $0.due = nil }, saved: noDate),
        Edit(description: "an interval changed", key: "snooze", member: withExtras,
             change: { $0.snooze = Interval(20, .minutes) },
             saved: DejalDocuments.interval(range: false, 20, 20, units: 1)),
        Edit(description: "an interval changed and changed back", key: "snooze", member: withExtras,
             change: { $0.snooze = Interval(20, .minutes); $0.snooze = Interval(10, .minutes) }, saved: withExtras),
        Edit(description: "a time changed", key: "alarm", member: zoned,
             change: { $0.alarm = TimeOfDay(hour: 8, minute: 0, second: 0) }, saved: DejalDocuments.time(8, 0, 0)),
        Edit(description: "a time taken away", key: "alarm", member: zoned, change: { $0.alarm = nil }, saved: nil),
        Edit(description: "data changed", key: "attachment", member: DejalDocuments.data("hi", dataClass: "NSImage"),
             change: { $0.attachment = Data("ho".utf8) }, saved: DejalDocuments.data("ho")),
        Edit(description: "an array grown", key: "repeats",
             member: "[\(withExtras)]", change: { $0.repeats.append(.never) },
             saved: "[\(DejalDocuments.interval(range: false, 10, 10, units: 1)),"
                + "\(DejalDocuments.interval(range: false, 0, 0, units: 8))]"),
    ]

    /// What was kept belongs to the value read with it: an edited value is
    /// written as it now is, never beside the old value's members.
    @Test(arguments: edits)
    func anEditedValueIsWrittenAsItNowIs(_ edit: Edit) throws {
        let reminder = try DejalReminder(json: Data(Self.reminder(edit.key, edit.member).utf8))
        edit.change(reminder)
        let saved = try Self.foundationObject(reminder.jsonData())
        let expected = try edit.saved.map { try Self.foundationObject(Data(Self.reminder(edit.key, $0).utf8))[edit.key] }
        #expect(saved[edit.key] as? NSObject == expected as? NSObject)
    }

    /// Loading the property again, from data without those members, forgets
    /// them, even when the value is the same.
    @Test(arguments: [
        ("due", noDate, ModelValue.null, nil),
        ("snooze", withExtras,
         ["representedClassName": "DejalInterval", "version": 1, "usingRange": false, "firstAmount": 10,
          "secondAmount": 10, "units": 1], DejalDocuments.interval(range: false, 10, 10, units: 1)),
        ("alarm", zoned, ["representedClassName": "DejalTime", "version": 1, "hour": 7, "minute": 30, "second": 0],
         DejalDocuments.time(7, 30, 0)),
    ] as [(String, String, ModelValue, String?)])
    func updatingFromOtherDataForgetsWhatWasKept(key: String, member: String, update: ModelValue, saved: String?) throws {
        let reminder = try DejalReminder(json: Data(Self.reminder(key, member).utf8))
        try reminder.update(from: ModelValue.object([key: update]))
        let written = try Self.foundationObject(reminder.jsonData())
        let expected = try saved.map { try Self.foundationObject(Data(Self.reminder(key, $0).utf8))[key] }
        #expect(written[key] as? NSObject == expected as? NSObject, "\(key)")
    }

    /// A merge of their edit to another property, by `merge(base:theirs:)`
    /// or by a document's save, keeps what was kept beside the values
    /// neither side changed.
    @Test(arguments: members, ["merge", "document"])
    func aMergeOfAnotherEditKeepsWhatTheOldAppWrote(_ entry: (key: String, member: String), path: String) throws {
        let document = Data(Self.reminder(entry.key, entry.member).utf8)
        let theirs = try DejalReminder(json: document)
        theirs.title = "Call back"
        let merged: Data = try withTemporaryFolder { folder in
            switch path {
            case "document":
                let url = folder.appendingPathComponent("reminder.json")
                try document.write(to: url)
                let opened = try ModelDocument<DejalReminder>(contentsOf: url, history: nil)
                try theirs.jsonData().write(to: url)
                try opened.save()
                return try Data(contentsOf: url)
            default:
                let ours = try DejalReminder(json: document)
                try ours.merge(base: DejalReminder(json: document), theirs: theirs)
                return try ours.jsonData()
            }
        }
        let saved = try Self.foundationObject(merged)
        let expected = try Self.foundationObject(document)
        #expect(saved["title"] as? String == "Call back")
        #expect(saved[entry.key] as? NSObject == expected[entry.key] as? NSObject, "\(entry.key) via \(path)")
    }
}
