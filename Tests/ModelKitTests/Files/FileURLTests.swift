import Foundation
import Testing

@testable import ModelKit

/// Every API that takes a URL refuses one that is not a file URL, before
/// touching the disk: a web URL's path would otherwise name a file in the
/// root folder.
@Suite struct FileURLTests {
    /// The calls that take a URL, by name.
    static let calls: [(String, @Sendable (URL) throws -> Void)] = [
        ("ModelObject.write", { try Note().write(to: $0) }),
        ("ModelObject.write(format:)", { try Note().write(to: $0, format: .binaryPropertyList) }),
        ("ModelObject(contentsOf:)", { _ = try Note(contentsOf: $0) }),
        ("[Model].write", { try [Note()].write(to: $0) }),
        ("[Model](contentsOf:)", { _ = try [Note](contentsOf: $0) }),
        ("ModelValue.write", { try ModelValue.object(["a": 1]).write(to: $0) }),
        ("ModelValue(contentsOf:)", { _ = try ModelValue(contentsOf: $0) }),
        ("JSONLines.write", { try JSONLines.write([Note()], to: $0) }),
        ("JSONLines.append", { try JSONLines.append([Note()], to: $0) }),
        ("JSONLines.forEachModel", { try JSONLines.forEachModel(Note.self, contentsOf: $0) { _ in } }),
        ("ModelDefaults(url:)", { _ = try ModelDefaults(url: $0, autosaveDelay: nil, watchInterval: nil) }),
    ]

    @Test(arguments: 0..<calls.count, ["https://example.com/", "ftp://example.com/files/", "http://localhost/tmp/"])
    func aURLThatIsNotAFileURLIsRefusedBeforeTheDiskIsTouched(call: Int, base: String) throws {
        let (name, body) = Self.calls[call]
        let fileName = "modelkit-\(UUID().uuidString).json"
        let url = try #require(URL(string: base + fileName))
        // Where its path points, were it taken as a file.
        let wouldBe = URL(fileURLWithPath: url.path)
        defer { try? FileManager.default.removeItem(at: wouldBe) }
        do {
            try body(url)
            Issue.record("\(name) accepted \(url)")
        } catch let error as ModelError {
            #expect(
                error.description
                    == "\(url.absoluteString) is not a file URL: ModelKit reads and writes only files "
                    + "(make the URL with URL(fileURLWithPath:))", "\(name)")
            #expect(error.code == .fileAccess)
        }
        #expect(!FileManager.default.fileExists(atPath: wouldBe.path), "\(name) wrote \(wouldBe.path)")
    }

    @Test func theAsyncReaderRefusesOneToo() async throws {
        let url = try #require(URL(string: "https://example.com/lines.jsonl"))
        await #expect(throws: ModelError.self) {
            for try await _ in JSONLines.models(Note.self, contentsOf: url) {}
        }
    }
}
