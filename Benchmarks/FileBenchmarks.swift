import Foundation
import ModelKit

/// What a durable save costs: writing a small document (a settings file)
/// and a 10 MB one through `write(to:)` synced (the default: fsync of the
/// file and of its folder) and `.unsynced`, against Foundation's
/// encoding the same document and writing it with Foundation's
/// `Data.write(to:options: .atomic)`. The files go to a folder on the same
/// disk as the build.
enum FileBenchmarks {
    final class Document: ModelObject, @unchecked Sendable {
        @Saved var title = "Settings"
        @Saved var values: [String] = []
    }

    static func run() {
        let smallRow = "Files: write a 1 KB document (Foundation .atomic | synced | unsynced)"
        let largeRow = "Files: write a 10 MB document (Foundation .atomic | synced | unsynced)"
        guard Harness.wants(smallRow) || Harness.wants(largeRow) else { return }
        let folder = URL(fileURLWithPath: ".build/benchmark-files-\(UUID().uuidString)", isDirectory: true)
        try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (row, count) in [(smallRow, 40), (largeRow, 400_000)] {
            let document = Document()
            document.values = (0..<count).map { "value number \($0)" }
            let bytes = try! document.jsonData()
            let url = folder.appendingPathComponent("document.json")
            Harness.compare(row, bytes: bytes.count, rounds: 5, [
                .init(label: "Foundation .atomic") { iterations in
                    // The same encoding, then Foundation's atomic write.
                    for _ in 0..<iterations { try! document.jsonData().write(to: url, options: .atomic) }
                },
                .init(label: "ModelKit synced") { iterations in
                    for _ in 0..<iterations { try! document.write(to: url) }
                },
                .init(label: "ModelKit unsynced") { iterations in
                    for _ in 0..<iterations { try! document.write(to: url, durability: .unsynced) }
                },
            ])
        }
    }
}
