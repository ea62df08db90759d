import Foundation
import Testing
@testable import ModelKit

@Test func smoke() throws {
    let note = Note()
    #expect(note.title == "Untitled")
    #expect(!note.hasChanges)
    note.title = "Groceries"
    #expect(note.hasChanges)
    #expect(note.changedKeys == ["title"])
    note.tags.append("home")
    let child = Note()
    child.count = 3
    note.children = [child]
    let dict = note.dictionary
    print(dict)
    let back = try Note(dictionary: dict)
    #expect(back.title == "Groceries")
    #expect(back.children.first?.count == 3)
    #expect(!back.hasAnyChanges)
    let plist = try note.propertyListData(format: .binary)
    let again = try Note(propertyList: plist)
    #expect(again.tags == ["home"])
    let e = Everything()
    let e2 = try Everything(propertyList: e.propertyListData(format: .xml))
    #expect(e2.dictionary.description == e.dictionary.description)
    print(e2.modelValue)
}
