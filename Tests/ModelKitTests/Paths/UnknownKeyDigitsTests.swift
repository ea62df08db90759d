import Foundation
import ModelKit
import Testing

/// README: members a class does not save are written back to JSON as they
/// came (`1.10` stays `1.10`, a 30-digit decimal keeps its digits, `-0`
/// stays `-0`, escapes stay escapes), on every way a JSON document reaches
/// models and goes back to JSON, not only the direct one.
@Suite struct UnknownKeyDigitsTests {
    /// Unknown members whose text the writer would spell otherwise.
    static let unknown =
        #""price":3.14159265358979323846264338327950288,"w":1.10,"z":-0,"x":1E2,"e":"caf\u00e9","deep":{"a":[2.50,{"b":-0.0}]}"#

    static func expectKept(_ json: String, _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation) {
        for member in [
            #""price":3.14159265358979323846264338327950288"#, #""w":1.10"#, #""z":-0"#, #""x":1E2"#,
            #""e":"caf\u00e9""#, #""deep":{"a":[2.50,{"b":-0.0}]}"#,
        ] {
            #expect(json.contains(member), "\(comment): \(member) in \(json)", sourceLocation: sourceLocation)
        }
    }

    static func data(_ text: String) -> Data { Data(text.utf8) }

    @Test func theDirectPath() throws {
        let model = try PathPlain(json: Self.data(#"{"title":"a","# + Self.unknown + "}"))
        Self.expectKept(try model.jsonString(), "direct")
    }

    @Test func aClassWithARule() throws {
        let model = try PathRated(json: Self.data(#"{"title":"a","rating":3,"# + Self.unknown + "}"))
        Self.expectKept(try model.jsonString(), "rule")
    }

    @Test func anUpgradeFromAnOlderVersion() throws {
        let model = try PathUpgraded(json: Self.data(#"{"version":1,"name":"a","# + Self.unknown + "}"))
        #expect(model.title == "a")
        Self.expectKept(try model.jsonString(), "upgrade")
    }

    /// Issue 57, item 13: an upgraded model nested in an array, or in an
    /// optional, keeps its members' texts as one at the root does.
    @Test(arguments: ["books", "book"])
    func aNestedUpgradeFromAnOlderVersion(key: String) throws {
        let book = #"{"version":1,"name":"a","# + Self.unknown + "}"
        let json = key == "books" ? #"{"books":["# + book + "]}" : #"{"book":"# + book + "}"
        let shelf = try PathBookshelf(json: Self.data(json))
        #expect((key == "books" ? shelf.books.first : shelf.book)?.title == "a")
        Self.expectKept(try shelf.jsonString(), "nested upgrade")
    }

    @Test func aDocumentWithReferences() throws {
        let json = #"{"$id":"1","title":"root","kids":[{"title":"kid","parent":{"$ref":"1"},"#
            + Self.unknown + "}]," + Self.unknown + "}"
        let model = try PathNode(json: Self.data(json))
        #expect(model.kids.first?.parent === model)
        let saved = try model.jsonString()
        Self.expectKept(saved, "references")
        // Both the root's and the kid's members.
        #expect(saved.components(separatedBy: #""w":1.10"#).count == 3)
    }

    @Test func aBagKeyThatBeginsWithADollar() throws {
        let model = try PathPlain(json: Self.data(#"{"title":"a","$$id":"x","# + Self.unknown + "}"))
        let saved = try model.jsonString()
        Self.expectKept(saved, "$$id")
        #expect(saved.contains(#""$$id":"x""#))
    }

    @Test func anArrayOfModels() throws {
        let models = try [PathRated](json: Self.data("[" + #"{"title":"a","# + Self.unknown + "}," + #"{"title":"b"}]"#))
        #expect(models.count == 2)
        Self.expectKept(try models.jsonString(), "array")
        Self.expectKept(try models[0].jsonString(), "array element")
    }

    @Test func theStaticAndInPlaceMerges() throws {
        let base = try PathRated(json: Self.data(#"{"title":"a","rating":1,"# + Self.unknown + "}"))
        let ours = base.copy()
        ours.title = "ours"
        let theirs = base.copy()
        theirs.rating = 4
        let result = try PathRated.merge(base: base, ours: ours, theirs: theirs)
        #expect(result.conflicts.isEmpty)
        #expect(result.merged.title == "ours" && result.merged.rating == 4)
        Self.expectKept(try result.merged.jsonString(), "static merge")

        let live = ours.copy()
        _ = try live.merge(base: base, theirs: theirs)
        #expect(live.rating == 4)
        Self.expectKept(try live.jsonString(), "in-place merge")
    }

    @Test func aPatchAndAMergePatch() throws {
        let model = try PathRated(json: Self.data(#"{"title":"a","rating":1,"# + Self.unknown + "}"))
        try model.apply(JSONPatch(json: Self.data(#"[{"op":"replace","path":"/title","value":"b"}]"#)))
        Self.expectKept(try model.jsonString(), "patch")
        try model.apply(JSONMergePatch(json: Self.data(#"{"rating":2}"#)))
        Self.expectKept(try model.jsonString(), "merge patch")
        #expect(model.title == "b" && model.rating == 2)
    }

    @Test func aCopy() throws {
        let model = try PathRated(json: Self.data(#"{"title":"a","rating":1,"# + Self.unknown + "}"))
        Self.expectKept(try model.copy().jsonString(), "copy")
    }

    /// A member whose value an upgrade changes is written as its new value.
    @Test func aMemberAnUpgradeChangesLosesItsText() throws {
        final class Scaled: ModelObject, @unchecked Sendable {
            override class var version: Int { 2 }
            override class func upgrade(_ values: inout [String: ModelValue], from version: Int) throws {
                if case .double(let value)? = values["w"] { values["w"] = .double(value * 2) }
            }
            @Saved var title = ""
        }
        let model = try Scaled(json: Self.data(#"{"version":1,"w":1.10,"v":1.10}"#))
        let saved = try model.jsonString()
        #expect(saved.contains(#""w":2.2"#))
        #expect(saved.contains(#""v":1.10"#))
    }
}
