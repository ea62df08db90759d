import Foundation
import Testing

@testable import ModelKit

/// A nested class that a `@Saved` property declares is known statically: an
/// archive's object of that class reads without registration. No suite
/// registers these classes.
@Suite("Keyed archives: nested classes known by their property's type")
struct KeyedArchiveDeclaredTypeTests {
    typealias S = KeyedArchiveSupport

    /// An `UnregisteredOwner` whose `key` holds `holder`'s objects, and a pet
    /// of class `petClass` named "rex".
    static func archive(key: String, petClass: String, inArray: Bool) throws -> Data {
        // 1 owner, 2 owner class, 3 pet or array, 4 pet class or pet, …
        if inArray {
            return try S.archive(objects: [
                ["$class": S.uid(2), key: S.uid(3)], S.classDescription("MyApp.UnregisteredOwner"),
                ["$class": S.uid(4), "NS.objects": [S.uid(5)]], S.classDescription("NSArray"),
                ["$class": S.uid(6), "name": S.uid(7)], S.classDescription(petClass), "rex",
            ])
        }
        return try S.archive(objects: [
            ["$class": S.uid(2), key: S.uid(3)], S.classDescription("MyApp.UnregisteredOwner"),
            ["$class": S.uid(4), "name": S.uid(5)], S.classDescription(petClass), "rex",
        ])
    }

    @Test(arguments: [
        ("pet", "MyApp.UnregisteredPet", false), ("pet", "UnregisteredPet", false),
        ("pets", "MyApp.UnregisteredPet", true), ("onlyPet", "Other.UnregisteredPet", false),
    ])
    func aDeclaredClassNeedsNoRegistration(key: String, petClass: String, inArray: Bool) throws {
        let owner = try UnregisteredOwner(keyedArchive: Self.archive(key: key, petClass: petClass, inArray: inArray))
        let pet: UnregisteredPet? =
            switch key {
            case "pet": owner.pet
            case "pets": owner.pets.first
            default: owner.onlyPet
            }
        #expect(pet?.name == "rex")
        #expect(ModelObject.registeredTypes.values.contains { $0 == UnregisteredPet.self } == false)
        // And it round-trips.
        let back = try UnregisteredOwner(keyedArchive: owner.keyedArchiveData())
        #expect(back.isEquivalent(to: owner))
    }

    @Test(arguments: [
        ("pet", "MyApp.UnregisteredCat", false, "pet"),
        ("pets", "MyApp.UnregisteredCat", true, "pets[0]"),
    ])
    func anotherClassStillNeedsRegistration(key: String, petClass: String, inArray: Bool, path: String) throws {
        let data = try Self.archive(key: key, petClass: petClass, inArray: inArray)
        #expect(
            S.message { try UnregisteredOwner(keyedArchive: data) }
                == "\(path): the archive holds an object of class \"\(petClass)\", which is neither a "
                + "Foundation class that ModelKit reads nor a model class (register it with "
                + "ModelObject.register(_:as:))")
    }

    /// Under a key the class does not save, an unknown class is kept in the
    /// bag as its structure (see `KeyedArchiveUnknownClassTests`).
    @Test func anUnknownClassUnderABagKeyIsKeptAsItsStructure() throws {
        let owner = try UnregisteredOwner(keyedArchive: Self.archive(key: "extra", petClass: "MyApp.UnregisteredPet", inArray: false))
        #expect(owner.extensibleProperties["extra"] == ["$class": "MyApp.UnregisteredPet", "name": "rex"])
    }
}

final class UnregisteredOwner: ModelObject, @unchecked Sendable {
    @Saved var pet: UnregisteredPet? = nil
    @Saved var onlyPet = UnregisteredPet()
    @Saved var pets: [UnregisteredPet] = []
}

final class UnregisteredPet: ModelObject, @unchecked Sendable {
    @Saved var name = ""
}
