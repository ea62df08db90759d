import Foundation
import Testing
@testable import ModelKit

@Suite struct ChangeTrackingTests {
    @Test func newAndLoadedObjectsHaveNoChanges() throws {
        #expect(!Note().hasChanges)
        let loaded = try Note(dictionary: ["title": "A", "children": [["title": "B"]], "extra": 1])
        #expect(!loaded.hasChanges)
        #expect(!loaded.hasAnyChanges)
        #expect(loaded.changedKeys.isEmpty)
    }

    @Test func settingAnEqualValueIsNotAChange() {
        let note = Note()
        note.title = "Untitled"
        note.count = 0
        note.tags = []
        #expect(!note.hasChanges)
        note.count = 1
        #expect(note.changedKeys == ["count"])
        note.count = 0
        #expect(note.changedKeys == ["count"], "a change stays recorded until cleared")
    }

    @Test func inPlaceMutationOfCollectionsIsAChange() {
        let note = Note()
        note.tags.append("a")
        #expect(note.changedKeys == ["tags"])
        let everything = Everything()
        everything.map["three"] = 3
        everything.deepMap["a"]?["b"]?.append(3)
        everything.set.insert("z")
        #expect(everything.changedKeys == ["map", "deepMap", "set"])
        #expect(everything.deepMap["a"]?["b"] == [1, 2, 3])
    }

    @Test func changedKeysUseSavedKeysAndBagKeys() throws {
        let note = Note()
        note.renamed = "new"
        try note.setExtensibleProperty("x", forKey: "extra")
        #expect(note.changedKeys == ["legacy_name", "extra"])
        note.clearChanges()
        #expect(note.changedKeys.isEmpty)
        note.removeExtensibleProperty(forKey: "extra")
        #expect(note.changedKeys == ["extra"])
        #expect(note.removeExtensibleProperty(forKey: "never") == nil)
    }

    @Test(arguments: ["optional", "array", "dictionary", "nestedArray", "arrayInArray"])
    func hasAnyChangesLooksThroughEveryContainer(shape: String) {
        let folder = Folder()
        let note = Note()
        switch shape {
        case "optional": folder.pinned = note
        case "array": folder.notes = [Note(), note]
        case "dictionary": folder.byName = ["n": note]
        case "nestedArray": folder.grid = [[], [Note(), note]]
        default:
            let sub = Folder()
            sub.notes = [note]
            folder.subfolders = [sub]
        }
        folder.clearChanges()
        #expect(!folder.hasAnyChanges)
        note.children = [Note()]
        note.children[0].clearChanges()
        note.clearChanges()
        note.children[0].title = "deep"
        #expect(!folder.hasChanges)
        #expect(folder.hasAnyChanges)
        folder.clearChanges()
        #expect(!note.children[0].hasChanges, "clearChanges reaches every model")
        #expect(!folder.hasAnyChanges)
    }

    @Test func cyclesAndSharedModelsAreVisitedOnce() {
        let a = Note()
        let b = Note()
        a.child = b
        b.child = a
        defer { b.child = nil }  // the cycle would leak both
        a.children = [b, b]
        a.clearChanges()
        #expect(!a.hasAnyChanges)
        b.count = 9
        #expect(a.hasAnyChanges)
        a.clearChanges()
        #expect(!b.hasChanges)
    }

    @Test func deepChainsDoNotOverflowTheStack() {
        let root = Note()
        var tail = root
        for _ in 0..<100_000 {
            let next = Note()
            tail.child = next
            tail = next
        }
        root.clearChanges()
        #expect(!root.hasAnyChanges)
        tail.title = "end"
        #expect(root.hasAnyChanges)
        // Release the chain iteratively so the test's own teardown cannot overflow.
        var node: Note? = root
        while let current = node {
            node = current.child
            current.child = nil
        }
    }

    @Test func updateRecordsOnlyValuesThatDiffer() throws {
        let note = try Note(dictionary: ["title": "A", "count": 1])
        try note.update(from: ["title": "A", "count": 2, "bagged": true])
        #expect(note.changedKeys == ["count", "bagged"])
    }
}
