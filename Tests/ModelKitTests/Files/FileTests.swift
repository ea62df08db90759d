import Foundation
import Testing
@testable import ModelKit

/// A class suite, so that `deinit` removes each test's folder, pass or fail.
@Suite final class FileTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ModelKitFileTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    func sample() -> Note {
        let note = Note()
        note.title = "Saved"
        note.due = Date(timeIntervalSince1970: 1_763_307_200)  // whole seconds: XML holds no more
        note.children = [Note()]
        try? note.setExtensibleProperty(["kept": true], forKey: "future")
        return note
    }

    @Test(arguments: [
        ("note.json", nil as ModelDocumentFormat?, "{"),
        ("note.plist", nil, "<?xml"),
        ("note.bplist", nil, "bplist"),
        ("note.data", .json(.pretty), "{\n"),
        ("note.data", .binaryPropertyList, "bplist"),
    ])
    func filesRoundTripInEveryFormatDetectedOnLoad(name: String, format: ModelDocumentFormat?, prefix: String) throws {
        let url = directory.appendingPathComponent(name)
        let note = sample()
        try note.write(to: url, format: format)
        let bytes = try Data(contentsOf: url)
        #expect(bytes.starts(with: Array(prefix.utf8)))
        let loaded = try Note(contentsOf: url)
        #expect(loaded.modelValue == note.modelValue)
        #expect(!loaded.hasAnyChanges)
        // Nothing but the file is left in the directory: no temporary files.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [name])
        try FileManager.default.removeItem(at: url)
    }

    @Test func overwritingReplacesTheFileWhole() throws {
        let url = directory.appendingPathComponent("twice.json")
        let long = sample()
        long.title = String(repeating: "long ", count: 1000)
        try long.write(to: url)
        let short = sample()
        try short.write(to: url)
        #expect(try Note(contentsOf: url).title == "Saved")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["twice.json"])
    }

    @Test func fileSystemProblemsReadAsSentences() throws {
        let folder = directory.appendingPathComponent("notes.json")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let readFolder = #expect(throws: ModelError.self) { try Note(contentsOf: folder) }
        #expect(readFolder?.code == .fileAccess)
        #expect(readFolder?.description == "notes.json: this is a folder, not a file")

        let writeFolder = #expect(throws: ModelError.self) { try self.sample().write(to: folder) }
        #expect(writeFolder?.code == .fileAccess)
        #expect(writeFolder?.description == "notes.json: this is a folder, not a file")

        let nowhere = directory.appendingPathComponent("absent").appendingPathComponent("note.json")
        let noFolder = #expect(throws: ModelError.self) { try self.sample().write(to: nowhere) }
        #expect(noFolder?.code == .fileAccess)
        #expect(noFolder?.description == "note.json: no such folder: \(nowhere.deletingLastPathComponent().path)")

        let plain = directory.appendingPathComponent("plain.json")
        try Data("{}".utf8).write(to: plain)
        let underFile = plain.appendingPathComponent("note.json")
        let fileInTheWay = #expect(throws: ModelError.self) { try self.sample().write(to: underFile) }
        #expect(fileInTheWay?.description == "note.json: \(plain.path) is a file, not a folder")
        for error in [readFolder, writeFolder, noFolder, fileInTheWay] {
            #expect(error?.description.contains("NSCocoaErrorDomain") == false)
        }
    }

    @Test func badFilesGiveErrorsNamingTheFile() throws {
        let missing = directory.appendingPathComponent("missing.json")
        let notFound = #expect(throws: ModelError.self) { try Note(contentsOf: missing) }
        #expect(notFound?.code == .fileNotFound)
        #expect(notFound?.description == "missing.json: no such file")

        let empty = directory.appendingPathComponent("empty.json")
        try Data().write(to: empty)
        #expect((#expect(throws: ModelError.self) { try Note(contentsOf: empty) })?.description == "empty.json: the file is empty")

        let text = directory.appendingPathComponent("text.json")
        try Data("hello".utf8).write(to: text)
        let unknown = #expect(throws: ModelError.self) { try Note(contentsOf: text) }
        #expect(unknown?.code == .unknownFormat)

        let truncated = directory.appendingPathComponent("truncated.json")
        let full = try sample().jsonData(options: .pretty)
        try full.prefix(full.count / 2).write(to: truncated)
        let cut = #expect(throws: ModelError.self) { try Note(contentsOf: truncated) }
        #expect(cut?.code == .malformedDocument)
        #expect(cut?.file?.lastPathComponent == "truncated.json")
        #expect(cut?.location != nil)
        #expect(cut?.description.hasPrefix("truncated.json, JSON at line ") == true, "\(cut?.description ?? "")")

        let truncatedBinary = directory.appendingPathComponent("truncated.bplist")
        let binary = try sample().propertyListData(format: .binary)
        try binary.prefix(binary.count - 10).write(to: truncatedBinary)
        let damaged = #expect(throws: ModelError.self) { try Note(contentsOf: truncatedBinary) }
        #expect(damaged?.code == .malformedDocument)
    }

    @Test func writingNeedsAKnownFormatAndAWritablePlace() throws {
        let note = sample()
        let unknown = #expect(throws: ModelError.self) { try note.write(to: directory.appendingPathComponent("note.txt")) }
        #expect(
            unknown?.description
                == #"note.txt: cannot choose a format from the extension "txt"; use .json, .plist, .xml, .bplist or .archive, or pass a format"#)
        let nowhere = directory.appendingPathComponent("no/such/dir/note.json")
        let failed = #expect(throws: ModelError.self) { try note.write(to: nowhere) }
        #expect(failed?.code == .fileAccess)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func hostileDocumentsAreRejectedWithoutACrash() throws {
        let deepJSON = Data(repeating: UInt8(ascii: "["), count: 200_000)
        let error = #expect(throws: ModelError.self) { try Note(json: deepJSON) }
        #expect(error?.code == .nestingTooDeep)
        let invalidUTF8 = Data([0x7B, 0x22, 0x74, 0x69, 0x74, 0x6C, 0x65, 0x22, 0x3A, 0x22, 0xC3, 0x28, 0x22, 0x7D])
        let utf8 = #expect(throws: ModelError.self) { try Note(json: invalidUTF8) }
        #expect(utf8?.code == .invalidUTF8)
        let note = try Note(json: Data(#"{"title":"A"}"#.utf8))
        let wrong = #expect(throws: ModelError.self) { try note.update(from: ModelValue(json: Data(#"{"title":5}"#.utf8))) }
        #expect(wrong?.description == "title: expected String, found an integer (5)")
        #expect(note.title == "A")
    }
}
