import Foundation
import Synchronization
import Testing

@testable import ModelKit

/// A document of the merge fixtures in `folder`, with a history of its own
/// there (never the user's).
func openDocument(
    _ url: URL, policy: MergePolicy = .ours, history: Bool = true
) throws -> ModelDocument<MergeList> {
    try ModelDocument<MergeList>(
        contentsOf: url, policy: policy,
        history: history ? DocumentHistory(folder: url.deletingLastPathComponent().appendingPathComponent("history")) : nil)
}

/// Writes the sample list to `name` in `folder`, as another program would.
@discardableResult
func writeSample(_ name: String = "list.json", in folder: URL, edit: (MergeList) -> Void = { _ in }) throws -> URL {
    let url = folder.appendingPathComponent(name)
    let list = MergeList.sample()
    edit(list)
    try list.write(to: url)
    return url
}

/// Changes the file as another writer would: loads it, edits, writes it back.
func editElsewhere(_ url: URL, _ edit: (MergeList) throws -> Void) throws {
    let list = try MergeList(contentsOf: url)
    try edit(list)
    try list.write(to: url)
}

@Suite struct ModelDocumentSavingTests {
    @Test func aSaveWithNothingChangedUnderneathWritesOurEdits() throws {
        try withTemporaryFolder { folder in
            let url = try writeSample(in: folder)
            let document = try openDocument(url)
            document.root.name = "Errands"
            #expect(document.root.hasAnyChanges)
            #expect(try document.save().isEmpty)
            #expect(!document.root.hasAnyChanges)
            #expect(try MergeList(contentsOf: url).name == "Errands")
            // Saved again at once: the file is the base, nothing merges.
            document.root.limit = 5
            #expect(try document.save().isEmpty)
            #expect(try MergeList(contentsOf: url).limit == 5)
        }
    }

    /// Each row: what we edit, what they edit, the merged list as sorted JSON
    /// fragments it must hold, and the conflicts' paths.
    nonisolated(unsafe) static let merges: [(String, (MergeList) -> Void, (MergeList) -> Void, [String], [String])] = [
        (
            "different keys", { $0.name = "Errands" }, { $0.limit = 7 },
            [#""name":"Errands""#, #""limit":7"#], []
        ),
        (
            "same key, differently", { $0.name = "Ours" }, { $0.name = "Theirs" },
            [#""name":"Ours""#], ["name"]
        ),
        (
            "items by identity: we add, they edit", { $0.items.append(MergeItem("d", "jam")) },
            { $0.items[0].title = "oat milk" },
            [#""title":"oat milk""#, #""title":"jam""#], []
        ),
        (
            "items by identity: they move and edit, we edit another", { $0.items[2].done = true },
            { list in
                let moved = list.items.removeFirst()
                moved.title = "whole milk"
                list.items.append(moved)
            },
            [#""done":true,"id":"c""#, #""title":"whole milk""#], []
        ),
        (
            "we remove an item they edit", { $0.items.removeFirst() }, { $0.items[0].title = "soy milk" },
            [#""id":"b""#], ["items[0]"]
        ),
    ]

    @Test(arguments: 0..<merges.count)
    func aSaveMergesWhatChangedUnderneath(_ row: Int) throws {
        let (name, ours, theirs, fragments, conflictPaths) = Self.merges[row]
        try withTemporaryFolder { folder in
            let url = try writeSample(in: folder)
            let document = try openDocument(url)
            ours(document.root)
            try editElsewhere(url, theirs)
            let conflicts = try document.save()
            #expect(conflicts.map(\.path.description) == conflictPaths, "\(name)")
            #expect(document.conflicts == conflicts)
            let saved = try MergeList(contentsOf: url)
            #expect(saved.form == document.root.form, "\(name): the live model is what was saved")
            for fragment in fragments {
                #expect(saved.form.contains(fragment), "\(name): \(fragment) in \(saved.form)")
            }
            #expect(!document.root.hasAnyChanges)
        }
    }

    @Test func theirPolicyKeepsTheirValueAndFailChangesNothing() throws {
        try withTemporaryFolder { folder in
            let url = try writeSample(in: folder)
            let theirs = try openDocument(url, policy: .theirs)
            theirs.root.name = "Ours"
            try editElsewhere(url) { $0.name = "Theirs" }
            #expect(try theirs.save().count == 1)
            #expect(try MergeList(contentsOf: url).name == "Theirs")

            let strict = try openDocument(url, policy: .fail)
            strict.root.name = "Mine"
            try editElsewhere(url) { $0.name = "Someone else's" }
            let before = try Data(contentsOf: url)
            let error = try #require(throws: ModelError.self) { try strict.save() }
            #expect(error.code == .mergeConflict)
            #expect(error.message.contains("name"), "\(error.message)")
            #expect(try Data(contentsOf: url) == before)
            #expect(strict.root.name == "Mine")
        }
    }

    @Test func theMergeIsOneUndoStepAndKeepsOurUnsavedEdits() throws {
        try withTemporaryFolder { folder in
            let url = try writeSample(in: folder)
            let document = try openDocument(url)
            let history = ModelHistory(tracking: document.root)
            document.root.name = "Errands"
            try editElsewhere(url) {
                $0.limit = 9
                $0.items[1].title = "brown eggs"
            }
            var seen: [String] = []
            let observation = document.root.observe(keys: nil) { seen.append($0.key) }
            defer { observation.cancel() }
            try document.save()
            #expect(seen.contains("limit"))
            #expect(document.root.limit == 9 && document.root.items[1].title == "brown eggs")
            #expect(history.stepCounts.undo == 2)
            try history.undo()
            #expect(document.root.limit == 4 && document.root.items[1].title == "eggs")
            #expect(document.root.name == "Errands", "our edit is a step of its own")
        }
    }

    @Test func aDeletedOrReplacedDocumentIsAnErrorNeverRecreated() throws {
        try withTemporaryFolder { folder in
            let url = try writeSample(in: folder)
            let document = try openDocument(url)
            try FileManager.default.removeItem(at: url)
            let deleted = try #require(throws: ModelError.self) { try document.save() }
            #expect(deleted.code == .fileNotFound)
            #expect(deleted.message.hasPrefix("the document was deleted or moved since it was opened"))
            #expect(deleted.file == url)
            #expect(!FileManager.default.fileExists(atPath: url.path))

            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
            let folderError = try #require(throws: ModelError.self) { try document.save() }
            #expect(folderError.message == "the document was replaced by a folder since it was opened")
        }
    }

    @Test(arguments: [
        ("{\"name\": \"x\", \"limit\": }", "line 1, column 24"),
        ("{\"name\": \"x\", \"limit\": \"many\"}", "limit"),
    ])
    func theirVersionThatDoesNotLoadIsAnErrorThatChangesNothing(_ text: String, _ named: String) throws {
        try withTemporaryFolder { folder in
            let url = try writeSample(in: folder)
            let document = try openDocument(url)
            document.root.name = "Errands"
            try Data(text.utf8).write(to: url)
            let error = try #require(throws: ModelError.self) { try document.save() }
            #expect(error.description.contains("the file changed since it was loaded or saved, and the new version cannot be read"))
            #expect(error.description.contains(named), "\(error)")
            #expect(try String(contentsOf: url, encoding: .utf8) == text)
            #expect(document.root.name == "Errands" && document.root.hasAnyChanges)
        }
    }

    @Test func theSameBytesWrittenAgainMergeNothing() throws {
        try withTemporaryFolder { folder in
            let url = try writeSample(in: folder)
            let document = try openDocument(url)
            let bytes = try Data(contentsOf: url)
            try FileManager.default.removeItem(at: url)
            try bytes.write(to: url)  // a new inode, the same version
            let merges = Mutex(0)
            let token = document.addObserver { _ in merges.withLock { $0 += 1 } }
            defer { document.removeObserver(token) }
            #expect(try document.save().isEmpty)
            #expect(merges.withLock { $0 } == 0)
        }
    }

    @Test(arguments: ["list.plist", "list.bplist", "list.archive"])
    func theDocumentKeepsItsFormat(_ name: String) throws {
        try withTemporaryFolder { folder in
            let url = try writeSample(name, in: folder)
            let document = try openDocument(url)
            document.root.name = "Errands"
            try editElsewhere(url) { $0.limit = 5 }
            try document.save()
            let data = try Data(contentsOf: url)
            #expect(ModelDocumentFormat(detecting: data) == ModelDocumentFormat(pathExtension: url.pathExtension).map {
                if case .keyedArchive = $0 { return ModelDocumentFormat(detecting: data)! }
                return $0
            })
            let saved = try MergeList(contentsOf: url)
            #expect(saved.name == "Errands" && saved.limit == 5)
        }
    }

    /// Three documents on one file save in a seeded random order, each
    /// editing keys of its own and items of its own: every edit whose save
    /// returned is in the file at the end.
    @Test(arguments: [1, 2, 3])
    func writersTakingTurnsLoseNoEdit(_ seed: UInt64) throws {
        try withTemporaryFolder { folder in
            let url = try writeSample(in: folder) { $0.limit = 10 }
            let documents = try (0..<3).map { _ in try openDocument(url) }
            var random = SeededGenerator(seed: seed)
            var expected: [String: String] = [:]
            var added = [0, 0, 0]
            for step in 0..<30 {
                let writer = Int.random(in: 0..<3, using: &random)
                let document = documents[writer]
                let id = "w\(writer)-\(step)"
                // Two items each: the list's rule allows ten.
                if added[writer] < 2, Bool.random(using: &random) {
                    document.root.items.append(MergeItem(id, "item \(step)"))
                    expected[id] = "item \(step)"
                    added[writer] += 1
                }
                try document.root.setExtensibleProperty(.int(step), forKey: "writer\(writer)")
                if Bool.random(using: &random) { try document.save() }
            }
            for document in documents { try document.save() }
            let saved = try MergeList(contentsOf: url)
            var titles: [String: String] = [:]
            for item in saved.items { titles[item.id] = item.title }
            for (id, title) in expected where titles[id] == nil {
                Issue.record("item \(id) (\(title)) was lost; saved: \(saved.form)")
            }
            for writer in 0..<3 where documents[writer].root.extensibleProperties["writer\(writer)"] != nil {
                #expect(saved.extensibleProperties["writer\(writer)"] == documents[writer].root.extensibleProperties["writer\(writer)"])
            }
        }
    }
}
