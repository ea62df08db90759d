import Foundation
import Testing

@testable import ModelKit

/// The bases a three-way merge needs, kept outside the documents across
/// launches, bounded, and found again by hash or as a copy's ancestor.
@Suite struct DocumentBaseHistoryTests {
    static func inputs(
        _ family: Platform.Family, environment: [String: String] = [:], bundle: String? = nil, support: String? = nil
    ) -> Platform.StoreFolderInputs {
        Platform.StoreFolderInputs(
            family: family, environment: environment, processName: "notes-tool", bundleIdentifier: bundle,
            applicationSupport: support.map { URL(fileURLWithPath: $0, isDirectory: true) },
            home: URL(fileURLWithPath: "/Users/ann", isDirectory: true), groupContainer: { _ in nil })
    }

    /// Each case: the inputs, and the history's standard folder.
    static let folderCases: [(String, Platform.StoreFolderInputs, String)] = [
        (
            "a macOS app", inputs(.apple, bundle: "com.example.Notes", support: "/Users/ann/Library/Application Support"),
            "/Users/ann/Library/Application Support/com.example.Notes/ModelKit/DocumentBases"
        ),
        (
            "a sandboxed app or an iPhone app",
            inputs(.apple, bundle: "com.example.Notes", support: "/var/mobile/Containers/Data/Application/A1/Library/Application Support"),
            "/var/mobile/Containers/Data/Application/A1/Library/Application Support/com.example.Notes/ModelKit/DocumentBases"
        ),
        (
            "a macOS command-line tool", inputs(.apple, support: "/Users/ann/Library/Application Support"),
            "/Users/ann/Library/Application Support/notes-tool/ModelKit/DocumentBases"
        ),
        (
            "Apple, with no Application Support from Foundation", inputs(.apple, bundle: "com.example.Notes"),
            "/Users/ann/Library/Application Support/com.example.Notes/ModelKit/DocumentBases"
        ),
        (
            "Linux with XDG_STATE_HOME", inputs(.freedesktop, environment: ["XDG_STATE_HOME": "/state", "HOME": "/h"]),
            "/state/notes-tool/modelkit-document-bases"
        ),
        (
            "Linux with a relative XDG_STATE_HOME", inputs(.freedesktop, environment: ["XDG_STATE_HOME": "st", "HOME": "/h"]),
            "/h/.local/state/notes-tool/modelkit-document-bases"
        ),
        (
            "Linux with HOME only", inputs(.freedesktop, environment: ["HOME": "/h", "XDG_CONFIG_HOME": "/cfg"]),
            "/h/.local/state/notes-tool/modelkit-document-bases"
        ),
        ("Linux with neither", inputs(.freedesktop), "/Users/ann/.local/state/notes-tool/modelkit-document-bases"),
    ]

    @Test(arguments: folderCases.indices)
    func theHistoryLivesInThePlatformsPlaceForState(index: Int) {
        let (name, inputs, expected) = Self.folderCases[index]
        #expect(DocumentBaseHistory.standardFolder(inputs).path == expected, "\(name)")
    }

    /// A history in a temporary folder, beside a document folder.
    func withHistory(
        basesPerDocument: Int = 8, documentLimit: Int = 64, _ body: (DocumentBaseHistory, URL) throws -> Void
    ) throws {
        try withTemporaryFolder { folder in
            let documents = folder.appendingPathComponent("documents", isDirectory: true)
            try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
            let history = DocumentBaseHistory(
                folder: folder.appendingPathComponent("history", isDirectory: true), basesPerDocument: basesPerDocument,
                documentLimit: documentLimit)
            try body(history, documents)
        }
    }

    static func form(_ number: Int) -> ModelValue { ["title": .string("Note \(number)"), "count": .int(number)] }
    static func hash(_ form: ModelValue) throws -> ContentHash { ContentHash(try form.jsonData()) }

    @Test func aRecordedBaseIsFoundByItsHashAndTheDocumentIsUntouched() throws {
        try withHistory { history, documents in
            let document = documents.appendingPathComponent("notes.json")
            let bytes = Data(#"{"title":"Milk"}"#.utf8)
            try bytes.write(to: document)
            let form: ModelValue = ["title": "Milk", "tags": ["a", "é"], "ratio": 0.5, "big": .bigInteger("123456789012345678901234")]
            let hash = ContentHash(bytes)
            try history.record(form, hash: hash, for: document)
            #expect(history.base(withHash: hash, for: document) == form)
            #expect(history.base(withHash: ContentHash(Data("other".utf8)), for: document) == nil)
            #expect(try Data(contentsOf: document) == bytes)
            #expect(try FileManager.default.contentsOfDirectory(atPath: documents.path) == ["notes.json"])
            let file = history.documentFolder(for: document).appendingPathComponent(hash.hex + ".json")
            #expect(try ModelValue(json: Data(contentsOf: file)) == form)
            #expect(history.documentFolder(for: document).lastPathComponent.hasPrefix("notes.json-"))
        }
    }

    /// Newest first; recording a base again makes it the newest; beyond
    /// the limit the oldest go.
    @Test func basesComeNewestFirstAndAreBounded() throws {
        try withHistory(basesPerDocument: 3) { history, documents in
            let document = documents.appendingPathComponent("notes.json")
            for number in 1...5 {
                try history.record(Self.form(number), hash: Self.hash(Self.form(number)), for: document)
                Thread.sleep(forTimeInterval: 0.01)  // distinct modification times on any file system we test on
            }
            #expect(history.bases(for: document).map(\.form) == [Self.form(5), Self.form(4), Self.form(3)])
            try history.record(Self.form(3), hash: Self.hash(Self.form(3)), for: document)
            #expect(history.bases(for: document).map(\.form) == [Self.form(3), Self.form(5), Self.form(4)])
            #expect(history.bases(for: document).map(\.hash) == [3, 5, 4].map { try! Self.hash(Self.form($0)) })
            let files = try FileManager.default.contentsOfDirectory(atPath: history.documentFolder(for: document).path)
            #expect(files.count == 3)
        }
    }

    /// Beyond the document limit, the least recently recorded document's
    /// bases go, whole.
    @Test func theLeastRecentlyRecordedDocumentsGoFirst() throws {
        try withHistory(documentLimit: 2) { history, documents in
            let names = ["a.json", "b.json", "c.json"]
            for name in names {
                try history.record(Self.form(1), hash: Self.hash(Self.form(1)), for: documents.appendingPathComponent(name))
                Thread.sleep(forTimeInterval: 0.01)
            }
            #expect(history.bases(for: documents.appendingPathComponent("a.json")).isEmpty)
            #expect(history.bases(for: documents.appendingPathComponent("b.json")).count == 1)
            #expect(history.bases(for: documents.appendingPathComponent("c.json")).count == 1)
            // Two document folders, and the history's lock.
            #expect(try FileManager.default.contentsOfDirectory(atPath: history.folder.path).sorted().first == ".lock")
            #expect(try FileManager.default.contentsOfDirectory(atPath: history.folder.path).count == 2 + 1)
            // Recording for b makes a's successor c the oldest.
            try history.record(Self.form(2), hash: Self.hash(Self.form(2)), for: documents.appendingPathComponent("b.json"))
            Thread.sleep(forTimeInterval: 0.01)
            try history.record(Self.form(1), hash: Self.hash(Self.form(1)), for: documents.appendingPathComponent("a.json"))
            #expect(history.bases(for: documents.appendingPathComponent("c.json")).isEmpty)
            #expect(history.bases(for: documents.appendingPathComponent("b.json")).count == 2)
        }
    }

    /// Spellings of one file (`..`, `.`, a symbolic link to its folder, a
    /// link to the file) share one key; another file has another.
    @Test func everySpellingOfOneFileSharesItsKey() throws {
        try withHistory { history, documents in
            let document = documents.appendingPathComponent("notes.json")
            try Data("{}".utf8).write(to: document)
            let linkedFolder = documents.deletingLastPathComponent().appendingPathComponent("linked")
            try FileManager.default.createSymbolicLink(at: linkedFolder, withDestinationURL: documents)
            let linkedFile = documents.appendingPathComponent("alias.json")
            try FileManager.default.createSymbolicLink(at: linkedFile, withDestinationURL: document)
            let spellings = [
                documents.appendingPathComponent("sub/../notes.json"),
                documents.appendingPathComponent("./notes.json"),
                linkedFolder.appendingPathComponent("notes.json"),
                linkedFile,
                URL(fileURLWithPath: documents.path + "//notes.json"),
            ]
            let key = DocumentBaseHistory.key(for: document)
            for spelling in spellings {
                #expect(DocumentBaseHistory.key(for: spelling) == key, "\(spelling.path)")
            }
            #expect(DocumentBaseHistory.key(for: documents.appendingPathComponent("other.json")) != key)
            // A document not yet saved: its folder's links are resolved.
            #expect(
                DocumentBaseHistory.key(for: linkedFolder.appendingPathComponent("new.json"))
                    == DocumentBaseHistory.key(for: documents.appendingPathComponent("new.json")))
            try history.record(Self.form(1), hash: Self.hash(Self.form(1)), for: linkedFolder.appendingPathComponent("notes.json"))
            #expect(history.bases(for: document).count == 1)
        }
    }

    /// Each case: a file name, and the readable start of its key.
    static let prefixCases: [(String, String)] = [
        ("notes.json", "notes.json-"),
        ("My Notes (2).json", "My_Notes__2_.json-"),
        (".hidden", "hidden-"),
        ("..json", "json-"),
        ("Caf\u{E9}.json", "Caf_.json-"),
        (String(repeating: "x", count: 60) + ".json", String(repeating: "x", count: 40) + "-"),
    ]

    @Test(arguments: prefixCases.indices)
    func aKeyStartsWithASanitizedFileName(index: Int) {
        let (name, prefix) = Self.prefixCases[index]
        let key = DocumentBaseHistory.key(for: URL(fileURLWithPath: "/nowhere/\(name)"))
        #expect(key.hasPrefix(prefix), "\(key)")
        #expect(key.utf8.count == prefix.utf8.count + 32)
    }

    /// A copy C = B + their edits is closer to B than to our later versions
    /// B + our edits, so B is found as its ancestor.
    @Test func theClosestAncestorOfACopyIsTheBaseItStartedFrom() throws {
        try withHistory { history, documents in
            let document = documents.appendingPathComponent("notes.json")
            let base: ModelValue = ["title": "Groceries", "items": ["milk", "eggs"], "done": false, "count": 2]
            var ours1 = base
            ours1["title"] = "Shopping"
            var ours2 = ours1
            ours2["items"] = ["milk", "eggs", "bread"]
            ours2["count"] = 3
            for form in [base, ours1, ours2] {
                try history.record(form, hash: Self.hash(form), for: document)
                Thread.sleep(forTimeInterval: 0.01)
            }
            var copy = base
            copy["done"] = true
            copy["note"] = "from the phone"
            let found = history.closestAncestor(of: copy, for: document)
            #expect(found?.form == base)
            #expect(try found?.hash == Self.hash(base))
            // Excluding it, the next closest.
            #expect(history.closestAncestor(of: copy, for: document, excluding: [try Self.hash(base)])?.form == ours1)
            // An exact match wins; no bases, no ancestor.
            #expect(history.closestAncestor(of: ours2, for: document)?.form == ours2)
            #expect(history.closestAncestor(of: copy, for: documents.appendingPathComponent("other.json")) == nil)
        }
    }

    /// Corrupt, unreadable and stray entries are skipped, never a crash or
    /// an error.
    @Test func damagedEntriesAreSkipped() throws {
        try withHistory { history, documents in
            let document = documents.appendingPathComponent("notes.json")
            try history.record(Self.form(1), hash: Self.hash(Self.form(1)), for: document)
            let folder = history.documentFolder(for: document)
            let corrupt = ContentHash(Data("corrupt".utf8))
            try Data("{\"title\":".utf8).write(to: folder.appendingPathComponent(corrupt.hex + ".json"))
            let unreadable = ContentHash(Data("unreadable".utf8))
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent(unreadable.hex + ".json"), withIntermediateDirectories: false)
            try Data("x".utf8).write(to: folder.appendingPathComponent("stray.json"))
            try Data("x".utf8).write(to: folder.appendingPathComponent("." + corrupt.hex + ".json.modelkit-1-a.tmp"))
            #expect(history.bases(for: document).map(\.form) == [Self.form(1)])
            #expect(history.base(withHash: corrupt, for: document) == nil)
            #expect(history.base(withHash: unreadable, for: document) == nil)
            #expect(history.closestAncestor(of: Self.form(2), for: document)?.form == Self.form(1))
            // A history whose folder is a file finds nothing.
            let broken = DocumentBaseHistory(folder: document)
            try Data("{}".utf8).write(to: document)
            #expect(broken.bases(for: document).isEmpty)
            #expect(broken.closestAncestor(of: Self.form(1), for: document) == nil)
        }
    }

    /// `record` errors name the history file.
    @Test func recordingErrorsNameTheHistoryFile() throws {
        try withHistory { history, documents in
            let document = documents.appendingPathComponent("notes.json")
            let hash = ContentHash(Data("x".utf8))
            let file = history.documentFolder(for: document).appendingPathComponent(hash.hex + ".json")
            let notJSON = #expect(throws: ModelError.self) {
                try history.record(["ratio": .double(.nan)], hash: hash, for: document)
            }
            #expect(notJSON?.file == file)
            // The history's folder is a file: the folder cannot be made.
            try Data("x".utf8).write(to: history.folder)
            let unwritable = #expect(throws: ModelError.self) {
                try history.record(Self.form(1), hash: hash, for: document)
            }
            #expect(unwritable?.file == file)
            #expect("\(unwritable.map { "\($0)" } ?? "")".contains(history.folder.path))
        }
    }

    /// Threads recording at once, each pruning, never fail a record (no
    /// folder is removed while a record writes into it) or leave more than
    /// the limits.
    @Test func concurrentRecordsStayWithinTheLimits() async throws {
        try await withTemporaryFolder { folder in
            let history = DocumentBaseHistory(
                folder: folder.appendingPathComponent("history"), basesPerDocument: 2, documentLimit: 2)
            let workers = 8
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<workers {
                    group.addTask {
                        for step in 0..<40 {
                            let form: ModelValue = ["worker": .int(worker), "step": .int(step)]
                            let document = folder.appendingPathComponent("doc\((worker + step) % 9).json")
                            try history.record(form, hash: ContentHash(try form.jsonData()), for: document)
                        }
                    }
                }
                try await group.waitForAll()
            }
            let documents = try FileManager.default.contentsOfDirectory(atPath: history.folder.path)
                .filter { $0 != ".lock" }
            // The last prune comes after every write and keeps, besides
            // the newest, the folder of the document it recorded.
            #expect(documents.count <= 2 + 1, "\(documents)")
            for name in documents {
                let bases = try FileManager.default.contentsOfDirectory(
                    atPath: history.folder.appendingPathComponent(name).path)
                #expect(bases.count <= 2, "\(bases)")
            }
        }
    }

    /// A version's bytes, in any format ModelKit reads, are kept as their
    /// saved form under the hash of the bytes.
    @Test func aVersionsBytesAreKeptUnderTheirHash() throws {
        try withHistory { history, documents in
            let document = documents.appendingPathComponent("notes.plist")
            let form: ModelValue = ["title": "Milk", "count": 2]
            for data in [try form.jsonData(options: .pretty), try form.propertyListData(format: .xml),
                try form.propertyListData(format: .binary)] {
                try history.record(version: data, for: document)
                #expect(history.base(withHash: ContentHash(data), for: document) == form)
            }
            #expect(history.bases(for: document).count == 3)
            let garbage = Data("garbage".utf8)
            let error = #expect(throws: ModelError.self) { try history.record(version: garbage, for: document) }
            #expect(error?.file?.lastPathComponent == ContentHash(garbage).hex + ".json")
        }
    }
}
