import Foundation
import Testing

@testable import ModelKit

/// A model whose saved key and property name are not ASCII.
final class Café: ModelObject, @unchecked Sendable {
    @Saved("crème") var crème = ""
    @Saved var größe = 0
}

/// Key-value access tells keys apart by their exact text, as JSON does:
/// `"é"` composed (U+00E9) and decomposed (`e` U+0301) are different keys,
/// though Swift's `==` calls them equal.
@Suite struct KeyValueUnicodeTests {
    static let composedKey = "cr\u{E8}me"
    static let decomposedKey = "cre\u{300}me"
    static let composedName = "gr\u{F6}\u{DF}e"
    static let decomposedName = "gro\u{308}\u{DF}e"

    @Test func aDecomposedKeyIsAnotherKey() throws {
        #expect(Self.composedKey == Self.decomposedKey)  // Swift's view
        let model = Café()
        try model.setValue("saved", forKey: Self.composedKey)
        try model.setValue(ModelValue.string("extra"), forKey: Self.decomposedKey)
        #expect(model.crème == "saved")
        #expect(model.extensibleProperty(forKey: Self.decomposedKey) == "extra")
        #expect(model.value(forKey: Self.composedKey) as? String == "saved")
        #expect(model.value(forKey: Self.decomposedKey) as? ModelValue == "extra")
        let json = try model.jsonString(options: [.sorted])
        #expect(json.utf8.contains(0xCC))  // the combining grave accent, written as its own key
        let back = try Café(json: json)
        #expect(back.crème == "saved")
        #expect(back.extensibleProperty(forKey: Self.decomposedKey) == "extra")
    }

    @Test func aDecomposedPropertyNameIsAnotherKey() throws {
        let model = Café()
        try model.setValue(3, forKey: Self.composedName)
        #expect(model.größe == 3)
        try model.setValue(ModelValue.int(9), forKey: Self.decomposedName)
        #expect(model.größe == 3)
        #expect(model.value(forKey: Self.decomposedName) as? ModelValue == 9)
    }

    @Test func aDecomposedKeyOnTheWayLeadsNowhere() throws {
        let model = Café()
        let error = #expect(throws: ModelError.self) {
            try model.setValue("x", forKey: Self.decomposedKey + ".inner")
        }
        #expect(error?.message == "Café has no saved key or extensible property \"\(Self.decomposedKey)\"")
    }
}
