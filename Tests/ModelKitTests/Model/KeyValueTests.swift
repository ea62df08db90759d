import Foundation
import Testing
@testable import ModelKit

@Suite struct KeyValueTests {
    func sample() throws -> Note {
        try Note(modelValue: [
            "title": "root", "due": nil, "extra": [1, 2],
            "children": [["title": "first", "count": 1], ["title": "second", "child": ["count": 7]]],
        ])
    }

    @Test func valuesByKeyAndDottedPath() throws {
        let note = try sample()
        #expect(note.value(forKey: "title") as? String == "root")
        #expect(note.value(forKey: "legacy_name") as? String == "")
        #expect(note.value(forKey: "renamed") as? String == "", "a property's name works as well as its key")
        #expect(note.value(forKey: "due") == nil)
        #expect(note.value(forKey: "extra") as? ModelValue == [1, 2])
        #expect(note.value(forKey: "extra.1") as? ModelValue == 2)
        #expect(note.value(forKey: "children.1.title") as? String == "second")
        #expect(note.value(forKey: "children.1.child.count") as? Int == 7)
        #expect(note.value(forKey: "children.5.title") == nil)
        #expect(note.value(forKey: "nothing.here") == nil)
    }

    @Test func settingValuesByKeyRecordsChanges() throws {
        let note = try sample()
        try note.setValue("new", forKey: "title")
        try note.setValue(nil, forKey: "due")
        try note.setValue(Date(timeIntervalSince1970: 0), forKey: "due")
        try note.setValue(ModelValue.int(4), forKey: "children.1.child.count")
        try note.setValue(["a", "b"], forKey: "tags")
        try note.setValue(42, forKey: "newBagKey")
        #expect(note.title == "new")
        #expect(note.due == Date(timeIntervalSince1970: 0))
        #expect(note.children[1].child?.count == 4)
        #expect(note.tags == ["a", "b"])
        #expect(note.extensibleProperty(forKey: "newBagKey") == 42)
        #expect(note.changedKeys == ["title", "due", "tags", "newBagKey"])
        #expect(note.children[1].child?.changedKeys == ["count"])
    }

    @Test(arguments: [
        ("count", "three" as (any Sendable)?, "count: expected Int, found a value of type String"),
        ("title", nil, "title: expected String, found nil"),
        ("children.0.count", 1.5, "children[0].count: expected Int, found a value of type Double"),
        ("children.9.title", "x", "children[9]: there is no element 9: the array has 2 elements"),
        ("title.length", 1, "title: expected a model to set a value in, found a value of type String"),
        ("count", ModelValue.string("x"), #"count: expected Int, found a string ("x")"#),
    ])
    func settingAWrongTypeThrowsAndChangesNothing(key: String, value: (any Sendable)?, message: String) throws {
        let note = try sample()
        let before = note.modelValue
        let error = #expect(throws: ModelError.self) { try note.setValue(value, forKey: key) }
        #expect(error?.description == message)
        #expect(note.modelValue == before)
        #expect(!note.hasAnyChanges)
    }
}
