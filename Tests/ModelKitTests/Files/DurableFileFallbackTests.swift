import Foundation
import Testing

@testable import ModelKit

/// A file in a folder that takes no new file (a security-scoped URL of one
/// file, on an Apple platform) is still replaced atomically, from a
/// temporary file in an item-replacement folder, keeping what a rewrite
/// keeps. Running as root, a test cannot make a real folder refuse files, so
/// the folder refuses them through `DurableFile.foldersRefusingNewFiles`,
/// which makes the temporary file's creation fail with `EACCES` there.
@Suite(.serialized) struct DurableFileFallbackTests {
    /// Runs `body` while `folder` refuses new files.
    static func refusingNewFiles<Result>(in folder: URL, _ body: () throws -> Result) rethrows -> Result {
        DurableFile.foldersRefusingNewFiles.withLock { $0[folder.path] = true }
        defer { DurableFile.foldersRefusingNewFiles.withLock { $0[folder.path] = nil } }
        return try body()
    }

    static func entries(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test(arguments: [FileDurability.synced, .unsynced])
    func aFileWhoseFolderTakesNoNewFileIsStillReplacedWhole(durability: FileDurability) throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("picked.json")
            try DurableFileTests.sample("first").write(to: url)
            chmod(url.path, 0o640)
            try Self.refusingNewFiles(in: folder) {
                try DurableFileTests.sample("second").write(to: url, durability: durability)
            }
            #expect(try Note(contentsOf: url).title == "second")
            #expect(DurableFileTests.mode(url) == 0o640)
            #expect(try Self.entries(folder) == ["picked.json"])
        }
    }

    @Test func aLinkToSuchAFileStaysALink() throws {
        try withTemporaryFolder { folder in
            let target = folder.appendingPathComponent("target.json")
            let link = folder.appendingPathComponent("link.json")
            try DurableFileTests.sample("first").write(to: target)
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
            try Self.refusingNewFiles(in: folder) { try DurableFileTests.sample("second").write(to: link) }
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
            #expect(try Note(contentsOf: target).title == "second")
        }
    }

    #if !canImport(Darwin)
        @Test func itsUserExtendedAttributesAreKept() throws {
            try withTemporaryFolder { folder in
                let url = folder.appendingPathComponent("tagged.json")
                try DurableFileTests.sample("first").write(to: url)
                let calls = try #require(ExtendedAttributeCalls.shared)
                let value = Array("picked".utf8)
                let descriptor = open(url.path, O_RDONLY)
                let set = value.withUnsafeBytes { calls.fsetxattr(descriptor, "user.origin", $0.baseAddress, $0.count, 0) }
                close(descriptor)
                guard set == 0 else { return }  // this file system has no user attributes
                try Self.refusingNewFiles(in: folder) { try DurableFileTests.sample("second").write(to: url) }
                let reopened = open(url.path, O_RDONLY)
                defer { close(reopened) }
                var buffer = [UInt8](repeating: 0, count: 64)
                let count = buffer.withUnsafeMutableBytes { calls.fgetxattr(reopened, "user.origin", $0.baseAddress, 64) }
                #expect(count == value.count)
                if count >= 0 { #expect(Array(buffer[..<count]) == value) }
            }
        }
    #endif

    /// A file that does not exist yet cannot be made in such a folder: the
    /// error says so, and nothing is left anywhere.
    @Test func aNewFileInSuchAFolderIsAClearError() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("new.json")
            do {
                try Self.refusingNewFiles(in: folder) { try DurableFileTests.sample("first").write(to: url) }
                Issue.record("the write succeeded")
            } catch let error as ModelError {
                #expect(error.description == "new.json: the folder \(folder.path) is not writable")
            }
            #expect(try Self.entries(folder).isEmpty)
        }
    }
}
