import Foundation
import Testing

@testable import ModelKit

/// An object that `NSCoding` archives with keys starting with `$`, which
/// `NSKeyedArchiver` writes with another `$` in front (`$$key`), as keys
/// starting with `$` are the format's own (`$class`).
final class DollarKeyed: NSObject, NSCoding {
    var values: [String: String] = [:]
    init(_ values: [String: String]) { self.values = values }
    func encode(with coder: NSCoder) {
        for (key, value) in values { coder.encode(value, forKey: key) }
    }
    required init?(coder: NSCoder) {
        super.init()
        for key in ["$class", "$id", "$", "$$x", "plain", "name"] where coder.containsValue(forKey: key) {
            values[key] = coder.decodeObject(forKey: key) as? String
        }
    }
}

/// Member keys that start with `$` (found by `Fuzz/run.sh archive`: a bag
/// key `$class` was lost, overwritten by the object's class).
@Suite struct KeyedArchiveDollarKeyTests {
    typealias S = KeyedArchiveSupport

    static let keys = ["$class", "$id", "$ref", "$", "$$x", "$classes", "x$"]

    @Test(arguments: keys)
    func aBagKeyStartingWithADollarRoundTrips(_ key: String) throws {
        let node = ArchiveNode()
        node.name = "root"
        try node.setExtensibleProperty(.string("value of \(key)"), forKey: key)
        let written = try node.keyedArchiveData()
        let back = try ArchiveNode(keyedArchive: written)
        #expect(back.extensibleProperties == [key: .string("value of \(key)")], "\(back.extensibleProperties)")
        #expect(back.isEquivalent(to: node))
        #expect(try back.keyedArchiveData() == written)
        // In the archive, as Foundation writes it: one more `$` in front.
        let envelope = try S.envelope(written)
        guard case .array(let objects)? = envelope["$objects"], let top = envelope["$top"]?["root"],
            let root = KeyedArchive.uid(of: top).map({ objects[$0] })
        else {
            Issue.record("unexpected archive")
            return
        }
        let archivedKey = key.hasPrefix("$") ? "$" + key : key
        #expect(root[archivedKey] != nil, "\(root)")
        #expect(root["$class"].flatMap { KeyedArchive.uid(of: $0) }.map { objects[$0]["$classname"] } == "LegacyNode")
    }

    @Test(.enabled(if: KeyedArchiveSupport.hasFoundationArchiver, "Foundation's NSKeyedArchiver is missing"))
    func foundationsEscapedKeysReadAsTheCodersKeys() throws {
        let values = ["$class": "a", "$id": "b", "$": "c", "$$x": "d", "name": "root"]
        let archive = try S.archive(DollarKeyed(values))
        // Foundation's own archive has the doubled keys.
        let envelope = try S.envelope(archive)
        guard case .array(let objects)? = envelope["$objects"], let top = envelope["$top"]?["root"],
            let root = KeyedArchive.uid(of: top).map({ objects[$0] })
        else {
            Issue.record("unexpected archive")
            return
        }
        #expect(root["$$class"] != nil && root["$$$x"] != nil && root["$$"] != nil, "\(root)")
        ModelObject.register(ArchiveNode.self, as: "ModelKitTests.DollarKeyed")
        let node = try ArchiveNode(keyedArchive: archive)
        #expect(node.name == "root")
        #expect(node.extensibleProperties == ["$class": "a", "$id": "b", "$": "c", "$$x": "d"])
    }

    @Test(.enabled(if: KeyedArchiveSupport.hasFoundationArchiver, "Foundation's NSKeyedUnarchiver is missing"))
    func foundationReadsModelKitsEscapedKeys() throws {
        let node = ArchiveNode()
        node.name = "root"
        for (key, value) in ["$class": "a", "$id": "b", "$": "c", "$$x": "d"] {
            try node.setExtensibleProperty(.string(value), forKey: key)
        }
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: try node.keyedArchiveData())
        unarchiver.requiresSecureCoding = false
        unarchiver.decodingFailurePolicy = .setErrorAndReturn
        unarchiver.setClass(DollarKeyed.self, forClassName: "LegacyNode")
        let root = unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? DollarKeyed
        #expect(unarchiver.error == nil, "\(String(describing: unarchiver.error))")
        #expect(root?.values == ["$class": "a", "$id": "b", "$": "c", "$$x": "d", "name": "root"])
    }
}
