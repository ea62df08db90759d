import Foundation
import Testing

@testable import ModelKit

@Suite struct ModelPatchingTests {
    static func family() -> Note {
        let note = Note()
        note.title = "Family"
        note.tags = ["home", "kids"]
        for name in ["Ann", "Ben", "Cy"] {
            let child = Note()
            child.title = name
            note.children.append(child)
        }
        note.clearChanges()
        return note
    }

    @Test func aPatchSetsPropertiesAndRecordsTheChanges() throws {
        let note = Self.family()
        let recorder = Recorder()
        let token = note.observe(keys: nil) { recorder.record($0) }
        defer { token.cancel() }
        try note.apply(JSONPatch(json: #"[{"op":"replace","path":"/title","value":"Kin"},{"op":"add","path":"/tags/-","value":"pets"},{"op":"replace","path":"/count","value":3}]"#))
        #expect(note.title == "Kin")
        #expect(note.tags == ["home", "kids", "pets"])
        #expect(note.count == 3)
        #expect(note.hasChanges)
        #expect(note.changedKeys == ["title", "tags", "count"])
        #expect(Set(recorder.changes.map(\.key)) == ["title", "tags", "count"])
    }

    @Test func nestedModelsInArraysArePatchedByIndex() throws {
        let note = Self.family()
        let before = note.children
        try note.apply(JSONPatch(json: #"[{"op":"replace","path":"/children/1/title","value":"Bea"}]"#))
        #expect(note.children.map(\.title) == ["Ann", "Bea", "Cy"])
        // The child is edited in place, and records the change itself.
        #expect(zip(note.children, before).allSatisfy { $0 === $1 })
        #expect(note.changedKeys.isEmpty && note.hasAnyChanges)
        #expect(note.children.map(\.changedKeys) == [[], ["title"], []])
        // Keys the patch does not change keep their models.
        let children = note.children
        try note.apply(JSONPatch(json: #"[{"op":"replace","path":"/title","value":"X"}]"#))
        #expect(zip(note.children, children).allSatisfy { $0 === $1 })
    }

    @Test func aFailingPatchLeavesTheModelAsItWas() throws {
        let note = Self.family()
        let before = try note.jsonString()
        let failures: [(String, String)] = [
            (
                #"[{"op":"replace","path":"/title","value":"Z"},{"op":"replace","path":"/children/7/title","value":"Q"}]"#,
                "operation 1 (replace /children/7/title): no element at index 7; the array has 3 elements"
            ),
            (
                #"[{"op":"replace","path":"/title","value":"Z"},{"op":"replace","path":"/count","value":"three"}]"#,
                #"operation 1 (replace /count): count: expected Int, found a string ("three")"#
            ),
            (
                #"[{"op":"replace","path":"/children/2/count","value":1.5}]"#,
                "operation 0 (replace /children/2/count): children[2].count: expected Int, found a floating-point number (1.5)"
            ),
            (
                #"[{"op":"remove","path":"/title"}]"#,
                #"operation 0 (remove /title): "title" is a saved key of Note and cannot be removed; replace its value instead"#
            ),
            (
                #"[{"op":"replace","path":"/type","value":"Photo"}]"#,
                #"operation 0 (replace /type): "type" is a metadata key of Note, written by ModelKit; a patch may test it but not change or remove it"#
            ),
            (
                #"[{"op":"remove","path":"/version"}]"#,
                #"operation 0 (remove /version): "version" is a metadata key of Note, written by ModelKit; a patch may test it but not change or remove it"#
            ),
            (
                #"[{"op":"replace","path":"","value":[]}]"#,
                #"operation 0 (replace ""): the saved form of a Note must stay an object, found an array of 0 elements"#
            ),
            (
                #"[{"op":"test","path":"/title","value":"Other"},{"op":"replace","path":"/title","value":"Z"}]"#,
                #"operation 0 (test /title): found "Family", expected "Other""#
            ),
        ]
        for (patch, message) in failures {
            do {
                try note.apply(JSONPatch(json: patch))
                Issue.record("expected \(message)")
            } catch let error as ModelError {
                #expect(error.description == message)
            }
            #expect(try note.jsonString() == before)
            #expect(!note.hasChanges)
        }
    }

    @Test func metadataMayBeTested() throws {
        let note = Self.family()
        try note.apply(JSONPatch(json: #"[{"op":"test","path":"/type","value":"Note"},{"op":"test","path":"/version","value":1.0},{"op":"replace","path":"/title","value":"T"}]"#))
        #expect(note.title == "T")
    }

    @Test func aPatchThatBreaksTheRulesIsRefusedAndChangesNothing() throws {
        let driver = Driver()
        let failures: [(String, String)] = [
            (#"[{"op":"replace","path":"/age","value":200}]"#, "operation 0 (replace /age): age: must be at most 150, found 200"),
            (
                #"[{"op":"replace","path":"/age","value":12},{"op":"replace","path":"/hasDrivingLicence","value":true}]"#,
                "operation 1 (replace /hasDrivingLicence): hasDrivingLicence: needs an age of 17 or more, found 12"
            ),
        ]
        for (patch, message) in failures {
            #expect(throws: ModelError.self) { try driver.apply(JSONPatch(json: patch)) }
            do { try driver.apply(JSONPatch(json: patch)) } catch let error as ModelError { #expect(error.description == message) }
            #expect(driver.age == 30 && !driver.hasDrivingLicence && !driver.hasChanges)
        }
    }

    @Test func extensiblePropertiesAreAddedAndRemoved() throws {
        let note = try Note(json: Data(#"{"title":"A","pinned":true,"colour":"red"}"#.utf8))
        try note.apply(JSONPatch(json: #"[{"op":"remove","path":"/pinned"},{"op":"add","path":"/mood","value":"calm"},{"op":"replace","path":"/colour","value":"blue"}]"#))
        #expect(note.extensibleProperties == ["mood": "calm", "colour": "blue"])
        #expect(note.changedKeys == ["pinned", "mood", "colour"])
    }

    @Test func aModelsPatchToAnotherMakesItEquivalent() throws {
        let before = Self.family()
        let after = before.copy()
        after.title = "Renamed"
        after.children[2].count = 5
        after.children.remove(at: 0)
        after.due = Date(timeIntervalSince1970: 1_763_307_200.5)
        try after.setExtensibleProperty("x", forKey: "extra")
        let patch = before.patch(to: after)
        let text = try patch.jsonString()
        #expect(text == #"[{"op":"replace","path":"/title","value":"Renamed"},{"op":"replace","path":"/due","value":"2025-11-16T15:33:20.500000Z"},{"op":"remove","path":"/children/0"},{"op":"replace","path":"/children/1/count","value":5},{"op":"add","path":"/extra","value":"x"}]"#)
        try before.apply(patch)
        #expect(before.isEquivalent(to: after))
        #expect(before.patch(to: after).isEmpty)
        // The patch read back from its JSON does the same.
        let again = Self.family()
        try again.apply(JSONPatch(json: patch.jsonData()))
        #expect(again.isEquivalent(to: after))
    }

    @Test func aMergePatchWorksOnTheSavedFormToo() throws {
        let note = try Note(json: Data(#"{"title":"A","pinned":true,"child":{"title":"C","count":1}}"#.utf8))
        let child = note.child
        defer { #expect(note.child === child) }
        try note.apply(JSONMergePatch(json: #"{"count":2,"pinned":null,"child":{"count":3}}"#))
        #expect(note.count == 2)
        #expect(note.child?.count == 3 && note.child?.title == "C")
        #expect(note.extensibleProperties.isEmpty)
        #expect(note.changedKeys == ["count", "pinned"])
        #expect(note.child?.changedKeys == ["count"])
        let failures: [(String, String)] = [
            (#"{"title":null}"#, #"the merge patch is not allowed: "title" is a saved key of Note and cannot be set to null; replace its value instead"#),
            (#"{"type":"Photo"}"#, #"the merge patch is not allowed: "type" is a metadata key of Note, written by ModelKit; a patch may test it but not change or remove it"#),
            (#"[1]"#, "a merge patch of a Note must be an object, found an array of 1 element"),
            (#"{"count":"x"}"#, #"count: expected Int, found a string ("x")"#),
        ]
        note.clearChanges()
        for (patch, message) in failures {
            do {
                try note.apply(JSONMergePatch(json: patch))
                Issue.record("expected \(message)")
            } catch let error as ModelError {
                #expect(error.description == message)
            }
            #expect(!note.hasChanges)
        }
    }
}
