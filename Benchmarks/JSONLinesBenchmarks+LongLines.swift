import Foundation
import ModelKit

extension JSONLinesBenchmarks {
    /// Files of one long line (1, 4 and 16 MB): `JSONLines` reads them in
    /// 64 KiB chunks, and must cost about what parsing the same bytes
    /// directly (`init(json:)` on the whole file read at once) costs, not
    /// time that grows with the square of the line's length.
    static func runLongLines() {
        let rows = [1, 4, 16].map { (megabytes: $0, row: "JSON Lines: read a file of one \($0) MB line") }
        guard rows.contains(where: { Harness.wants($0.row) }) else { return }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ModelKitBenchmarks-\(UUID())")
        try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (megabytes, row) in rows where Harness.wants(row) {
            let url = folder.appendingPathComponent("line-\(megabytes)mb.jsonl")
            // A book whose tags make the line about `megabytes` MB long.
            let book = LineBook()
            book.title = "One long line"
            book.tags = (0..<(megabytes * 1_000_000 / 20)).map { "tag number \(100_000_000 + $0)" }
            try! JSONLines.write([book], to: url, validating: false)
            let bytes = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? nil
            let tags = book.tags.count
            Harness.compare(row, bytes: bytes, rounds: 5, minimumTime: 0.5, [
                .init(label: "init(json:) on the file's bytes") { iterations in
                    for _ in 0..<iterations {
                        let parsed = try! LineBook(json: Data(contentsOf: url))
                        precondition(parsed.tags.count == tags)
                        blackHole(parsed)
                    }
                },
                .init(label: "JSONLines") { iterations in
                    for _ in 0..<iterations {
                        var read = 0
                        try! JSONLines.forEachModel(LineBook.self, contentsOf: url) { parsed in
                            precondition(parsed.tags.count == tags)
                            blackHole(parsed)
                            read += 1
                        }
                        precondition(read == 1)
                    }
                },
            ])
        }
    }
}
