import Foundation
import Synchronization
import Testing

@testable import ModelKit

/// A tree whose children point back at their parent, weakly.
final class TreeNode: ModelObject, @unchecked Sendable {
    @Saved var name = ""
    @Saved(reference: .weak) var parent: TreeNode? = nil
    @Saved var children: [TreeNode] = []
    deinit { freedTreeNodes.add(1, ordering: .relaxed) }

    static func tree(children count: Int) -> TreeNode {
        let root = TreeNode()
        root.name = "root"
        root.children = (0..<count).map { index in
            let child = TreeNode()
            child.name = "child \(index)"
            child.parent = root
            return child
        }
        return root
    }
}

let freedTreeNodes = Atomic<Int>(0)

/// `@Saved(reference: .weak)`: parent back-references that keep nothing
/// alive, written as references and restored on load.
@Suite(.serialized) struct WeakReferenceTests {
    @Test func droppingTheRootFreesTheWholeTree() {
        let before = freedTreeNodes.load(ordering: .relaxed)
        do {
            let root = TreeNode.tree(children: 1_000)
            #expect(root.children[999].parent === root)
        }
        #expect(freedTreeNodes.load(ordering: .relaxed) - before == 1_001)
    }

    @Test func aWeakReferenceReadsNilOnceItsModelIsFreed() {
        let child = TreeNode()
        do {
            let parent = TreeNode()
            child.parent = parent
            #expect(child.parent === parent)
            #expect(child.hasChanges)
        }
        #expect(child.parent == nil)
    }

    @Test(arguments: ["json", "xml", "binary", "dictionary", "value"])
    func aParentIsWrittenAsAReferenceAndRestoredOnLoad(format: String) throws {
        let root = TreeNode.tree(children: 3)
        let back: TreeNode
        switch format {
        case "json":
            let text = try root.jsonString()
            #expect(text.hasPrefix(#"{"$id":"1","type":"TreeNode","version":1,"name":"root","parent":null,"#))
            #expect(text.contains(#""name":"child 2","parent":{"$ref":"1"},"children":[]"#))
            back = try TreeNode(json: Data(text.utf8))
        case "xml": back = try TreeNode(propertyList: root.propertyListData(format: .xml))
        case "binary": back = try TreeNode(propertyList: root.propertyListData(format: .binary))
        case "dictionary": back = try TreeNode(dictionary: root.dictionary)
        default: back = try TreeNode.decoded(from: root.modelValue)
        }
        #expect(back.children.count == 3)
        #expect(back.children.allSatisfy { $0.parent === back })
        #expect(back.parent == nil)
        #expect(back.isEquivalent(to: root))
        #expect(!back.hasAnyChanges)
    }

    @Test func aModelWrittenOutsideTheDocumentIsNull() throws {
        let root = TreeNode.tree(children: 1)
        let child = root.children[0]
        // Written alone, the child's parent is not in the document.
        #expect(try child.jsonString() == #"{"type":"TreeNode","version":1,"name":"child 0","parent":null,"children":[]}"#)
    }

    @Test func aCopyPointsAtTheCopiedParent() {
        let root = TreeNode.tree(children: 2)
        let copy = root.copy()
        #expect(copy.children.allSatisfy { $0.parent === copy })
        #expect(copy.isEquivalent(to: root))
        // A copy of a child alone keeps pointing at the original parent.
        #expect(root.children[0].copy().parent === root)
    }

    @Test func equivalenceComparesWhatTheReferencesName() {
        let a = TreeNode.tree(children: 1)
        let b = TreeNode.tree(children: 1)
        #expect(a.isEquivalent(to: b))
        b.children[0].parent = nil
        #expect(!a.isEquivalent(to: b))
    }

    @Test(arguments: [
        (#"{"parent":{"name":"orphan"}}"#,
            #"parent: expected a reference ({"$ref": id}) or null for a weak reference to a TreeNode, found an object with 1 key"#),
        (#"{"parent":5}"#, "parent: expected a reference to a TreeNode or null, found an integer (5)"),
        (#"{"parent":{"$ref":"9"}}"#, #"parent.$ref: no model in the document has the id "9""#),
    ])
    func badWeakReferencesAreErrorsNamingTheKeyPath(json: String, message: String) {
        do {
            _ = try TreeNode(json: Data(json.utf8))
            Issue.record("expected an error")
        } catch let error as ModelError {
            #expect(error.description == message)
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func keyValueAccessReadsAndSetsTheModel() throws {
        let root = TreeNode.tree(children: 1)
        let child = root.children[0]
        #expect(child.value(forKey: "parent") as? TreeNode === root)
        #expect(root.value(forKey: "children.0.parent.name") as? String == "root")
        child.clearChanges()
        try child.setValue(nil, forKey: "parent")
        #expect(child.parent == nil)
        try child.setValue(root, forKey: "parent")
        #expect(child.parent === root)
        #expect(child.changedKeys == ["parent"])
        let error = #expect(throws: ModelError.self) { try child.setValue("root", forKey: "parent") }
        #expect(error?.description == "parent: expected TreeNode?, found a value of type String")
    }

    @Test func aParentMutatedInPlaceIsWrittenBack() throws {
        let first = TreeNode()
        let second = TreeNode()
        let a = TreeNode()
        let b = TreeNode()
        a.parent = first
        b.parent = second
        a.clearChanges()
        b.clearChanges()
        swap(&a.parent, &b.parent)
        #expect(a.parent === second)
        #expect(b.parent === first)
        #expect(a.changedKeys == ["parent"])
        #expect(b.changedKeys == ["parent"])

        // A mutation that throws still writes back what it set.
        struct Stop: Error {}
        func replace(_ node: inout TreeNode?, with new: TreeNode?) throws {
            node = new
            throw Stop()
        }
        #expect(throws: Stop.self) { try replace(&a.parent, with: first) }
        #expect(a.parent === first)

        // Left as it was (the same model): no change.
        a.clearChanges()
        func leave(_ node: inout TreeNode?) {}
        leave(&a.parent)
        #expect(a.parent === first)
        #expect(!a.hasChanges)
    }

    @Test func observersHearAParentChange() {
        let child = TreeNode()
        let parent = TreeNode()
        let heard = Mutex<[String]>([])
        let token = child.observe("parent") { change in
            heard.withLock { $0.append("\(change.key): \((change.newValue as? TreeNode)?.name ?? "nil")") }
        }
        parent.name = "p"
        child.parent = parent
        child.parent = parent  // the same model: no change
        child.parent = nil
        _ = token
        #expect(heard.withLock { $0 } == ["parent: p", "parent: nil"])
    }
}
