import Foundation
import ModelKit

/// A node of the growth documents: plain (no rules), so it loads by the
/// direct JSON path.
final class GrowthNode: ModelObject, @unchecked Sendable {
    @Saved var name = ""
    @Saved var value = 0
    @Saved var kids: [GrowthNode] = []
}

/// The same node with a rule: it loads through the `ModelValue` path and
/// `validate()` has something to check.
final class GrowthRuled: ModelObject, @unchecked Sendable {
    @Saved var name = ""
    @Saved(rules: .range(0...1_000_000_000)) var value = 0
    @Saved var kids: [GrowthRuled] = []
}

/// Growth rows (issue 50): each public operation that takes a document or
/// a collection, at n and 4n, in width (one model holding n models) and in
/// depth (a chain of n models). The line after each row says how many
/// times longer 4n took: 4 when linear, 16 when quadratic; the goal is at
/// most 5.
enum GrowthBenchmarks {
    enum Shape: String, CaseIterable {
        case width, depth
        /// n and 4n: a model of the chain is two levels (its object and its
        /// `kids` array), so depth stays inside the 512-level nesting limit.
        var sizes: (Int, Int) { self == .width ? (1_000, 4_000) : (60, 240) }
    }

    /// The saved form of a document of `size` in `shape`; `variant` changes
    /// every model's value (an edit of every row).
    static func form(_ shape: Shape, _ size: Int, variant: Int = 0, type: String = "GrowthNode") -> ModelValue {
        func node(_ index: Int, kids: [ModelValue]) -> ModelValue {
            ["type": .string(type), "name": .string("node \(index)"), "value": .int(index * 2 + variant), "kids": .array(kids)]
        }
        switch shape {
        case .width:
            return node(size, kids: (0..<size).map { node($0, kids: []) })
        case .depth:
            var value = node(size, kids: [])
            for level in stride(from: size - 1, through: 0, by: -1) { value = node(level, kids: [value]) }
            return value
        }
    }

    static func json(_ value: ModelValue) -> Data { try! value.jsonData() }

    static func run() {
        for shape in Shape.allCases {
            rows(shape)
        }
    }

    /// One growth row: `make(size)` prepares what a size needs and returns
    /// the operation to time.
    static func row(_ task: String, _ shape: Shape, _ make: (Int) -> (Int) -> Void) {
        let (small, large) = shape.sizes
        let name = "Growth, \(shape.rawValue): \(task) (\(small.formatted()) vs \(large.formatted()))"
        guard Harness.wants(name) else { return }
        let result = Harness.compare(name, rounds: 5, [
            .init(label: small.formatted(), run: make(small)),
            .init(label: large.formatted(), run: make(large)),
        ])
        PropertyListBenchmarks.printGrowth(result)
    }

    static func rows(_ shape: Shape) {
        row("load JSON, direct path", shape) { size in
            let data = json(form(shape, size))
            return { for _ in 0..<$0 { blackHole(try! GrowthNode(json: data)) } }
        }
        row("load JSON, ModelValue path (a rule)", shape) { size in
            let data = json(form(shape, size, type: "GrowthRuled"))
            return { for _ in 0..<$0 { blackHole(try! GrowthRuled(json: data)) } }
        }
        row("array of models, load and save", shape) { size in
            let data = json(.array([form(shape, size)]))
            return { for _ in 0..<$0 { blackHole(try! [GrowthNode](json: data).jsonData()) } }
        }
        row("save JSON", shape) { size in
            let model = try! GrowthNode(json: json(form(shape, size)))
            return { for _ in 0..<$0 { blackHole(try! model.jsonData()) } }
        }
        row("dictionary in and out", shape) { size in
            let model = try! GrowthNode(json: json(form(shape, size)))
            return { for _ in 0..<$0 { blackHole(try! GrowthNode(dictionary: model.dictionary)) } }
        }
        row("XML property list in and out", shape) { size in
            let model = try! GrowthNode(json: json(form(shape, size)))
            return { for _ in 0..<$0 { blackHole(try! GrowthNode(propertyList: model.propertyListData(format: .xml))) } }
        }
        row("copy()", shape) { size in
            let model = try! GrowthNode(json: json(form(shape, size)))
            return { for _ in 0..<$0 { blackHole(model.copy()) } }
        }
        row("validate()", shape) { size in
            let model = try! GrowthRuled(json: json(form(shape, size, type: "GrowthRuled")))
            return { for _ in 0..<$0 { try! model.validate() } }
        }
        row("JSONPatch.difference (every row edited)", shape) { size in
            let (a, b) = (form(shape, size), form(shape, size, variant: 1))
            return { for _ in 0..<$0 { blackHole(JSONPatch.difference(from: a, to: b)) } }
        }
        // Each iteration turns the model into the other version and back:
        // every row edited, the reconciler pairing every model.
        row("update(from:) there and back", shape) { size in
            let model = try! GrowthNode(json: json(form(shape, size)))
            let (a, b) = (form(shape, size), form(shape, size, variant: 1))
            return { for _ in 0..<$0 { try! model.update(from: b); try! model.update(from: a) } }
        }
        // In depth, only the bottom model is edited: a patch that edits
        // every level of a chain is itself n² long (each operation's
        // pointer is as long as its depth).
        row(shape == .width ? "apply(JSONPatch) there and back (the reconciler)" : "apply(JSONPatch) to the bottom, there and back", shape) { size in
            let model = try! GrowthNode(json: json(form(shape, size)))
            let a = form(shape, size)
            var b = a
            if shape == .width {
                b = form(shape, size, variant: 1)
            } else {
                var pointer = ""
                for _ in 0..<size { pointer += "/kids/0" }
                b = try! JSONPatch([.replace(path: JSONPointer(pointer + "/value"), value: -1)]).applied(to: a)
            }
            let (forth, back) = (JSONPatch.difference(from: a, to: b), JSONPatch.difference(from: b, to: a))
            return { for _ in 0..<$0 { try! model.apply(forth); try! model.apply(back) } }
        }
        row("apply(JSONMergePatch) there and back", shape) { size in
            let model = try! GrowthNode(json: json(form(shape, size)))
            let (forth, back) = (
                JSONMergePatch(form(shape, size, variant: 1)), JSONMergePatch(form(shape, size))
            )
            return { for _ in 0..<$0 { try! model.apply(forth); try! model.apply(back) } }
        }
        row("merge(base:ours:theirs:), static", shape) { size in
            let base = try! GrowthNode(json: json(form(shape, size)))
            let ours = try! GrowthNode(json: json(form(shape, size, variant: 1)))
            let theirs = base.copy()
            theirs.name = "theirs"
            return { for _ in 0..<$0 { blackHole(try! GrowthNode.merge(base: base, ours: ours, theirs: theirs)) } }
        }
        row("merge(base:theirs:) in place, there and back", shape) { size in
            let model = try! GrowthNode(json: json(form(shape, size)))
            let a = try! GrowthNode(json: json(form(shape, size)))
            let b = try! GrowthNode(json: json(form(shape, size, variant: 1)))
            return { for _ in 0..<$0 { _ = try! model.merge(base: a, theirs: b); _ = try! model.merge(base: b, theirs: a) } }
        }
        row("undo and redo of a patch", shape) { size in
            let model = try! GrowthNode(json: json(form(shape, size)))
            let history = ModelHistory(tracking: model)
            try! model.apply(JSONPatch.difference(from: form(shape, size), to: form(shape, size, variant: 1)))
            return { for _ in 0..<$0 { try! history.undo(); try! history.redo() } }
        }
        guard shape == .width else { return }
        row("JSON Lines, write and read", shape) { size in
            let models = (0..<size).map { index -> GrowthNode in
                let model = GrowthNode()
                model.name = "line \(index)"
                model.value = index
                return model
            }
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("growth-\(size)-\(UUID()).jsonl")
            return { iterations in
                for _ in 0..<iterations {
                    try! JSONLines.write(models, to: url, durability: .unsynced)
                    var count = 0
                    try! JSONLines.forEachModel(GrowthNode.self, contentsOf: url) { _ in count += 1 }
                    blackHole(count)
                }
                try? FileManager.default.removeItem(at: url)
            }
        }
        row("ModelDefaults, save and open", shape) { size in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("growth-store-\(UUID())")
            try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let url = folder.appendingPathComponent("store.plist")
            return { iterations in
                for round in 0..<iterations {
                    do {
                        let store = try! ModelDefaults(url: url, autosaveDelay: nil, watchInterval: nil)
                        for key in 0..<size { store.set(round &+ key, forKey: "key \(key)") }
                        try! store.save()
                    }
                    // Opened once the writer is gone, so the file is read again.
                    blackHole(try! ModelDefaults(url: url, autosaveDelay: nil, watchInterval: nil).keys.count)
                }
                try? FileManager.default.removeItem(at: folder)
            }
        }
    }
}
