import Foundation
import Testing

@testable import ModelKit

/// Conflict copies shaped as each sync service leaves them: two devices
/// edited different keys of one document; the copy holds the other
/// device's version.
@Suite struct ModelDocumentConflictCopyTests {
    static let copyNames = [
        "list (Ana's conflicted copy 2026-12-07).json",  // Dropbox
        "list (Ana’s conflicted copy 2026-12-07 (1)).json",  // Dropbox, a second one that day
        "list.sync-conflict-20261207-101500-ABCDEFG.json",  // Syncthing
        "list (conflicted copy 2026-12-07 101500).json",  // Nextcloud, ownCloud 2.5 and later
        "list_conflict-20261207-101500.json",  // ownCloud before 2.5
    ]

    @Test(arguments: copyNames)
    func aCopyMergesThreeWaysWithItsAncestorAndIsRemovedAfterTheSave(_ copyName: String) throws {
        try withTemporaryFolder { folder in
            let url = try writeSample(in: folder)
            let document = try openDocument(url)  // remembers the base in the history
            // The other device edited the limit and an item; the sync service
            // kept its version as a copy.
            let copy = try MergeList(contentsOf: url)
            copy.limit = 7
            copy.items[2].title = "rye bread"
            try copy.write(to: folder.appendingPathComponent(copyName))
            // Ours: another edit, saved.
            document.root.name = "Errands"
            try document.save()

            let folded = try document.mergeConflictCopies()
            #expect(folded.merges.count == 1)
            #expect(folded.merges.first?.source == .conflictCopy(folder.appendingPathComponent(copyName)))
            #expect(folded.merges.first?.hadCommonAncestor == true)
            #expect(folded.conflicts.isEmpty, "\(folded.conflicts)")
            #expect(folded.unmerged.isEmpty, "\(folded.unmerged)")
            #expect(folded.removed.map(\.lastPathComponent) == [copyName])
            let saved = try MergeList(contentsOf: url)
            #expect(saved.name == "Errands" && saved.limit == 7 && saved.items[2].title == "rye bread")
            #expect(document.root.form == saved.form)
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(copyName).path))
        }
    }

    @Test func copiesFromEveryServiceFoldIntoOneDocument() throws {
        try withTemporaryFolder { folder in
            let url = try writeSample(in: folder)
            let document = try openDocument(url)
            for (index, name) in Self.copyNames.enumerated() {
                let copy = try MergeList(contentsOf: url)
                try copy.setExtensibleProperty(.int(index), forKey: "device\(index)")
                try copy.write(to: folder.appendingPathComponent(name))
            }
            let folded = try document.mergeConflictCopies()
            #expect(folded.merges.count == Self.copyNames.count)
            #expect(folded.conflicts.isEmpty)
            let saved = try MergeList(contentsOf: url)
            for index in Self.copyNames.indices {
                #expect(saved.extensibleProperty(forKey: "device\(index)") == .int(index))
            }
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }
            #expect(left.sorted() == ["history", "list.json"])
        }
    }

    /// Each row: the copy's text, and what the report says of it.
    @Test(arguments: [
        ("{\"name\": \"x\", \"limit\": ", "list (Bo's conflicted copy 2026-12-06).json, JSON at line 1"),
        (#"{"type": "Note", "title": "a note"}"#, "list (Bo's conflicted copy 2026-12-06).json"),
        (#"{"name": "x", "limit": 99}"#, "limit"),
    ])
    func aCopyThatCannotBeMergedStaysAndIsReported(_ text: String, _ named: String) throws {
        try withTemporaryFolder { folder in
            let url = try writeSample(in: folder)
            let document = try openDocument(url)
            let copyURL = folder.appendingPathComponent("list (Bo's conflicted copy 2026-12-06).json")
            try Data(text.utf8).write(to: copyURL)
            let before = try Data(contentsOf: url)
            let folded = try document.mergeConflictCopies()
            #expect(folded.merges.isEmpty && folded.removed.isEmpty)
            let unmerged = try #require(folded.unmerged.first)
            #expect(unmerged.url == copyURL)
            #expect(unmerged.error.description.contains(named), "\(unmerged.error)")
            #expect(try Data(contentsOf: copyURL) == Data(text.utf8))
            #expect(try Data(contentsOf: url) == before, "nothing merged, nothing saved")
            #expect(document.root.form == MergeList.sample().form)
        }
    }

    @Test func withNoAncestorTheMergeIsTwoWaysAndSaysSo() throws {
        try withTemporaryFolder { folder in
            let url = try writeSample(in: folder)
            let document = try openDocument(url, history: false)
            let copy = try MergeList(contentsOf: url)
            copy.limit = 7
            copy.name = "Theirs"
            try copy.write(to: folder.appendingPathComponent("list.sync-conflict-20261207-101500-ABCDEFG.json"))
            document.root.name = "Ours"
            let folded = try document.mergeConflictCopies()
            let merge = try #require(folded.merges.first)
            #expect(!merge.hadCommonAncestor)
            #expect(merge.description == "merged from conflict copy list.sync-conflict-20261207-101500-ABCDEFG.json, two ways (no common ancestor): 2 conflicts")
            // Two ways, every value the two hold differently conflicts: ours kept.
            #expect(merge.conflicts.map(\.path.description).sorted() == ["limit", "name"])
            #expect(document.root.name == "Ours" && document.root.limit == 4)
            #expect(document.conflicts.count == 2)
        }
    }

    @Test func aDocumentWithNoCopiesMergesAndSavesNothing() throws {
        try withTemporaryFolder { folder in
            let url = try writeSample(in: folder)
            try Data("{}".utf8).write(to: folder.appendingPathComponent("list2.json"))
            try Data("{}".utf8).write(to: folder.appendingPathComponent("list (copy).json"))
            let document = try openDocument(url)
            let stamp = FileStamp(path: url.path)
            let folded = try document.mergeConflictCopies()
            #expect(folded.merges.isEmpty && folded.unmerged.isEmpty && folded.removed.isEmpty)
            #expect(FileStamp(path: url.path) == stamp)
        }
    }

    @Test func theHistoryKeepsBasesOutsideTheDocumentAcrossOpens() throws {
        try withTemporaryFolder { folder in
            let url = try writeSample(in: folder)
            let bytes = try Data(contentsOf: url)
            let history = DocumentHistory(folder: folder.appendingPathComponent("history"))
            // A first launch opens the document and ends.
            do { _ = try ModelDocument<MergeList>(contentsOf: url, history: history) }
            DocumentHistory.flush()
            #expect(try Data(contentsOf: url) == bytes, "the document's bytes are never touched")
            // A copy made from that version, found by a later launch.
            let copy = try MergeList(contentsOf: url)
            copy.limit = 6
            try copy.write(to: folder.appendingPathComponent("list (Ana's conflicted copy 2026-12-07).json"))
            try editElsewhere(url) { $0.name = "Edited on this device" }
            let later = try ModelDocument<MergeList>(contentsOf: url, history: history)
            let folded = try later.mergeConflictCopies()
            #expect(folded.merges.first?.hadCommonAncestor == true)
            #expect(folded.conflicts.isEmpty)
            #expect(later.root.limit == 6 && later.root.name == "Edited on this device")
        }
    }

    /// A released document keeps its waiting versions before it is gone:
    /// nothing writes into its folder afterwards (which made the folder
    /// again after the test removed it).
    @Test func aReleasedDocumentWritesNothingAfterwards() async throws {
        var used: URL?
        try withTemporaryFolder { (folder: URL) throws -> Void in
            used = folder
            let document = try openDocument(try writeSample(in: folder))
            document.root.name = "Errands"
            try document.save()
        }
        try await Task.sleep(for: .milliseconds(1_300))
        let folder = try #require(used)
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }
}
