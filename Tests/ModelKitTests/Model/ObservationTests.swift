import Foundation
import Observation
import Testing

@testable import ModelKit

/// A person with a computed key that depends on two saved ones.
final class Person: ModelObject, @unchecked Sendable {
    @Saved var firstName = ""
    @Saved var lastName = ""
    @Saved var age = 0
    var fullName: String { "\(firstName) \(lastName)" }
    override class var dependentKeys: [String: Set<String>] { ["fullName": ["firstName", "lastName"]] }
}

/// Collects what observers are told, from any thread.
final class Recorder: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [ModelChange] = []
    var changes: [ModelChange] { lock.withLock { storage } }
    var keys: [String] { changes.map(\.key) }
    func record(_ change: ModelChange) { lock.withLock { storage.append(change) } }
}

@Suite struct ObservationTests {
    @Test func trackingSeesEachKeyItRead() {
        let note = Note()
        let fired = Recorder()
        withObservationTracking {
            _ = note.title
        } onChange: {
            fired.record(ModelChange(key: "fired", oldValue: nil, newValue: nil))
        }
        note.count = 3
        note.tags.append("x")
        #expect(fired.keys.isEmpty)
        note.title = "Untitled"  // equal: not a change
        #expect(fired.keys.isEmpty)
        note.title = "Changed"
        #expect(fired.keys == ["fired"])
    }

    @Test func trackingSeesExtensibleProperties() throws {
        let note = Note()
        try note.setExtensibleProperty(1, forKey: "x")
        let fired = Recorder()
        withObservationTracking {
            _ = note.extensibleProperty(forKey: "x")
        } onChange: {
            fired.record(ModelChange(key: "x", oldValue: nil, newValue: nil))
        }
        try note.setExtensibleProperty(5, forKey: "y")
        #expect(fired.keys.isEmpty)
        try note.setExtensibleProperty(2, forKey: "x")
        #expect(fired.keys == ["x"])
    }

    @Test func observersHearEachRealChangeOnceWithOldAndNewValues() {
        let note = Note()
        let recorder = Recorder()
        let token = note.observe("title") { recorder.record($0) }
        note.title = "A"
        note.title = "A"
        note.count = 9
        note.title = "B"
        #expect(recorder.keys == ["title", "title"])
        #expect(recorder.changes.map { $0.oldValue as? String } == ["Untitled", "A"])
        #expect(recorder.changes.map { $0.newValue as? String } == ["A", "B"])
        token.cancel()
        note.title = "C"
        #expect(recorder.changes.count == 2)
    }

    @Test func releasingTheTokenStopsTheObserver() {
        let note = Note()
        let recorder = Recorder()
        do {
            let token = note.observe(keys: nil) { recorder.record($0) }
            note.count = 1
            _ = token
        }
        note.count = 2
        #expect(recorder.keys == ["count"])
    }

    @Test func observersMayUseTheObjectAndRunOnTheChangingThread() {
        let note = Note()
        let thread = Thread.current
        let recorder = Recorder()
        let token = note.observe("title") { change in
            #expect(Thread.current == thread)
            note.count += 1  // reading and writing the object from the observer does not deadlock
            recorder.record(change)
        }
        note.title = "A"
        #expect(note.count == 1)
        #expect(recorder.keys == ["title"])
        token.cancel()
    }

    @Test func changesInsideWithLockAreToldWhenItReturns() {
        let note = Note()
        let recorder = Recorder()
        let token = note.observe(keys: ["title", "count"]) { change in
            // Both changes are in place by the time anyone is told.
            recorder.record(ModelChange(key: change.key, oldValue: nil, newValue: "\(note.title) \(note.count)"))
        }
        note.withLock {
            note.title = "A"
            note.count = 2
            #expect(recorder.changes.isEmpty)
        }
        #expect(recorder.keys == ["title", "count"])
        #expect(recorder.changes.map { $0.newValue as? String } == ["A 2", "A 2"])
        token.cancel()
    }

    @Test func anUpdateTellsEachChangedKeyOnceAfterItIsApplied() throws {
        let note = Note()
        let recorder = Recorder()
        let token = note.observe(keys: nil) { change in
            recorder.record(ModelChange(key: change.key, oldValue: nil, newValue: "\(note.title) \(note.count)"))
        }
        try note.update(from: ["title": "T", "count": 4, "tags": [] as [String], "extra": true])
        #expect(Set(recorder.keys) == ["title", "count", "extra"])
        #expect(recorder.keys.count == 3)
        #expect(recorder.changes.allSatisfy { $0.newValue as? String == "T 4" })
        token.cancel()
    }

    @Test func dependentKeysAreToldWhenTheKeysTheyDependOnChange() {
        let person = Person()
        let recorder = Recorder()
        let token = person.observe("fullName") { recorder.record($0) }
        person.firstName = "Ada"
        person.age = 36
        person.lastName = "Lovelace"
        #expect(recorder.keys == ["fullName", "fullName"])
        #expect(person.fullName == "Ada Lovelace")
        token.cancel()
    }

    @Test func nestedKeyPathsFollowTheModelThereNow() {
        let note = Note()
        note.child = Note()
        let recorder = Recorder()
        let token = note.observe("child.title") { recorder.record($0) }
        note.child?.title = "first"
        let old = note.child!
        let replacement = Note()
        replacement.title = "second"
        note.child = replacement
        old.title = "ignored now"
        replacement.title = "third"
        #expect(recorder.keys == ["child.title", "child.title", "child.title"])
        #expect(recorder.changes.map { $0.newValue as? String } == ["first", "second", "third"])
        token.cancel()
    }

    @Test func nestedKeyPathsThroughListsFollowTheElementThereNow() {
        let note = Note()
        note.children = [Note(), Note(), Note()]
        let recorder = Recorder()
        let token = note.observe("children.1.title") { recorder.record($0) }
        note.children[0].title = "not this one"
        note.children[1].title = "this one"
        note.children.remove(at: 0)  // element 1 is another note now
        note.children[1].title = "the new element 1"
        #expect(recorder.changes.compactMap { $0.newValue as? String } == ["this one", "Untitled", "the new element 1"])
        token.cancel()
    }

    @Test func arrayChangesComeAsCollectionDifferences() {
        let note = Note()
        note.tags = ["a", "b", "c"]
        let recorder = Recorder()
        let token = note.observe("tags") { recorder.record($0) }
        note.tags.append("d")
        note.tags.insert("z", at: 0)
        note.tags.remove(at: 2)
        note.tags = ["q"]
        let differences = recorder.changes.map { $0.difference(of: String.self)! }
        func offsets(_ changes: [CollectionDifference<String>.Change]) -> [Int] {
            changes.map { change in
                switch change {
                case .insert(let offset, _, _), .remove(let offset, _, _): offset
                }
            }
        }
        #expect(offsets(differences[0].insertions) == [3])
        #expect(offsets(differences[1].insertions) == [0])
        #expect(offsets(differences[2].removals) == [2])
        #expect(differences[3].removals.count == 4)
        #expect(differences[3].insertions.count == 1)
        token.cancel()
    }

    @Test func aStreamCarriesTheChangedKeys() async {
        let note = Note()
        let stream = note.keyChanges()
        note.title = "A"
        note.count = 1
        note.count = 1
        var keys: [String] = []
        for await key in stream {
            keys.append(key)
            if keys.count == 2 { break }
        }
        #expect(keys == ["title", "count"])
    }

    @Test func aGraphStreamFollowsTheGraphAsItChanges() async {
        let folder = Folder()
        let first = Note()
        folder.notes = [first]
        let stream = folder.graphChanges()
        first.title = "a"  // reachable: told
        let second = Note()
        folder.notes.append(second)  // the list changed; `second` is observed from now on
        second.title = "b"
        folder.notes.removeFirst()  // `first` is no longer reachable
        first.title = "not told"
        folder.name = "done"
        var seen: [String] = []
        var objects: [ObjectIdentifier] = []
        for await change in stream {
            seen.append("\(change)")
            objects.append(ObjectIdentifier(change.object))
            if seen.count == 5 { break }
        }
        #expect(seen == ["Note.title", "Folder.notes", "Note.title", "Folder.notes", "Folder.name"])
        #expect(objects[0] == ObjectIdentifier(first))
        #expect(objects[2] == ObjectIdentifier(second))
    }

    @Test func changesKeepTheValueBeforeTheFirstChangeAndRevertPutsItBack() throws {
        let note = Note()
        note.tags = ["a"]
        note.clearChanges()
        note.title = "A"
        note.title = "B"
        note.tags.append("b")
        note.tags.append("c")
        try note.setExtensibleProperty("new", forKey: "extra")
        #expect(note.changes["title"] as? String == "Untitled")
        #expect(note.changes["tags"] as? [String] == ["a"])
        #expect(note.changes.keys.contains("extra"))
        note.revertChanges()
        #expect(note.title == "Untitled")
        #expect(note.tags == ["a"])
        #expect(note.extensibleProperty(forKey: "extra") == nil)
        #expect(!note.hasChanges)
        #expect(note.changes.isEmpty)
    }

    @Test func revertAnyChangesRevertsTheGraph() {
        let folder = Folder()
        let note = Note()
        folder.notes = [note]
        folder.clearChanges()
        folder.name = "renamed"
        note.count = 7
        folder.revertAnyChanges()
        #expect(folder.name == "")
        #expect(note.count == 0)
        #expect(!folder.hasAnyChanges)
    }
}
