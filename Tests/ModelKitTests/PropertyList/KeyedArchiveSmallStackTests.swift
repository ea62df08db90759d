import Foundation
import Testing

@testable import ModelKit

/// Deep archives read on a 512 KiB thread: an error naming the key path,
/// never a stack overflow.
@Suite("Keyed archives: deep nesting on a small stack")
struct KeyedArchiveSmallStackTests {
    typealias S = KeyedArchiveSupport

    /// `levels` objects of class `className`, each holding the next under
    /// `key` (for NSArray, as its only element); a string at the bottom.
    static func chain(levels: Int, className: String, key: String) throws -> Data {
        var objects: [ModelValue] = [S.classDescription(className)]
        for level in 0..<levels {
            let next = S.uid(level + 3)
            objects.append(
                className == "NSArray" ? ["$class": S.uid(1), "NS.objects": [next]] : ["$class": S.uid(1), key: next])
        }
        objects.append("leaf")
        return try S.archive(objects: objects, top: ["root": S.uid(2)])
    }

    @Test(arguments: [
        ("NSArray", "NS.objects", "[0][0][0]"),
        ("LegacyNode", "children", "children.children.children"),
    ])
    func deepNestingIsAnErrorOnASmallStack(className: String, key: String, prefix: String) throws {
        let data = try Self.chain(levels: 2000, className: className, key: key)
        let error = HostilePatchTests.onSmallStack {
            if className == "NSArray" {
                _ = try ModelValue(keyedArchive: data)
            } else {
                // Models nested through a saved optional property.
                _ = try SmallStackArchiveNode(keyedArchive: data)
            }
        }
        let modelError = try #require(error as? ModelError)
        #expect(modelError.code == .nestingTooDeep)
        #expect(modelError.description.contains(prefix), "\(modelError)")
        #expect(modelError.description.hasSuffix("nesting is deeper than the limit of 512 levels"), "\(modelError)")
    }
}

/// A model archived as `LegacyNode` that nests through a saved property.
final class SmallStackArchiveNode: ModelObject, @unchecked Sendable {
    override class var archivedClassName: String { "LegacyNode" }
    @Saved var children: SmallStackArchiveNode? = nil
}
