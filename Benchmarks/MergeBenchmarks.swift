import Foundation
import ModelKit

/// A three-way merge of two edited versions of a 1 MB document, against one
/// `JSONPatch.difference` of the base and one side: the issue asks that a
/// merge cost no more than about three differences (a ratio of 0.33 or more).
enum MergeBenchmarks {
    static func run() {
        let task = "Merge two edited versions of a 1 MB document (baseline: one difference)"
        guard Harness.wants(task) else { return }
        let (base, ours, theirs) = versions()
        let bytes = (try? base.jsonData().count) ?? 0
        // The row measures a clean merge; say so if the versions stop being one.
        let conflicts = (try? ModelValue.merge(base: base, ours: ours, theirs: theirs))?.conflicts.count
        if conflicts != 0 { print("| \(task) | the versions do not merge cleanly: \(conflicts.map(String.init) ?? "error") conflicts |") }
        Harness.compare(
            task, bytes: bytes,
            [
                Harness.Variant(label: "JSONPatch.difference") { iterations in
                    for _ in 0..<iterations { blackHole(JSONPatch.difference(from: base, to: ours)) }
                },
                Harness.Variant(label: "ModelValue.merge") { iterations in
                    for _ in 0..<iterations {
                        blackHole(try? ModelValue.merge(base: base, ours: ours, theirs: theirs))
                    }
                },
            ])
    }

    /// A document of 6,000 items (about 1 MB of JSON), ours with 20 titles
    /// changed and 5 items inserted, theirs with 20 counts changed, 5 items
    /// removed and a top-level key changed: a clean merge.
    static func versions() -> (ModelValue, ModelValue, ModelValue) {
        func item(_ index: Int) -> ModelValue {
            [
                "id": .string("item-\(index)"), "title": .string("Item number \(index) of the list"),
                "count": .int(index), "done": .bool(index % 3 == 0), "tags": ["home", .string("tag \(index % 17)")],
                "detail": ["created": "2026-01-02T03:04:05Z", "owner": .string("user \(index % 101)")],
            ]
        }
        let items = (0..<6_000).map(item)
        var ours = items, theirs = items
        for index in stride(from: 7, to: 6_000, by: 300) {
            ours[index] = updating(ours[index], "title", "changed on our side")
        }
        for index in stride(from: 150, to: 6_000, by: 300) {
            theirs[index] = updating(theirs[index], "count", -1)
        }
        for index in stride(from: 5_000, to: 1_000, by: -1_000) { ours.insert(item(10_000 + index), at: index) }
        ours.insert(item(20_000), at: 0)
        for index in stride(from: 5_500, to: 1_000, by: -1_100) { theirs.remove(at: index) }
        let document = { (items: [ModelValue], name: String) -> ModelValue in
            ["name": .string(name), "version": 3, "items": .array(items)]
        }
        return (document(items, "List"), document(ours, "List"), document(theirs, "Their list"))
    }

    private static func updating(_ value: ModelValue, _ key: String, _ new: ModelValue) -> ModelValue {
        guard case .object(var members) = value else { return value }
        _ = members.updateValue(new, forKey: key)
        return .object(members)
    }
}
