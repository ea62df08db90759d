import Foundation

/// The real JSON documents in `../shared/corpus/`, found from the current
/// folder or from this package's; rows that need one skip when it is absent.
enum Corpus {
    /// The three corpus documents, smallest first.
    static let names = ["twitter", "citm_catalog", "canada"]

    /// The bytes of `../shared/corpus/<name>.json`, or `nil` when it is not there.
    static func document(_ name: String) -> Data? {
        let roots = [
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent(),
        ]
        for root in roots {
            let url = root.appendingPathComponent("../shared/corpus/\(name).json").standardizedFileURL
            if let data = try? Data(contentsOf: url) { return data }
        }
        return nil
    }
}
