import Foundation
import ModelKit

/// A node of the growth documents: plain (no rules), so it loads by the
/// direct JSON path.
final class GrowthNode: ModelObject, @unchecked Sendable {
    @Saved var name = ""
    @Saved var value = 0
    @Saved var kids: [GrowthNode] = []
    /// The next model of a chain (the depth rows).
    @Saved var next: GrowthNode? = nil
}

/// The same node with a rule: it loads through the `ModelValue` path and
/// `validate()` has something to check.
final class GrowthRuled: ModelObject, @unchecked Sendable {
    @Saved var name = ""
    @Saved(rules: .range(0...1_000_000_000)) var value = 0
    @Saved var kids: [GrowthRuled] = []
    @Saved var next: GrowthRuled? = nil
}

/// The node written in DejalObject's form.
final class GrowthDejal: ModelObject, @unchecked Sendable {
    override class var savedDialect: SavedDialect { .dejalObject }
    @Saved var name = ""
    @Saved var value = 0
    @Saved var kids: [GrowthDejal] = []
    @Saved var next: GrowthDejal? = nil
}

/// Growth rows (issue 50): each public operation that takes a document or
/// a collection, at n and 4n, in width (one model holding n models) and in
/// depth (a chain of n models). The line after each row says how many
/// times longer 4n took: 4 when linear, 16 when quadratic; the goal is at
/// most 5.
enum GrowthBenchmarks {
    enum Shape: String, CaseIterable {
        case width, depth
        /// n and 4n: a chain of 480 models (each holding the next in its
        /// `next` member, one level a model) stays inside the 512-level
        /// nesting limit. The paths that read or write the first 32 levels
        /// directly and the rest through `ModelValue` cost more a level past
        /// 32, so the longer the chain, the nearer the ratio comes to what
        /// the growth is (at 60 vs 240 models, two levels each, such a mix
        /// of two linear costs read as 5.03).
        var sizes: (Int, Int) { self == .width ? (1_000, 4_000) : (120, 480) }
    }

    /// The saved form of a document of `size` in `shape`; `variant` changes
    /// every model's value (an edit of every row).
    static func form(_ shape: Shape, _ size: Int, variant: Int = 0, type: String = "GrowthNode") -> ModelValue {
        func node(_ index: Int, kids: [ModelValue], next: ModelValue? = nil) -> ModelValue {
            var object: ModelValue = [
                "type": .string(type), "name": .string("node \(index)"), "value": .int(index * 2 + variant),
                "kids": .array(kids),
            ]
            // No null at the bottom: a merge patch's null removes a member.
            if let next { object["next"] = next }
            return object
        }
        switch shape {
        case .width:
            return node(size, kids: (0..<size).map { node($0, kids: []) })
        case .depth:
            var value = node(size, kids: [])
            for level in stride(from: size - 1, through: 0, by: -1) { value = node(level, kids: [], next: value) }
            return value
        }
    }

    static func json(_ value: ModelValue) -> Data { try! value.jsonData() }

    /// `chain`, a depth form of `size`, with the value of its bottom model changed.
    static func bottomEdited(_ chain: ModelValue, _ size: Int) -> ModelValue {
        let pointer = String(repeating: "/next", count: size) + "/value"
        return try! JSONPatch([.replace(path: JSONPointer(pointer), value: -1)]).applied(to: chain)
    }

    static func run() {
        for shape in Shape.allCases {
            rows(shape)
        }
    }

    /// `Benchmarks Growth --instructions`: each row's growth counted in
    /// instructions (callgrind) rather than timed, so that it needs no quiet
    /// machine and gives the same ratio every run.
    nonisolated(unsafe) static var countsInstructions = false
    /// `Benchmarks --count-growth ROW SIZE`: the child that
    /// `--instructions` runs under callgrind for one row at one size.
    nonisolated(unsafe) static var countRequest: (row: String, size: Int)?
    /// Operations each counted run does (counts are per operation).
    static let countedIterations = 2

    /// One growth row: `make(size)` prepares what a size needs and returns
    /// the operation to time.
    static func row(_ task: String, _ shape: Shape, _ make: (Int) -> (Int) -> Void) {
        let (small, large) = shape.sizes
        let name = "Growth, \(shape.rawValue): \(task) (\(small.formatted()) vs \(large.formatted()))"
        if let countRequest {
            guard countRequest.row == name else { return }
            let run = make(countRequest.size)
            run(1)  // first-use costs are not the operation's
            InstructionCheck.countedOperations(run, countedIterations)
            exit(0)
        }
        guard Harness.wants(name) else { return }
        if countsInstructions {
            countGrowth(name, sizes: (small, large))
            return
        }
        let result = Harness.compare(name, rounds: 5, [
            .init(label: small.formatted(), run: make(small)),
            .init(label: large.formatted(), run: make(large)),
        ])
        PropertyListBenchmarks.printGrowth(result)
    }

    /// Counts the row `name` at both sizes under callgrind and prints the ratio.
    static func countGrowth(_ name: String, sizes: (Int, Int)) {
        guard let valgrind = InstructionCheck.executableInPath("valgrind") else {
            print("| \(name) | skipped: valgrind was not found in PATH |")
            return
        }
        var counts: [Int] = []
        for size in [sizes.0, sizes.1] {
            switch InstructionCheck.countInstructions(
                arguments: ["--count-growth", name, String(size)], iterations: countedIterations, valgrind: valgrind)
            {
            case .success(let count): counts.append(count)
            case .failure(let error):
                print("| \(name) | could not be counted: \(error.message) |")
                return
            }
        }
        let ratio = Double(counts[1]) / Double(max(counts[0], 1))
        print(
            "| \(name) | \(InstructionCheck.grouped(counts[0])) → \(InstructionCheck.grouped(counts[1])) instructions | "
                + String(format: "growth at 4x: %.2f (linear: 4, goal: at most 5)%@ |", ratio, ratio > 5 ? " ABOVE 5" : ""))
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
        row("keyed archive in and out", shape) { size in
            let model = try! GrowthNode(json: json(form(shape, size)))
            return { for _ in 0..<$0 { blackHole(try! GrowthNode(keyedArchive: model.keyedArchiveData())) } }
        }
        // Issue 57: the other archive style, and archives of plain values
        // (the saved form as dictionaries: in depth, n nested dictionaries).
        row("keyed archive in and out, inline scalars", shape) { size in
            let model = try! GrowthNode(json: json(form(shape, size)))
            return { for _ in 0..<$0 { blackHole(try! GrowthNode(keyedArchive: model.keyedArchiveData(style: .inlineScalars))) } }
        }
        row("keyed archive of plain values in and out", shape) { size in
            let value = form(shape, size)
            return { for _ in 0..<$0 { blackHole(try! ModelValue(keyedArchive: value.keyedArchiveData())) } }
        }
        row("DejalObject JSON in and out", shape) { size in
            let model = try! GrowthDejal(json: json(form(shape, size, type: "GrowthDejal")))
            return { for _ in 0..<$0 { blackHole(try! GrowthDejal(json: model.jsonData())) } }
        }
        row("copy()", shape) { size in
            let model = try! GrowthNode(json: json(form(shape, size)))
            return { for _ in 0..<$0 { blackHole(model.copy()) } }
        }
        row("validate()", shape) { size in
            let model = try! GrowthRuled(json: json(form(shape, size, type: "GrowthRuled")))
            return { for _ in 0..<$0 { try! model.validate() } }
        }
        // In depth, the bottom model is edited: a difference that edits every
        // level of a chain is itself n² long (each operation's pointer is as
        // long as its depth), as is the text it takes to say it.
        row(shape == .width ? "JSONPatch.difference (every row edited)" : "JSONPatch.difference (the bottom edited)", shape) { size in
            let a = form(shape, size)
            let b = shape == .width ? form(shape, size, variant: 1) : bottomEdited(a, size)
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
            let b: ModelValue
            b = shape == .width ? form(shape, size, variant: 1) : bottomEdited(a, size)
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
