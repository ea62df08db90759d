import Foundation
import Testing

@testable import ModelKit

/// What archives hold survives reading and writing: numbers shared by a Bool
/// and an Int, dictionaries shaped like references or models, `$id` keys,
/// unknown classes in the bag, and plain property lists with an `$archiver`
/// member (issue 57, items 7 to 12).
@Suite("Keyed archives: values kept as they were")
struct KeyedArchiveKeepingTests {
    typealias S = KeyedArchiveSupport

    /// Item 7: `NSKeyedArchiver` stores equal `NSNumber`s once, and `YES`
    /// equals 1: `done` and `priority` refer to one number.
    @Test(arguments: [ModelValue.bool(true), .int(1), .bool(false), .int(0)])
    func oneNumberReadsAsTheBoolAndTheIntEachPropertyDeclares(shared: ModelValue) throws {
        let archive = try S.archive(objects: [
            ["$class": S.uid(2), "done": S.uid(3), "priority": S.uid(3), "ratio": S.uid(3), "title": S.uid(4)],
            S.classDescription("OldTask"), shared, "Ship",
        ])
        let task = try OldTask(keyedArchive: archive)
        let isOne = shared == .bool(true) || shared == .int(1)
        #expect(task.done == isOne)
        #expect(task.priority == (isOne ? 1 : 0))
        #expect(task.ratio == (isOne ? 1 : 0))
        #expect(task.title == "Ship")
    }

    /// A number other than 0 or 1 is no boolean.
    @Test func anotherNumberIsStillNoBoolean() throws {
        let archive = try S.archive(objects: [
            ["$class": S.uid(2), "done": 2], S.classDescription("OldTask"),
        ])
        #expect(S.message { try OldTask(keyedArchive: archive) } == "done: expected Bool, found an integer (2)")
    }

    /// Item 8: a bag dictionary shaped like a reference to a model that the
    /// graph holds (the shared child has id 1, its twin 2) stays a dictionary.
    @Test(arguments: ["1", "2"])
    func aBagDictionaryShapedLikeAReferenceToAModelStaysADictionary(id: String) throws {
        let plain = try KeyedArchiveWritingTests.plain()
        try plain.setExtensibleProperty(["$ref": .string(id)], forKey: "odd")
        let read = try ArchivePlain(keyedArchive: plain.keyedArchiveData())
        #expect(read.extensibleProperties["odd"] == ["$ref": .string(id)])
        #expect(read.first === read.second)
        #expect(read.isEquivalent(to: plain))
    }

    /// Item 9: `$id` keys of plain dictionaries stay, with no model and in a bag.
    @Test(.enabled(if: S.hasFoundationArchiver, "Foundation's NSKeyedArchiver is missing"))
    func idKeysOfPlainDictionariesStay() throws {
        let dictionary: NSDictionary = ["$id": "1", "inner": ["$id": "2", "$ref": "1"] as NSDictionary]
        #expect(try ModelValue(keyedArchive: S.archive(dictionary)) == ["$id": "1", "inner": ["$id": "2", "$ref": "1"]])
        let plain = try KeyedArchiveWritingTests.plain()
        try plain.setExtensibleProperty(["$id": "1", "x": 2], forKey: "odd")
        let read = try ArchivePlain(keyedArchive: plain.keyedArchiveData())
        #expect(read.extensibleProperties["odd"] == ["$id": "1", "x": 2])
        #expect(read.isEquivalent(to: plain))
    }

    /// Item 10: a bag value shaped like a saved model keeps its version (and
    /// one with an id stays a dictionary).
    @Test(arguments: [
        ["type": "ArchivePlain", "version": 1, "title": "dog"] as ModelValue,
        ["type": "ArchivePlain", "version": 7, "title": "dog", "count": 2],
        ["type": "ArchivePlain", "$id": "1", "title": "dog"],
    ])
    func aBagValueShapedLikeAModelIsKept(value: ModelValue) throws {
        let plain = ArchivePlain()
        try plain.setExtensibleProperty(value, forKey: "dog")
        for style in [KeyedArchiveStyle.objects, .inlineScalars] {
            let read = try ArchivePlain(keyedArchive: plain.keyedArchiveData(style: style))
            #expect(read.extensibleProperties["dog"] == value, "\(style)")
        }
    }

    /// Item 11: an unknown class under a key the model does not save.
    static func archiveWithAnUnknownClass(root: String) throws -> Data {
        try S.archive(objects: [
            ["$class": S.uid(2), "title": S.uid(3), "tint": S.uid(4)], S.classDescription(root), "Ship",
            ["$class": S.uid(5), "name": S.uid(6), "level": 3, "$$note": S.uid(7), "nothing": S.uid(0)],
            S.classDescription("NewApp.Tint"), "red", ["$class": S.uid(8), "NS.objects": [S.uid(6)]],
            S.classDescription("NSSet"),
        ])
    }

    @Test func anUnknownClassInTheBagIsKeptAsItsStructureAndWrittenBack() throws {
        let task = try OldTask(keyedArchive: Self.archiveWithAnUnknownClass(root: "OldTask"))
        let structure: ModelValue = [
            "$class": "NewApp.Tint", "name": "red", "level": 3, "$$note": ["red"], "nothing": .null,
        ]
        #expect(task.extensibleProperties["tint"] == structure)
        for style in [KeyedArchiveStyle.objects, .inlineScalars] {
            let written = try task.keyedArchiveData(style: style)
            let envelope = try S.envelope(written)
            guard case .array(let objects)? = envelope["$objects"] else {
                Issue.record("no objects")
                return
            }
            // Written back as an object of its class, never as a dictionary.
            #expect(objects.contains(S.classDescription("NewApp.Tint")))
            let back = try OldTask(keyedArchive: written)
            #expect(back.extensibleProperties["tint"] == structure, "\(style)")
            #expect(try back.keyedArchiveData(style: style) == written)
        }
    }

    @Test func anUnknownClassInTheBagFollowsTheUnknownKeyPolicy() throws {
        let ignoring = try IgnoringArchiveTask(
            keyedArchive: Self.archiveWithAnUnknownClass(root: "IgnoringArchiveTask"))
        #expect(ignoring.title == "Ship" && ignoring.extensibleProperties.isEmpty)
        let data = try Self.archiveWithAnUnknownClass(root: "RejectingArchiveTask")
        #expect(
            S.message { try RejectingArchiveTask(keyedArchive: data) }
                == "tint: unknown key \"tint\": RejectingArchiveTask saves title")
        // Under a saved key, it is still an error.
        let saved = try S.archive(objects: [
            ["$class": S.uid(2), "due": S.uid(3)], S.classDescription("OldTask"),
            ["$class": S.uid(4)], S.classDescription("NewApp.Tint"),
        ])
        #expect(
            S.message { try OldTask(keyedArchive: saved) }
                == "due: the archive holds an object of class \"NewApp.Tint\", which is neither a Foundation class "
                + "that ModelKit reads nor a model class (register it with ModelObject.register(_:as:))")
    }

    /// Item 12: a property list whose `$archiver` member is
    /// "NSKeyedArchiver" but that has no archive's envelope is a plain one.
    @Test(arguments: [ModelDocumentFormat.xmlPropertyList, .binaryPropertyList])
    func aPlainPropertyListWithAnArchiverKeyIsReadAsOne(format: ModelDocumentFormat) throws {
        try withTemporaryFolder { folder in
            let plain = ArchivePlain()
            plain.title = "Groceries"
            try plain.setExtensibleProperty("NSKeyedArchiver", forKey: "$archiver")
            try plain.setExtensibleProperty(["$null"], forKey: "$objects")
            let url = folder.appendingPathComponent("plain.data")
            try plain.write(to: url, format: format)
            let read = try ArchivePlain(contentsOf: url)
            #expect(read.isEquivalent(to: plain))
            let value = try ModelValue(contentsOf: url)
            #expect(value["$archiver"] == "NSKeyedArchiver")
            #expect(ModelValue.isKeyedArchive(try Data(contentsOf: url)) == false)
            #expect(try ArchivePlain(propertyList: Data(contentsOf: url)).isEquivalent(to: plain))
        }
    }
}

final class IgnoringArchiveTask: ModelObject, @unchecked Sendable {
    override class var unknownKeys: UnknownKeyPolicy { .ignore }
    @Saved var title = ""
}

final class RejectingArchiveTask: ModelObject, @unchecked Sendable {
    override class var unknownKeys: UnknownKeyPolicy { .reject }
    @Saved var title = ""
}
