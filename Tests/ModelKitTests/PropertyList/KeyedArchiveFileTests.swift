import Foundation
import Testing

@testable import ModelKit

/// A file that is a keyed archive is told apart by its content, on every
/// way a file comes in: `init(contentsOf:)` of a model or a value, and the
/// Demo.
@Suite("Keyed archives as files")
struct KeyedArchiveFileTests {
    /// A small graph of `ArchivePlain` models.
    static func plain() -> ArchivePlain {
        let model = ArchivePlain()
        model.title = "Groceries"
        model.count = 3
        model.tags = ["home", "weekly"]
        let first = ArchivePlain()
        first.title = "milk"
        model.first = first
        return model
    }

    @Test(arguments: ["list.archive", "list.plist", "list"])
    func aModelReadsAnArchiveFileWhateverItsName(_ name: String) throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent(name)
            let model = Self.plain()
            try model.keyedArchiveData().write(to: url)
            let read = try ArchivePlain(contentsOf: url)
            #expect(read.isEquivalent(to: model))
            #expect(read.first?.title == "milk")
        }
    }

    @Test func aValueReadsAFoundationArchiveFile() throws {
        try #require(KeyedArchiveSupport.hasFoundationArchiver)
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("settings.plist")
            let root: NSDictionary = ["title": "Groceries", "tags": ["home"], "count": 2]
            try KeyedArchiveSupport.archive(root).write(to: url)
            let value = try ModelValue(contentsOf: url)
            #expect(value == ["title": "Groceries", "tags": ["home"], "count": 2])
        }
    }

    @Test func aPlainPropertyListThatMentionsTheArchiverIsStillAPropertyList() throws {
        try withTemporaryFolder { folder in
            // Both strings, but no envelope: read as the dictionary it is.
            let url = folder.appendingPathComponent("notes.plist")
            let value: ModelValue = ["note": "$archiver", "by": "NSKeyedArchiver"]
            try value.write(to: url)
            #expect(!ModelValue.isKeyedArchive(try Data(contentsOf: url)))
            #expect(try ModelValue(contentsOf: url) == value)
        }
    }

    @Test func aDamagedArchiveFileNamesTheFileAndTheFault() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("list.archive")
            let archive = try KeyedArchiveSupport.archive(objects: [["$class": "oops", "title": "x"]])
            #expect(ModelValue.isKeyedArchive(archive))
            try archive.write(to: url)
            let message = KeyedArchiveSupport.message { try ArchivePlain(contentsOf: url) }
            #expect(message.contains("list.archive"), "\(message)")
            #expect(message.contains("not a reference"), "\(message)")
        }
    }

    @Test func theDemoConvertsAFoundationArchiveToJSON() throws {
        try #require(KeyedArchiveSupport.hasFoundationArchiver)
        try withTemporaryFolder { folder in
            let source = folder.appendingPathComponent("old.plist")
            let root: NSDictionary = ["title": "Groceries", "tags": ["home", "weekly"]]
            try KeyedArchiveSupport.archive(root).write(to: source)
            let out = folder.appendingPathComponent("new.json")
            let convert = try DemoProcess.run(["convert", source.path, out.path], storeFolder: folder)
            #expect(convert.status == 0, "\(convert.errors)")
            #expect(try ModelValue(contentsOf: out) == ["title": "Groceries", "tags": ["home", "weekly"]])
        }
    }

    /// Issue 57, item 4: `write(to:)` saves a keyed archive through the
    /// durable writer, by the `.archive` extension or an explicit format.
    @Test(.enabled(if: KeyedArchiveSupport.hasFoundationArchiver, "Foundation's NSKeyedUnarchiver is missing"))
    func aModelIsWrittenAsAnArchiveFile() throws {
        try withTemporaryFolder { folder in
            let task = KeyedArchiveOldAppTests.task()
            let byExtension = folder.appendingPathComponent("task.archive")
            try task.write(to: byExtension)
            #expect(try Data(contentsOf: byExtension) == task.keyedArchiveData())
            let auto = try #require(
                try KeyedArchiveOldAppTests.unarchived(Data(contentsOf: byExtension), as: AutoCodedTask.self))
            #expect(auto.priority == 1 && auto.version == 3)
            #expect(try OldTask(contentsOf: byExtension).isEquivalent(to: task))

            let explicit = folder.appendingPathComponent("task.data")
            try task.write(to: explicit, format: .keyedArchive(.inlineScalars))
            let hand = try #require(
                try KeyedArchiveOldAppTests.unarchived(Data(contentsOf: explicit), as: HandCodedTask.self))
            #expect(hand.priority == 1 && hand.done && hand.version == 3)
            #expect(try OldTask(contentsOf: explicit).isEquivalent(to: task))
            // Nothing but the two files.
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["task.archive", "task.data"])
        }
    }

    @Test func aValueIsWrittenAsAnArchiveFile() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("settings.archive")
            let value: ModelValue = ["title": "Groceries", "tags": ["home"], "$id": "1", "odd": ["$ref": "1"]]
            try value.write(to: url)
            #expect(ModelValue.isKeyedArchive(try Data(contentsOf: url)))
            #expect(try ModelValue(contentsOf: url) == value)
            #expect(ModelDocumentFormat(pathExtension: "ARCHIVE") == .keyedArchive(.objects))
        }
    }

    @Test func theDemoSavesAKeyedArchiveBackAsOne() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("note.archive")
            let note = Note()
            note.title = "Archived"
            try note.write(to: url)
            let outcome = try DemoProcess.run(["set", url.path, "count=3"], storeFolder: folder)
            #expect(outcome.status == 0, "\(outcome.errors)")
            #expect(outcome.output == "changed: count\n")
            let data = try Data(contentsOf: url)
            #expect(ModelValue.isKeyedArchive(data))
            let edited = try Note(keyedArchive: data)
            #expect(edited.count == 3 && edited.title == "Archived")
        }
    }
}
