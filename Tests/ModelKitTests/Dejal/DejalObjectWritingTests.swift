import Foundation
import Testing

@testable import ModelKit

/// A class whose `savedDialect` is `.dejalObject` writes what DejalObject
/// writes, so that the old app loads it.
@Suite struct DejalObjectWritingTests {
    /// The document as Foundation reads it: what the old app sees.
    static func foundationObject(_ data: Data) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: data) as? NSDictionary)
    }

    /// Made per use: LeakSanitizer does not see a global `Data`'s reference (CI's AddressSanitizer step).
    static var original: Data { Data(DejalDocuments.currentTask.utf8) }

    /// The differential promise for DejalObject files (issue 57): a file
    /// opened and saved through every way in (JSON, property-list files,
    /// a dictionary, a keyed archive of each style written and read back)
    /// saves the same document as the JSON path, with what the value
    /// dictionaries held beyond the values (`keepingTask`) too.
    @Test(arguments: ["json", "plist", "bplist", "dictionary", "archive", "archive-inline"], [
        DejalDocuments.currentTask, DejalDocuments.keepingTask,
    ])
    func everyWayInSavesTheSameDocument(path: String, document: String) throws {
        let original = Data(document.utf8)
        let reference = try DejalTask(json: original)
        let expected = try reference.jsonData(options: JSONWritingOptions(sortedKeys: true))
        let loaded: DejalTask = try withTemporaryFolder { folder in
            switch path {
            case "plist", "bplist":
                let url = folder.appendingPathComponent("task." + path)
                try reference.write(to: url)
                return try DejalTask(contentsOf: url)
            case "dictionary": return try DejalTask(dictionary: reference.dictionary)
            case "archive": return try DejalTask(keyedArchive: reference.keyedArchiveData())
            case "archive-inline": return try DejalTask(keyedArchive: reference.keyedArchiveData(style: .inlineScalars))
            default:
                let url = folder.appendingPathComponent("task.json")
                try original.write(to: url)
                return try DejalTask(contentsOf: url)
            }
        }
        #expect(loaded.isEquivalent(to: reference), "\(path)")
        let saved = try loaded.jsonData(options: JSONWritingOptions(sortedKeys: true))
        #expect(String(decoding: saved, as: UTF8.self) == String(decoding: expected, as: UTF8.self), "\(path)")
    }

    @Test(arguments: [DejalDocuments.currentTask, DejalDocuments.keepingTask])
    func jsonWrittenBackIsTheDocumentThatWasRead(document: String) throws {
        let task = try DejalTask(json: Data(document.utf8))
        let written = try task.jsonData()
        #expect(try Self.foundationObject(written) == Self.foundationObject(Data(document.utf8)))
    }

    @Test func jsonIsNSJSONSerializationsOutputKeyOrderAside() throws {
        let task = try DejalTask(json: Self.original)
        var options = JSONWritingOptions()
        options.sortedKeys = true
        let written = try task.jsonData(options: options)
        let foundation = try JSONSerialization.data(
            withJSONObject: Self.foundationObject(Self.original), options: [.sortedKeys])
        #expect(String(decoding: written, as: UTF8.self) == String(decoding: foundation, as: UTF8.self))
        #expect(String(decoding: written, as: UTF8.self).contains(#"a\/b"#))
    }

    /// Pretty-printed, the bytes differ from `NSJSONSerialization`'s only in
    /// whitespace: it writes `"key" : value` and an empty array over two lines.
    @Test func prettyJSONDiffersFromNSJSONSerializationsOnlyInSpacing() throws {
        let task = try DejalTask(json: Self.original)
        let written = try task.jsonData(options: JSONWritingOptions(prettyPrinted: true, sortedKeys: true))
        let foundation = try JSONSerialization.data(
            withJSONObject: Self.foundationObject(Self.original), options: [.prettyPrinted, .sortedKeys])
        let respaced = String(decoding: foundation, as: UTF8.self)
            .replacingOccurrences(of: "\" : ", with: "\": ")
            .replacingOccurrences(of: #"\[\n *\n *\]"#, with: "[]", options: .regularExpression)
        #expect(String(decoding: written, as: UTF8.self) == respaced)
    }

    @Test func dictionaryAndPropertyListsHoldTheSameDictionaries() throws {
        let task = try DejalTask(json: Self.original)
        let expected = try Self.foundationObject(Self.original)
        #expect(NSDictionary(dictionary: task.dictionary) == expected)
        for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
            let plist = try PropertyListSerialization.propertyList(from: task.propertyListData(format: format), format: nil)
            #expect(plist as? NSDictionary == expected, "\(format)")
        }
    }

    @Test func filesInJSONAndPropertyListsReadBackInFoundation() throws {
        let task = try DejalTask(json: Self.original)
        let expected = try Self.foundationObject(Self.original)
        try withTemporaryFolder { folder in
            for name in ["task.json", "task.plist"] {
                let url = folder.appendingPathComponent(name)
                try task.write(to: url)
                let data = try Data(contentsOf: url)
                let read: Any =
                    name.hasSuffix("json")
                    ? try JSONSerialization.jsonObject(with: data)
                    : try PropertyListSerialization.propertyList(from: data, format: nil)
                #expect(read as? NSDictionary == expected, "\(name)")
                #expect(try DejalTask(contentsOf: url).isEquivalent(to: task), "\(name)")
            }
        }
    }

    @Test func nilValuesAreLeftOutNeverNull() throws {
        let task = DejalTask()
        task.subtasks = [DejalTask()]
        let json = String(decoding: try task.jsonData(), as: UTF8.self)
        #expect(!json.contains("null"))
        #expect(!json.contains("\"due\""))
        #expect(!json.contains("\"type\""))
        #expect(task.dictionary["due"] == nil)
        let saved = try #require(task.dictionary["subtasks"] as? [[String: Any]])
        #expect(saved.first?["representedClassName"] as? String == "Task")
        #expect(saved.first?["alarm"] == nil)
        // The saved form keeps every key, for merges and patches.
        #expect(task.modelValue["due"] == .null)
    }

    @Test func anArrayOfModelsIsWrittenAsOneModelIs() throws {
        let task = DejalTask()
        task.title = "a/b"
        let json = String(decoding: try [task, DejalTask()].jsonData(), as: UTF8.self)
        #expect(!json.contains("null") && json.contains(#"a\/b"#) && json.contains("DejalColor"), "\(json)")
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("tasks.plist")
            try [task].write(to: url)
            let read = try PropertyListSerialization.propertyList(from: Data(contentsOf: url), format: nil) as? [[String: Any]]
            #expect(read?.first?["representedClassName"] as? String == "Task")
            #expect(read?.first?["due"] == nil)
            #expect(try [DejalTask](contentsOf: url).first?.title == "a/b")
        }
    }

    @Test func metadataIsTheArchivedClassNameAndTheVersion() throws {
        let checklist = DejalChecklist()
        let saved = try ModelValue(json: checklist.jsonData())
        #expect(saved["representedClassName"] == "Checklist")
        #expect(saved["version"] == 2)
        #expect(saved["type"] == nil)
    }

    @Test(arguments: [
        (Interval(1.5, .hours), #""firstAmount":90,"secondAmount":90,"units":1"#, false),
        (Interval(2...4, .quarters), #""firstAmount":2,"secondAmount":4,"units":6"#, true),
        (Interval.never, #""firstAmount":0,"secondAmount":0,"units":8"#, false),
        (Interval.forever, #""firstAmount":0,"secondAmount":0,"units":9"#, false),
    ])
    func intervalsAreWrittenInWholeAmounts(interval: Interval, members: String, isRange: Bool) throws {
        let task = DejalTask()
        task.snooze = interval
        let json = String(decoding: try task.jsonData(), as: UTF8.self)
        #expect(json.contains(#""usingRange":\#(isRange),"# + members), "\(json)")
        #expect(try DejalTask(json: Data(json.utf8)).snooze.secondsRange == interval.secondsRange)
    }

    @Test func valueClassesRoundTripThroughTheirDictionaries() throws {
        let date = Date(timeIntervalSince1970: 1_763_307_200)
        let values: [(ModelValue, any Equatable)] = [
            (DejalObjectForm.dictionary(of: Color(red: 0.25, green: 0.5, blue: 0.75, alpha: 0.5)),
             Color(red: 0.25, green: 0.5, blue: 0.75, alpha: 0.5)),
            (DejalObjectForm.dictionary(of: date), date),
            (DejalObjectForm.dictionary(of: TimeOfDay(hour: 23, minute: 59, second: 58)!),
             TimeOfDay(hour: 23, minute: 59, second: 58)!),
            (DejalObjectForm.dictionary(of: Data([0, 1, 2, 255])), Data([0, 1, 2, 255])),
        ]
        #expect(try Color(modelValue: values[0].0) == values[0].1 as? Color)
        #expect(try Date(modelValue: values[1].0) == values[1].1 as? Date)
        #expect(try TimeOfDay(modelValue: values[2].0) == values[2].1 as? TimeOfDay)
        #expect(try Data(modelValue: values[3].0) == values[3].1 as? Data)
        #expect(values[1].0["string"] == "2025-11-16T15:33:20Z")
    }
}

/// Keyed archives are NSCoding's form, not DejalObject's: a class that writes
/// DejalObject's form still archives its models as models.
@Suite struct DejalObjectArchivingTests {
    @Test func aDejalObjectClassArchivesAndReadsBack() throws {
        let task = try DejalTask(json: Data(DejalDocuments.currentTask.utf8))
        let archive = try task.keyedArchiveData()
        let copy = try DejalTask(keyedArchive: archive)
        #expect(copy.isEquivalent(to: task))
        let text = String(decoding: archive, as: UTF8.self)
        #expect(!text.contains("representedClassName") && !text.contains("DejalColor"), "models archived as models")
        #expect(try DejalTask(json: task.jsonData()).isEquivalent(to: task), "the dialect is back on after archiving")
        #expect(String(decoding: try task.jsonData(), as: UTF8.self).contains("DejalColor"))
        #expect(copy.subtasks.map(\.title) == ["Draft", "Review"])
    }
}
