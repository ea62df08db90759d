import Foundation
import Testing
@testable import ModelKit

@Suite struct CopyingTests {
    @Test func aCopyIsDeepAndOfTheSameClass() throws {
        let original = Note()
        original.title = "Root"
        original.tags = ["a", "b"]
        original.child = Note()
        original.child?.title = "Child"
        original.children = [Note(), Note()]
        try original.setExtensibleProperty(["kept": 1], forKey: "extra")
        let copy: Note = original.copy()
        #expect(copy !== original)
        #expect(type(of: copy) == Note.self)
        #expect(copy.isEquivalent(to: original))
        #expect(copy.child !== original.child)
        #expect(copy.child?.title == "Child")
        #expect(zip(copy.children, original.children).allSatisfy { $0 !== $1 })
        #expect(copy.extensibleProperty(forKey: "extra") == ["kept": 1])
        #expect(!copy.hasAnyChanges)
        copy.child?.title = "Edited"
        #expect(original.child?.title == "Child")
    }

    @Test func aSubclassCopiesAsItself() {
        let photo = Photo()
        photo.width = 640
        let attachment: Attachment = photo
        let copy = attachment.copy()
        #expect(type(of: copy) == Photo.self)
        #expect((copy as? Photo)?.width == 640)
    }

    @Test func aSharedModelIsCopiedOnceAndACycleStaysACycle() {
        let folder = Folder()
        let shared = Note()
        folder.notes = [shared, shared]
        folder.byName = ["x": shared]
        folder.pinned = shared
        let inner = Folder()
        folder.subfolders = [inner]
        inner.subfolders = [folder]  // a cycle
        let copy = folder.copy()
        #expect(copy.notes[0] === copy.notes[1])
        #expect(copy.byName["x"] === copy.notes[0])
        #expect(copy.pinned === copy.notes[0])
        #expect(copy.notes[0] !== shared)
        #expect(copy.subfolders[0].subfolders[0] === copy)
        #expect(copy.isEquivalent(to: folder))
        inner.subfolders = []  // let the originals go
        copy.subfolders[0].subfolders = []
    }

    @Test func aDeepChainCopiesWithoutRecursion() {
        let root = Note()
        var tip = root
        for _ in 0..<50_000 {
            let next = Note()
            tip.child = next
            tip = next
        }
        tip.title = "end"
        let copy = root.copy()
        var depth = 0
        var cursor: Note? = copy
        while let next = cursor?.child {
            depth += 1
            cursor = next
        }
        #expect(depth == 50_000)
        #expect(cursor?.title == "end")
        #expect(copy.isEquivalent(to: root))
        // Release the chains iteratively: a recursive deinit would overflow.
        for chain in [root, copy] {
            var link: Note? = chain.child
            chain.child = nil
            while let current = link {
                link = current.child
                current.child = nil
            }
        }
    }
}

@Suite struct EquivalenceTests {
    /// Changes that make a graph not equivalent to its copy.
    static let edits: [(String, @Sendable (Folder) throws -> Void)] = [
        ("name", { $0.name = "other" }),
        ("nested title", { $0.notes[0].title = "other" }),
        ("array count", { $0.notes.append(Note()) }),
        ("dictionary key", { $0.byName = ["y": Note()] }),
        ("optional", { $0.pinned = nil }),
        ("bag", { try $0.setExtensibleProperty(1, forKey: "extra") }),
        ("nested bag", { try $0.notes[0].setExtensibleProperty("x", forKey: "extra") }),
        ("grid", { $0.grid[0][0].count = 9 }),
    ]

    static func sample() -> Folder {
        let folder = Folder()
        folder.name = "Inbox"
        let note = Note()
        note.tags = ["t"]
        folder.notes = [note, Note()]
        folder.byName = ["x": note]
        folder.pinned = Note()
        folder.grid = [[Note()]]
        return folder
    }

    @Test(arguments: edits.map(\.0))
    func anEditBreaksEquivalence(edit: String) throws {
        let original = Self.sample()
        let copy = original.copy()
        #expect(copy.isEquivalent(to: original))
        try Self.edits.first { $0.0 == edit }!.1(copy)
        #expect(!copy.isEquivalent(to: original))
        #expect(!original.isEquivalent(to: copy))
    }

    @Test func equalityAndHashStayByIdentity() {
        let note = Note()
        let copy = note.copy()
        #expect(note != copy)
        #expect(note.isEquivalent(to: copy))
        var set: Set<Note> = [note]
        note.title = "edited while in the set"
        #expect(set.contains(note))
        #expect(!set.contains(copy))
        set.insert(copy)
        #expect(set.count == 2)
    }

    @Test func differentClassesAreNotEquivalent() {
        let photo = Photo()
        let video = Video()
        #expect(!photo.isEquivalent(to: video))
        #expect(!Attachment().isEquivalent(to: photo))
    }

    @Test func cyclesOfDifferentLengthsCompareWithoutLooping() {
        let a = Note()
        a.child = a
        let b = Note()
        let c = Note()
        b.child = c
        c.child = b
        // Unrolled, both are an endless chain of equal notes.
        #expect(a.isEquivalent(to: b))
        c.title = "different"
        #expect(!a.isEquivalent(to: b))
        a.child = nil
        b.child = nil
    }
}
