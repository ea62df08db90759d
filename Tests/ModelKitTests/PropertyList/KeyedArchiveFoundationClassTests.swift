import Foundation
import Testing

@testable import ModelKit

/// Foundation's own NSURL (relative to a base), NSUUID and NSNumber objects,
/// archived by NSKeyedArchiver, read as values and into `URL` and `UUID`
/// properties.
@Suite(.enabled(if: KeyedArchiveSupport.hasFoundationArchiver, "Foundation's NSKeyedArchiver is missing"))
struct KeyedArchiveFoundationClassTests {
    static let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!

    static func archive() throws -> Data {
        let base = URL(string: "https://example.com/a/")!
        let root: NSDictionary = [
            "link": NSURL(string: "b/c.html", relativeTo: base)!,
            "id": NSUUID(uuidString: uuid.uuidString)!,
            "count": NSNumber(value: 42),
        ]
        return try KeyedArchiveSupport.archive(root)
    }

    @Test func theyReadAsValues() throws {
        let value = try ModelValue(keyedArchive: Self.archive())
        #expect(value["link"] == "https://example.com/a/b/c.html")
        #expect(value["id"] == .string(Self.uuid.uuidString))
        #expect(value["count"] == 42)
    }

    @Test func theyReadIntoURLAndUUIDProperties() throws {
        typealias S = KeyedArchiveSupport
        let bytes = withUnsafeBytes(of: Self.uuid.uuid) { Data($0) }
        let data = try S.archive(objects: [
            ["$class": S.uid(2), "link": S.uid(3), "id": S.uid(6), "count": 42], S.classDescription("FCHolder"),
            ["$class": S.uid(4), "NS.base": S.uid(8), "NS.relative": S.uid(5)], S.classDescription("NSURL"), "b/c.html",
            ["$class": S.uid(7), "NS.uuidbytes": .data(bytes)], S.classDescription("NSUUID"),
            ["$class": S.uid(4), "NS.base": S.uid(0), "NS.relative": S.uid(9)], "https://example.com/a/",
        ])
        let model = try FoundationClassHolder(keyedArchive: data)
        #expect(model.link == URL(string: "https://example.com/a/b/c.html"))
        #expect(model.id == Self.uuid)
        #expect(model.count == 42)
    }
}

final class FoundationClassHolder: ModelObject, @unchecked Sendable {
    override class var archivedClassName: String { "FCHolder" }
    @Saved var link: URL? = nil
    @Saved var id = UUID()
    @Saved var count = 0
}
