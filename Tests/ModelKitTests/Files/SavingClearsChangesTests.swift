import Foundation
import Testing

@testable import ModelKit

final class FlaggedFolder: ModelObject, @unchecked Sendable {
    @Saved var name = ""
    @Saved var notes: [FlaggedNote] = []
    /// Run by validate(), which a write runs after it counted the changes
    /// and before it reads the models: a change made "while the file is
    /// written", on cue.
    nonisolated(unsafe) var duringWrite: (() -> Void)?

    override func validateObject() throws {
        try super.validateObject()
        duringWrite?()
    }
}

final class FlaggedNote: ModelObject, @unchecked Sendable {
    @Saved var text = ""
}

@Suite("Saving clears change flags when asked")
struct SavingClearsChangesTests {
    /// A folder with two notes, each changed.
    static func editedFolder() -> FlaggedFolder {
        let folder = FlaggedFolder()
        folder.notes = [FlaggedNote(), FlaggedNote()]
        folder.clearChanges()
        folder.name = "Work"
        folder.notes[0].text = "a"
        folder.notes[1].text = "b"
        try? folder.setExtensibleProperty("x", forKey: "later")
        return folder
    }

    @Test(arguments: ["doc.json", "doc.plist", "doc.bplist"])
    func writeClearsTheFlagsOfTheWholeGraphOnlyWhenAsked(_ name: String) throws {
        try withTemporaryFolder { directory in
            let url = directory.appendingPathComponent(name)
            let folder = Self.editedFolder()
            try folder.write(to: url)
            #expect(folder.hasChanges && folder.hasAnyChanges, "by default a write is a copy: the flags stay")
            #expect(folder.changedKeys == ["name", "later"])
            try folder.write(to: url, clearingChanges: true)
            #expect(!folder.hasAnyChanges)
            #expect(folder.changedKeys.isEmpty && folder.notes.allSatisfy { $0.changedKeys.isEmpty })
            #expect(folder.changes.isEmpty, "the values before the save are forgotten, as by clearChanges()")
            // What was written is what the model holds.
            #expect(try FlaggedFolder(contentsOf: url).isEquivalent(to: folder))
            folder.notes[1].text = "c"
            #expect(folder.hasAnyChanges && !folder.hasChanges)
        }
    }

    @Test func aFailedWriteClearsNothing() throws {
        try withTemporaryFolder { directory in
            let folder = Self.editedFolder()
            let missing = directory.appendingPathComponent("no such folder/doc.json")
            #expect(throws: ModelError.self) { try folder.write(to: missing, clearingChanges: true) }
            final class Strict: ModelObject, @unchecked Sendable {
                @Saved(rules: .nonEmpty) var text = "x"
            }
            let strict = Strict()
            strict.text = ""
            #expect(throws: ModelError.self) {
                try strict.write(to: directory.appendingPathComponent("strict.json"), clearingChanges: true)
            }
            #expect(strict.hasChanges, "an invalid model is not written, so its flags stay")
            #expect(folder.hasChanges && folder.notes.allSatisfy(\.hasChanges))
        }
    }

    @Test func aChangeMadeWhileTheFileIsWrittenStaysAChange() throws {
        try withTemporaryFolder { directory in
            let url = directory.appendingPathComponent("doc.json")
            let folder = Self.editedFolder()
            let second = folder.notes[1]
            // After the counts, before the bytes: the second note changes.
            folder.duringWrite = { second.text = "changed while saving" }
            try folder.write(to: url, clearingChanges: true)
            folder.duringWrite = nil
            #expect(!folder.hasChanges && !folder.notes[0].hasChanges)
            #expect(second.hasChanges, "its change may or may not be in the file: it stays recorded")
            #expect(second.changedKeys == ["text"])
            // Only a change of an already changed key, recorded again, too.
            let again = Self.editedFolder()
            // Unowned: the folder holds the closure (LeakSanitizer saw the cycle).
            again.duringWrite = { [unowned again] in again.name = "Home" }
            try again.write(to: url, clearingChanges: true)
            #expect(again.changedKeys == ["name", "later"], "the folder changed meanwhile: none of its flags go")
            #expect(!again.notes[0].hasChanges)
        }
    }

    @Test func theStoreClearsTheAttachedModelsItWrote() throws {
        try withTemporaryFolder { directory in
            let url = directory.appendingPathComponent("store.plist")
            let store = try ModelDefaults(url: url, autosaveDelay: nil, watchInterval: nil)
            let folder = Self.editedFolder()
            store.set(folder, forKey: "folder")
            folder.notes[0].text = "edited after set"
            try store.save()
            #expect(folder.hasAnyChanges, "by default the flags stay")
            try store.save(clearingChanges: true)
            #expect(!folder.hasAnyChanges)
            let reread = try ModelDefaults(url: url, autosaveDelay: nil, watchInterval: nil)
            #expect(try reread.model(FlaggedFolder.self, forKey: "folder")?.notes[0].text == "edited after set")
            // A model loaded from the store, edited, then saved.
            let loaded = try #require(try reread.model(FlaggedFolder.self, forKey: "folder"))
            loaded.name = "Renamed"
            #expect(loaded.hasChanges)
            try reread.save(clearingChanges: true)
            #expect(!loaded.hasChanges)
            #expect(try ModelDefaults(url: url, autosaveDelay: nil, watchInterval: nil)
                .model(FlaggedFolder.self, forKey: "folder")?.name == "Renamed")
        }
    }

    @Test func theStoreKeepsTheFlagsOfAModelItCouldNotWrite() throws {
        try withTemporaryFolder { directory in
            let url = directory.appendingPathComponent("store.plist")
            let store = try ModelDefaults(url: url, autosaveDelay: nil, watchInterval: nil)
            let good = Self.editedFolder()
            let bad = Self.editedFolder()
            // An XML property list cannot hold this control character.
            bad.name = "bell \u{7}"
            store.set(good, forKey: "good")
            store.set(bad, forKey: "bad")
            #expect(throws: ModelError.self) { try store.save(clearingChanges: true) }
            #expect(!good.hasAnyChanges, "written: cleared")
            #expect(bad.hasAnyChanges, "not written: its flags stay")
        }
    }

    @Test func aStoreThatCannotWriteClearsNothing() throws {
        try withTemporaryFolder { directory in
            // A folder where the store's file should be: every save fails.
            let url = directory.appendingPathComponent("store.plist")
            let store = try ModelDefaults(url: url, autosaveDelay: nil, watchInterval: nil)
            let folder = Self.editedFolder()
            store.set(folder, forKey: "folder")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
            #expect(throws: ModelError.self) { try store.save(clearingChanges: true) }
            #expect(folder.hasAnyChanges)
        }
    }
}
