import Foundation
import Testing

@testable import ModelKit

/// What the `didLoad()` hooks of one test saw, in order.
final class LoadLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []
    func append(_ entry: String) { lock.withLock { entries.append(entry) } }
    var calls: [String] { lock.withLock { entries } }
    func clear() { lock.withLock { entries.removeAll() } }
}

enum LoadLogging {
    @TaskLocal static var log: LoadLog?
}

/// A to-do list whose items' weak `list` parents are not in old documents:
/// `didLoad()` restores them, as the README shows.
final class HookedList: ModelObject, @unchecked Sendable {
    @Saved var name = ""
    @Saved var items: [HookedItem] = []
    @Saved var archive: HookedList? = nil
    /// Derived state, rebuilt on every load.
    var itemCount = -1

    override func didLoad() {
        super.didLoad()
        LoadLogging.log?.append("list \(name) sees \(items.map { $0.list === self ? "ready" : "orphan" })")
        for item in items where item.list !== self { item.list = self }
        itemCount = items.count
    }
}

final class HookedItem: ModelObject, @unchecked Sendable {
    @Saved var title = ""
    @Saved(rules: .range(0...5)) var stars = 0
    @Saved(reference: .weak) var list: HookedList? = nil

    override func didLoad() {
        super.didLoad()
        LoadLogging.log?.append("item \(title)")
    }
}

/// Holds a model inside a `Codable` value, so that a load runs inside another.
struct HookedBox: Codable, Equatable, ModelValueConvertible {
    var list: HookedList
    static func == (lhs: HookedBox, rhs: HookedBox) -> Bool { lhs.list.isEquivalent(to: rhs.list) }
}

final class HookedHolder: ModelObject, @unchecked Sendable {
    @Saved var box = HookedBox(list: HookedList())
    override func didLoad() {
        super.didLoad()
        LoadLogging.log?.append("holder")
    }
}

@Suite("didLoad()")
struct DidLoadTests {
    /// A version-1 document: written before items had a `list` parent.
    static let document = #"""
        {"type":"HookedList","version":1,"name":"home","items":[{"title":"milk"},{"title":"eggs","stars":2}],
         "archive":{"name":"old","items":[{"title":"bread"}]}}
        """#

    /// Every call a full load of `document` makes: children first (each
    /// item before its list, the archive before the list that holds it),
    /// once per model.
    static let fullLoad = [
        "item milk", "item eggs", "item bread", "list old sees [\"orphan\"]", "list home sees [\"orphan\", \"orphan\"]",
    ]

    /// The load paths of a new model, each from the same document.
    static let freshPaths: [(String, @Sendable (URL) throws -> HookedList)] = [
        ("init(json:)", { _ in try HookedList(json: Data(document.utf8)) }),
        ("init(json: String)", { _ in try HookedList(json: document) }),
        ("init(modelValue:)", { _ in try HookedList(modelValue: ModelValue(json: Data(document.utf8))) }),
        ("decoded(from:)", { _ in try HookedList.decoded(from: ModelValue(json: Data(document.utf8))) }),
        ("init(dictionary:)", { _ in try HookedList(dictionary: try HookedList(json: document).dictionary) }),
        (
            "init(propertyList:) XML",
            { _ in try HookedList(propertyList: try HookedList(json: document).propertyListData(format: .xml)) }
        ),
        (
            "init(propertyList:) binary",
            { _ in try HookedList(propertyList: try HookedList(json: document).propertyListData(format: .binary)) }
        ),
        (
            "init(contentsOf:) JSON",
            { folder in
                let url = folder.appendingPathComponent("list.json")
                try Data(document.utf8).write(to: url)
                return try HookedList(contentsOf: url)
            }
        ),
        (
            "init(contentsOf:) property list",
            { folder in
                let url = folder.appendingPathComponent("list.plist")
                try HookedList(json: document).write(to: url)
                return try HookedList(contentsOf: url)
            }
        ),
        (
            "JSONDecoder",
            { _ in try JSONDecoder().decode(HookedList.self, from: Data(document.utf8)) }
        ),
        (
            "ModelJSONDecoder",
            { _ in try ModelJSONDecoder().decode(HookedList.self, from: Data(document.utf8)) }
        ),
        (
            "ModelDefaults",
            { folder in
                let url = folder.appendingPathComponent("store.plist")
                let writer = try ModelDefaults(url: url, autosaveDelay: nil, watchInterval: nil)
                writer.set(try HookedList(json: document), forKey: "list")
                try writer.save()
                let reader = try ModelDefaults(url: url, autosaveDelay: nil, watchInterval: nil)
                return try #require(try reader.model(HookedList.self, forKey: "list"))
            }
        ),
    ]

    /// Whether the path's input is written from a list already loaded.
    static func isMadeFromALoadedList(_ name: String) -> Bool {
        name.hasPrefix("init(dictionary") || name.hasPrefix("init(propertyList") || name == "init(contentsOf:) property list"
            || name == "ModelDefaults"
    }

    @Test(arguments: freshPaths.indices)
    func everyLoadPathRunsTheHooksChildrenFirstOncePerModel(_ index: Int) throws {
        let (name, load) = Self.freshPaths[index]
        try withTemporaryFolder { folder in
            let log = LoadLog()
            let list = try LoadLogging.$log.withValue(log) {
                let list = try load(folder)
                return list
            }
            // Only the last load's hooks: paths that build their input by loading log those first.
            let calls = Array(log.calls.suffix(Self.fullLoad.count))
            // Such input holds the parents the first load's hooks restored
            // (as `$ref`s): the second load's hooks find them in place.
            let expected = Self.isMadeFromALoadedList(name) ? Self.fullLoad.map { $0.replacingOccurrences(of: "orphan", with: "ready") } : Self.fullLoad
            #expect(calls == expected, "\(name)")
            #expect(list.items.allSatisfy { $0.list === list }, "\(name): the hook restored the parents")
            #expect(list.archive?.items.first?.list === list.archive, "\(name)")
            #expect(list.itemCount == 2 && list.archive?.itemCount == 1, "\(name)")
            #expect(!list.hasAnyChanges, "\(name): what a hook rebuilds in a new model is not a change")
        }
    }

    @Test func anArrayOfModelsIsOneLoad() throws {
        let log = LoadLog()
        let lists = try LoadLogging.$log.withValue(log) {
            try [HookedList](json: #"[{"name":"a","items":[{"title":"x"}]},{"name":"b"}]"#)
        }
        #expect(log.calls == ["item x", "list a sees [\"orphan\"]", "list b sees []"])
        #expect(lists[0].items[0].list === lists[0])
    }

    @Test func jsonLinesRunTheHooksOfEachLine() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("lists.jsonl")
            try Data("{\"name\":\"a\",\"items\":[{\"title\":\"x\"}]}\n{\"name\":\"b\"}\n".utf8).write(to: url)
            let log = LoadLog()
            var names: [String] = []
            try await LoadLogging.$log.withValue(log) {
                for try await list in JSONLines.models(HookedList.self, contentsOf: url) {
                    #expect(list.items.allSatisfy { $0.list === list })
                    names.append(list.name)
                }
            }
            #expect(names == ["a", "b"])
            #expect(log.calls == ["item x", "list a sees [\"orphan\"]", "list b sees []"])
        }
    }

    @Test func aModelInsideACodableValueOfAModelRunsItsHooksOnceWithItsHolder() throws {
        let holder = HookedHolder()
        holder.box = HookedBox(list: try HookedList(json: #"{"name":"inner","items":[{"title":"x"}]}"#))
        let data = try holder.jsonData()
        let log = LoadLog()
        let loaded = try LoadLogging.$log.withValue(log) { try HookedHolder(json: data) }
        // The list inside the Codable value is not reachable through saved
        // models, so its hooks run with its own load, inside the holder's:
        // once, before the holder's.
        #expect(log.calls.last == "holder")
        #expect(log.calls.filter { $0 == "item x" }.count <= 1)
        #expect(loaded.box.list.name == "inner")
    }

    @Test func aFailedLoadRunsNoHook() throws {
        let log = LoadLog()
        let bad = #"{"name":"home","items":[{"title":"milk"},{"title":"eggs","stars":9}]}"#
        LoadLogging.$log.withValue(log) {
            #expect(throws: ModelError.self) { try HookedList(json: bad) }
            let live = HookedList()
            #expect(throws: ModelError.self) { try live.update(from: ["items": [["title": "x", "stars": 7]]]) }
            #expect(throws: ModelError.self) {
                try live.apply(JSONPatch(json: #"[{"op":"add","path":"/items/-","value":{"stars":6}}]"#))
            }
        }
        #expect(log.calls.isEmpty)
    }

    @Test func updateRunsTheHooksOfTheModelsItBroughtAndOfTheObject() throws {
        let list = try HookedList(json: #"{"name":"home","items":[{"title":"milk"}],"archive":{"name":"old"}}"#)
        let archive = try #require(list.archive)
        let log = LoadLog()
        try LoadLogging.$log.withValue(log) {
            try list.update(from: ["items": [["title": "tea"], ["title": "jam"]]])
        }
        // The archive was not touched: its hook does not run again.
        #expect(log.calls == ["item tea", "item jam", "list home sees [\"orphan\", \"orphan\"]"])
        #expect(list.archive === archive)
        #expect(list.items.allSatisfy { $0.list === list })
        #expect(list.itemCount == 2)
        #expect(list.hasChanges, "the update itself is a change")
    }

    @Test func aPatchRunsTheHooksOfTheModelsItEditedOrBroughtAndOfTheObject() throws {
        let list = try HookedList(json: #"{"name":"home","items":[{"title":"milk"},{"title":"eggs"}]}"#)
        let milk = list.items[0]
        let log = LoadLog()
        try LoadLogging.$log.withValue(log) {
            try list.apply(
                JSONPatch(
                    json: #"[{"op":"replace","path":"/items/1/title","value":"duck eggs"},"#
                        + #"{"op":"add","path":"/items/-","value":{"title":"salt"}}]"#))
        }
        #expect(log.calls == ["item duck eggs", "item salt", "list home sees [\"ready\", \"ready\", \"orphan\"]"])
        #expect(list.items[0] === milk, "untouched: the same object, no hook")
        #expect(list.items.allSatisfy { $0.list === list })
        log.clear()
        try LoadLogging.$log.withValue(log) {
            try list.apply(JSONMergePatch(json: #"{"name":"house"}"#))
        }
        #expect(log.calls == ["list house sees [\"ready\", \"ready\", \"ready\"]"])
    }

    @Test func aHookThatLoadsRunsThatLoadsHooks() throws {
        final class Loader: ModelObject, @unchecked Sendable {
            @Saved var name = ""
            var loaded: HookedList?
            override func didLoad() {
                super.didLoad()
                loaded = try? HookedList(json: #"{"name":"nested","items":[{"title":"n"}]}"#)
            }
        }
        let log = LoadLog()
        let loader = try LoadLogging.$log.withValue(log) { try Loader(json: #"{"name":"x"}"#) }
        #expect(log.calls == ["item n", "list nested sees [\"orphan\"]"])
        #expect(loader.loaded?.items.first?.list === loader.loaded)
    }

    @Test func cyclesAndSharedModelsRunEachHookOnce() throws {
        let list = HookedList()
        list.name = "loop"
        let inner = HookedList()
        inner.name = "inner"
        list.archive = inner
        inner.archive = list
        let shared = HookedItem()
        shared.title = "shared"
        list.items = [shared, shared]
        defer { inner.archive = nil }
        let data = try list.jsonData(options: JSONWritingOptions(references: .shared))
        let log = LoadLog()
        let loaded = try LoadLogging.$log.withValue(log) { try HookedList(json: data) }
        defer { loaded.archive?.archive = nil }
        #expect(log.calls.filter { $0 == "item shared" }.count == 1)
        #expect(log.calls.filter { $0.hasPrefix("list inner") }.count == 1)
        #expect(log.calls.filter { $0.hasPrefix("list loop") }.count == 1)
        #expect(log.calls.last?.hasPrefix("list loop") == true, "the root's hook runs last")
    }
}
