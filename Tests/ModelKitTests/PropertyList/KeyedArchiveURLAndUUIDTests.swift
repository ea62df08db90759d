import Foundation
import Testing

@testable import ModelKit

/// A bookmark whose properties are declared `URL` and `UUID`, plain,
/// optional and in arrays.
final class ArchivedBookmark: ModelObject, @unchecked Sendable {
    @Saved var id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    @Saved var page = URL(string: "https://example.com/")!
    @Saved var mirror: URL? = nil
    @Saved var owner: UUID? = nil
    @Saved var links: [URL] = []
    @Saved var readers: [UUID] = []
}

/// What Foundation's unarchiver makes of an `ArchivedBookmark`.
final class UnarchivedBookmark: NSObject, NSCoding {
    var values: [String: Any] = [:]
    func encode(with coder: NSCoder) {}
    required init?(coder: NSCoder) {
        super.init()
        for key in ["id", "page", "mirror", "owner", "links", "readers", "note"] where coder.containsValue(forKey: key) {
            values[key] = coder.decodeObject(forKey: key)
        }
    }
}

/// `keyedArchiveData()` writes `URL` and `UUID` properties as the `NSURL`
/// and `NSUUID` objects `NSKeyedArchiver` writes, which the old app decodes.
@Suite struct KeyedArchiveURLAndUUIDTests {
    typealias Support = KeyedArchiveSupport

    static func bookmark() throws -> ArchivedBookmark {
        let bookmark = ArchivedBookmark()
        bookmark.page = URL(string: "https://example.com/a?b=1&c=%20d")!
        bookmark.mirror = URL(fileURLWithPath: "/tmp/a file.txt")
        bookmark.owner = UUID(uuidString: "00000000-0000-0000-0000-0000000000FF")
        bookmark.links = [URL(string: "https://a.example/")!, URL(string: "mailto:x@example.com")!]
        bookmark.readers = [UUID(uuidString: "12345678-9ABC-DEF0-1234-56789ABCDEF0")!, UUID()]
        // Bag values have no declared type: a URL's text stays a string.
        try bookmark.setExtensibleProperty("https://bag.example/", forKey: "note")
        return bookmark
    }

    /// The archive's objects and the root object's members.
    static func objects(_ data: Data) throws -> (objects: [ModelValue], root: ModelValue) {
        let envelope = try Support.envelope(data)
        guard case .array(let objects)? = envelope["$objects"], let top = envelope["$top"]?["root"],
            let rootUID = KeyedArchive.uid(of: top)
        else { throw ModelError.malformed("archive", "no root", at: nil, keyPath: "") }
        return (objects, objects[rootUID])
    }

    static func resolve(_ value: ModelValue?, in objects: [ModelValue]) -> ModelValue? {
        value.flatMap { KeyedArchive.uid(of: $0) }.map { objects[$0] }
    }

    @Test func urlsAndUUIDsAreWrittenAsFoundationWritesThem() throws {
        let bookmark = try Self.bookmark()
        let (objects, root) = try Self.objects(bookmark.keyedArchiveData())
        func expectURL(_ value: ModelValue?, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
            let object = Self.resolve(value, in: objects)
            #expect(Self.resolve(object?["$class"], in: objects) == Support.classDescription("NSURL"), sourceLocation: sourceLocation)
            #expect(object?["NS.base"] == Support.uid(0), sourceLocation: sourceLocation)
            #expect(Self.resolve(object?["NS.relative"], in: objects) == .string(text), sourceLocation: sourceLocation)
        }
        func expectUUID(_ value: ModelValue?, _ uuid: UUID, sourceLocation: SourceLocation = #_sourceLocation) {
            let object = Self.resolve(value, in: objects)
            #expect(Self.resolve(object?["$class"], in: objects) == Support.classDescription("NSUUID"), sourceLocation: sourceLocation)
            #expect(object?["NS.uuidbytes"] == .data(withUnsafeBytes(of: uuid.uuid) { Data($0) }), sourceLocation: sourceLocation)
        }
        expectURL(root["page"], "https://example.com/a?b=1&c=%20d")
        expectURL(root["mirror"], "file:///tmp/a%20file.txt")
        expectUUID(root["id"], bookmark.id)
        expectUUID(root["owner"], bookmark.owner!)
        let links = try #require(Self.resolve(root["links"], in: objects))
        #expect(Self.resolve(links["$class"], in: objects) == Support.classDescription("NSArray"))
        guard case .array(let linkUIDs)? = links["NS.objects"], case .array(let readerUIDs)? = Self.resolve(root["readers"], in: objects)?["NS.objects"] else {
            Issue.record("links or readers are not arrays: \(root)")
            return
        }
        #expect(linkUIDs.count == 2 && readerUIDs.count == 2)
        for (uid, url) in zip(linkUIDs, bookmark.links) { expectURL(uid, url.absoluteString) }
        for (uid, uuid) in zip(readerUIDs, bookmark.readers) { expectUUID(uid, uuid) }
        #expect(Self.resolve(root["note"], in: objects) == "https://bag.example/")
    }

    @Test func nilOptionalsAreNullAndEmptyArraysAreArrays() throws {
        let (objects, root) = try Self.objects(ArchivedBookmark().keyedArchiveData())
        #expect(root["mirror"] == Support.uid(0))
        #expect(root["owner"] == Support.uid(0))
        #expect(Self.resolve(root["links"], in: objects)?["NS.objects"] == [])
    }

    @Test func modelKitReadsItsOwnArchiveBack() throws {
        let bookmark = try Self.bookmark()
        let read = try ArchivedBookmark(keyedArchive: bookmark.keyedArchiveData())
        #expect(read.isEquivalent(to: bookmark), "\(read.modelValue)")
        #expect(read.mirror == bookmark.mirror)
        #expect(read.readers == bookmark.readers)
        #expect(read.extensibleProperties == ["note": "https://bag.example/"])
        let empty = try ArchivedBookmark(keyedArchive: ArchivedBookmark().keyedArchiveData())
        #expect(empty.mirror == nil && empty.owner == nil && empty.links.isEmpty)
    }

    /// Foundation's own archive of the same values has the same objects.
    @Test(.enabled(if: KeyedArchiveSupport.hasFoundationArchiver, "Foundation's NSKeyedArchiver is missing"))
    func foundationWritesTheSameShapes() throws {
        let url = URL(string: "https://example.com/a?b=1&c=%20d")! as NSURL
        let uuid = NSUUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        let (objects, root) = try Self.objects(Support.archive(NSArray(array: [url, uuid])))
        guard case .array(let members)? = root["NS.objects"], members.count == 2 else {
            Issue.record("unexpected archive \(objects)")
            return
        }
        let (ours, ourRoot) = try Self.objects(ArchivedBookmark.with(page: url as URL).keyedArchiveData())
        for (theirs, mine) in [(members[0], ourRoot["page"]), (members[1], ourRoot["id"])] {
            guard case .object(var foundation)? = Self.resolve(theirs, in: objects),
                case .object(var modelKit)? = Self.resolve(mine, in: ours)
            else {
                Issue.record("not objects")
                continue
            }
            #expect(Self.resolve(foundation["$class"], in: objects) == Self.resolve(modelKit["$class"], in: ours))
            #expect(Self.resolve(foundation["NS.relative"], in: objects) == Self.resolve(modelKit["NS.relative"], in: ours))
            for key in ["$class", "NS.relative"] {
                foundation[key] = nil
                modelKit[key] = nil
            }
            #expect(foundation == modelKit)
        }
    }

    @Test(.enabled(if: KeyedArchiveSupport.hasFoundationArchiver, "Foundation's NSKeyedUnarchiver is missing"))
    func foundationReadsThemAsURLsAndUUIDs() throws {
        let bookmark = try Self.bookmark()
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: try bookmark.keyedArchiveData())
        unarchiver.requiresSecureCoding = false
        unarchiver.decodingFailurePolicy = .setErrorAndReturn
        unarchiver.setClass(UnarchivedBookmark.self, forClassName: "ArchivedBookmark")
        let root = unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? UnarchivedBookmark
        #expect(unarchiver.error == nil, "\(String(describing: unarchiver.error))")
        let values = try #require(root?.values)
        #expect((values["page"] as? NSURL)?.absoluteString == bookmark.page.absoluteString)
        #expect((values["mirror"] as? NSURL) as URL? == bookmark.mirror)
        #expect((values["id"] as? NSUUID) as UUID? == bookmark.id)
        #expect((values["owner"] as? NSUUID) as UUID? == bookmark.owner)
        #expect((values["links"] as? [NSURL])?.map { $0 as URL } == bookmark.links)
        #expect((values["readers"] as? [NSUUID])?.map { $0 as UUID } == bookmark.readers)
        #expect(values["note"] as? String == "https://bag.example/")
    }
}

extension ArchivedBookmark {
    static func with(page: URL) -> ArchivedBookmark {
        let bookmark = ArchivedBookmark()
        bookmark.page = page
        return bookmark
    }
}
