import Foundation
import Testing

@testable import ModelKit

/// A task that may wait for another anywhere on its board, and knows its group.
final class LinkedTask: ModelObject, @unchecked Sendable {
    @Saved var id = ""
    @Saved var title = ""
    @Saved(reference: .weak) var blockedBy: LinkedTask? = nil
    @Saved(reference: .weak) var group: TaskGroup? = nil
    override class var identityKey: String? { "id" }
}

final class TaskGroup: ModelObject, @unchecked Sendable {
    @Saved var id = ""
    @Saved var tasks: [LinkedTask] = []
    override class var identityKey: String? { "id" }
}

final class TaskBoard: ModelObject, @unchecked Sendable {
    @Saved var name = ""
    @Saved var groups: [TaskGroup] = []

    /// Adds a task to the group with `groupID`, its `group` set.
    @discardableResult
    func add(_ id: String, to groupID: String, at index: Int? = nil) -> LinkedTask {
        let group = groups.first { $0.id == groupID }!
        let task = LinkedTask()
        task.id = id
        task.title = id
        task.group = group
        group.tasks.insert(task, at: index ?? group.tasks.count)
        return task
    }

    func addGroup(_ id: String, at index: Int? = nil) {
        let group = TaskGroup()
        group.id = id
        groups.insert(group, at: index ?? groups.count)
    }

    func task(_ id: String) -> LinkedTask? { groups.lazy.flatMap(\.tasks).first { $0.id == id } }

    /// Each task's id and what it waits for, in order: `b<a` waits for `a`.
    var links: [String] {
        groups.flatMap(\.tasks).map { task in task.blockedBy.map { "\(task.id)<\($0.id)" } ?? task.id }
    }

    /// Whether every task's `group` is the group that holds it.
    var groupsAreRight: Bool { groups.allSatisfy { group in group.tasks.allSatisfy { $0.group === group } } }

    /// g1: a, b (b waits for a); g2: c.
    static func sample() -> TaskBoard {
        let board = TaskBoard()
        board.name = "Board"
        board.addGroup("g1")
        board.addGroup("g2")
        board.add("a", to: "g1")
        board.add("b", to: "g1").blockedBy = board.task("a")
        board.add("c", to: "g2")
        board.clearChanges()
        return board
    }
}

/// A tree whose arrays have no identity key: its nodes merge by position.
final class OutlineNode: ModelObject, @unchecked Sendable {
    @Saved var title = ""
    @Saved(reference: .weak) var parent: OutlineNode? = nil
    @Saved(reference: .weak) var link: OutlineNode? = nil
    @Saved var children: [OutlineNode] = []

    @discardableResult
    func add(_ title: String, at index: Int? = nil) -> OutlineNode {
        let node = OutlineNode()
        node.title = title
        node.parent = self
        children.insert(node, at: index ?? children.count)
        return node
    }

    /// Empties the tree's lists from the top, keeping every node until
    /// then, so that freeing a deep tree runs no deinit inside another.
    func releaseWithoutRecursion() {
        var nodes = [self]
        var index = 0
        while index < nodes.count {
            nodes.append(contentsOf: nodes[index].children)
            index += 1
        }
        for node in nodes { node.children = [] }
    }

    /// Whether every node's `parent` is the node that holds it.
    var parentsAreRight: Bool { children.allSatisfy { $0.parent === self && $0.parentsAreRight } }

    var outline: String {
        children.isEmpty ? title : title + "(" + children.map(\.outline).joined(separator: " ") + ")"
    }

    /// root(x(x1 x2) m y(y1))
    static func sample() -> OutlineNode {
        let root = OutlineNode()
        root.title = "root"
        let x = root.add("x")
        x.add("x1")
        x.add("x2")
        root.add("m")
        root.add("y").add("y1")
        return root
    }
}

/// Merges of models that refer to each other (`$id` and `$ref` in their
/// saved forms): ids are numbered in document order, so each side's
/// insertions renumber them; references must still name the same models.
@Suite struct MergeReferenceTests {
    /// A case: what each side does to the sample board, and what the merge gives.
    struct BoardCase: CustomTestStringConvertible, Sendable {
        let name: String
        let ours: @Sendable (TaskBoard) -> Void
        let theirs: @Sendable (TaskBoard) -> Void
        let links: [String]
        let conflicts: [String]
        var testDescription: String { name }
    }

    static let boardCases: [BoardCase] = [
        BoardCase(
            name: "a link kept where one side renamed the board", ours: { $0.name = "Renamed" }, theirs: { _ in },
            links: ["a", "b<a", "c"], conflicts: []),
        BoardCase(
            name: "both sides renumber: a group inserted first, a task added and linked across groups",
            ours: { board in
                board.addGroup("g0", at: 0)
                board.add("z", to: "g0")
                board.task("c")!.blockedBy = board.task("z")
            },
            theirs: { board in board.add("d", to: "g2").blockedBy = board.task("a") },
            links: ["z", "a", "b<a", "c<z", "d<a"], conflicts: []),
        BoardCase(
            name: "tasks moved between groups on one side, links added on the other",
            ours: { board in
                let a = board.groups[0].tasks.remove(at: 0)
                a.group = board.groups[1]
                board.groups[1].tasks.append(a)
            },
            theirs: { board in
                board.add("e", to: "g1", at: 0).blockedBy = board.task("c")
                board.task("c")!.blockedBy = board.task("b")
            },
            links: ["e<c", "b<a", "c<b", "a"], conflicts: []),
        BoardCase(
            name: "a link changed on both sides differently",
            ours: { board in board.task("b")!.blockedBy = board.task("c") },
            theirs: { board in
                board.add("d", to: "g1", at: 0)
                board.task("b")!.blockedBy = board.task("d")
            },
            links: ["d", "a", "b<c", "c"],
            conflicts: [
                #"groups[0].tasks[2].blockedBy: base {"$ref":"groups[id=\"g1\"].tasks[id=\"a\"]"}, "#
                    + #"ours {"$ref":"groups[id=\"g2\"].tasks[id=\"c\"]"}, "#
                    + #"theirs {"$ref":"groups[id=\"g1\"].tasks[id=\"d\"]"}"#
            ]),
        BoardCase(
            name: "a link to a task the other side removed",
            ours: { board in board.groups[0].tasks.removeAll { $0.id == "a" } },
            theirs: { board in board.task("c")!.blockedBy = board.task("a") },
            links: ["b", "c"],
            conflicts: [
                #"groups[1].tasks[0].blockedBy (names a removed model): {"$ref":"groups[id=\"g1\"].tasks[id=\"a\"]"}"#,
            ]),
    ]

    @Test(arguments: boardCases)
    func boards(_ test: BoardCase) throws {
        let base = TaskBoard.sample()
        let ours = base.copy(), theirs = base.copy()
        test.ours(ours)
        test.theirs(theirs)
        let before = try [base, ours, theirs].map { try $0.jsonString(options: [.sorted]) }

        let result = try TaskBoard.merge(base: base, ours: ours, theirs: theirs)
        #expect(result.merged.links == test.links)
        #expect(result.merged.groupsAreRight)
        #expect(result.conflicts.map(\.description) == test.conflicts)
        #expect(try [base, ours, theirs].map { try $0.jsonString(options: [.sorted]) } == before)

        // In place: the same result, the tasks it kept the same objects.
        let live = ours.copy()
        let kept = Dictionary(uniqueKeysWithValues: live.groups.flatMap(\.tasks).map { ($0.id, $0) })
        let conflicts = try live.merge(base: base, theirs: theirs)
        #expect(conflicts.map(\.description) == test.conflicts)
        #expect(live.links == test.links)
        #expect(live.groupsAreRight)
        for task in live.groups.flatMap(\.tasks) where kept[task.id] != nil && base.task(task.id) != nil {
            #expect(kept[task.id] === task, "\(task.id) is a new object")
        }
    }

    @Test func conflictsOfLinksFollowThePolicy() throws {
        let base = TaskBoard.sample()
        let ours = base.copy(), theirs = base.copy()
        ours.task("b")!.blockedBy = ours.task("c")
        theirs.task("b")!.blockedBy = nil
        #expect(try TaskBoard.merge(base: base, ours: ours, theirs: theirs).merged.links == ["a", "b<c", "c"])
        #expect(
            try TaskBoard.merge(base: base, ours: ours, theirs: theirs, policy: .theirs).merged.links == [
                "a", "b", "c",
            ])
        let pickA = try TaskBoard.merge(
            base: base, ours: ours, theirs: theirs, policy: .resolve { $0.base })
        #expect(pickA.merged.links == ["a", "b<a", "c"])
        #expect(throws: ModelError.self) { try TaskBoard.merge(base: base, ours: ours, theirs: theirs, policy: .fail) }

        // A removed target under .fail: the dangling link is a conflict too.
        let removing = base.copy(), linking = base.copy()
        removing.groups[1].tasks.removeAll()
        linking.task("a")!.blockedBy = linking.task("c")
        let error = #expect(throws: ModelError.self) {
            try TaskBoard.merge(base: base, ours: removing, theirs: linking, policy: .fail)
        }
        #expect(error?.code == .mergeConflict)
        #expect(error?.message.contains(#"groups[0].tasks[0].blockedBy (names a removed model): {"$ref":"#) == true)
    }

    /// A resolution may give any value: a reference naming no model (a raw
    /// id, a way that leads nowhere, one too far up) leaves a weak link
    /// `nil`, reported; an `"$id"` of its own is dropped, never shared with
    /// the ids the merge gives.
    @Test(arguments: [
        [ReferenceKeys.ref: "1"], [ReferenceKeys.ref: "groups[id=\"nope\"]"], [ReferenceKeys.ref: "^99"],
        [ReferenceKeys.ref: .int(3)],
    ] as [ModelValue])
    func resolutionsThatNameNoModel(_ resolution: ModelValue) throws {
        let base = TaskBoard.sample()
        let ours = base.copy(), theirs = base.copy()
        ours.task("b")!.blockedBy = ours.task("c")
        theirs.task("b")!.blockedBy = nil
        let result = try TaskBoard.merge(base: base, ours: ours, theirs: theirs, policy: .resolve { _ in resolution })
        #expect(result.merged.links == ["a", "b", "c"])
        #expect(result.merged.groupsAreRight)
        #expect(result.conflicts.map(\.kind) == [.changedOnBothSides, .removedTarget])
    }

    /// `"$id"` and `"$ref"` inside values that hold no models (a
    /// `ModelValue` property, an extensible property) are data: a merge
    /// leaves them as they are, beside real references.
    @Test func referenceShapedDataIsData() throws {
        let base = TaskBoard.sample()
        let schema: ModelValue = ["$id": "urn:task", "items": ["$ref": "#/$defs/task"], "list": [["$ref": "1"]]]
        try base.setExtensibleProperty(schema, forKey: "schema")
        try base.groups[0].tasks[0].setExtensibleProperty(["$ref": "elsewhere"], forKey: "note")
        let ours = base.copy(), theirs = base.copy()
        ours.addGroup("g0", at: 0)
        try ours.setExtensibleProperty(["$ref": "#/$defs/other", "$id": "urn:mine"], forKey: "extra")
        theirs.add("d", to: "g1", at: 0).blockedBy = theirs.task("c")
        let result = try TaskBoard.merge(base: base, ours: ours, theirs: theirs)
        #expect(result.conflicts.isEmpty)
        #expect(result.merged.extensibleProperty(forKey: "schema") == schema)
        #expect(result.merged.extensibleProperty(forKey: "extra") == ["$ref": "#/$defs/other", "$id": "urn:mine"])
        #expect(result.merged.task("a")?.extensibleProperty(forKey: "note") == ["$ref": "elsewhere"])
        #expect(result.merged.links == ["d<c", "a", "b<a", "c"])
        #expect(result.merged.groupsAreRight)
    }

    /// Parents are named by how far up they are, so a tree without identity
    /// keys merges insertions on both sides with every parent right.
    @Test func parentsInATreeMergedByPosition() throws {
        let base = OutlineNode.sample()
        let ours = base.copy(), theirs = base.copy()
        ours.add("w", at: 0).add("w1")
        ours.children[1].children[0].title = "x1!"
        theirs.children[2].add("y0", at: 0)
        theirs.children[2].children[1].add("y11")
        let result = try OutlineNode.merge(base: base, ours: ours, theirs: theirs)
        #expect(result.conflicts.isEmpty)
        #expect(result.merged.outline == "root(w(w1) x(x1! x2) m y(y0 y1(y11)))")
        #expect(result.merged.parentsAreRight)
        let conflicts = try ours.merge(base: base, theirs: theirs)
        #expect(conflicts.isEmpty)
        #expect(ours.outline == "root(w(w1) x(x1! x2) m y(y0 y1(y11)))")
        #expect(ours.parentsAreRight)
    }

    /// A deep tree with a parent at every level merges on a thread with a
    /// small stack (512 KiB), every parent right, with edits at both ends
    /// of the chain.
    @Test func aDeepTreeMergesOnASmallStack() {
        DeepGraphTests.onThread(stackSize: DeepGraphTests.smallStack) {
            let base = OutlineNode()
            base.title = "0"
            var node = base
            for level in 1..<200 { node = node.add("\(level)") }
            base.add("b")
            base.add("c")
            let ours = base.copy(), theirs = base.copy()
            var deepest = ours
            while let child = deepest.children.first { deepest = child }
            deepest.title = "deepest"
            ours.add("x")
            theirs.children[0].children[0].children[0].children[0].title = "four!"
            do {
                let result = try OutlineNode.merge(base: base, ours: ours, theirs: theirs)
                #expect(result.conflicts.isEmpty)
                #expect(result.merged.parentsAreRight)
                #expect(result.merged.children.map(\.title) == ["1", "b", "c", "x"])
                #expect(result.merged.children[0].children[0].children[0].children.map(\.title) == ["four!"])
                var last = result.merged
                while let child = last.children.first { last = child }
                #expect(last.title == "deepest")
                result.merged.releaseWithoutRecursion()
            } catch {
                Issue.record(error)
            }
            for tree in [base, ours, theirs] { tree.releaseWithoutRecursion() }
        }
    }

    /// A link into an array merged by position names its model by index,
    /// which a side that moved the array's elements would change: refused,
    /// naming the model, rather than pointing at another one.
    @Test func aLinkIntoAReshapedArrayWithoutIdentityIsRefused() throws {
        let base = OutlineNode.sample()
        base.children[2].link = base.children[0].children[1]  // y → x2
        let ours = base.copy(), theirs = base.copy()
        ours.children[0].add("x0", at: 0)
        theirs.children[2].title = "why"
        let before = try [base, ours, theirs].map { try $0.jsonString(options: [.sorted]) }
        let error = #expect(throws: ModelError.self) { try OutlineNode.merge(base: base, ours: ours, theirs: theirs) }
        #expect(
            error?.message
                == "a reference names the model at children[0].children[1], in an array whose elements one side moved, "
                + "inserted or removed; references into an array merge only by the identity of its elements (give "
                + "their class an identityKey)")
        #expect(throws: ModelError.self) { try ours.merge(base: base, theirs: theirs) }
        #expect(try [base, ours, theirs].map { try $0.jsonString(options: [.sorted]) } == before)

        // Edited in place on both sides, the array keeps its positions: the link merges.
        let edited = base.copy()
        edited.children[0].children[0].title = "x1!"
        let clean = try OutlineNode.merge(base: base, ours: edited, theirs: theirs)
        #expect(clean.merged.children[2].link === clean.merged.children[0].children[1])
        #expect(clean.merged.outline == "root(x(x1! x2) m why(y1))")
    }

    /// Random boards edited on both sides: every task's group is the group
    /// holding it, and every link names the task that the side which set it
    /// named (or is reported, where that task is gone).
    @Test(arguments: 0..<120)
    func randomBoards(seed: Int) throws {
        var random = SeededGenerator(seed: UInt64(seed) &* 7919 &+ 17)
        let base = TaskBoard()
        for group in 0..<Int.random(in: 1...4, using: &random) { base.addGroup("bg\(group)") }
        for task in 0..<Int.random(in: 0...8, using: &random) {
            base.add("b\(task)", to: base.groups.randomElement(using: &random)!.id)
        }
        let baseTasks = base.groups.flatMap(\.tasks)
        for task in baseTasks where Bool.random(using: &random) { task.blockedBy = baseTasks.randomElement(using: &random) }

        var sides: [TaskBoard] = []
        for (side, prefix) in ["o", "t"].enumerated() {
            let board = base.copy()
            for step in 0..<Int.random(in: 0...5, using: &random) {
                let tasks = board.groups.flatMap(\.tasks)
                switch Int.random(in: 0..<5, using: &random) {
                case 0: board.addGroup("\(prefix)g\(step)", at: Int.random(in: 0...board.groups.count, using: &random))
                case 1:
                    let group = board.groups.randomElement(using: &random)!
                    board.add(
                        "\(prefix)\(step)", to: group.id, at: Int.random(in: 0...group.tasks.count, using: &random))
                case 2:
                    if let task = tasks.randomElement(using: &random) {
                        task.blockedBy = tasks.randomElement(using: &random)
                    }
                case 3:
                    if let task = tasks.randomElement(using: &random), side == 0 || !Bool.random(using: &random) {
                        task.group!.tasks.removeAll { $0 === task }
                    }
                default:
                    tasks.randomElement(using: &random)?.title += "!"
                }
            }
            sides.append(board)
        }
        let (ours, theirs) = (sides[0], sides[1])
        let result = try TaskBoard.merge(base: base, ours: ours, theirs: theirs)
        let merged = result.merged
        #expect(merged.groupsAreRight)
        func link(_ board: TaskBoard, _ id: String) -> String? { board.task(id)?.blockedBy?.id }
        for task in merged.groups.flatMap(\.tasks) {
            let was = link(base, task.id), mine = link(ours, task.id), other = link(theirs, task.id)
            let inOurs = ours.task(task.id) != nil, inTheirs = theirs.task(task.id) != nil
            // The link the merge should keep: the changed side's, ours in a conflict.
            var expected = inOurs ? mine : other
            if inOurs, inTheirs, mine == was { expected = other }
            let reported = result.conflicts.contains { $0.path.description.hasSuffix(".blockedBy") }
            if let expected, merged.task(expected) == nil {
                #expect(task.blockedBy == nil && reported, "seed \(seed): \(task.id) waits for a removed \(expected)")
            } else {
                #expect(task.blockedBy?.id == expected, "seed \(seed): \(task.id) waits for \(expected ?? "nothing")")
            }
        }
    }
}
