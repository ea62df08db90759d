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
}
