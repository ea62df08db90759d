import Foundation
import ModelKit

/// Reading and writing a JSON Lines file of 100,000 models: ModelKit's
/// `JSONLines` against `JSONDecoder`/`JSONEncoder` on the same lines (split
/// by hand, one document per line, the same file on disk).
enum JSONLinesBenchmarks {
    final class LineBook: ModelObject, @unchecked Sendable {
        @Saved var title = ""
        @Saved var pages = 0
        @Saved var rating = 0.0
        @Saved var tags: [String] = []
    }

    struct CodableBook: Codable {
        var type: String?
        var version: Int?
        var title: String
        var pages: Int
        var rating: Double
        var tags: [String]
    }

    static let count = 100_000

    static func run() {
        let readRow = "JSON Lines: read \(count) lines"
        let writeRow = "JSON Lines: write \(count) lines"
        guard Harness.wants(readRow) || Harness.wants(writeRow) else { return }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ModelKitBenchmarks-\(UUID())")
        try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("books.jsonl")
        let foundationURL = folder.appendingPathComponent("books-foundation.jsonl")
        let books = (0..<count).map { index in
            let book = LineBook()
            book.title = "Book number \(index)"
            book.pages = 100 + index % 900
            book.rating = Double(index % 50) / 10
            book.tags = index % 3 == 0 ? ["fiction", "classic"] : ["non-fiction"]
            return book
        }
        let structs = books.map {
            CodableBook(type: "LineBook", version: 1, title: $0.title, pages: $0.pages, rating: $0.rating, tags: $0.tags)
        }
        try! JSONLines.write(books, to: url)
        let bytes = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? nil

        let read = Harness.compare(readRow, bytes: bytes, rounds: 5, [
            .init(label: "JSONDecoder") { iterations in
                for _ in 0..<iterations {
                    let data = try! Data(contentsOf: url)
                    let decoder = JSONDecoder()
                    var decoded = 0
                    for line in data.split(separator: UInt8(ascii: "\n")) where !line.isEmpty {
                        blackHole(try! decoder.decode(CodableBook.self, from: line))
                        decoded += 1
                    }
                    precondition(decoded == count)
                }
            },
            .init(label: "JSONLines") { iterations in
                for _ in 0..<iterations {
                    var decoded = 0
                    try! JSONLines.forEachModel(LineBook.self, contentsOf: url) { book in
                        blackHole(book)
                        decoded += 1
                    }
                    precondition(decoded == count)
                }
            },
        ])
        let write = Harness.compare(writeRow, bytes: bytes, rounds: 5, [
            .init(label: "JSONEncoder") { iterations in
                for _ in 0..<iterations {
                    let encoder = JSONEncoder()
                    var data = Data()
                    for book in structs {
                        data.append(try! encoder.encode(book))
                        data.append(UInt8(ascii: "\n"))
                    }
                    try! data.write(to: foundationURL, options: .atomic)
                }
            },
            .init(label: "JSONLines") { iterations in
                for _ in 0..<iterations { try! JSONLines.write(books, to: url, validating: false) }
            },
        ])
        for result in [read, write].compactMap({ $0 }) {
            let rates = zip(result.labels, result.medians).map {
                "\($0.0) \(String(format: "%.0f", Double(count) / $0.1)) models/s"
            }
            print("|   \(result.task): \(rates.joined(separator: ", ")) |")
        }
    }

    /// `Benchmarks jsonl-200mb` (only when asked by that name): writes a
    /// JSON Lines file of about 200 MB and reads it back with `JSONLines`,
    /// printing the peak resident memory of the reading, which does not grow
    /// with the file, then ends the process. Run first, before other rows
    /// leave memory behind, and under `/usr/bin/time -v` for the whole process.
    static func measureLargeFile() {
        guard Harness.filter?.lowercased() == "jsonl-200mb" else { return }
        defer { exit(0) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ModelKitBenchmarks-\(UUID())")
        try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // MODELKIT_JSONL_FILE names a file to read instead (written there
        // first if missing), so that a second run measures reading alone.
        let given = ProcessInfo.processInfo.environment["MODELKIT_JSONL_FILE"].map { URL(fileURLWithPath: $0) }
        let url = given ?? folder.appendingPathComponent("large.jsonl")
        let lines = 1_500_000
        let books = (0..<lines).lazy.map { index in
            let book = LineBook()
            book.title = "Book number \(index) of a long series"
            book.pages = 100 + index % 900
            book.rating = Double(index % 50) / 10
            book.tags = ["fiction", "classic"]
            return book
        }
        if given == nil || !FileManager.default.fileExists(atPath: url.path) {
            try! JSONLines.write(books, to: url, validating: false)
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        Harness.resetPeakResidentBytes()
        let before = Harness.residentBytes() ?? 0
        var read = 0
        let seconds = Harness.time {
            try! JSONLines.forEachModel(LineBook.self, contentsOf: url) { book in
                blackHole(book)
                read += 1
            }
        }
        let peak = Harness.peakResidentBytes() ?? 0
        print(
            String(
                format: "| JSON Lines: read a %.0f MB file (%d lines) | %.1f s, %.0f models/s | peak resident %.1f MB "
                    + "(%.1f MB before reading) |",
                Double(size) / 1e6, read, seconds, Double(read) / seconds, Double(peak) / 1e6, Double(before) / 1e6))
    }
}
