import Foundation
import Testing

@testable import ModelKit

/// A model with a weak reference to any other, for siblings and cousins.
class Pal: ModelObject, @unchecked Sendable {
    @Saved var name = ""
    @Saved(reference: .weak) var buddy: Pal? = nil
    @Saved var pals: [Pal] = []
    @Saved var notes: [Note] = []

    static func named(_ name: String, _ pals: [Pal] = []) -> Self {
        let pal = Self()
        pal.name = name
        pal.pals = pals
        return pal
    }
}

/// A registered subclass, which a weak reference may name before it is read.
final class LoudPal: Pal, @unchecked Sendable {
    @Saved var volume = 11
}

/// With `.shared`, a weak reference to any model the document writes is a
/// `$ref`, whether that model comes earlier or later in the document, and
/// reads back as the same object in every format.
@Suite struct WeakReferenceSharingTests {
    static let registered: Void = ModelObject.register(LoudPal.self)

    /// root → [a → [a1], b → [b1 (a LoudPal)]], with weak references to an
    /// earlier and a later sibling, an earlier and a later cousin, and a
    /// later descendant.
    static func family() -> (root: Pal, a: Pal, b: Pal, a1: Pal, b1: Pal) {
        _ = registered
        let a1 = Pal.named("a1"), b1 = LoudPal.named("b1")
        let a = Pal.named("a", [a1]), b = Pal.named("b", [b1])
        let root = Pal.named("root", [a, b])
        a.buddy = b  // a later sibling
        b.buddy = a  // an earlier sibling
        a1.buddy = b1  // a later cousin, of a subclass
        b1.buddy = a1  // an earlier cousin
        root.buddy = b1  // a later descendant
        return (root, a, b, a1, b1)
    }

    @Test(arguments: ReferenceTests.Form.allCases)
    func weakReferencesToSiblingsAndCousinsComeBackAsTheSameObjects(form: ReferenceTests.Form) throws {
        let family = Self.family()
        let back = try ReferenceTests.roundTrip(family.root, form, references: .shared)
        let a = try #require(back.pals.first), b = try #require(back.pals.last)
        let a1 = try #require(a.pals.first), b1 = try #require(b.pals.first)
        #expect(b1 is LoudPal, "\(form)")
        #expect(a.buddy === b, "\(form)")
        #expect(b.buddy === a, "\(form)")
        #expect(a1.buddy === b1, "\(form)")
        #expect(b1.buddy === a1, "\(form)")
        #expect(back.buddy === b1, "\(form)")
        #expect(back.isEquivalent(to: family.root), "\(form)")
        #expect(!back.hasAnyChanges)
    }

    @Test func aLaterModelGetsItsIDFromTheWeakReferenceBeforeIt() throws {
        let a = Pal.named("a"), b = Pal.named("b")
        let root = Pal.named("root", [a, b])
        a.buddy = b
        b.buddy = a
        let text = try root.jsonString(options: JSONWritingOptions(references: .shared))
        #expect(
            text
                == #"{"type":"Pal","version":1,"name":"root","buddy":null,"pals":["#
                + #"{"$id":"1","type":"Pal","version":1,"name":"a","buddy":{"$ref":"2"},"pals":[],"notes":[]},"#
                + #"{"$id":"2","type":"Pal","version":1,"name":"b","buddy":{"$ref":"1"},"pals":[],"notes":[]}],"notes":[]}"#)
    }

    /// Only weak references to models the document does not write are `null`;
    /// with `.cycles`, also those to models that are not on their path.
    @Test func whichWeakReferencesAreNull() throws {
        let outside = Pal.named("outside")
        let a = Pal.named("a"), b = Pal.named("b")
        let root = Pal.named("root", [a, b])
        a.buddy = outside
        b.buddy = a
        let shared = try root.jsonString(options: JSONWritingOptions(references: .shared))
        #expect(shared.contains(#""name":"a","buddy":null"#))
        #expect(shared.contains(#""name":"b","buddy":{"$ref":"1"}"#))
        let cycles = try root.jsonString()
        #expect(cycles.contains(#""name":"b","buddy":null"#))
        #expect(!cycles.contains("$ref"))
        // An ancestor is a `$ref` with either policy.
        a.buddy = root
        #expect(try root.jsonString().contains(#""name":"a","buddy":{"$ref":"1"}"#))
        #expect(
            try root.jsonString(options: JSONWritingOptions(references: .shared))
                .hasPrefix(#"{"$id":"1","type":"Pal""#))
    }

    @Test(arguments: [
        (#"{"pals":[{"buddy":{"$ref":"1"}}],"notes":[{"$id":"1"}]}"#,
            #"notes[0].$id: the model with the id "1" is a Note, but a weak reference before it expects a Pal"#),
        (#"{"pals":[{"buddy":{"$ref":"7"}}]}"#, #"pals[0].buddy.$ref: no model in the document has the id "7""#),
        (#"{"pals":[{"buddy":{"$ref":"1"}},{"$id":"1"},{"$id":"1"}]}"#,
            #"pals[2].$id: the id "1" is used by two models in the document"#),
    ])
    func badForwardWeakReferencesAreErrorsNamingTheKeyPath(json: String, message: String) throws {
        _ = Self.registered
        let error = #expect(throws: ModelError.self) { _ = try Pal(json: Data(json.utf8)) }
        #expect(error?.description == message)
        let value = try ModelValue(json: Data(json.utf8))
        let viaValue = #expect(throws: ModelError.self) { _ = try Pal.decoded(from: value) }
        #expect(viaValue?.description == message)
    }

    /// A forward weak reference read by hand (keys sorted) is filled by the
    /// model defined after it, a registered subclass included.
    @Test func aForwardWeakReferenceIsFilledByTheModelReadAfterIt() throws {
        _ = Self.registered
        let json = #"{"buddy":{"$ref":"1"},"pals":[{"$id":"1","type":"LoudPal","name":"x","volume":3}]}"#
        let pal = try Pal(json: Data(json.utf8))
        let loud = try #require(pal.pals.first as? LoudPal)
        #expect(pal.buddy === loud)
        #expect(loud.volume == 3)
        let dictionary = try Pal(dictionary: ["buddy": ["$ref": "1"], "pals": [["$id": "1", "name": "y"]]])
        #expect(dictionary.buddy === dictionary.pals.first)
    }
}
