import Foundation
import Testing

@testable import ModelKit

/// Temporary files are recognised as the folder's file system compares
/// names, so that one left under another spelling of the destination's name
/// (another case on a case-insensitive volume, NFD against NFC on APFS) is
/// still cleaned up.
@Suite struct FileNameMatchingTests {
    static let nfc = "Caf\u{E9}.json"  // é as one scalar
    static let nfd = "Cafe\u{301}.json"  // e and a combining accent

    /// Each case: the temporary file's name, the destination's name, and
    /// the process id found under each way of comparing (nil: not one).
    static let cases: [(String, String, pid_t?, pid_t?, pid_t?)] = [
        (".notes.json.modelkit-12-ab.tmp", "notes.json", 12, 12, 12),
        (".Notes.json.modelkit-12-ab.tmp", "notes.json", nil, nil, 12),
        (".NOTES.JSON.MODELKIT-7-ff.TMP", "notes.json", nil, nil, 7),
        ("." + nfd + ".modelkit-99-1.tmp", nfc, nil, 99, 99),
        ("." + nfc + ".modelkit-99-1.tmp", nfd, nil, 99, 99),
        ("." + nfc.uppercased() + ".modelkit-5-c.tmp", nfd, nil, nil, 5),
        (".notes.json.modelkit-12.tmp", "notes.json", nil, nil, nil),
        (".other.json.modelkit-12-ab.tmp", "notes.json", nil, nil, nil),
        (".notes.json.modelkit-x-ab.tmp", "notes.json", nil, nil, nil),
        ("notes.json", "notes.json", nil, nil, nil),
    ]

    @Test(arguments: cases.indices)
    func aTemporaryFileIsRecognisedAsTheFileSystemComparesNames(index: Int) {
        let (file, name, exact, canonical, ignoringCase) = Self.cases[index]
        typealias Name = DurableFile.TemporaryName
        #expect(Name.processID(in: file, of: name, matching: .exactBytes) == exact, "\(file)")
        #expect(Name.processID(in: file, of: name, matching: .canonical) == canonical, "\(file)")
        #expect(Name.processID(in: file, of: name, matching: .canonicalIgnoringCase) == ignoringCase, "\(file)")
    }

    /// On this machine's temporary folder (ext4 or tmpfs, no case folding),
    /// names compare byte for byte; on Apple platforms canonically.
    @Test func theTemporaryFolderComparesNamesAsItsFileSystemDoes() throws {
        try withTemporaryFolder { folder in
            let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY)
            defer { close(descriptor) }
            let matching = Platform.fileNameMatching(ofFolder: descriptor)
            #if canImport(Darwin)
                #expect(matching != .exactBytes)
            #else
                #expect(matching == .exactBytes)
            #endif
        }
    }

    /// A write cleans up an abandoned temporary file of its destination left
    /// under the spelling the file system takes for the same name; here
    /// (byte for byte) one under another case is another file's, and stays.
    @Test func aWriteRemovesAbandonedFilesAsTheFolderSpellsTheirNames() throws {
        try withTemporaryFolder { folder in
            let same = folder.appendingPathComponent(".notes.json.modelkit-1-a.tmp")
            let other = folder.appendingPathComponent(".Notes.json.modelkit-1-a.tmp")
            try Data("left".utf8).write(to: same)
            try Data("left".utf8).write(to: other)
            try ModelValue.object(["a": 1]).write(to: folder.appendingPathComponent("notes.json"))
            #expect(!FileManager.default.fileExists(atPath: same.path))
            let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY)
            defer { close(descriptor) }
            let ignoresCase = Platform.fileNameMatching(ofFolder: descriptor) == .canonicalIgnoringCase
            #expect(FileManager.default.fileExists(atPath: other.path) == !ignoresCase)
        }
    }
}
