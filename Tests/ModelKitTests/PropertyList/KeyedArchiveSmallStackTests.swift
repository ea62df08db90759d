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

extension KeyedArchiveSmallStackTests {
    /// Issue 57, item 15: deep archives within the limit read (and models
    /// write and read again) on a 512 KiB thread, in a debug build too.
    @Test func aDeepArrayArchiveReadsOnASmallStack() throws {
        let data = try Self.chain(levels: 500, className: "NSArray", key: "NS.objects")
        let error = HostilePatchTests.onSmallStack {
            var value = try ModelValue(keyedArchive: data)
            var depth = 0
            while case .array(let elements) = value, let first = elements.first {
                value = first
                depth += 1
            }
            #expect(depth == 500)
            #expect(value == "leaf")
        }
        #expect(error == nil, "\(String(describing: error))")
    }

    @Test func aDeepChainOfModelsReadsAndWritesOnASmallStack() throws {
        var objects: [ModelValue] = [S.classDescription("LegacyNode")]
        for level in 0..<480 {
            objects.append(["$class": S.uid(1), "children": level == 479 ? S.uid(0) : S.uid(level + 3)])
        }
        let data = try S.archive(objects: objects, top: ["root": S.uid(2)])
        let error = HostilePatchTests.onSmallStack {
            let root = try SmallStackArchiveNode(keyedArchive: data)
            var depth = 1
            var node = root
            while let next = node.children {
                node = next
                depth += 1
            }
            #expect(depth == 480)
            let written = try root.keyedArchiveData()
            let back = try SmallStackArchiveNode(keyedArchive: written)
            #expect(back.isEquivalent(to: root))
        }
        #expect(error == nil, "\(String(describing: error))")
    }
}

/// A model archived as `LegacyNode` that nests through a saved property.
final class SmallStackArchiveNode: ModelObject, @unchecked Sendable {
    override class var archivedClassName: String { "LegacyNode" }
    @Saved var children: SmallStackArchiveNode? = nil
}
