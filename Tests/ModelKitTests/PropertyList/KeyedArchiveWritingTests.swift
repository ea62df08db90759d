import Foundation
import Testing
@testable import ModelKit

/// `keyedArchiveData()`: models written as archives that Foundation and
/// ModelKit read back.
@Suite struct KeyedArchiveWritingTests {
    typealias Support = KeyedArchiveSupport

    static func tree() -> ArchiveNode {
        let root = ArchiveNode()
        root.name = "root"
        root.count = 3
        root.created = Date(timeIntervalSinceReferenceDate: 12.5)
        for name in ["first", "second"] {
            let child = ArchiveNode()
            child.name = name
            child.parent = root
            root.children.append(child)
        }
        let grandchild = ArchiveNode()
        grandchild.name = "grandchild"
        grandchild.parent = root.children[0]
        root.children[0].children = [grandchild]
        return root
    }

    @Test func aTreeWithWeakParentsRoundTrips() throws {
        let root = Self.tree()
        let data = try root.keyedArchiveData()
        let read = try ArchiveNode(keyedArchive: data)
        #expect(read.isEquivalent(to: root))
        #expect(read.children.allSatisfy { $0.parent === read })
        #expect(read.children[0].children[0].parent === read.children[0])
        #expect(read.created == Date(timeIntervalSinceReferenceDate: 12.5))
    }

    /// Foundation's archive of a tree whose two children share a grandchild,
    /// read, written and read again.
    @Test(.enabled(if: KeyedArchiveSupport.hasFoundationArchiver, "Foundation's NSKeyedArchiver is missing"))
    func aSharedGrandchildSurvivesReadingAndWriting() throws {
        let root = LegacyNode(name: "root", count: 2)
        root.adopt(LegacyNode(name: "a"))
        root.adopt(LegacyNode(name: "b"))
        let shared = LegacyNode(name: "shared")
        root.children[0].children = [shared]
        root.children[1].children = [shared]
        let read = try ArchiveNode(keyedArchive: Support.archive(root))
        #expect(read.children[0].children[0] === read.children[1].children[0])
        let written = try read.keyedArchiveData()
        let again = try ArchiveNode(keyedArchive: written)
        #expect(again.isEquivalent(to: read), "\(again.modelValue)\n\(read.modelValue)")
        #expect(again.children[0].children[0] === again.children[1].children[0])
        #expect(try again.keyedArchiveData() == written)
    }

    @Test func eachModelIsAnObjectOfItsArchivedClassAndParentsAreReferences() throws {
        let envelope = try Support.envelope(Self.tree().keyedArchiveData(style: .inlineScalars))
        #expect(envelope["$archiver"] == "NSKeyedArchiver")
        #expect(envelope["$version"] == .int(100000))
        guard case .array(let objects)? = envelope["$objects"], let top = envelope["$top"]?["root"],
            let rootUID = KeyedArchive.uid(of: top)
        else {
            Issue.record("unexpected archive \(envelope)")
            return
        }
        #expect(objects[0] == "$null")
        let root = objects[rootUID]
        #expect(root["$class"].flatMap { KeyedArchive.uid(of: $0) }.map { objects[$0] }
            == ["$classname": "LegacyNode", "$classes": ["LegacyNode", "NSObject"]])
        #expect(root["count"] == .int(3))
        #expect(root["type"] == nil)
        #expect(root["version"] == .int(1))
        #expect(root["parent"] == Support.uid(0))  // nil, as Foundation writes it
        guard let children = root["children"].flatMap({ KeyedArchive.uid(of: $0) }).map({ objects[$0] }),
            case .array(let references)? = children["NS.objects"]
        else {
            Issue.record("no children in \(root)")
            return
        }
        #expect(references.count == 2)
        for reference in references {
            #expect(objects[KeyedArchive.uid(of: reference)!]["parent"] == top)
        }
    }

    static func plain() throws -> ArchivePlain {
        let plain = ArchivePlain()
        plain.title = "Groceries"
        plain.count = 4
        plain.ratio = 0.25
        plain.done = true
        plain.tags = ["home", "$null"]
        plain.due = Date(timeIntervalSinceReferenceDate: 1000)
        plain.blob = Data([1, 2, 3])
        plain.scores = ["a": 1]
        plain.link = URL(string: "https://example.com/x")
        let child = ArchivePlain()
        child.title = "child"
        plain.first = child
        plain.second = child
        try plain.setExtensibleProperty(["n": 1.5, "flag": false], forKey: "extra")
        try plain.setExtensibleProperty(.null, forKey: "nothing")
        return plain
    }

    @Test func aSharedModelIsWrittenOnceAndReadAsOneObject() throws {
        let read = try ArchivePlain(keyedArchive: try Self.plain().keyedArchiveData())
        #expect(read.isEquivalent(to: try Self.plain()))
        #expect(read.first != nil && read.first === read.second)
        #expect(read.link == URL(string: "https://example.com/x"))
        #expect(read.extensibleProperties == ["extra": ["n": 1.5, "flag": false], "nothing": .null])
        // Nil objects refer to $null, as Foundation writes them.
        let envelope = try Support.envelope(Self.plain().keyedArchiveData())
        guard case .array(let objects)? = envelope["$objects"], let top = envelope["$top"]?["root"] else {
            Issue.record("unexpected archive")
            return
        }
        #expect(objects[KeyedArchive.uid(of: top)!]["nothing"] == Support.uid(0))
        #expect(objects[KeyedArchive.uid(of: top)!]["due"] != Support.uid(0))
    }

    /// A dictionary in the bag shaped like a reference stays a dictionary
    /// (found by Fuzz/run.sh archive).
    @Test func aBagDictionaryShapedLikeAReferenceRoundTrips() throws {
        let plain = ArchivePlain()
        try plain.setExtensibleProperty(["$ref": "7"], forKey: "odd")
        let read = try ArchivePlain(keyedArchive: plain.keyedArchiveData())
        #expect(read.extensibleProperties == ["odd": ["$ref": "7"]])
    }

    @Test(.enabled(if: KeyedArchiveSupport.hasFoundationArchiver, "Foundation's NSKeyedUnarchiver is missing"))
    func foundationReadsTheArchiveBack() throws {
        // `UnarchivedPlain` decodes its scalars with `decodeInteger(forKey:)`
        // and the like: inline scalars.
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: try Self.plain().keyedArchiveData(style: .inlineScalars))
        unarchiver.requiresSecureCoding = false
        unarchiver.decodingFailurePolicy = .setErrorAndReturn
        unarchiver.setClass(UnarchivedPlain.self, forClassName: "ArchivePlain")
        let root = unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? UnarchivedPlain
        #expect(unarchiver.error == nil, "\(String(describing: unarchiver.error))")
        let values = try #require(root?.values)
        #expect(values["title"] as? String == "Groceries")
        #expect(values["count"] as? Int == 4)
        #expect(values["ratio"] as? Double == 0.25)
        #expect(values["done"] as? Bool == true)
        // Foundation reads any string "$null" as nil, in its own archives too.
        #expect(values["tags"] as? [String] == ["home"])
        #expect(values["due"] as? Date == Date(timeIntervalSinceReferenceDate: 1000))
        #expect(values["blob"] as? Data == Data([1, 2, 3]))
        #expect(values["scores"] as? [String: Int] == ["a": 1])
        let extra = values["extra"] as? [String: Any]
        #expect(extra?["n"] as? Double == 1.5)
        #expect(extra?["flag"] as? Bool == false)
        let first = values["first"] as? UnarchivedPlain
        #expect(first?.values["title"] as? String == "child")
    }

    @Test func plainValuesOfAModelReadAsValues() throws {
        let plain = ArchivePlain()
        try plain.setExtensibleProperty(
            [1, "two", .null, ["k": .date(Date(timeIntervalSinceReferenceDate: 5))]], forKey: "list")
        let envelope = try Support.envelope(plain.keyedArchiveData())
        guard case .array(let objects)? = envelope["$objects"], let top = envelope["$top"]?["root"],
            let list = objects[KeyedArchive.uid(of: top)!]["list"]
        else {
            Issue.record("unexpected archive")
            return
        }
        // The list alone, as the root of an archive of plain values.
        var edited = envelope
        if case .object(var members) = envelope {
            members["$top"] = ["root": list]
            edited = .object(members)
        }
        let data = try BinaryPropertyListWriter.data(from: edited, writingUIDs: true)
        #expect(try ModelValue(keyedArchive: data) == [1, "two", .null, ["k": .date(Date(timeIntervalSinceReferenceDate: 5))]])
    }
}
