import Foundation
import Testing

@testable import ModelKit

/// A leaf whose hook logs it and changes a saved value, which must not be
/// recorded as a change of a model the load made.
final class HookOrderLeaf: ModelObject, @unchecked Sendable {
    @Saved var name = ""
    @Saved var seen = false

    override func didLoad() {
        super.didLoad()
        LoadLogging.log?.append("leaf \(name)")
        seen = true
    }
}

/// A node with a model, an optional model, an array of models (and, in
/// `byKey`, other nodes: a dictionary of models), and no rules or upgrades:
/// `init(json:)` reads it with the direct decoder, whose list of the
/// models it made stands in for the walk that finds them, when it can
/// vouch for that list (not where a dictionary of models is).
class HookOrderNode: ModelObject, @unchecked Sendable {
    @Saved var name = ""
    @Saved var first = HookOrderLeaf()
    @Saved var maybe: HookOrderLeaf? = nil
    @Saved var kids: [HookOrderNode] = []
    @Saved var seen = false

    override func didLoad() {
        super.didLoad()
        LoadLogging.log?.append("node \(name)")
        seen = true
    }
}

/// A node that also holds a dictionary of models.
final class HookOrderMapNode: HookOrderNode, @unchecked Sendable {
    @Saved var byKey: [String: HookOrderLeaf] = [:]
}

@Suite("didLoad() order on the direct JSON path")
struct DidLoadOrderTests {
    /// Documents and the hooks their load must run: children before parents,
    /// siblings in the order of their slots (not of the document's members),
    /// every model the new graph holds (a default model too), once.
    static let cases: [(name: String, json: String, hooks: [String])] = [
        (
            "members in slot order",
            #"{"name":"root","first":{"name":"a"},"maybe":{"name":"b"},"kids":[{"name":"k1","first":{"name":"c"}},{"name":"k2"}]}"#,
            ["leaf a", "leaf b", "leaf c", "node k1", "leaf ", "node k2", "node root"]
        ),
        (
            "members in reverse slot order",
            #"{"kids":[{"first":{"name":"c"},"name":"k1"}],"maybe":{"name":"b"},"first":{"name":"a"},"name":"root"}"#,
            ["leaf a", "leaf b", "leaf c", "node k1", "node root"]
        ),
        (
            "a default model no member replaces",
            #"{"name":"root","kids":[{"name":"k1","first":{"name":"c"}}]}"#,
            ["leaf ", "leaf c", "node k1", "node root"]
        ),
        (
            "null and empty members",
            #"{"name":"root","first":{"name":"a"},"maybe":null,"kids":[]}"#,
            ["leaf a", "node root"]
        ),
        (
            "an empty document",
            "{}",
            ["leaf ", "node "]
        ),
        (
            "unknown keys kept",
            #"{"name":"root","extra":[1,2],"first":{"name":"a","more":{"x":1.50}}}"#,
            ["leaf a", "node root"]
        ),
        (
            "deep",
            #"{"name":"1","first":{"name":"l1"},"kids":[{"name":"2","first":{"name":"l2"},"kids":[{"name":"3","first":{"name":"l3"}}]}]}"#,
            ["leaf l1", "leaf l2", "leaf l3", "node 3", "node 2", "node 1"]
        ),
    ]

    /// The hooks a load runs, and the loaded node.
    static func hooks(_ load: () throws -> HookOrderNode) throws -> ([String], HookOrderNode) {
        let log = LoadLog()
        let node = try LoadLogging.$log.withValue(log) { try load() }
        return (log.calls, node)
    }

    /// Every model of `node`'s graph.
    static func models(of node: HookOrderNode) -> [ModelObject] {
        var found: [ModelObject] = []
        ModelObject.forEachModelChildrenFirst(from: [node]) { found.append($0) }
        return found
    }

    @Test(arguments: cases.indices)
    func theDirectPathHooksWhatTheWalkFindsInItsOrder(_ index: Int) throws {
        let (name, json, expected) = Self.cases[index]
        let (direct, node) = try Self.hooks { try HookOrderNode(json: Data(json.utf8)) }
        #expect(direct == expected, "\(name)")
        // The ModelValue path finds the models by walking the graph.
        let (walked, _) = try Self.hooks { try HookOrderNode(modelValue: ModelValue(json: Data(json.utf8))) }
        #expect(direct == walked, "\(name)")
        // Each hook ran on the model (it set `seen`), and what it changed
        // is not a change of a model the load made.
        let models = Self.models(of: node)
        #expect(models.count == expected.count, "\(name)")
        for model in models {
            #expect(model.value(forKey: "seen") as? Bool == true, "\(name): \(model)")
        }
        #expect(!node.hasAnyChanges, "\(name)")
    }

    /// A subclass's slots come before its superclass's (its properties are
    /// made first), so `byKey`'s models are hooked before `first`'s.
    @Test(arguments: [
        (#"{"name":"root","first":{"name":"a"},"byKey":{"x":{"name":"x"}}}"#, ["leaf x", "leaf a", "node root"]),
        (#"{"byKey":{"x":{"name":"x"}},"first":{"name":"a"},"name":"root"}"#, ["leaf x", "leaf a", "node root"]),
        (#"{"name":"root","byKey":{}}"#, ["leaf ", "node root"]),
        (
            #"{"name":"root","kids":[{"type":"HookOrderMapNode","name":"k","byKey":{"y":{"name":"y"}}}]}"#,
            ["leaf ", "leaf y", "leaf ", "node k", "node root"]
        ),
    ])
    func aDictionaryOfModelsIsHookedAsTheWalkFindsIt(_ json: String, _ expected: [String]) throws {
        ModelObject.register(HookOrderMapNode.self)
        let (direct, node) = try Self.hooks { try HookOrderMapNode(json: Data(json.utf8)) }
        #expect(direct == expected)
        let (walked, _) = try Self.hooks { try HookOrderMapNode(modelValue: ModelValue(json: Data(json.utf8))) }
        #expect(direct == walked)
        #expect(!node.hasAnyChanges)
    }

    @Test func aFailedDirectLoadLeavesNoListForTheNextLoad() throws {
        // The first document fails to load; the next load on the thread
        // must hook its own models only.
        #expect(throws: ModelError.self) { try HookOrderNode(json: Data(#"{"first":{"name":1}}"#.utf8)) }
        let (hooks, _) = try Self.hooks { try HookOrderNode(json: Data(#"{"name":"r","first":{"name":"a"}}"#.utf8)) }
        #expect(hooks == ["leaf a", "node r"])
    }

    @Test func aLoadInsideAHookRunsItsOwnHooks() throws {
        let log = LoadLog()
        final class Loader: ModelObject, @unchecked Sendable {
            @Saved var name = ""
            var loaded: HookOrderNode?
            override func didLoad() {
                super.didLoad()
                LoadLogging.log?.append("loader \(name)")
                loaded = try? HookOrderNode(json: Data(#"{"name":"inner","first":{"name":"i"}}"#.utf8))
            }
        }
        let loader = try LoadLogging.$log.withValue(log) { try Loader(json: Data(#"{"name":"outer"}"#.utf8)) }
        #expect(log.calls == ["loader outer", "leaf i", "node inner"])
        #expect(loader.loaded?.first.name == "i")
    }
}
