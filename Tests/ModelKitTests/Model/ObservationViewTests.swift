import Foundation
import Observation
import Synchronization
import Testing

@testable import ModelKit

/// Observation as SwiftUI sees it: a stand-in for a view reads what it shows
/// inside `withObservationTracking`, and counts how often it is told. For
/// every path that edits a live model, each view of a changed property is
/// told exactly once, no view of an untouched property or model is told,
/// and ModelKit's own `observe` reports the same keys, once each.
@Suite struct ObservationViewTests {
    /// A view: what it reads, and how many times it was told of a change.
    final class View: Sendable {
        let name: String
        private let told = Mutex(0)
        init(_ name: String, reading read: @escaping @Sendable () -> Void) {
            self.name = name
            watch(read)
        }
        /// Reads again after each telling, as SwiftUI redraws.
        private func watch(_ read: @escaping @Sendable () -> Void) {
            withObservationTracking(read) { [weak self] in
                self?.told.withLock { $0 += 1 }
            }
        }
        var count: Int { told.withLock { $0 } }
    }

    /// The keys a closure observer heard, in order.
    final class KeyRecorder: Sendable {
        let keys = Mutex<[String]>([])
    }

    /// A root with a child, two rows, a bag and a history.
    final class Fixture: @unchecked Sendable {
        let root: Note
        let history: ModelHistory
        var views: [View] = []
        let keysTold = KeyRecorder()
        var token: ModelObservation?

        init() throws {
            root = try Note(
                json: Data(
                    #"{"title":"T","count":1,"tags":["a"],"child":{"title":"C"},"children":[{"title":"R0"},{"title":"R1"}],"label":"blue"}"#
                        .utf8))
            history = ModelHistory(tracking: root)
            let root = self.root
            views = [
                View("title") { _ = root.title },
                View("count") { _ = root.count },
                View("tags") { _ = root.tags },
                View("child.title") { _ = root.child?.title },
                View("children[0].title") { _ = root.children[0].title },
                View("children[1].title") { _ = root.children[1].title },
                View("bag") { _ = root.extensibleProperties },
                View("bag.label") { _ = root.extensibleProperty(forKey: "label") },
            ]
            let keysTold = self.keysTold
            token = root.observe(keys: nil) { change in keysTold.keys.withLock { $0.append(change.key) } }
        }

        func told() -> [String: Int] {
            Dictionary(uniqueKeysWithValues: views.map { ($0.name, $0.count) })
        }
    }

    /// Each edit path: what it does, and the views it must tell (once each);
    /// `keys` is what the root's `observe` must report (once each).
    struct Path: Sendable, CustomTestStringConvertible {
        let name: String
        let views: Set<String>
        let keys: [String]
        let edit: @Sendable (Fixture) throws -> Void
        var testDescription: String { name }
    }

    static let paths: [Path] = [
        Path(name: "a set", views: ["title"], keys: ["title"]) { $0.root.title = "T2" },
        Path(name: "an in-place mutation", views: ["tags"], keys: ["tags"]) { $0.root.tags.append("b") },
        Path(name: "withLock, two properties", views: ["title", "count"], keys: ["title", "count"]) { fixture in
            fixture.root.withLock {
                fixture.root.title = "T2"
                fixture.root.count = 2
            }
        },
        Path(name: "a nested model's set", views: ["child.title"], keys: []) { $0.root.child?.title = "C2" },
        Path(name: "a row's set", views: ["children[1].title"], keys: []) { $0.root.children[1].title = "R1b" },
        Path(name: "a JSON Patch", views: ["title", "count"], keys: ["title", "count"]) { fixture in
            try fixture.root.apply(
                JSONPatch(
                    json: Data(
                        #"[{"op":"replace","path":"/title","value":"X"},{"op":"replace","path":"/title","value":"Y"},{"op":"replace","path":"/count","value":5}]"#
                            .utf8)))
        },
        Path(name: "a merge patch adding a bag key", views: ["bag"], keys: ["added"]) { fixture in
            try fixture.root.apply(JSONMergePatch(json: Data(#"{"added":true}"#.utf8)))
        },
        Path(name: "a bag key added", views: ["bag"], keys: ["added"]) { fixture in
            try fixture.root.setExtensibleProperty("new", forKey: "added")
        },
        Path(name: "a bag key removed", views: ["bag", "bag.label"], keys: ["label"]) { fixture in
            try fixture.root.setExtensibleProperty(nil, forKey: "label")
        },
        Path(name: "a bag value changed", views: ["bag", "bag.label"], keys: ["label"]) { fixture in
            try fixture.root.setExtensibleProperty("red", forKey: "label")
        },
        Path(name: "update(from:)", views: ["title", "count"], keys: ["title", "count"]) { fixture in
            try fixture.root.update(from: ["title": "U", "count": 9])
        },
        Path(name: "an in-place three-way merge", views: ["title"], keys: ["title"]) { fixture in
            let base = fixture.root.copy()
            let theirs = fixture.root.copy()
            theirs.title = "Theirs"
            _ = try fixture.root.merge(base: base, theirs: theirs)
        },
        Path(name: "the undo of a group", views: ["title", "children[0].title"], keys: ["title"]) { fixture in
            try Self.groupThenUndo(fixture)
        },
        Path(name: "the redo of a group", views: ["title", "children[0].title"], keys: ["title"]) { fixture in
            try Self.groupThenUndo(fixture)
            try Self.reset(fixture)
            try fixture.history.redo()
        },
        Path(name: "the undo of a bag key added", views: ["bag"], keys: ["added"]) { fixture in
            try Self.untracked(fixture) { try fixture.root.setExtensibleProperty(1, forKey: "added") }
            try fixture.history.undo()
        },
        Path(name: "a revert", views: ["title", "count"], keys: ["title", "count"]) { fixture in
            try Self.untracked(fixture) {
                fixture.root.title = "R"
                fixture.root.count = 3
            }
            fixture.root.revertChanges()
        },
    ]

    /// A group editing the title twice and a row, made before the views
    /// count, then undone: the step under test.
    static func groupThenUndo(_ fixture: Fixture) throws {
        try untracked(fixture) {
            fixture.history.group("Rename") {
                fixture.root.title = "G1"
                fixture.root.title = "G2"
                fixture.root.children[0].title = "A2"
            }
        }
        try fixture.history.undo()
    }

    /// Runs `body` and then starts counting afresh (new views, no keys).
    static func untracked(_ fixture: Fixture, _ body: () throws -> Void) throws {
        try body()
        try reset(fixture)
    }

    static func reset(_ fixture: Fixture) throws {
        let root = fixture.root
        let names = fixture.views.map(\.name)
        let reads: [String: @Sendable () -> Void] = [
            "title": { _ = root.title }, "count": { _ = root.count }, "tags": { _ = root.tags },
            "child.title": { _ = root.child?.title }, "children[0].title": { _ = root.children[0].title },
            "children[1].title": { _ = root.children[1].title }, "bag": { _ = root.extensibleProperties },
            "bag.label": { _ = root.extensibleProperty(forKey: "label") },
        ]
        fixture.views = names.map { View($0, reading: reads[$0]!) }
        fixture.keysTold.keys.withLock { $0 = [] }
    }

    @Test(arguments: paths)
    func eachViewOfAChangedPropertyIsToldOnceAndNoOtherView(path: Path) throws {
        let fixture = try Fixture()
        try path.edit(fixture)
        let told = fixture.told()
        for (view, count) in told.sorted(by: { $0.key < $1.key }) {
            #expect(count == (path.views.contains(view) ? 1 : 0), "\(path.name): the view of \(view) was told \(count) times")
        }
        #expect(fixture.keysTold.keys.withLock { $0 }.sorted() == path.keys.sorted(), "\(path.name): observe reported")
    }

    /// The undo of a group reaches a closure observer once per key, with the
    /// value before the step and the value after it: no state in between.
    @Test func theUndoOfAGroupIsToldOnceWithNoStateInBetween() throws {
        let root = Note()
        root.title = "G0"
        let history = ModelHistory(tracking: root)
        history.group("Rename") {
            root.title = "G1"
            root.title = "G2"
        }
        let seen = Mutex<[String]>([])
        let token = root.observe("title") { change in
            seen.withLock { $0.append("\(change.oldValue as? String ?? "?")→\(change.newValue as? String ?? "?")|\(root.title)") }
        }
        defer { token.cancel() }
        try history.undo()
        #expect(seen.withLock { $0 } == ["G2→G0|G0"])
        try history.redo()
        #expect(seen.withLock { $0 } == ["G2→G0|G0", "G0→G2|G2"])
    }
}
