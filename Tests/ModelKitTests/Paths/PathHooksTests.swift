import Foundation
import ModelKit
import Testing

/// A tree whose `didLoad()` calls are logged by name.
final class HookedTree: ModelObject, @unchecked Sendable {
    @Saved var name = ""
    @Saved var kids: [HookedTree] = []
    override func didLoad() {
        super.didLoad()
        LoadLogging.log?.append(name)
    }
}

/// `didLoad()` runs on exactly the models a load made or edited, children
/// first, on every path that loads into a live model; and each user action
/// on a tracked model is one undo step.
@Suite struct PathHooksTests {
    /// root → [a, b → [c]]
    static func tree() throws -> HookedTree {
        try LoadLogging.$log.withValue(nil) {
            try HookedTree(
                json: Data(#"{"name":"root","kids":[{"name":"a"},{"name":"b","kids":[{"name":"c"}]}]}"#.utf8))
        }
    }

    static func logged(_ body: () throws -> Void) rethrows -> [String] {
        let log = LoadLog()
        try LoadLogging.$log.withValue(log) { try body() }
        return log.calls
    }

    @Test func aPatchHooksTheModelsItEditsAndNoOthers() throws {
        let cases: [(patch: String, hooked: [String])] = [
            (#"[{"op":"replace","path":"/kids/0/name","value":"a2"}]"#, ["a2", "root"]),
            (#"[{"op":"replace","path":"/kids/1/name","value":"b2"}]"#, ["b2", "root"]),
            (#"[{"op":"replace","path":"/kids/1/kids/0/name","value":"c2"}]"#, ["c2", "root"]),
            (#"[{"op":"add","path":"/kids/-","value":{"name":"d"}}]"#, ["d", "root"]),
            (#"[{"op":"replace","path":"/name","value":"top"}]"#, ["top"]),
        ]
        for (patch, hooked) in cases {
            let root = try Self.tree()
            let calls = try Self.logged { try root.apply(JSONPatch(json: Data(patch.utf8))) }
            #expect(calls == hooked, "\(patch)")
        }
    }

    @Test func aMergePatchHooksTheModelsItEdits() throws {
        let root = try Self.tree()
        let calls = try Self.logged { try root.apply(JSONMergePatch(json: Data(#"{"name":"top"}"#.utf8))) }
        #expect(calls == ["top"])
    }

    /// A model a `.resolve` closure loads is hooked, in the in-place merge
    /// as in the static one.
    @Test func aModelTheResolutionLoadsIsHooked() throws {
        for inPlace in [false, true] {
            let base = try Self.tree()
            let ours = base.copy(), theirs = base.copy()
            ours.name = "ours"
            theirs.name = "theirs"
            let policy = MergePolicy.resolve { _ in
                .string(try HookedTree(json: Data(#"{"name":"resolved"}"#.utf8)).name)
            }
            let calls = try Self.logged {
                if inPlace {
                    _ = try ours.merge(base: base, theirs: theirs, policy: policy)
                } else {
                    _ = try HookedTree.merge(base: base, ours: ours, theirs: theirs, policy: policy)
                }
            }
            #expect(calls.first == "resolved", "in place: \(inPlace)")
        }
    }

    /// A patch that edits the root and nested models, then one undo: back
    /// where it started, with nothing more to undo.
    @Test func aPatchIsOneUndoStep() throws {
        let root = try Self.tree()
        let before = try root.jsonString()
        let history = ModelHistory(tracking: root)
        try root.apply(
            JSONPatch(
                json: Data(
                    #"[{"op":"replace","path":"/name","value":"top"},{"op":"replace","path":"/kids/0/name","value":"a2"},{"op":"add","path":"/kids/-","value":{"name":"d"}}]"#
                        .utf8)))
        #expect(root.kids.count == 3)
        try history.undo()
        #expect(try root.jsonString() == before)
        #expect(!history.canUndo)
        try history.redo()
        #expect(root.name == "top" && root.kids.map(\.name) == ["a2", "b", "d"])
    }

    @Test func aMergePatchIsOneUndoStep() throws {
        let root = try Self.tree()
        let before = try root.jsonString()
        let history = ModelHistory(tracking: root)
        try root.apply(JSONMergePatch(json: Data(#"{"name":"top","kids":[{"name":"x"}]}"#.utf8)))
        try history.undo()
        #expect(try root.jsonString() == before)
        #expect(!history.canUndo)
    }
}
