import Foundation
import Testing
@testable import ModelKit

/// `ModelObject(keyedArchive:)`: archives of NSCoding objects loaded into models.
@Suite(.enabled(if: KeyedArchiveSupport.hasFoundationArchiver, "Foundation's NSKeyedArchiver is missing"))
struct KeyedArchiveModelTests {
    typealias Support = KeyedArchiveSupport

    static func family() -> LegacyNode {
        let root = LegacyNode(name: "root", count: 3)
        root.created = Date(timeIntervalSinceReferenceDate: 100)
        let first = LegacyNode(name: "first", count: 1)
        let second = LegacyNode(name: "second")
        root.adopt(first)
        root.adopt(second)
        first.adopt(LegacyNode(name: "grandchild", count: 9))
        return root
    }

    @Test func anArchivedTreeLoadsWithWeakParents() throws {
        let data = try Support.archive(Self.family())
        let root = try ArchiveNode(keyedArchive: data)
        #expect(root.name == "root")
        #expect(root.count == 3)
        #expect(root.created == Date(timeIntervalSinceReferenceDate: 100))
        #expect(root.parent == nil)
        #expect(root.children.map(\.name) == ["first", "second"])
        #expect(root.children[0].count == 1)
        #expect(root.children.allSatisfy { $0.parent === root })
        #expect(root.children[0].children[0].name == "grandchild")
        #expect(root.children[0].children[0].parent === root.children[0])
        #expect(root.hasChanges == false)
    }

    @Test func theArchiveHoldsTheParentAsABackReference() throws {
        // What Foundation writes: the child's parent is the root's UID.
        let envelope = try Support.envelope(Support.archive(Self.family()))
        guard case .array(let objects)? = envelope["$objects"], let rootUID = envelope["$top"]?["root"],
            let children = objects[KeyedArchive.uid(of: objects[KeyedArchive.uid(of: rootUID)!]["children"]!)!]["NS.objects"]?[0]
        else {
            Issue.record("unexpected archive \(envelope)")
            return
        }
        #expect(objects[KeyedArchive.uid(of: children)!]["parent"] == rootUID)
    }

    @Test func aClassRegisteredUnderItsArchivedNameLoads() throws {
        // Archived as "ModelKitTests.LegacyTask", which names no class but
        // the one registered under it.
        ModelObject.register(RegisteredArchiveNode.self, as: "ModelKitTests.LegacyTask")
        let task = LegacyNode(name: "task", count: 2)
        var data = try Support.archive(task)
        data = try Self.renaming("ModelKitTests.LegacyNode", to: "ModelKitTests.LegacyTask", in: data)
        let node = try RegisteredArchiveNode(keyedArchive: data)
        #expect(node.name == "task")
        #expect(node.count == 2)
    }

    @Test func unknownKeysGoToTheBag() throws {
        let node = LegacyNode(name: "x")
        node.extra = "kept"
        let model = try ArchiveNode(keyedArchive: Support.archive(node))
        #expect(model.extensibleProperties == ["extra": "kept"])
    }

    @Test func aCycleThroughAStrongPropertyIsAnError() throws {
        let root = LegacyNode(name: "root")
        root.adopt(LegacyNode(name: "child"))
        let data = try Self.renaming("ModelKitTests.LegacyNode", to: "StrongArchiveNode", in: Support.archive(root))
        #expect(
            Support.message { try StrongArchiveNode(keyedArchive: data) }
                == "children[0].parent: the StrongArchiveNode object 1 contains itself (a cycle); a model may refer "
                + "back to one that contains it only through a @Saved(reference: .weak) property")
    }

    @Test func anUnknownClassAmongValuesIsNamedWithItsKeyPath() throws {
        let data = try Self.renaming(
            "ModelKitTests.LegacyColor", to: "MyApp.Color",
            in: Support.archive(["colors": ["red", LegacyColor()]] as NSDictionary))
        #expect(
            Support.message { try ModelValue(keyedArchive: data) }
                == "colors[1]: the archive holds an object of class \"MyApp.Color\", which is not a Foundation "
                + "class that ModelKit reads (NSString, NSNumber, NSDate, NSData, NSArray, NSDictionary, NSSet, "
                + "NSOrderedSet, NSNull, NSURL, NSUUID)")
    }

    @Test func anUnregisteredClassInsideAModelIsAnError() throws {
        let data = try Support.archive(objects: [
            ["$class": Support.uid(2), "name": Support.uid(3), "children": Support.uid(4)],
            Support.classDescription("MyApp.LegacyNode"), "root",
            ["$class": Support.uid(5), "NS.objects": [Support.uid(6)]], Support.classDescription("NSArray"),
            ["$class": Support.uid(7)], Support.classDescription("MyApp.NeverRegisteredStranger"),
        ])
        #expect(
            Support.message { try ArchiveNode(keyedArchive: data) }
                == "children[0]: the archive holds an object of class \"MyApp.NeverRegisteredStranger\", which is neither a "
                + "Foundation class that ModelKit reads nor a model class (register it with "
                + "ModelObject.register(_:as:))")
    }

    @Test func aBadValueNamesItsKeyPath() throws {
        // "count" archived as a string: the model's Int refuses it.
        let data = try Support.archive(objects: [
            ["$class": Support.uid(2), "count": Support.uid(3), "name": Support.uid(4)],
            Support.classDescription("LegacyNode"), "three", "x",
        ])
        #expect(
            Support.message { try ArchiveNode(keyedArchive: data) }
                == "count: expected Int, found a string (\"three\")")
    }

    @Test func aSharedModelIsOneObject() throws {
        let shared = LegacyNode(name: "shared")
        let root = LegacyNode(name: "root")
        root.children = [shared, shared]
        let model = try ArchiveNode(keyedArchive: Support.archive(root))
        #expect(model.children.count == 2)
        #expect(model.children[0] === model.children[1])
    }

    /// A weak parent that is archived before the model holding it: written
    /// in full there, then referred to.
    @Test func aWeakReferenceMetFirstIsTheSameObjectAsItsLaterPlace() throws {
        let root = LegacyNode(name: "root")
        let first = LegacyNode(name: "first")
        let second = LegacyNode(name: "second")
        root.children = [first, second]
        first.parent = second
        second.parent = root
        let model = try ArchiveNode(keyedArchive: Support.archive(root))
        #expect(model.children.map(\.name) == ["first", "second"])
        #expect(model.children[0].parent === model.children[1])
        #expect(model.children[1].parent === model)
    }

    /// A weak reference to a model that nothing else in the archive holds
    /// reads as nil, as the model graph would hold it.
    @Test func aWeakReferenceToAModelNothingHoldsIsNil() throws {
        let root = LegacyNode(name: "root")
        let child = LegacyNode(name: "child")
        let stranger = LegacyNode(name: "stranger")
        root.children = [child]
        child.parent = stranger
        let model = try withExtendedLifetime(stranger) { try ArchiveNode(keyedArchive: Support.archive(root)) }
        #expect(model.children.map(\.name) == ["child"])
        #expect(model.children[0].parent == nil)
    }

    @Test func theRootMustBeThisClass() throws {
        let data = try Support.archive(["a"] as NSArray)
        #expect(
            Support.message { try ArchiveNode(keyedArchive: data) }
                == "expected a ArchiveNode object, found an array of 1 element; read an array of models with "
                + "[ArchiveNode](json:)")
    }

    // MARK: - Editing archives

    /// `data` with the class name `old` replaced by `new` (Foundation on
    /// Linux ignores `setClassName(_:for:)`).
    static func renaming(_ old: String, to new: String, in data: Data) throws -> Data {
        try replacingStrings([old: new], in: data)
    }

    static func replacingStrings(_ replacements: [String: String], in data: Data) throws -> Data {
        func replaced(_ value: ModelValue) -> ModelValue {
            switch value {
            case .string(let string): return .string(replacements[string] ?? string)
            case .array(let elements): return .array(elements.map(replaced))
            case .object(let members):
                var result = ModelValue.Object()
                for (key, member) in members { result.appendNew(key: key, value: replaced(member)) }
                return .object(result)
            default: return value
            }
        }
        return try BinaryPropertyListWriter.data(from: replaced(Support.envelope(data)), writingUIDs: true)
    }
}

final class RegisteredArchiveNode: ModelObject, @unchecked Sendable {
    @Saved var name = ""
    @Saved var count = 0
    @Saved var children: [RegisteredArchiveNode] = []
    @Saved(reference: .weak) var parent: RegisteredArchiveNode? = nil
}

/// Models archived under keys the class does not save: they go to the bag as
/// saved forms, and a round trip gives back the same bag.
@Suite struct KeyedArchiveBagModelTests {
    /// An archive of `ArchiveNode`s whose `children` key is renamed `key`.
    static func archive(childrenUnder key: String) throws -> Data {
        let root = ArchiveNode()
        root.name = "root"
        for name in ["first", "second"] {
            let child = ArchiveNode()
            child.name = name
            child.parent = root
            root.children.append(child)
        }
        func renamed(_ value: ModelValue) -> ModelValue {
            switch value {
            case .array(let elements): return .array(elements.map(renamed))
            case .object(let members):
                var result = ModelValue.Object()
                for (name, member) in members { result.appendNew(key: name == "children" ? key : name, value: renamed(member)) }
                return .object(result)
            default: return value
            }
        }
        let envelope = try KeyedArchiveSupport.envelope(root.keyedArchiveData())
        return try BinaryPropertyListWriter.data(from: renamed(envelope), writingUIDs: true)
    }

    @Test(arguments: ["kids", "other"])
    func modelsInTheBagSurviveARoundTrip(key: String) throws {
        let model = try ArchiveNode(keyedArchive: Self.archive(childrenUnder: key))
        #expect(model.children.isEmpty)
        let bag = model.extensibleProperties
        #expect(bag[key] != nil)
        let written = try model.keyedArchiveData()
        let back = try ArchiveNode(keyedArchive: written)
        #expect(back.extensibleProperties == bag, "\(back.extensibleProperties) != \(bag)")
        #expect(back.isEquivalent(to: model))
        #expect(try back.keyedArchiveData() == written)
    }
}
