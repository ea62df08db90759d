import Foundation
import Testing
@testable import ModelKit

/// Version 1 of an app's contact, which knows two keys.
private final class ContactV1: ModelObject, @unchecked Sendable {
    override class var typeName: String { "Contact" }
    @Saved var name = ""
    @Saved var email = ""
}

/// Version 3 of the same contact, which knows more.
private final class ContactV3: ModelObject, @unchecked Sendable {
    override class var typeName: String { "Contact" }
    override class var version: Int { 3 }
    @Saved var name = ""
    @Saved var email = ""
    @Saved var phones: [String] = []
    @Saved var birthday: Date? = nil
    @Saved var friend: ContactV3? = nil
}

@Suite struct ExtensiblePropertiesTests {
    @Test(arguments: Form.allCases)
    func unknownKeysSurviveAnOlderClassAndReachTheNewerOne(form: Form) throws {
        let newer = ContactV3()
        newer.name = "Ada"
        newer.email = "ada@example.com"
        newer.phones = ["+44 1", "+44 2"]
        newer.birthday = Date(timeIntervalSince1970: 86_400 * 365)
        let friend = ContactV3()
        friend.name = "Charles"
        newer.friend = friend

        // Version 1 loads it, edits what it knows, and saves.
        let older = try form.convert(newer, to: ContactV1.self)
        #expect(Set(older.extensibleProperties.keys) == ["phones", "birthday", "friend"])
        older.email = "ada@lovelace.example"

        // Version 3 reloads what version 1 saved: nothing is lost.
        let reloaded = try form.convert(older, to: ContactV3.self)
        #expect(reloaded.email == "ada@lovelace.example")
        #expect(reloaded.phones == ["+44 1", "+44 2"])
        #expect(reloaded.birthday == newer.birthday)
        #expect(reloaded.friend?.name == "Charles")
        #expect(reloaded.extensibleProperties.isEmpty)
    }

    @Test func olderClassKeepsTheNewerVersionNumber() throws {
        let newer = ContactV3()
        let older = try ContactV1(modelValue: newer.modelValue)
        #expect(older.modelValue["version"] == 3, "saving must not mark version-3 data as version 1")
        #expect(ContactV1().modelValue["version"] == 1)
    }

    @Test func bagKeepsOriginalOrderAndIsWrittenAfterSavedKeys() throws {
        let input: ModelValue = ["zeta": 1, "title": "T", "alpha": 2, "mid": [3]]
        let note = try Note(modelValue: input)
        #expect(note.orderedExtensibleProperties.keys == ["zeta", "alpha", "mid"])
        let keys = try note.encodedRoot().keys
        #expect(Array(keys.suffix(3)) == ["zeta", "alpha", "mid"])
        #expect(keys.first == "type")
    }

    @Test func bagAPIReadsWritesAndRejectsSavedAndMetadataKeys() throws {
        let note = Note()
        try note.setExtensibleProperty(["nested": true], forKey: "extra")
        #expect(note.extensibleProperty(forKey: "extra") == ["nested": true])
        #expect(note.hasChanges)
        for key in ["title", "legacy_name", "type", "version"] {
            let error = #expect(throws: ModelError.self) { try note.setExtensibleProperty(1, forKey: key) }
            #expect(error?.code == .invalidValue)
        }
        let error = #expect(throws: ModelError.self) { try note.setExtensibleProperty(1, forKey: "title") }
        #expect(
            error?.description
                == "title: \"title\" is a saved key of Note, not an extensible property; set it with setValue(_:forKey:)")
        try note.setExtensibleProperty(nil, forKey: "extra")
        #expect(note.extensibleProperties.isEmpty)
    }

    @Test func bigIntegersInTheBagKeepTheirDigits() throws {
        let digits = "123456789012345678901234567890"
        let note = try Note(modelValue: ["huge": .bigInteger(digits), "unsigned": .bigInteger("18446744073709551615")])
        #expect(note.modelValue["huge"] == .bigInteger(digits))
        for format in [PropertyListSerialization.PropertyListFormat.binary, .xml] {
            let back = try Note(propertyList: note.propertyListData(format: format))
            #expect(back.extensibleProperty(forKey: "unsigned") == .bigInteger("18446744073709551615"))
            #expect(back.extensibleProperty(forKey: "huge") == .bigInteger(digits))
        }
    }
}
