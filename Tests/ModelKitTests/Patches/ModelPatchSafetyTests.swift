import Foundation
import Testing

@testable import ModelKit

/// An item whose version-1 scores were out of 10 rather than 100.
final class ScoredItem: ModelObject, @unchecked Sendable {
    @Saved var title = ""
    @Saved var score = 0

    override class var version: Int { 2 }
    override class func upgrade(_ values: inout [String: ModelValue], from version: Int) throws {
        if version == 1, let score = values["score"]?.intValue { values["score"] = .int(score * 10) }
    }
}

final class ScoreBoard: ModelObject, @unchecked Sendable {
    @Saved var items: [ScoredItem] = []
    @Saved var best: ScoredItem? = nil
    @Saved var byName: [String: ScoredItem] = [:]
    @Saved var rounds: [[ScoredItem]] = []
}

/// Patches on live models: nested models keep their metadata and saved keys,
/// untouched models stay the same objects, and keys that differ only by
/// Unicode normalisation stay two keys.
@Suite struct ModelPatchSafetyTests {
    static func board() throws -> ScoreBoard {
        try ScoreBoard(
            json: Data(
                #"""
                {"items":[{"title":"a","score":7},{"title":"b","score":8},{"title":"c","score":9}],
                 "best":{"title":"b","score":8},
                 "byName":{"x":{"title":"x","score":1},"y":{"title":"y","score":2}},
                 "rounds":[[{"title":"r1","score":3}],[{"title":"r2","score":4},{"title":"r3","score":5}]]}
                """#.utf8))
    }

    static let refused: [(String, String)] = [
        (
            #"[{"op":"replace","path":"/items/0/version","value":1}]"#,
            #"operation 0 (replace /items/0/version): "version" is a metadata key of the ScoredItem at /items/0, written by ModelKit; a patch may test it but not change or remove it"#
        ),
        (
            #"[{"op":"replace","path":"/best/version","value":5}]"#,
            #"operation 0 (replace /best/version): "version" is a metadata key of the ScoredItem at /best, written by ModelKit; a patch may test it but not change or remove it"#
        ),
        (
            #"[{"op":"remove","path":"/rounds/1/0/type"}]"#,
            #"operation 0 (remove /rounds/1/0/type): "type" is a metadata key of the ScoredItem at /rounds/1/0, written by ModelKit; a patch may test it but not change or remove it"#
        ),
        (
            #"[{"op":"add","path":"/byName/x/version","value":1}]"#,
            #"operation 0 (add /byName/x/version): "version" is a metadata key of the ScoredItem at /byName/x, written by ModelKit; a patch may test it but not change or remove it"#
        ),
        (
            #"[{"op":"remove","path":"/items/0/title"}]"#,
            #"operation 0 (remove /items/0/title): "title" is a saved key of the ScoredItem at /items/0 and cannot be removed; replace its value instead"#
        ),
        (
            #"[{"op":"move","from":"/best/score","path":"/best/points"}]"#,
            #"operation 0 (move /best/score to /best/points): "score" is a saved key of the ScoredItem at /best and cannot be removed; replace its value instead"#
        ),
        (
            #"[{"op":"copy","from":"/items/0/title","path":"/items/1/type"}]"#,
            #"operation 0 (copy /items/0/title to /items/1/type): "type" is a metadata key of the ScoredItem at /items/1, written by ModelKit; a patch may test it but not change or remove it"#
        ),
    ]

    @Test(arguments: refused)
    func aPatchCannotChangeANestedModelsMetadataOrRemoveItsSavedKeys(patch: String, message: String) throws {
        let board = try Self.board()
        let before = try board.jsonString()
        let error = try #require(Result { try board.apply(JSONPatch(json: patch)) }.failure as? ModelError)
        #expect(error.description == message)
        #expect(try board.jsonString() == before)
        #expect(!board.hasAnyChanges)
    }

    @Test func testingNestedMetadataAndSettingItUnchangedAreAllowed() throws {
        let board = try Self.board()
        try board.apply(
            JSONPatch(
                json: #"""
                    [{"op":"test","path":"/items/0/version","value":2},{"op":"replace","path":"/items/0/version","value":2},
                     {"op":"replace","path":"/items/0/score","value":70},{"op":"add","path":"/items/-","value":{"title":"old","score":3,"version":1}}]
                    """#))
        // Only the new item, version-1 data, is upgraded.
        #expect(board.items.map(\.score) == [70, 8, 9, 30])
    }

    static let refusedMerges: [(String, String)] = [
        (
            #"{"best":{"version":1}}"#,
            #"the merge patch is not allowed: "version" is a metadata key of the ScoredItem at /best, written by ModelKit; a patch may test it but not change or remove it"#
        ),
        (
            #"{"byName":{"y":{"title":null}}}"#,
            #"the merge patch is not allowed: "title" is a saved key of the ScoredItem at /byName/y and cannot be set to null; replace its value instead"#
        ),
    ]

    @Test(arguments: refusedMerges)
    func aMergePatchCannotChangeANestedModelsMetadata(patch: String, message: String) throws {
        let board = try Self.board()
        let before = try board.jsonString()
        let error = try #require(Result { try board.apply(JSONMergePatch(json: patch)) }.failure as? ModelError)
        #expect(error.description == message)
        #expect(try board.jsonString() == before)
    }

    @Test func modelsThePatchDoesNotTouchStayTheSameObjects() throws {
        let board = try Self.board()
        let items = board.items
        let best = try #require(board.best)
        let byName = board.byName
        let rounds = board.rounds
        let observed = Recorder()
        let token = items[1].observe(keys: nil) { observed.record($0) }
        defer { token.cancel() }

        try board.apply(
            JSONPatch(
                json: #"""
                    [{"op":"replace","path":"/items/1/title","value":"B"},{"op":"replace","path":"/byName/y/score","value":20},
                     {"op":"replace","path":"/rounds/1/1/score","value":50},{"op":"replace","path":"/best/title","value":"best"}]
                    """#))
        // Siblings in arrays, dictionaries and nested arrays, and the edited models themselves.
        #expect(zip(board.items, items).allSatisfy { $0 === $1 })
        #expect(board.best === best && best.title == "best")
        #expect(board.byName["x"] === byName["x"] && board.byName["y"] === byName["y"])
        #expect(board.byName["y"]?.score == 20)
        #expect(zip(board.rounds.joined(), rounds.joined()).allSatisfy { $0 === $1 })
        #expect(board.rounds[1][1].score == 50)
        // The edited model told its observers, and records its own change.
        #expect(observed.changes.map(\.key) == ["title"])
        #expect(items[1].changedKeys == ["title"] && items[0].changedKeys.isEmpty)
        #expect(board.changedKeys.isEmpty && board.hasAnyChanges)
    }

    @Test func insertionsAndRemovalsShiftModelsWithoutReplacingThem() throws {
        let board = try Self.board()
        let (a, b, c) = (board.items[0], board.items[1], board.items[2])
        try board.apply(JSONPatch(json: #"[{"op":"remove","path":"/items/0"}]"#))
        #expect(board.items.count == 2 && board.items[0] === b && board.items[1] === c)
        try board.apply(JSONPatch(json: #"[{"op":"add","path":"/items/0","value":{"title":"new"}}]"#))
        #expect(board.items.map(\.title) == ["new", "b", "c"])
        #expect(board.items[1] === b && board.items[2] === c && board.items[0] !== a)
        try board.apply(JSONPatch(json: #"[{"op":"move","from":"/items/2","path":"/items/0"}]"#))
        #expect(board.items[0] === c && board.items[2] === b)
        // An edit after a shift edits the model that was there.
        try board.apply(
            JSONPatch(json: #"[{"op":"remove","path":"/items/1"},{"op":"replace","path":"/items/1/score","value":99}]"#))
        #expect(board.items.count == 2 && board.items[0] === c && board.items[1] === b && b.score == 99)
    }

    @Test(arguments: [("\u{E9}", "e\u{301}"), ("\u{212B}", "\u{C5}")])
    func keysEqualToSwiftButNotToJSONSurviveUpgradesPatchesAndEveryFormat(nfc: String, other: String) throws {
        let keyA = ModelValue.quoted(nfc)
        let keyB = ModelValue.quoted(other)
        let json = #"{"version":1,"score":7,\#(keyA):1,\#(keyB):2}"#
        let item = try ScoredItem(json: Data(json.utf8))
        #expect(item.score == 70)
        // (`extensibleProperties` is a Swift dictionary, which cannot hold both.)
        #expect(try item.jsonString().contains(keyA) && item.jsonString().contains(keyB))
        #expect(item.extensibleProperty(forKey: nfc) == 1 && item.extensibleProperty(forKey: other) == 2)
        // Patches name one of the two.
        try item.apply(JSONPatch([.replace(path: JSONPointer(tokens: [other]), value: 3)]))
        #expect(item.extensibleProperty(forKey: nfc) == 1 && item.extensibleProperty(forKey: other) == 3)
        // Every format keeps both.
        let documents: [(Data, Bool)] = [
            (try item.jsonData(), true), (try item.propertyListData(format: .xml), false),
            (try item.propertyListData(format: .binary), false),
        ]
        for (data, isJSON) in documents {
            let again = isJSON ? try ScoredItem(json: data) : try ScoredItem(propertyList: data)
            #expect(try again.jsonString().contains(keyA) && again.jsonString().contains(keyB))
            #expect(again.extensibleProperty(forKey: nfc) == 1 && again.extensibleProperty(forKey: other) == 3)
        }
    }

    @Test func aPatchDeepInAChainOfModelsAppliesOnASmallStack() throws {
        // 400 notes, each the child of the one before; the patch edits the
        // deepest one's title and adds a tag to the one above it.
        let root = DeepGraphTests.chain(400)
        defer { DeepGraphTests.release(root) }
        var deepest = root
        while let next = deepest.child { deepest = next }
        let path = String(repeating: "/child", count: 399)
        let patch = try JSONPatch(
            json: #"[{"op":"replace","path":"\#(path)/title","value":"deep"},"#
                + #"{"op":"add","path":"\#(String(repeating: "/child", count: 398))/tags/-","value":"t"}]"#)
        let error = HostilePatchTests.onSmallStack { try root.apply(patch) }
        #expect(error == nil, "\(String(describing: error))")
        var last = root
        while let next = last.child { last = next }
        // The same objects, edited in place.
        #expect(last === deepest && deepest.title == "deep" && deepest.changedKeys == ["title"])
        // A patch past the nesting limit fails naming the operation, on the small stack too.
        let tooDeep = JSONPatch([.add(path: try JSONPointer(path + "/child"), value: HostilePatchTests.nestedObjects(200))])
        let failure = HostilePatchTests.onSmallStack { try root.apply(tooDeep) }
        #expect((failure as? ModelError)?.description.hasSuffix("the result would nest deeper than 512 levels") == true)
    }
}
