import Foundation
import Testing

@testable import ModelKit

/// A patch is read against the saved form, which (with the default
/// `ReferencePolicy.cycles`) writes a weak link to a model off its own path
/// as `null`. Applying a patch must not take such a `null` for "no link":
/// links the form cannot show are kept; links it shows change as the patch
/// says.
@Suite struct PatchLinkTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let apply: @Sendable (TaskBoard) throws -> Void
        let links: [String]
        let groupsAreRight: Bool
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "a JSON Patch that edits a task in another group",
            apply: { try $0.apply(JSONPatch([.replace(path: try JSONPointer("/groups/1/tasks/0/title"), value: "C")])) },
            links: ["a", "b<a", "c"], groupsAreRight: true),
        Case(
            name: "a JSON Patch that edits the linked task itself",
            apply: { try $0.apply(JSONPatch([.replace(path: try JSONPointer("/groups/0/tasks/1/title"), value: "B")])) },
            links: ["a", "b<a", "c"], groupsAreRight: true),
        Case(
            name: "a JSON Patch that inserts a task before both",
            apply: { board in
                let task: ModelValue = ["type": "LinkedTask", "version": 1, "id": "z", "title": "z"]
                try board.apply(JSONPatch([.add(path: try JSONPointer("/groups/0/tasks/0"), value: task)]))
            },
            links: ["z", "a", "b<a", "c"], groupsAreRight: false),
        Case(
            name: "a merge patch of the name",
            apply: { try $0.apply(JSONMergePatch(["name": "Renamed"])) },
            links: ["a", "b<a", "c"], groupsAreRight: true),
        Case(
            name: "a patch made by patch(to:)",
            apply: { board in
                let other = TaskBoard.sample()
                other.groups[1].tasks[0].title = "C"
                try board.apply(board.patch(to: other))
            },
            links: ["a", "b<a", "c"], groupsAreRight: true),
        Case(
            name: "a JSON Patch that removes the task linked to",
            apply: { try $0.apply(JSONPatch([.remove(path: try JSONPointer("/groups/0/tasks/0"))])) },
            links: ["b", "c"], groupsAreRight: true),
    ]

    @Test(arguments: cases)
    func linksTheFormCannotShowAreKept(_ test: Case) throws {
        let board = TaskBoard.sample()
        try test.apply(board)
        #expect(board.links == test.links)
        #expect(board.groupsAreRight == test.groupsAreRight)
    }

    /// A parent is on the task's own path, so the form shows it: a patch
    /// that sets it to null clears it.
    @Test func aLinkTheFormShowsChangesAsThePatchSays() throws {
        let board = TaskBoard.sample()
        try board.apply(JSONPatch([.replace(path: try JSONPointer("/groups/0/tasks/1/group"), value: .null)]))
        #expect(board.groups[0].tasks[1].group == nil)
        #expect(board.groups[0].tasks[0].group === board.groups[0])
        #expect(board.links == ["a", "b<a", "c"])
    }
}
