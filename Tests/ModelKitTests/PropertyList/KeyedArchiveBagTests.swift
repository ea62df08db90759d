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
}
