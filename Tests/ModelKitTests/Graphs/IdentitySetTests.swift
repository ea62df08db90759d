import Testing

@testable import ModelKit

@Suite struct IdentitySetTests {
    /// Random inserts, repeats included, against `Set<ObjectIdentifier>`, through many growths.
    @Test(arguments: [UInt64(1), 2, 3])
    func agreesWithASetOfIdentifiers(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let objects = (0..<5000).map { _ in Leaf() }
        var set = IdentitySet(objects[0])
        var reference: Set<ObjectIdentifier> = [ObjectIdentifier(objects[0])]
        for _ in 0..<20_000 {
            let object = objects[Int.random(in: 0..<objects.count, using: &generator)]
            let inserted = set.insert(object)
            #expect(inserted == reference.insert(ObjectIdentifier(object)).inserted)
        }
        var again = 0
        for object in objects where set.insert(object) { again += 1 }
        #expect(again == objects.count - reference.count)
    }
}

@Suite struct GraphWalkTests {
    /// Models in every container shape, shared and in cycles: each is found once,
    /// and a change anywhere is seen from the root.
    @Test func changesAnywhereInTheGraphAreFound() {
        let folder = Folder()
        let shared = Note()
        let deep = Note()
        shared.children = [deep, shared]
        deep.child = shared
        folder.notes = [shared, Note()]
        folder.byName = ["s": shared]
        folder.grid = [[], [deep]]
        folder.pinned = deep
        let sub = Folder()
        sub.subfolders = [folder]
        folder.subfolders = [sub]
        // Strong cycles: broken at the end, or the models leak.
        defer {
            shared.children = []
            deep.child = nil
            sub.subfolders = []
        }
        folder.clearChanges()
        #expect(!folder.hasAnyChanges)
        var count = 0
        folder.walkGraph { _ in
            count += 1
            return true
        }
        #expect(count == 5)
        for (index, note) in [shared, deep, folder.notes[1]].enumerated() {
            note.count = index + 1
            #expect(folder.hasAnyChanges)
            folder.clearChanges()
            #expect(!folder.hasAnyChanges && !note.hasChanges)
        }
        sub.name = "changed"
        #expect(folder.hasAnyChanges)
        folder.subfolders = []
    }
}
