import Foundation
import Testing

@testable import ModelKit

/// Models an archive holds under keys the class does not save go to the bag,
/// and must survive being written and read again (found by the keyed-archive
/// fuzz target: their archive UIDs were kept as ids, and renumbered).
@Suite("Keyed archives: models in the bag")
struct KeyedArchiveBagTests {
    typealias S = KeyedArchiveSupport

    /// Archives whose root `LegacyNode` holds another under `other`, a key
    /// `ArchiveNode` does not save; in the second, a child is that same node.
    static func archives() throws -> [(String, Data)] {
        [
            (
                "held once",
                try S.archive(objects: [
                    ["$class": S.uid(3), "name": S.uid(4), "other": S.uid(2)],
                    ["$class": S.uid(3), "name": S.uid(5)],
                    S.classDescription("LegacyNode"), "root", "o",
                ])
            ),
            (
                "held twice",
                try S.archive(objects: [
                    ["$class": S.uid(3), "name": S.uid(4), "children": S.uid(6), "other": S.uid(2)],
                    ["$class": S.uid(3), "name": S.uid(5)],
                    S.classDescription("LegacyNode"), "root", "o",
                    ["$class": S.uid(7), "NS.objects": [S.uid(2)]], S.classDescription("NSArray"),
                ])
            ),
        ]
    }

    @Test func aModelUnderAnUnsavedKeyKeepsNoArchiveNumber() throws {
        let (_, archive) = try Self.archives()[0]
        let node = try ArchiveNode(keyedArchive: archive)
        // Nothing refers to it: no id at all, as ModelKit's JSON writes it.
        #expect(node.extensibleProperties["other"] == ["type": "ArchiveNode", "name": "o"])
    }

    @Test func theBagSurvivesRoundTrips() throws {
        for (name, archive) in try Self.archives() {
            let node = try ArchiveNode(keyedArchive: archive)
            let written = try node.keyedArchiveData()
            let back = try ArchiveNode(keyedArchive: written)
            #expect(back.isEquivalent(to: node), "\(name): \(back) against \(node)")
            #expect(try back.keyedArchiveData() == written, "\(name): writing is not a fixed point")
        }
    }

    /// A model held by a saved property and, in another model's bag, by the
    /// same array object, with weak parents pointing at that other model
    /// (the shape of `Fuzz/run.sh archive`'s third finding: the bag kept
    /// `{"$ref": "2"}`, and after a save renumbered the ids it named the
    /// bag's own model, a cycle).
    static func sharedIntoABag() throws -> Data {
        try S.archive(objects: [
            ["$class": S.uid(4), "name": S.uid(5), "children": S.uid(2), "parent": S.uid(7)],
            ["$class": S.uid(3), "NS.objects": [S.uid(6), S.uid(7)]],
            S.classDescription("NSArray"), S.classDescription("LegacyNode"), "root",
            ["$class": S.uid(4), "name": S.uid(8), "children": S.uid(9), "parent": S.uid(1)],
            ["$class": S.uid(4), "name": S.uid(11), "parent": S.uid(1), "childRen": S.uid(9)],
            "b",
            ["$class": S.uid(3), "NS.objects": [S.uid(10)]],
            ["$class": S.uid(4), "name": S.uid(12), "parent": S.uid(7)],
            "a", "shared",
        ])
    }

    /// Whether `value` holds an id or a reference anywhere.
    static func holdsReferences(_ value: ModelValue) -> Bool {
        switch value {
        case .object(let members):
            members.keys.contains { $0 == ReferenceKeys.id || $0 == ReferenceKeys.ref }
                || members.values.contains { holdsReferences($0) }
        case .array(let elements): elements.contains { holdsReferences($0) }
        default: false
        }
    }

    @Test func aModelInABagIsACopyThatKeepsNoReference() throws {
        let root = try ArchiveNode(keyedArchive: Self.sharedIntoABag())
        let (b, a) = (root.children[0], root.children[1])
        #expect(root.parent === a)
        #expect(b.children[0].parent === a)
        let bag = try #require(a.extensibleProperties["childRen"])
        #expect(!Self.holdsReferences(bag), "\(bag)")
        #expect(bag[0]?["name"] == "shared")
        #expect(bag[0]?["parent"] == .null)
        for round in 1...2 {
            let written = try root.keyedArchiveData()
            let back = try ArchiveNode(keyedArchive: written)
            #expect(back.isEquivalent(to: root), "round \(round)")
            #expect(back.parent === back.children[1], "round \(round)")
            #expect(back.children[0].children[0].parent === back.children[1], "round \(round)")
            #expect(back.children[1].extensibleProperties["childRen"] == bag, "round \(round)")
            #expect(try back.keyedArchiveData() == written, "round \(round): writing is not a fixed point")
        }
    }

    /// In a bag's copy, a weak key that holds a plain value (not a model)
    /// keeps it; one that holds a model is left out (the fourth finding:
    /// the plain value was dropped, so the round trip changed the bag).
    @Test func aWeakKeyInABagsCopyKeepsAPlainValue() throws {
        let archive = try S.archive(objects: [
            ["$class": S.uid(3), "name": S.uid(4), "other": S.uid(2)],
            ["$class": S.uid(3), "name": S.uid(5), "parent": S.uid(6)],
            S.classDescription("LegacyNode"), "root", "o", "not a model",
        ])
        let node = try ArchiveNode(keyedArchive: archive)
        let other = try #require(node.extensibleProperties["other"])
        #expect(other["parent"] == "not a model")
        #expect(!Self.holdsReferences(other), "\(other)")
        let written = try node.keyedArchiveData()
        let back = try ArchiveNode(keyedArchive: written)
        #expect(back.isEquivalent(to: node))
        #expect(back.extensibleProperties["other"] == other)
        #expect(try back.keyedArchiveData() == written)
    }

    /// An archive with no `"root"`, whose top keys are the model's members:
    /// a model under a top key the class does not save is a copy in the bag,
    /// while the same model under `children` is a model (the fifth finding:
    /// the bag kept an id and a reference, which the next save renumbered).
    @Test func aTopKeyTheClassDoesNotSaveIsABagOfCopies() throws {
        let archive = try S.archive(
            objects: [
                ["$class": S.uid(3), "name": S.uid(4)],
                ["$class": S.uid(5), "NS.objects": [S.uid(1)]],
                S.classDescription("LegacyNode"), "o", S.classDescription("NSArray"), "root",
            ],
            top: ["other": S.uid(1), "children": S.uid(2), "name": S.uid(6), "$$odd": S.uid(6)])
        let node = try ArchiveNode(keyedArchive: archive)
        #expect(node.name == "root")
        #expect(node.children.map(\.name) == ["o"])
        let other = try #require(node.extensibleProperties["other"])
        #expect(!Self.holdsReferences(other), "\(other)")
        #expect(other["name"] == "o")
        #expect(node.extensibleProperties["$odd"] == "root")
        let written = try node.keyedArchiveData()
        let back = try ArchiveNode(keyedArchive: written)
        #expect(back.isEquivalent(to: node))
        #expect(try back.keyedArchiveData() == written)
    }
}
