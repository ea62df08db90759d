import Foundation
import Testing
@testable import ModelKit

/// A `Codable` struct with models as fields.
private struct Inbox: Codable {
    var name: String
    var notes: [Note]
    var pinned: Note?
}

/// A class whose version 1 data called `title` `heading`.
private final class Renamed: ModelObject, @unchecked Sendable {
    @Saved var title = ""
    override class var version: Int { 2 }
    override class func upgrade(_ values: inout [String: ModelValue], from version: Int) throws {
        if version == 1 {
            values["title"] = values["heading"]
            values["heading"] = nil
        }
    }
}

@Suite struct CodableTests {
    enum Coder: String, CaseIterable {
        case json, xml, binary

        func encode<T: Encodable>(_ value: T) throws -> Data {
            switch self {
            case .json: return try JSONEncoder().encode(value)
            case .xml:
                let encoder = PropertyListEncoder()
                encoder.outputFormat = .xml
                return try encoder.encode(value)
            case .binary:
                let encoder = PropertyListEncoder()
                encoder.outputFormat = .binary
                return try encoder.encode(value)
            }
        }

        func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
            switch self {
            case .json: return try JSONDecoder().decode(type, from: data)
            case .xml, .binary: return try PropertyListDecoder().decode(type, from: data)
            }
        }
    }

    @Test(arguments: Coder.allCases)
    func everyTypeRoundTrips(coder: Coder) throws {
        let original = Everything()
        original.integer = 7
        // A model's dates go as the coder writes dates: whole seconds in XML property lists.
        if coder == .xml { original.date = original.date.addingTimeInterval(-original.date.timeIntervalSince1970.truncatingRemainder(dividingBy: 1)) }
        try original.setExtensibleProperty(["newer": [1, 2]], forKey: "future")
        let decoded = try coder.decode(Everything.self, from: coder.encode(original))
        #expect(decoded.isEquivalent(to: original))
        #expect(!decoded.hasChanges)
    }

    @Test(arguments: Coder.allCases)
    func modelsAreFieldsOfCodableStructs(coder: Coder) throws {
        let note = Note()
        note.title = "first"
        note.due = Date(timeIntervalSince1970: 1_763_307_200.5)
        note.children = [Note()]
        let inbox = Inbox(name: "in", notes: [note, Note()], pinned: nil)
        let decoded = try coder.decode(Inbox.self, from: coder.encode(inbox))
        #expect(decoded.name == "in")
        #expect(decoded.notes.count == 2)
        // A model's dates go as the coder writes dates: whole seconds in XML property lists.
        if coder == .xml {
            #expect(decoded.notes[0].due == Date(timeIntervalSince1970: 1_763_307_200))
            decoded.notes[0].due = note.due
        }
        #expect(decoded.notes[0].isEquivalent(to: note))
        #expect(decoded.notes[0].due == note.due)
        #expect(decoded.pinned == nil)
    }

    @Test func theEncodedFormIsTheSavedForm() throws {
        let note = Note()
        note.title = "a"
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(note)
        let viaCodable = try ModelValue(json: data)
        #expect(viaCodable == note.modelValue)
    }

    @Test func olderDataIsUpgradedOnDecode() throws {
        let data = Data(#"{"type":"Renamed","version":1,"heading":"old"}"#.utf8)
        let decoded = try JSONDecoder().decode(Renamed.self, from: data)
        #expect(decoded.title == "old")
        #expect(decoded.extensibleProperties.isEmpty)
    }

    @Test(arguments: [
        (#"{"count":"three"}"#, "count"),
        (#"{"children":[{},{"tags":[1]}]}"#, "children[1].tags[0]"),
        (#"{"type":"Photo"}"#, "type"),
    ])
    func badValuesNameTheirKeyPath(json: String, keyPath: String) {
        _ = registerFixtures
        do {
            _ = try JSONDecoder().decode(Note.self, from: Data(json.utf8))
            Issue.record("decoded \(json)")
        } catch let error as ModelError {
            #expect(error.keyPath.description == keyPath)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func aCycleGoesThroughFoundationsCodersAsAReference() throws {
        let note = Note()
        note.title = "loop"
        note.child = note
        defer { note.child = nil }
        let data = try JSONEncoder().encode(note)
        let back = try JSONDecoder().decode(Note.self, from: data)
        defer { back.child = nil }
        #expect(back.title == "loop")
        #expect(back.child === back)
        let plist = try PropertyListEncoder().encode([note])
        let notes = try PropertyListDecoder().decode([Note].self, from: plist)
        defer { notes.forEach { $0.child = nil } }
        #expect(notes[0].child === notes[0])
    }
}
