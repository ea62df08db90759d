import Foundation
import Testing

@testable import ModelKit

/// Sync services' conflict copies are recognised by their names, as each
/// service writes them, and nothing else is.
@Suite struct ConflictCopiesTests {
    typealias Service = ConflictCopy.Service

    /// Each case: the document, a name beside it, and what the name says
    /// (nil: not a copy of the document), compared byte for byte.
    static let cases: [(String, String, Service?, String?, String?)] = [
        // Dropbox
        ("notes.json", "notes (Alice's conflicted copy 2026-12-07).json", .dropbox, "Alice", "2026-12-07"),
        ("notes.json", "notes (Alice's conflicted copy 2026-12-07 (1)).json", .dropbox, "Alice", "2026-12-07"),
        ("notes.json", "notes (Alice's conflicted copy 2026-12-07) (2).json", .dropbox, "Alice", "2026-12-07"),
        ("notes.json", "notes (Alice Smith\u{2019}s conflicted copy 2026-12-07).json", .dropbox, "Alice Smith", "2026-12-07"),
        ("notes.json", "notes (DESKTOP-UMS014A's conflicted copy 2026-12-07).json", .dropbox, "DESKTOP-UMS014A", "2026-12-07"),
        ("notes.json", "notes (Alice's conflicted copy).json", .dropbox, "Alice", nil),
        ("notes.json", "notes (conflicted copy 2026-12-07).json", .dropbox, nil, "2026-12-07"),
        ("a.b.json", "a.b (Bo's conflicted copy 2026-12-07).json", .dropbox, "Bo", "2026-12-07"),
        ("notes", "notes (Bo's conflicted copy 2026-12-07)", .dropbox, "Bo", "2026-12-07"),
        ("notes (copy).json", "notes (copy) (Bo's conflicted copy 2026-12-07).json", .dropbox, "Bo", "2026-12-07"),
        // Syncthing
        ("notes.json", "notes.sync-conflict-20261207-101500-ABCDEFG.json", .syncthing, "ABCDEFG", "20261207-101500"),
        ("notes.json", "notes.sync-conflict-20261207-101500.json", .syncthing, nil, "20261207-101500"),
        ("notes", "notes.sync-conflict-20261207-101500-ABCDEFG", .syncthing, "ABCDEFG", "20261207-101500"),
        ("a.b.json", "a.b.sync-conflict-20261207-101500-ABCDEFG.json", .syncthing, "ABCDEFG", "20261207-101500"),
        (".notes", ".sync-conflict-20261207-101500-ABCDEFG.notes", .syncthing, "ABCDEFG", "20261207-101500"),
        // Nextcloud and ownCloud desktop clients
        ("notes.json", "notes (conflicted copy 2026-12-07 101500).json", .nextcloud, nil, "2026-12-07 101500"),
        ("notes.json", "notes (conflicted copy Alice Smith 2026-12-07 101500).json", .nextcloud, "Alice Smith", "2026-12-07 101500"),
        ("a.b.json", "a.b (conflicted copy 2026-12-07 101500).json", .nextcloud, nil, "2026-12-07 101500"),
        ("notes", "notes (conflicted copy 2026-12-07 101500)", .nextcloud, nil, "2026-12-07 101500"),
        (".notes", ".notes (conflicted copy 2026-12-07 101500)", .nextcloud, nil, "2026-12-07 101500"),
        ("notes.json", "notes_conflict-20261207-101500.json", .nextcloud, nil, "20261207-101500"),
        ("notes.json", "notes_conflict_alice-20261207-101500.json", .nextcloud, "alice", "20261207-101500"),
        ("notes", "notes_conflict-20261207-101500", .nextcloud, nil, "20261207-101500"),
        ("a.b.json", "a.b_conflict-20261207-101500.json", .nextcloud, nil, "20261207-101500"),
        // Not copies of the document
        ("notes.json", "notes.json", nil, nil, nil),
        ("notes.json", "notes2.json", nil, nil, nil),
        ("notes.json", "notes (copy).json", nil, nil, nil),
        ("notes.json", "notes (1).json", nil, nil, nil),
        ("notes.json", "notes (conflicted copy policy).json", nil, nil, nil),
        ("notes.json", "other (Alice's conflicted copy 2026-12-07).json", nil, nil, nil),
        ("notes.json", "notes (Alice's conflicted copy 2026-13-07).json", nil, nil, nil),
        ("notes.json", "notes (conflicted copy 2026-12-07 251500).json", nil, nil, nil),
        ("notes.json", "notes.sync-conflict-20261207-101500-ABCDEFG.txt", nil, nil, nil),
        ("notes.json", "notes.sync-conflict-2026127-101500-ABCDEFG.json", nil, nil, nil),
        ("notes.json", "notes.json.sync-conflict-20261207-101500-ABCDEFG", nil, nil, nil),
        ("notes.json", "notes (Alice's conflicted copy 2026-12-07).json.bak", nil, nil, nil),
        ("a.b.json", "a.sync-conflict-20261207-101500-ABCDEFG.b.json", nil, nil, nil),
        ("a.b.json", "a (Bo's conflicted copy 2026-12-07).b.json", nil, nil, nil),
        ("notes.json", ".notes (Alice's conflicted copy 2026-12-07).json.modelkit-12-ab.tmp", nil, nil, nil),
        ("notes.json", ".notes.json.modelkit-12-ab.tmp", nil, nil, nil),
        ("notes.json", "Notes (Alice's conflicted copy 2026-12-07).json", nil, nil, nil),
        // A copy of a copy names the copy, not the document.
        ("notes.json", "notes.sync-conflict-20261207-101500-ABCDEFG.sync-conflict-20261208-101500-ABCDEFG.json", nil, nil, nil),
    ]

    @Test(arguments: cases.indices)
    func aNameIsRecognisedAsItsServiceWritesIt(index: Int) {
        let (document, name, service, device, date) = Self.cases[index]
        let found = ConflictCopies.matching(documentName: document, among: [name])
        if let service {
            #expect(found.count == 1, "\(name)")
            #expect(found.first?.name == name)
            #expect(found.first?.service == service, "\(name)")
            #expect(found.first?.device == device, "\(name)")
            #expect(found.first?.dateText == date, "\(name)")
        } else {
            #expect(found.isEmpty, "\(name): \(found)")
        }
    }

    static let nfc = "Caf\u{E9}.json"
    static let nfd = "Cafe\u{301}.json"

    /// Each case: the document, a name, and whether it is a copy when names
    /// compare byte for byte, canonically, and canonically ignoring case.
    static let spellingCases: [(String, String, Bool, Bool, Bool)] = [
        ("notes.json", "Notes (Alice's conflicted copy 2026-12-07).JSON", false, false, true),
        ("notes.json", "NOTES.sync-conflict-20261207-101500-ABCDEFG.Json", false, false, true),
        (nfc, "Cafe\u{301} (Alice's conflicted copy 2026-12-07).json", false, true, true),
        (nfd, "Caf\u{E9}.sync-conflict-20261207-101500-ABCDEFG.json", false, true, true),
        (nfc, "CAFE\u{301} (conflicted copy 2026-12-07 101500).json", false, false, true),
        (nfd, "Cafe\u{301}_conflict-20261207-101500.json", true, true, true),
        ("notes.json", "notez (Alice's conflicted copy 2026-12-07).json", false, false, false),
    ]

    @Test(arguments: spellingCases.indices)
    func namesCompareAsTheVolumeComparesThem(index: Int) {
        let (document, name, exact, canonical, ignoringCase) = Self.spellingCases[index]
        func isCopy(_ matching: Platform.FileNameMatching) -> Bool {
            !ConflictCopies.matching(documentName: document, among: [name], namesMatch: matching).isEmpty
        }
        #expect(isCopy(.exactBytes) == exact, "\(name)")
        #expect(isCopy(.canonical) == canonical, "\(name)")
        #expect(isCopy(.canonicalIgnoringCase) == ignoringCase, "\(name)")
    }

    /// The device and date keep the copy's own spelling on a volume that
    /// ignores case.
    @Test func whatANameSaysKeepsItsSpellingWhenCaseIsIgnored() {
        let found = ConflictCopies.matching(
            documentName: "notes.json", among: ["NOTES.sync-conflict-20261207-101500-ABCDEFG.json"],
            namesMatch: .canonicalIgnoringCase)
        #expect(found.first?.device == "ABCDEFG")
    }

    /// Oldest named date first, then by name; undated names first: the same
    /// order whatever order the folder lists them in.
    @Test func copiesComeOldestFirstInOneOrder() {
        let names = [
            "notes.sync-conflict-20261207-101500-ABCDEFG.json",
            "notes (conflicted copy 2026-12-07 090000).json",
            "notes (Bo's conflicted copy 2026-12-07).json",
            "notes (Alice's conflicted copy 2026-12-07).json",
            "notes (Alice's conflicted copy).json",
            "notes_conflict-20251231-235959.json",
            "unrelated.json",
        ]
        let expected = [
            "notes (Alice's conflicted copy).json",
            "notes_conflict-20251231-235959.json",
            "notes (Alice's conflicted copy 2026-12-07).json",
            "notes (Bo's conflicted copy 2026-12-07).json",
            "notes (conflicted copy 2026-12-07 090000).json",
            "notes.sync-conflict-20261207-101500-ABCDEFG.json",
        ]
        var generator = SeededGenerator(seed: 60)
        for _ in 0..<20 {
            let found = ConflictCopies.matching(documentName: "notes.json", among: names.shuffled(using: &generator))
            #expect(found.map(\.name) == expected)
        }
    }

    /// Listing a real folder: copies of the document, regular files only,
    /// never the document, its temporary files, other documents' copies or
    /// folders named like copies.
    @Test func copiesBesideADocumentAreListedFromItsFolder() throws {
        try withTemporaryFolder { folder in
            let document = folder.appendingPathComponent("notes.json")
            let files = [
                "notes.json", "notes2.json", "notes (copy).json", ".notes.json.modelkit-1-a.tmp",
                "notes.sync-conflict-20261207-101500-ABCDEFG.json",
                "notes (Alice's conflicted copy 2026-12-07).json",
                "other (Alice's conflicted copy 2026-12-07).json",
            ]
            for name in files { try Data("{}".utf8).write(to: folder.appendingPathComponent(name)) }
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent("notes (conflicted copy 2026-12-07 101500).json"),
                withIntermediateDirectories: false)
            let copies = try ConflictCopies.beside(document)
            #expect(
                copies == [
                    ConflictCopy(
                        url: folder.appendingPathComponent("notes (Alice's conflicted copy 2026-12-07).json"),
                        service: .dropbox, device: "Alice", dateText: "2026-12-07"),
                    ConflictCopy(
                        url: folder.appendingPathComponent("notes.sync-conflict-20261207-101500-ABCDEFG.json"),
                        service: .syncthing, device: "ABCDEFG", dateText: "20261207-101500"),
                ])
            // Through a spelling with `..`, the same copies.
            let roundabout = folder.appendingPathComponent("sub/../notes.json")
            #expect(try ConflictCopies.beside(roundabout).map(\.url.lastPathComponent) == copies.map(\.url.lastPathComponent))
        }
    }

    @Test func aFolderThatCannotBeListedIsAnErrorNamingTheDocument() throws {
        try withTemporaryFolder { folder in
            let document = folder.appendingPathComponent("missing/notes.json")
            let error = #expect(throws: ModelError.self) { try ConflictCopies.beside(document) }
            #expect(error?.file == document)
            #expect("\(error.map { "\($0)" } ?? "")".contains("no such folder"))
        }
    }
}
