import Foundation
import Testing

@testable import ModelKit

/// A tree with back-references, for cycles.
final class Branch: ModelObject, @unchecked Sendable {
    @Saved var name = ""
    @Saved var parent: Branch? = nil
    @Saved var children: [Branch] = []
    @Saved var links: [String: Branch] = [:]
}

/// Cycles are written once with `"$id"` and referred to with `{"$ref": …}`;
/// `.shared` does the same for every model met twice; loading restores the
/// same shape in every format; reference data is read strictly.
@Suite struct ReferenceTests {
    /// Every way a model graph is written and read back.
    enum Form: String, CaseIterable, CustomStringConvertible {
        case json, prettySorted, xml, binary, dictionary, modelValue, jsonFile, binaryFile, codable
        var description: String { rawValue }
    }

    static func roundTrip<Model: ModelObject>(
        _ model: Model, _ form: Form, references: ReferencePolicy = .cycles
    ) throws -> Model {
        switch form {
        case .json:
            return try Model(json: model.jsonData(options: JSONWritingOptions(references: references)))
        case .prettySorted:
            let options = JSONWritingOptions(prettyPrinted: true, sortedKeys: true, references: references)
            return try Model(json: model.jsonData(options: options))
        case .xml:
            return try Model(propertyList: model.propertyListData(format: .xml, references: references))
        case .binary:
            return try Model(propertyList: model.propertyListData(format: .binary, references: references))
        case .dictionary:
            return try Model(dictionary: model.dictionary(references: references))
        case .modelValue:
            return try Model.decoded(from: .object(model.encodedRoot(references: references)))
        case .jsonFile, .binaryFile:
            let url = FileManager.default.temporaryDirectory
                .appendingPathComponent("ModelKitReferences-\(UUID().uuidString)")
                .appendingPathExtension(form == .jsonFile ? "json" : "bplist")
            defer { try? FileManager.default.removeItem(at: url) }
            try model.write(to: url, references: references)
            return try Model(contentsOf: url)
        case .codable:
            guard references == .cycles else { return try roundTrip(model, .json, references: references) }
            return try JSONDecoder().decode(Model.self, from: JSONEncoder().encode(model))
        }
    }

    /// Breaks the cycles of a graph of branches so that it can be freed.
    static func release(_ branches: Branch...) {
        var stack = branches
        var seen = Set<ObjectIdentifier>()
        while let branch = stack.popLast() {
            guard seen.insert(ObjectIdentifier(branch)).inserted else { continue }
            stack.append(contentsOf: branch.children)
            stack.append(contentsOf: branch.links.values)
            if let parent = branch.parent { stack.append(parent) }
            branch.parent = nil
            branch.children = []
            branch.links = [:]
        }
    }

    // MARK: - Cycles

    @Test(arguments: Form.allCases)
    func cyclesOfOneTwoAndThreeModelsComeBackWithTheirIdentity(form: Form) throws {
        for length in 1...3 {
            let notes = (0..<length).map { index -> Note in
                let note = Note()
                note.title = "note \(index)"
                return note
            }
            for index in notes.indices { notes[index].child = notes[(index + 1) % length] }
            defer { notes.forEach { $0.child = nil } }

            let back = try Self.roundTrip(notes[0], form)
            var loaded = [back]
            while loaded.count < length, let next = loaded.last?.child { loaded.append(next) }
            defer { loaded.forEach { $0.child = nil } }
            #expect(loaded.map(\.title) == notes.map(\.title), "\(form), \(length)")
            #expect(loaded.last?.child === back, "\(form), \(length): the cycle closes on the root")
            #expect(Set(loaded.map(ObjectIdentifier.init)).count == length, "\(form), \(length)")
            #expect(!back.hasAnyChanges)
            #expect(back.isEquivalent(to: notes[0]))
        }
    }

    @Test(arguments: Form.allCases)
    func parentBackReferencesComeBackAsTheSameObjects(form: Form) throws {
        let root = Branch()
        root.name = "root"
        for name in ["a", "b"] {
            let child = Branch()
            child.name = name
            child.parent = root
            root.children.append(child)
        }
        let leaf = Branch()
        leaf.name = "leaf"
        leaf.parent = root.children[0]
        leaf.links = ["up": root, "self": leaf]
        root.children[0].children = [leaf]
        defer { Self.release(root) }

        let back = try Self.roundTrip(root, form)
        defer { Self.release(back) }
        #expect(back.children.map(\.name) == ["a", "b"])
        #expect(back.children.allSatisfy { $0.parent === back }, "\(form)")
        let backLeaf = try #require(back.children[0].children.first)
        #expect(backLeaf.parent === back.children[0])
        #expect(backLeaf.links["up"] === back)
        #expect(backLeaf.links["self"] === backLeaf)
        #expect(back.isEquivalent(to: root))
    }

    @Test func theSavedFormOfABackReferenceIsExact() throws {
        let root = Branch()
        root.name = "root"
        let child = Branch()
        child.name = "child"
        child.parent = root
        root.children = [child]
        defer { Self.release(root) }
        #expect(
            try root.jsonString()
                == #"{"$id":"1","type":"Branch","version":1,"name":"root","parent":null,"children":"#
                + #"[{"type":"Branch","version":1,"name":"child","parent":{"$ref":"1"},"children":[],"links":{}}],"#
                + #""links":{}}"#)
        // Ids in the order they are needed, the same on every run.
        let second = Branch()
        second.parent = child
        child.children = [second]
        root.links = ["again": root]
        let text = try root.jsonString(options: .sorted)
        #expect(text.contains(#""parent":{"$ref":"2"}"#))
        #expect(try root.jsonString(options: .sorted) == text)
    }

    @Test func aSharedModelInsideACycleIsWrittenInFullAtEachPlaceWithItsOwnId() throws {
        // `inner` appears twice under the root, and each copy is in a cycle of its own.
        let root = Branch()
        let inner = Branch()
        inner.name = "inner"
        let loop = Branch()
        loop.parent = inner
        inner.children = [loop]
        root.children = [inner, inner]
        defer { Self.release(root) }
        let text = try root.jsonString()
        #expect(text.components(separatedBy: #""$id""#).count == 3)
        for form in Form.allCases {
            let back = try Self.roundTrip(root, form)
            defer { Self.release(back) }
            #expect(back.children[0] !== back.children[1], "\(form)")
            for copy in back.children { #expect(copy.children.first?.parent === copy, "\(form)") }
        }
    }

    @Test func aLongRingIsFoundWhereItCloses() throws {
        let first = Branch()
        var tail = first
        for index in 1..<200 {
            let next = Branch()
            next.name = "\(index)"
            tail.children = [next]
            tail = next
        }
        tail.children = [first]
        defer { Self.release(first) }
        let value = first.modelValue
        #expect("\(value)".components(separatedBy: "$ref").count == 2)
        DeepGraphTests.onThread {
            do {
                let back = try Self.roundTrip(first, .binary)
                var cursor = back
                for _ in 0..<200 { cursor = cursor.children[0] }
                #expect(cursor === back)
                Self.release(back)
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    // MARK: - Shared models

    static func folderSharingOneNote() -> (Folder, Note) {
        let note = Note()
        note.title = "shared"
        let folder = Folder()
        folder.notes = [note, note]
        folder.byName = ["a": note]
        folder.grid = [[note]]
        folder.pinned = note
        return (folder, note)
    }

    @Test(arguments: Form.allCases)
    func sharedModelsAreCopiedByDefaultAndStaySharedWhenAsked(form: Form) throws {
        let (folder, _) = Self.folderSharingOneNote()

        let copied = try Self.roundTrip(folder, form)
        #expect(copied.notes[0] !== copied.notes[1])
        #expect(copied.pinned !== copied.notes[0])
        #expect(copied.notes.map(\.title) == ["shared", "shared"])

        let shared = try Self.roundTrip(folder, form, references: .shared)
        let first = shared.notes[0]
        #expect(first.title == "shared")
        #expect(shared.notes[1] === first, "\(form)")
        #expect(shared.byName["a"] === first, "\(form)")
        #expect(shared.grid[0][0] === first, "\(form)")
        #expect(shared.pinned === first, "\(form)")
        #expect(shared.isEquivalent(to: folder))
    }

    @Test func sharedOutputDefinesEachModelOnceAndRefersToItAfter() throws {
        let (folder, _) = Self.folderSharingOneNote()
        let text = try folder.jsonString(options: JSONWritingOptions(references: .shared))
        #expect(text.components(separatedBy: #""$id":"1""#).count == 2)
        #expect(text.components(separatedBy: #"{"$ref":"1"}"#).count == 5)
        // The root is met once: it has no id.
        #expect(text.hasPrefix(#"{"type":"Folder""#))
        #expect(try folder.jsonString() == String(decoding: try folder.jsonData(), as: UTF8.self))
        #expect(!(try folder.jsonString()).contains("$ref"))
    }

    // MARK: - Keys of the reference shape

    @Test(arguments: Form.allCases)
    func bagKeysShapedLikeReferencesRoundTrip(form: Form) throws {
        let note = Note()
        let keys = ["$id", "$ref", "$$id", "$$$ref", "$identity", "$", "$null", "id"]
        for (index, key) in keys.enumerated() { try note.setExtensibleProperty(.int(index), forKey: key) }
        let back = try Self.roundTrip(note, form)
        #expect(back.extensibleProperties == note.extensibleProperties, "\(form)")
        #expect(back.extensibleProperties.keys.sorted() == keys.sorted(), "\(form)")
    }

    @Test func bagKeysShapedLikeReferencesAreWrittenWithOneMoreDollar() throws {
        let note = Note()
        try note.setExtensibleProperty("a", forKey: "$id")
        try note.setExtensibleProperty("b", forKey: "$$ref")
        let text = try note.jsonString()
        #expect(text.hasSuffix(#""$$id":"a","$$$ref":"b"}"#))
        let loaded = try Note(json: Data(text.utf8))
        #expect(loaded.extensibleProperty(forKey: "$id") == "a")
        #expect(loaded.extensibleProperty(forKey: "$$ref") == "b")
        #expect(try loaded.jsonString() == text)
        #expect(note.dictionary["$$id"] as? String == "a")
    }

    @Test func aSavedKeyShapedLikeAReferenceIsADeclarationError() {
        final class Clash: ModelObject, @unchecked Sendable {
            @Saved("$id") var identifier = ""
        }
        let error = #expect(throws: ModelError.self) { try Clash.validateDeclarations() }
        #expect(error?.code == .invalidDeclaration)
        #expect(
            error?.message
                == "Clash has 1 declaration problem: property `identifier` uses the key \"$id\", which is reserved "
                + "for references between models; give the property another key with @Saved(\"…\")")
    }

    // MARK: - Hostile reference data

    static let hostile: [(json: String, message: String)] = [
        (
            #"{"child":{"$ref":"9"}}"#,
            #"child.$ref: no model in the document has the id "9""#
        ),
        (
            #"{"children":[{"$id":"1"},{"$ref":"1"},{"$ref":"2"}]}"#,
            #"children[2].$ref: no model in the document has the id "2""#
        ),
        (
            #"{"$id":"1","child":{"$id":"1"}}"#,
            #"child.$id: the id "1" is used by two models in the document"#
        ),
        (
            #"{"children":[{"$id":"7"},{"$id":"7"}]}"#,
            #"children[1].$id: the id "7" is used by two models in the document"#
        ),
        (
            #"{"child":{"$ref":1}}"#,
            #"child.$ref: expected a string id, found an integer (1)"#
        ),
        (
            #"{"child":{"$ref":"1","title":"x"},"$id":"1"}"#,
            #"child: expected a reference with no member but "$ref", found also "title""#
        ),
        (
            #"{"$id":5}"#,
            #"$id: expected a string id, found an integer (5)"#
        ),
        (
            #"{"child":{"$id":false}}"#,
            #"child.$id: expected a string id, found a boolean (false)"#
        ),
        (
            #"{"$ref":"1"}"#,
            #"$ref: expected a Note object, found a reference, which stands for a model elsewhere in a document and cannot be loaded in place"#
        ),
    ]

    @Test(arguments: 0..<hostile.count)
    func hostileReferenceDataIsAnErrorNamingTheKeyPath(index: Int) throws {
        let (json, message) = Self.hostile[index]
        let error = #expect(throws: ModelError.self) { try Note(json: Data(json.utf8)) }
        #expect(error?.description == message, "\(json)")
        // The same through a dictionary, and nothing applied to an object being updated.
        let dictionary = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let note = Note()
        note.title = "kept"
        note.clearChanges()
        let again = #expect(throws: ModelError.self) { try note.update(from: dictionary) }
        #expect(again?.description == message, "\(json)")
        #expect(note.title == "kept")
        #expect(!note.hasChanges)
    }

    @Test func aReferenceToAModelOfAnotherClassIsAnError() {
        let json = #"{"$id":"1","name":"x","pinned":{"$ref":"1"}}"#
        let error = #expect(throws: ModelError.self) { try Folder(json: Data(json.utf8)) }
        #expect(error?.description == #"pinned.$ref: the id "1" names a Folder, where a Note is expected"#)
        // A reference before the definition fixes the class it expects.
        let forward = #"{"pinned":{"$ref":"1"},"subfolders":[{"$id":"1"}]}"#
        let second = #expect(throws: ModelError.self) { try Folder(json: Data(forward.utf8)) }
        #expect(
            second?.description
                == #"subfolders[0].$id: the model with the id "1" is a Folder, but a reference before it expects a Note"#)
    }

    @Test func referencesMayComeBeforeTheirDefinition() throws {
        let json = #"{"byName":{"x":{"$ref":"1"}},"notes":[{"$id":"1","title":"later"}],"pinned":{"$ref":"1"}}"#
        let folder = try Folder(json: Data(json.utf8))
        #expect(folder.byName["x"]?.title == "later")
        #expect(folder.byName["x"] === folder.notes[0])
        #expect(folder.pinned === folder.notes[0])
    }

    @Test func referenceObjectsInsideValuesThatAreNotModelsAreJustData() throws {
        // A bag value and a ModelValue property may hold any object.
        let json = #"{"extra":{"$ref":"1","$id":"2"},"list":[{"$ref":"x"}]}"#
        let note = try Note(json: Data(json.utf8))
        #expect(note.extensibleProperty(forKey: "extra") == ["$ref": "1", "$id": "2"])
        #expect(try note.jsonString().hasSuffix(#""extra":{"$ref":"1","$id":"2"},"list":[{"$ref":"x"}]}"#))
    }
}
