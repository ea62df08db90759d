import Foundation
import Testing
@testable import ModelKit

private class Base: ModelObject, @unchecked Sendable {
    @Saved var a = 1
    @Saved var b = "b"
}

private final class Derived: Base, @unchecked Sendable {
    @Saved var c = 3.0
    @Saved("d_key") var d = false
    var notSaved = 7
}

private final class WithDefaults: ModelObject, @unchecked Sendable {
    @Saved var created = Date(timeIntervalSince1970: 0)
    @Saved var label = "x"
    @Saved var id = UUID()
    nonisolated(unsafe) static var calls = 0

    override func loadDefaultValues() {
        super.loadDefaultValues()
        WithDefaults.calls += 1
        created = Date(timeIntervalSince1970: 1000)
    }
}

private final class Reordered: ModelObject, @unchecked Sendable {
    @Saved var first = 1
    @Saved var second = 2
    @Saved var third = 3
    override class var savedKeys: [String] { ["third", "first"] }
}

private final class Broken: ModelObject, @unchecked Sendable {
    @Saved var title = ""
    @Saved("title") var heading = ""
    @Saved var type = "oops"
    @Saved("") var nameless = 0
    override class var savedKeys: [String] { ["title", "missing", "title"] }
}

private final class NestedDefault: ModelObject, @unchecked Sendable {
    @Saved var before = 1
    @Saved var child = Note()
    @Saved var after = "after"
}

@Suite struct DeclarationTests {
    @Test func savedKeysListSuperclassFirstInDeclarationOrder() {
        #expect(Derived.savedKeys == ["a", "b", "c", "d_key"])
        #expect(Note.savedKeys == ["title", "count", "tags", "due", "child", "children", "legacy_name"])
    }

    @Test func defaultsComeFromDeclarationsThenLoadDefaultValues() throws {
        let object = WithDefaults()
        #expect(object.created == Date(timeIntervalSince1970: 1000))
        #expect(object.label == "x")
        #expect(!object.hasChanges, "loadDefaultValues is not a change")
        // Loaded data wins over loadDefaultValues.
        let loaded = try WithDefaults(dictionary: ["created": Date(timeIntervalSince1970: 5)])
        #expect(loaded.created == Date(timeIntervalSince1970: 5))
    }

    @Test func eachObjectEvaluatesItsOwnDefaults() {
        let ids = Set((0..<50).map { _ in WithDefaults().id })
        #expect(ids.count == 50)
        let first = NestedDefault()
        let second = NestedDefault()
        #expect(first.child !== second.child)
        #expect(first.before == 1 && first.after == "after" && second.after == "after")
    }

    @Test func objectsAreIndependent() {
        let one = Note()
        let two = Note()
        one.title = "one"
        one.tags.append("x")
        #expect(two.title == "Untitled")
        #expect(two.tags.isEmpty)
    }

    @Test func savedKeysOverrideOrdersAndFiltersOutput() throws {
        let object = Reordered()
        let members = try object.encodedRoot()
        #expect(members.keys == ["type", "version", "third", "first"])
        // A declared key left out of savedKeys is not read: it goes to the bag.
        let loaded = try Reordered(dictionary: ["second": 20, "first": 10])
        #expect(loaded.first == 10)
        #expect(loaded.second == 2)
        #expect(loaded.extensibleProperty(forKey: "second") == 20)
    }

    @Test func everyDeclarationProblemIsReportedTogether() {
        let error = #expect(throws: ModelError.self) { try Broken.validateDeclarations() }
        #expect(error?.code == .invalidDeclaration)
        let message = error?.description ?? ""
        #expect(message.hasPrefix("Broken has 4 declaration problems: (1) "), "\(message)")
        #expect(message.contains("properties `title` and `heading` both use the key \"title\""))
        #expect(message.contains("property `nameless` has an empty key"))
        #expect(message.contains("property `type` uses the key \"type\", which is the class's typeKey"))
        #expect(message.contains("savedKeys lists \"missing\", which is the key of no @Saved property"))
        #expect(!message.contains("twice"))  // a key listed again is not a problem
        // Loading and saving throw the same error, and creating objects still works.
        let object = Broken()
        #expect(object.title == "")
        #expect(throws: ModelError.self) { try Broken(dictionary: [:]) }
        #expect(throws: ModelError.self) { try object.propertyListData() }
    }

    /// DejalObject's idiom: a subclass adds its keys to `super.savedKeys`,
    /// which by default already lists them. Each key keeps its first position.
    @Test func addingKeysToSuperSavedKeysKeepsTheFirstPosition() throws {
        try Circle.validateDeclarations()
        let circle = Circle()
        circle.radius = 2.5
        #expect(try circle.encodedRoot().keys == ["type", "version", "name", "radius"])
        let back = try Circle(dictionary: circle.dictionary)
        #expect(back.radius == 2.5)
    }

    @Test func validDeclarationsPass() throws {
        try Note.validateDeclarations()
        try Everything.validateDeclarations()
        try Derived.validateDeclarations()
    }
}

/// A base and a subclass written the DejalObject way.
class Shape: ModelObject, @unchecked Sendable {
    @Saved var name = "shape"
}

final class Circle: Shape, @unchecked Sendable {
    @Saved var radius = 1.0
    override class var savedKeys: [String] { super.savedKeys + ["radius"] }
}
