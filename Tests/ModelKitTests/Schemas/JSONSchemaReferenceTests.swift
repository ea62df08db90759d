import Foundation
import Testing

@testable import ModelKit

/// A graph class that rejects unknown keys, with every kind of reference:
/// a weak parent, a strong link that can close a cycle, models shared
/// between arrays and dictionaries.
class ReferenceTree: ModelObject, @unchecked Sendable {
    override class var unknownKeys: UnknownKeyPolicy { .reject }
    @Saved var name = ""
    @Saved(reference: .weak) var parent: ReferenceTree? = nil
    @Saved(reference: .weak) var buddy: ReferenceTree? = nil
    @Saved var next: ReferenceTree? = nil
    @Saved var children: [ReferenceTree] = []
    @Saved var byName: [String: ReferenceTree] = [:]
    @Saved var parts: [PolicyPart] = []
}

/// The same graph class, keeping unknown keys.
final class KeepingReferenceTree: ModelObject, @unchecked Sendable {
    @Saved var name = ""
    @Saved(reference: .weak) var parent: KeepingReferenceTree? = nil
    @Saved(reference: .weak) var buddy: KeepingReferenceTree? = nil
    @Saved var next: KeepingReferenceTree? = nil
    @Saved var children: [KeepingReferenceTree] = []
    @Saved var byName: [String: KeepingReferenceTree] = [:]
    @Saved var parts: [PolicyPart] = []
}

/// Every document ModelKit writes of a class validates against the class's
/// own standard schema, references included, `.reject` classes too.
@Suite(.enabled(if: PythonJSONSchema.isAvailable, "python3 with the jsonschema package is not installed"))
struct JSONSchemaReferenceTests {
    /// The documents of one graph shape, written every way ModelKit writes JSON.
    static func documents(of root: ModelObject) throws -> [(String, Data)] {
        var documents: [(String, Data)] = []
        for references in [ReferencePolicy.cycles, .shared] {
            for options in [JSONWritingOptions(), JSONWritingOptions(prettyPrinted: true, sortedKeys: true)] {
                var written = options
                written.references = references
                documents.append(("\(references), \(options.sortedKeys ? "sorted" : "compact")", try root.jsonData(options: written)))
            }
        }
        return documents
    }

    /// Graphs of `Tree`: a weak parent, a cycle of strong links, shared
    /// models with weak references to siblings and cousins, all three.
    static func graphs<Tree: ModelObject>(
        _ make: (String) -> Tree, link: (Tree, _ parent: Tree?, _ buddy: Tree?, _ next: Tree?) -> Void,
        children: (Tree, [Tree], [String: Tree]) -> Void
    ) -> [(String, Tree)] {
        // A weak parent.
        let root = make("root"), a = make("a"), b = make("b")
        children(root, [a, b], [:])
        link(a, root, nil, nil)
        link(b, root, a, nil)
        // A cycle.
        let x = make("x"), y = make("y")
        link(x, nil, nil, y)
        link(y, nil, nil, x)
        // Shared models, weak references to a later sibling and a cousin.
        let top = make("top"), left = make("left"), right = make("right"), shared = make("shared")
        children(top, [left, right], ["s": shared])
        children(left, [shared], [:])
        children(right, [shared], ["again": shared])
        link(left, top, right, nil)
        link(shared, left, right, nil)
        link(right, top, shared, left)
        return [("a weak parent", root), ("a cycle", x), ("shared references", top)]
    }

    static func judge(_ type: ModelObject.Type, _ graphs: [(String, ModelObject)]) throws {
        var documents: [Data] = []
        var labels: [String] = []
        for (name, graph) in graphs {
            for (how, data) in try Self.documents(of: graph) {
                documents.append(data)
                labels.append("\(name), \(how)")
            }
        }
        #expect(documents.contains { String(decoding: $0, as: UTF8.self).contains("\"$id\"") })
        #expect(documents.contains { String(decoding: $0, as: UTF8.self).contains("\"$ref\"") })
        let verdict = try PythonJSONSchema.judge(schema: try type.jsonSchema(), documents: documents)
        #expect(verdict.schemaError == nil)
        #expect(verdict.valid.count == documents.count)
        for (offset, valid) in verdict.valid.enumerated() {
            #expect(valid, "\(labels[offset]): \(String(decoding: documents[offset], as: UTF8.self))")
        }
    }

    @Test func documentsOfARejectingClassValidateAgainstItsSchema() throws {
        let graphs = Self.graphs(
            { name -> ReferenceTree in
                let tree = ReferenceTree()
                tree.name = name
                tree.parts = [PolicyPart()]
                return tree
            },
            link: { tree, parent, buddy, next in
                tree.parent = parent
                tree.buddy = buddy
                tree.next = next
            },
            children: { tree, children, byName in
                tree.children = children
                tree.byName = byName
            })
        defer { graphs.forEach { $0.1.next?.next = nil } }
        try Self.judge(ReferenceTree.self, graphs)
    }

    @Test func documentsOfAKeepingClassValidateAgainstItsSchema() throws {
        let graphs = Self.graphs(
            { name -> KeepingReferenceTree in
                let tree = KeepingReferenceTree()
                tree.name = name
                try? tree.setExtensibleProperty("kept", forKey: "$id")  // written as "$$id"
                return tree
            },
            link: { tree, parent, buddy, next in
                tree.parent = parent
                tree.buddy = buddy
                tree.next = next
            },
            children: { tree, children, byName in
                tree.children = children
                tree.byName = byName
            })
        defer { graphs.forEach { $0.1.next?.next = nil } }
        try Self.judge(KeepingReferenceTree.self, graphs)
    }

    /// The schema still refuses what ModelKit refuses around references.
    @Test(arguments: [
        (#"{"children":[{"$ref":1}]}"#, false),
        (#"{"children":[{"$ref":"1","name":"x"}]}"#, false),
        (#"{"$id":5}"#, false),
        (#"{"$id":"1","children":[{"$ref":"1"}],"parent":{"$ref":"1"}}"#, true),
        (#"{"parent":{"name":"x"}}"#, false),
    ])
    func aRejectingSchemaRefusesMalformedReferences(json: String, valid: Bool) throws {
        let verdict = try PythonJSONSchema.judge(schema: try ReferenceTree.jsonSchema(), documents: [Data(json.utf8)])
        #expect(verdict.valid == [valid])
        let loaded = try? ReferenceTree(json: Data(json.utf8))
        #expect((loaded != nil) == valid)
        // The valid document is a cycle through `children`: break it, or the tree leaks.
        loaded?.children = []
    }
}
