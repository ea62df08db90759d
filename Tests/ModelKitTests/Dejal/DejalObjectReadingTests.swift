import Foundation
import Testing

@testable import ModelKit

/// DejalObject's documents load on every path, with no option.
@Suite struct DejalObjectReadingTests {
    /// The ways a DejalObject document reaches a model.
    enum Path: String, CaseIterable, CustomStringConvertible {
        case direct, modelValue, arrayElement, dictionary, update, xmlPropertyList, binaryPropertyList
        case jsonFile, propertyListFile, modelJSONDecoder, foundationJSONDecoder, merge
        var description: String { rawValue }
    }

    /// `json`, a DejalObject document, loaded into a `DejalTask` through `path`.
    static func load(_ json: String, through path: Path) throws -> DejalTask {
        let data = Data(json.utf8)
        func foundationDictionary() throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        switch path {
        case .direct: return try DejalTask(json: data)
        case .modelValue: return try DejalTask.decoded(from: ModelValue(json: data))
        case .arrayElement: return try [DejalTask](json: Data(("[" + json + "]").utf8))[0]
        case .dictionary: return try DejalTask(dictionary: foundationDictionary())
        case .update:
            let task = DejalTask()
            try task.update(from: foundationDictionary())
            return task
        case .xmlPropertyList, .binaryPropertyList:
            let plist = try PropertyListSerialization.data(
                fromPropertyList: foundationDictionary(), format: path == .xmlPropertyList ? .xml : .binary, options: 0)
            return try DejalTask(propertyList: plist)
        case .jsonFile, .propertyListFile:
            return try withTemporaryFolder { folder in
                let url = folder.appendingPathComponent(path == .jsonFile ? "task.json" : "task.plist")
                let bytes =
                    path == .jsonFile
                    ? data : try PropertyListSerialization.data(fromPropertyList: foundationDictionary(), format: .xml, options: 0)
                try bytes.write(to: url)
                return try DejalTask(contentsOf: url)
            }
        case .modelJSONDecoder: return try ModelJSONDecoder().decode(DejalTask.self, from: data)
        case .foundationJSONDecoder: return try JSONDecoder().decode(DejalTask.self, from: data)
        case .merge:
            let theirs = try DejalTask(json: data)
            return try DejalTask.merge(base: DejalTask(), ours: DejalTask(), theirs: theirs).merged
        }
    }

    @Test(arguments: Path.allCases)
    func everyValueClassLoadsOnEveryPath(path: Path) throws {
        let task = try Self.load(DejalDocuments.task, through: path)
        #expect(task.title == "Write the report a/b")
        #expect(task.colour == Color(red: 1, green: 0.5, blue: 0))
        #expect(task.due == ISO8601DateFormatter().date(from: "2026-11-21T14:30:00Z"))
        #expect(task.created == ISO8601DateFormatter().date(from: "2025-01-02T03:04:05Z"))
        #expect(task.snooze == Interval(2...4, .hours))
        #expect(task.alarm == TimeOfDay(hour: 7, minute: 30, second: 15))
        #expect(task.attachment == Data("hello".utf8))
        #expect(task.subtask?.title == "Gather figures")
        #expect(task.subtasks.map(\.title) == ["Draft", "Review"], "the version-1 subtask is upgraded")
        #expect(task.subtasks.first?.colour == .blue)
        #expect(task.extensibleProperties == ["priority": 3])
        #expect(task.extensibleProperty(forKey: "representedClassName") == nil)
        #expect(task.subtask?.extensibleProperties.isEmpty == true)
    }

    @Test(arguments: Path.allCases, ["0001-01-01T00:00:00Z", "1899-12-30T00:00:00Z"])
    func aDateWithNoDateIsNilAndAnOldVersionIsUpgraded(path: Path, noDate: String) throws {
        let task = try Self.load(DejalDocuments.oldTask(noDate: noDate), through: path)
        #expect(task.title == "Old")
        #expect(task.due == nil)
        #expect(task.snooze == Interval(10, .quarters), "extraValues are dropped")
    }

    @Test func aClassThatKeepsModelKitsFormReadsTheSameDocument() throws {
        let reader = try DejalReader(json: Data(DejalDocuments.task.utf8))
        #expect(reader.title == "Write the report a/b")
        #expect(reader.subtasks.map(\.title) == ["Draft", "Review"])
        #expect(Set(reader.extensibleProperties.keys) == ["created", "alarm", "attachment", "subtask", "priority"])
        let saved = try ModelValue(json: reader.jsonData())
        #expect(saved["type"] == "DejalReader")
        #expect(saved["representedClassName"] == nil)
    }

    @Test func intervalUnitsMapOntoModelKitsUnits() throws {
        let expected: [Interval] = [
            Interval(3, .seconds), Interval(3, .minutes), Interval(3, .hours), Interval(3, .days),
            Interval(3, .weeks), Interval(3, .months), Interval(3, .quarters), Interval(3, .years), .never, .forever,
        ]
        for (units, interval) in expected.enumerated() {
            let json = DejalDocuments.interval(range: false, 3, 3, units: units)
            #expect(try Interval(modelValue: ModelValue(json: Data(json.utf8))) == interval, "units \(units)")
        }
    }

    @Test func aRegisteredSubclassAndAnOldClassNameResolve() throws {
        ModelObject.register(DejalChecklist.self)
        ModelObject.register(DejalChecklist.self, as: "ShoppingList")
        for name in ["Checklist", "ShoppingList", "MyApp.Checklist"] {
            let json = #"{"representedClassName":"Task","subtask":{"representedClassName":"\#(name)","title":"Buy","items":["milk"]}}"#
            let task = try DejalTask(json: Data(json.utf8))
            let checklist = try #require(task.subtask as? DejalChecklist, "\(name)")
            #expect(checklist.items == ["milk"])
        }
    }

    // MARK: - Bad input

    static let badDocuments: [(name: String, json: String, message: String)] = [
        ("a DejalColor with a string red",
         #"{"representedClassName":"Task","colour":{"representedClassName":"DejalColor","red":"1","green":0,"blue":0,"alpha":1}}"#,
         #"colour.red: expected a number from 0 to 1, found a string ("1")"#),
        ("a malformed DejalDate",
         #"{"representedClassName":"Task","subtasks":[{"representedClassName":"Task","due":{"representedClassName":"DejalDate","string":"21/11/2026"}}]}"#,
         #"subtasks[0].due.string: expected a date such as "2026-11-21T14:30:00Z" (yyyy-MM-dd'T'HH:mm:ss'Z'), found a string ("21/11/2026")"#),
        ("an unknown representedClassName",
         #"{"representedClassName":"Task","subtask":{"representedClassName":"DejalNobody","title":"x"}}"#,
         #"subtask.representedClassName: expected "Task" or the class name of a registered subclass of DejalTask, found "DejalNobody", which names no registered class (see ModelObject.register(_:as:))"#),
        ("a value class where another is declared",
         #"{"representedClassName":"Task","colour":\#(DejalDocuments.time(1, 2, 3))}"#,
         #"colour.representedClassName: expected a DejalColor dictionary, found one of "DejalTime""#),
    ]

    @Test(arguments: [Path.direct, .modelValue, .dictionary, .xmlPropertyList, .update, .foundationJSONDecoder])
    func badInputIsAnErrorNamingTheKeyPath(path: Path) throws {
        for (name, json, message) in Self.badDocuments {
            let error = try #require(throws: ModelError.self, "\(name)") { try Self.load(json, through: path) }
            let description = "\(error)"
            #expect(description.contains(message), "\(name) through \(path): \(description)")
        }
    }
}

/// `representedClassName` is metadata: never in the bag, on loading or by hand.
@Suite struct DejalObjectMetadataTests {
    @Test func theClassNameIsNotAnExtensibleProperty() throws {
        let reader = DejalReader()
        let error = try #require(throws: ModelError.self) {
            try reader.setExtensibleProperty("Task", forKey: "representedClassName")
        }
        #expect(error.description == #"representedClassName: "representedClassName" is a metadata key of DejalReader, written by ModelKit"#)
    }

    @Test func aClassNameOfAnotherClassIsRefusedByAnInitializer() throws {
        ModelObject.register(DejalChecklist.self)
        let json = #"{"representedClassName":"Checklist","title":"x"}"#
        let error = try #require(throws: ModelError.self) { try DejalTask(json: Data(json.utf8)) }
        #expect("\(error)".contains("the data is a DejalChecklist"), "\(error)")
        let decoded = try DejalTask.decoded(from: ModelValue(json: Data(json.utf8)))
        #expect(decoded is DejalChecklist)
    }
}
