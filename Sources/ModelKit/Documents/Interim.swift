import Foundation

// Interim stand-ins until the history branch lands (replaced, not kept).
struct ContentHash: Hashable, Sendable {
    var value: UInt64
    init(_ data: Data) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        value = hash
    }
    var hex: String { String(value, radix: 16) }
}

struct DocumentBaseHistory {
    var folder: URL
    var basesPerDocument = 8
    var documentLimit = 64
    static func standardFolder(_ inputs: Platform.StoreFolderInputs) -> URL {
        inputs.home.appendingPathComponent(".local/state/modelkit-document-bases")
    }
    func documentFolder(for document: URL) -> URL {
        folder.appendingPathComponent(ContentHash(Data(document.standardizedFileURL.resolvingSymlinksInPath().path.utf8)).hex)
    }
    func record(_ data: Data, for document: URL) throws {
        let target = documentFolder(for: document)
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try DurableFile.write(data, to: target.appendingPathComponent(ContentHash(data).hex), durability: .unsynced)
    }
    func versions(for document: URL) -> [(hash: ContentHash, data: Data)] {
        let target = documentFolder(for: document)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: target.path)) ?? []
        return names.compactMap { name in
            guard name != "lock", let data = try? Data(contentsOf: target.appendingPathComponent(name)) else { return nil }
            return (ContentHash(data), data)
        }
    }
}
