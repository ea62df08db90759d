import Foundation
import Testing

@testable import ModelKit

/// A store keeps every change it accepted: when it is released before its
/// autosave, and when one of its values cannot be written.
@Suite struct ModelDefaultsKeepingTests {
    /// A string with U+0007, which an XML property list cannot hold.
    static let unwritable = "ring\u{7}"

    static func contents(of url: URL) throws -> ModelValue.Object {
        guard case .object(let members) = try ModelValue(contentsOf: url) else { return [:] }
        return members
    }

    @Test(arguments: [0.2, nil] as [TimeInterval?])
    func aReleasedStoreSavesWhatItWasTold(autosaveDelay: TimeInterval?) throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("prefs.plist")
            func remember() throws {
                let store = try ModelDefaults(url: url, autosaveDelay: autosaveDelay, watchInterval: 1)
                store.set("x", forKey: "k")
            }
            try remember()
            // Saved as the store went, before any autosave could run.
            #expect(try Self.contents(of: url)["k"] == "x")
        }
    }

    @Test func aReleasedStoreSavesTheCurrentStateOfItsModels() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("prefs.plist")
            let note = Note()
            note.title = "first"
            do {
                let store = try ModelDefaults(url: url, autosaveDelay: nil, watchInterval: nil)
                store.set(note, forKey: "note")
                try store.save()
                note.title = "changed in place"
            }
            let fresh = try ModelDefaults(url: url, autosaveDelay: nil, watchInterval: nil)
            #expect(try fresh.model(Note.self, forKey: "note")?.title == "changed in place")
        }
    }

    @Test func oneUnwritableValueDoesNotStopTheOthers() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("prefs.plist")
            let store = try ModelDefaults(url: url, autosaveDelay: nil, watchInterval: nil)
            store.set("before", forKey: "name")
            try store.save()
            store.set(Self.unwritable, forKey: "name")
            store.set(1, forKey: "volume")
            let expected =
                "prefs.plist, in name: expected text that XML 1.0 can carry, found a string containing U+0007"
            do {
                try store.save()
                Issue.record("the save succeeded")
            } catch let error as ModelError {
                #expect(error.description.hasPrefix(expected), "\(error)")
                #expect(error.description.hasSuffix("; this value stays unsaved, the store's other changes were saved"))
            }
            // The other key is in the file; the unwritable one keeps its old value there and its new one in the store.
            #expect(try Self.contents(of: url) == ["name": "before", "volume": 1])
            #expect(store.string(forKey: "name") == Self.unwritable)
            // Later saves go on writing the other keys, and still name the bad one.
            store.set(2, forKey: "volume")
            #expect(throws: ModelError.self) { try store.save() }
            #expect(try Self.contents(of: url)["volume"] == 2)
            // Until it gets a value that can be written.
            store.set("after", forKey: "name")
            try store.save()
            #expect(try Self.contents(of: url) == ["name": "after", "volume": 2])
            #expect(!store.hasUnsavedChanges)
        }
    }

    @Test func severalUnwritableValuesAreAllNamedAndANewFileIsStillCreated() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("prefs.plist")
            let store = try ModelDefaults(url: url, autosaveDelay: nil, watchInterval: nil)
            store.set(Self.unwritable, forKey: "a")
            store.set(true, forKey: "ok")
            store.set(["x\u{1}"], forKey: "b")
            do {
                try store.save()
                Issue.record("the save succeeded")
            } catch let error as ModelError {
                #expect(error.keyPath == ModelKeyPath([.key("a")]))
                #expect(error.description.contains("(and the values of \"b\" too)"), "\(error)")
            }
            #expect(try Self.contents(of: url) == ["ok": true])
        }
    }

    @Test func autosaveKeepsSavingTheOtherKeysAndReportsTheBadOne() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("prefs.plist")
            let store = try ModelDefaults(url: url, autosaveDelay: 0.05, watchInterval: nil)
            store.set(Self.unwritable, forKey: "lastSync")
            store.set("kept", forKey: "other")
            #expect(await eventually { (try? Self.contents(of: url))?["other"] == "kept" })
            #expect(await eventually { store.autosaveError?.keyPath == ModelKeyPath([.key("lastSync")]) })
        }
    }

    @Test func aFailedSaveAtReleaseIsKeptForTheApp() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("released.plist")
            do {
                let store = try ModelDefaults(url: url, autosaveDelay: nil, watchInterval: nil)
                store.set(Self.unwritable, forKey: "bell")
                store.set(3, forKey: "count")
            }
            #expect(try Self.contents(of: url) == ["count": 3])
            // Other tests may release failing stores too; this one's is found by its file.
            let error = try #require(ModelDefaults.releaseSaveError)
            if error.file == url { #expect(error.keyPath == ModelKeyPath([.key("bell")])) }
        }
    }
}

/// The same in a child process that exits normally a second after its
/// store went away.
@Suite(.enabled(if: FileWorker.executable != nil, "the FileWorker executable is not built: run swift build"))
struct ModelDefaultsReleaseProcessTests {
    @Test func aStoreReleasedBeforeANormalExitKeepsItsChange() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("prefs.plist")
            let outcome = try FileWorker.run(["defaults-release", url.path, "k", "x"])
            #expect(outcome.status == 0)
            #expect(outcome.output == "")
            #expect(try ModelDefaultsKeepingTests.contents(of: url) == ["k": "x"])
        }
    }

    @Test func aFailedSaveAtReleaseIsWrittenToStandardError() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("prefs.plist")
            let outcome = try FileWorker.run(["defaults-release", url.path, "k", "bell"])
            #expect(outcome.status == 0)
            #expect(
                outcome.output.hasPrefix(
                    "ModelKit: the settings in \(url.path) could not be saved as the store was released: prefs.plist, in k: "),
                "\(outcome.output)")
        }
    }
}
