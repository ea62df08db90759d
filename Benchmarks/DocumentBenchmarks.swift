import Foundation
import ModelKit

/// What `ModelDocument.save()` costs (issue 60), beside its parts:
/// - a save when nothing changed the file underneath, against a plain
///   `write(to:)` of the same model (the goal: at most 1.1x, a ratio of at
///   least 0.91);
/// - a save that merges a version another writer saved, against the sum of
///   its parts done by hand: reading theirs (`init(contentsOf:)`), the
///   in-place merge (`merge(base:theirs:)`) and a plain `write(to:)` (the
///   goal: at most 1.2x, a ratio of at least 0.83).
///
/// Each at 10 KB and 1 MB, to show how they grow. The other writer's save
/// before each merging save is made outside the timed part (unsynced), in
/// both variants alike; each variant's time is the median of its rounds.
enum DocumentBenchmarks {
    final class Item: ModelObject, @unchecked Sendable {
        @Saved var id = ""
        @Saved var title = ""
        @Saved var done = false
        override class var identityKey: String? { "id" }
    }

    final class Board: ModelObject, @unchecked Sendable {
        @Saved var title = ""
        @Saved var counter = 0
        @Saved var items: [Item] = []
    }

    static func board(items count: Int) -> Board {
        let board = Board()
        board.items = (0..<count).map { index in
            let item = Item()
            item.id = "item-\(index)"
            item.title = "The title of item number \(index), long enough to be a real title"
            return item
        }
        return board
    }

    static func run() {
        let sizes = [("10 KB", 100), ("1 MB", 10_000)]
        let unchangedRows = sizes.map { "Documents: save, nothing changed underneath, \($0.0) (write(to:) | ModelDocument.save())" }
        let mergeRows = sizes.map { "Documents: save that merges, \($0.0) (read theirs + merge + write(to:) | ModelDocument.save())" }
        guard (unchangedRows + mergeRows).contains(where: Harness.wants) else { return }
        let folder = URL(fileURLWithPath: ".build/benchmark-documents-\(UUID().uuidString)", isDirectory: true)
        try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let history = DocumentHistory(folder: folder.appendingPathComponent("history"))

        for ((_, count), row) in zip(sizes, unchangedRows) where Harness.wants(row) {
            let url = folder.appendingPathComponent("plain.json")
            let plain = board(items: count)
            try! plain.write(to: url)
            let documentURL = folder.appendingPathComponent("document.json")
            try! board(items: count).write(to: documentURL)
            let document = try! ModelDocument<Board>(contentsOf: documentURL, history: history)
            let bytes = try! plain.jsonData().count
            Harness.compare(row, bytes: bytes, rounds: 7, [
                .init(label: "write(to:)") { iterations in
                    for index in 0..<iterations {
                        plain.counter = index
                        try! plain.write(to: url, clearingChanges: true)
                    }
                },
                .init(label: "ModelDocument.save()") { iterations in
                    for index in 0..<iterations {
                        document.root.counter = index
                        try! document.save()
                    }
                },
            ])
        }

        for ((_, count), row) in zip(sizes, mergeRows) where Harness.wants(row) {
            mergeRow(row, count: count, folder: folder, history: history)
        }
    }

    /// The merging save, timed by hand: each operation's other writer is
    /// not timed.
    static func mergeRow(_ row: String, count: Int, folder: URL, history: DocumentHistory) {
        let partsURL = folder.appendingPathComponent("parts.json")
        let documentURL = folder.appendingPathComponent("merging.json")
        try! board(items: count).write(to: partsURL)
        try! board(items: count).write(to: documentURL)
        let bytes = try! Data(contentsOf: partsURL).count
        // By hand: the live model and the version it last saved.
        let live = try! Board(contentsOf: partsURL)
        var base = try! Board(contentsOf: partsURL)
        let document = try! ModelDocument<Board>(contentsOf: documentURL, history: history)
        var step = 0

        /// Another writer's save: one item's title and the counter.
        func theirSave(to url: URL) {
            step += 1
            let theirs = try! Board(contentsOf: url)
            theirs.counter = step
            theirs.items[(step * 7) % count].title = "edited elsewhere \(step)"
            try! theirs.write(to: url, durability: .unsynced)
        }

        func parts(_ iterations: Int) -> Double {
            var seconds = 0.0
            for _ in 0..<iterations {
                theirSave(to: partsURL)
                live.title = "ours \(step)"
                seconds += Harness.time {
                    let theirs = try! Board(contentsOf: partsURL)
                    try! live.merge(base: base, theirs: theirs)
                    try! live.write(to: partsURL, clearingChanges: true)
                }
                base = live.copy()
            }
            return seconds
        }

        func documentSaves(_ iterations: Int) -> Double {
            var seconds = 0.0
            for _ in 0..<iterations {
                theirSave(to: documentURL)
                document.root.title = "ours \(step)"
                seconds += Harness.time { try! document.save() }
            }
            return seconds
        }

        let rounds = Harness.quick ? 3 : 7
        let iterations = count > 1_000 ? 3 : 30
        _ = parts(1)
        _ = documentSaves(1)
        var samples: [[Double]] = [[], []]
        for round in 0..<rounds {
            if round % 2 == 0 {
                samples[0].append(parts(iterations) / Double(iterations))
                samples[1].append(documentSaves(iterations) / Double(iterations))
            } else {
                samples[1].append(documentSaves(iterations) / Double(iterations))
                samples[0].append(parts(iterations) / Double(iterations))
            }
        }
        let medians = samples.map { $0.sorted()[$0.count / 2] }
        let result = Harness.Result(
            task: row, labels: ["read theirs + merge + write(to:)", "ModelDocument.save()"], medians: medians, bytes: bytes)
        Harness.results.append(result)
        Harness.report(result)
    }
}
