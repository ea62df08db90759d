import Foundation
import ModelKit
import Observation

/// The model core against hand-written code for the same class.
enum CoreBenchmarks {
    final class Item: ModelObject, @unchecked Sendable {
        @Saved var title = ""
        @Saved var count = 0
        @Saved var price = 0.0
        @Saved var isDone = false
        @Saved var tags: [String] = []
        @Saved var created = Date(timeIntervalSince1970: 0)
        @Saved var notes = ""
        @Saved var rating = 0
        @Saved var children: [Item] = []
        @Saved var parentName: String? = nil
    }

    /// The same class written by hand, with its own dictionary code and a
    /// lock around its state, as a careful programmer would.
    final class HandItem: @unchecked Sendable {
        private let lock = NSLock()
        private var _title = ""
        var title: String {
            get { lock.lock(); defer { lock.unlock() }; return _title }
            set { lock.lock(); defer { lock.unlock() }; if _title != newValue { _title = newValue; changed = true } }
        }
        var count = 0
        var price = 0.0
        var isDone = false
        var tags: [String] = []
        var created = Date(timeIntervalSince1970: 0)
        var notes = ""
        var rating = 0
        var children: [HandItem] = []
        var parentName: String? = nil
        var changed = false

        init() {}

        init(dictionary: [String: Any]) throws {
            guard let title = dictionary["title"] as? String, let count = dictionary["count"] as? Int,
                let price = dictionary["price"] as? Double, let isDone = dictionary["isDone"] as? Bool,
                let tags = dictionary["tags"] as? [String], let created = dictionary["created"] as? Date,
                let notes = dictionary["notes"] as? String, let rating = dictionary["rating"] as? Int,
                let children = dictionary["children"] as? [[String: Any]]
            else { throw CocoaError(.coderReadCorrupt) }
            _title = title
            self.count = count
            self.price = price
            self.isDone = isDone
            self.tags = tags
            self.created = created
            self.notes = notes
            self.rating = rating
            self.children = try children.map(HandItem.init(dictionary:))
            parentName = dictionary["parentName"] as? String
        }

        var dictionary: [String: Any] {
            var result: [String: Any] = [
                "type": "HandItem", "version": 1, "title": _title, "count": count, "price": price,
                "isDone": isDone, "tags": tags, "created": created, "notes": notes, "rating": rating,
                "children": children.map(\.dictionary),
            ]
            result["parentName"] = parentName ?? "$null"
            return result
        }

        var hasAnyChanges: Bool {
            var pending = [self]
            var seen: Set<ObjectIdentifier> = [ObjectIdentifier(self)]
            while let item = pending.popLast() {
                if item.changed { return true }
                for child in item.children where seen.insert(ObjectIdentifier(child)).inserted { pending.append(child) }
            }
            return false
        }
    }

    static func sampleDictionary() -> [String: Any] {
        [
            "type": "Item", "version": 1, "title": "Buy milk", "count": 3, "price": 2.49, "isDone": false,
            "tags": ["home", "errand"], "created": Date(timeIntervalSince1970: 1_763_307_200), "notes": "semi-skimmed",
            "rating": 4, "children": [[String: Any]](), "parentName": "Groceries",
        ]
    }

    static func run() {
        print("## Model core (ratio = hand-written time / ModelKit time; above 1 is faster than hand-written)")
        let item = Item()
        let hand = HandItem()
        item.title = "start"
        hand.title = "start"

        Harness.compare(
            "property get (String)",
            [
                .init(label: "hand-written, locked") { n in
                    var total = 0
                    for _ in 0..<n { total &+= hand.title.utf8.count }
                    blackHole(total)
                },
                .init(label: "@Saved") { n in
                    var total = 0
                    for _ in 0..<n { total &+= item.title.utf8.count }
                    blackHole(total)
                },
            ])
        let titles = ["alpha", "beta"]
        Harness.compare(
            "property set (String, recording a change)",
            [
                .init(label: "hand-written, locked") { n in
                    for index in 0..<n { hand.title = titles[index & 1] }
                },
                .init(label: "@Saved") { n in
                    for index in 0..<n { item.title = titles[index & 1] }
                },
            ])

        // Observation: reads inside withObservationTracking, sets with a closure observer.
        let tracked = Item()
        tracked.title = "start"
        Harness.compare(
            "property get (String), inside withObservationTracking",
            [
                .init(label: "hand-written, locked") { n in
                    var total = 0
                    for _ in 0..<n { total &+= hand.title.utf8.count }
                    blackHole(total)
                },
                .init(label: "@Saved") { n in
                    var total = 0
                    withObservationTracking {
                        for _ in 0..<n { total &+= tracked.title.utf8.count }
                    } onChange: {}
                    blackHole(total)
                },
            ])
        let observed = Item()
        nonisolated(unsafe) var heard = 0
        let token = observed.observe("title") { _ in heard &+= 1 }
        Harness.compare(
            "property set (String), with a closure observer",
            [
                .init(label: "hand-written, locked") { n in
                    for index in 0..<n { hand.title = titles[index & 1] }
                },
                .init(label: "@Saved") { n in
                    for index in 0..<n { observed.title = titles[index & 1] }
                },
            ])
        token.cancel()
        blackHole(heard)

        let dictionary = sampleDictionary()
        Harness.compare(
            "dictionary → model (10 properties)",
            [
                .init(label: "hand-written") { n in
                    for _ in 0..<n { blackHole(try! HandItem(dictionary: dictionary)) }
                },
                .init(label: "ModelKit") { n in
                    for _ in 0..<n { blackHole(try! Item(dictionary: dictionary)) }
                },
            ])
        let loaded = try! Item(dictionary: dictionary)
        let handLoaded = try! HandItem(dictionary: dictionary)
        Harness.compare(
            "model → dictionary (10 properties)",
            [
                .init(label: "hand-written") { n in
                    for _ in 0..<n { blackHole(handLoaded.dictionary) }
                },
                .init(label: "ModelKit") { n in
                    for _ in 0..<n { blackHole(loaded.dictionary) }
                },
            ])
        Harness.compare(
            "new object (10 defaults)",
            [
                .init(label: "hand-written") { n in
                    for _ in 0..<n { blackHole(HandItem()) }
                },
                .init(label: "ModelKit") { n in
                    for _ in 0..<n { blackHole(Item()) }
                },
            ])

        runMutationRows(item: item, hand: hand)

        let graphTask = "hasAnyChanges, 100,000 objects, none changed"
        guard Harness.wants(graphTask) else { return }
        // A graph of 100,000 objects: 100 parents of 999 children each plus the root.
        let root = Item()
        let handRoot = HandItem()
        for _ in 0..<100 {
            let parent = Item()
            let handParent = HandItem()
            var children: [Item] = []
            var handChildren: [HandItem] = []
            for _ in 0..<999 {
                children.append(Item())
                handChildren.append(HandItem())
            }
            parent.children = children
            handParent.children = handChildren
            root.children.append(parent)
            handRoot.children.append(handParent)
        }
        root.clearChanges()
        Harness.compare(
            graphTask,
            rounds: 5,
            [
                .init(label: "hand-written walk") { n in
                    for _ in 0..<n { blackHole(handRoot.hasAnyChanges) }
                },
                .init(label: "ModelKit") { n in
                    for _ in 0..<n { blackHole(root.hasAnyChanges) }
                },
            ])
        print("")
    }

    /// A plain array and counter behind an `NSLock`: the baseline for in-place
    /// mutation and atomic updates.
    final class LockedState: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [Int] = []
        private var counter = 0
        private var names: [String: Int] = [:]

        func append(_ value: Int) {
            lock.lock()
            items.append(value)
            lock.unlock()
        }

        func set(_ value: Int, forName name: String) {
            lock.lock()
            names[name] = value
            lock.unlock()
        }

        func increment() {
            lock.lock()
            counter += 1
            lock.unlock()
        }

        var count: Int {
            lock.lock()
            defer { lock.unlock() }
            return counter
        }
    }

    /// A model with an array and a counter.
    final class Tally: ModelObject, @unchecked Sendable {
        @Saved var items: [Int] = []
        @Saved var counter = 0
    }

    /// A model with a dictionary.
    final class Names: ModelObject, @unchecked Sendable {
        @Saved var names: [String: Int] = [:]
    }

    /// In-place appends, `+=` from four threads, and gets and sets with two
    /// threads on one object.
    static func runMutationRows(item: Item, hand: HandItem) {
        Harness.compare(
            "append 100,000 Ints one at a time",
            rounds: 5,
            [
                .init(label: "locked plain array") { n in
                    for _ in 0..<n {
                        let state = LockedState()
                        for value in 0..<100_000 { state.append(value) }
                        blackHole(state)
                    }
                },
                .init(label: "@Saved array") { n in
                    for _ in 0..<n {
                        let tally = Tally()
                        for value in 0..<100_000 { tally.items.append(value) }
                        blackHole(tally)
                    }
                },
            ])
        let keys = (0..<16).map { "key \($0)" }
        Harness.compare(
            "dictionary update in place (names[key] = value), 100,000 times, 16 keys",
            rounds: 5,
            [
                .init(label: "locked plain dictionary") { n in
                    for _ in 0..<n {
                        let state = LockedState()
                        for value in 0..<100_000 { state.set(value, forName: keys[value & 15]) }
                        blackHole(state)
                    }
                },
                .init(label: "@Saved dictionary") { n in
                    for _ in 0..<n {
                        let names = Names()
                        for value in 0..<100_000 { names.names[keys[value & 15]] = value }
                        blackHole(names)
                    }
                },
            ])
        Harness.compare(
            "+= from 4 threads (per increment)",
            rounds: 5,
            [
                .init(label: "locked plain counter") { n in
                    let state = LockedState()
                    DispatchQueue.concurrentPerform(iterations: 4) { _ in
                        for _ in 0..<max(1, n / 4) { state.increment() }
                    }
                    precondition(state.count == 4 * max(1, n / 4))
                },
                .init(label: "@Saved counter") { n in
                    let tally = Tally()
                    DispatchQueue.concurrentPerform(iterations: 4) { _ in
                        for _ in 0..<max(1, n / 4) { tally.counter += 1 }
                    }
                    precondition(tally.counter == 4 * max(1, n / 4))
                },
            ])
        Harness.compare(
            "property get (String), 2 threads at once (per get)",
            [
                .init(label: "hand-written, locked") { n in
                    DispatchQueue.concurrentPerform(iterations: 2) { _ in
                        var total = 0
                        for _ in 0..<max(1, n / 2) { total &+= hand.title.utf8.count }
                        blackHole(total)
                    }
                },
                .init(label: "@Saved") { n in
                    DispatchQueue.concurrentPerform(iterations: 2) { _ in
                        var total = 0
                        for _ in 0..<max(1, n / 2) { total &+= item.title.utf8.count }
                        blackHole(total)
                    }
                },
            ])
        let titles = ["alpha", "beta"]
        Harness.compare(
            "property set (String), 2 threads at once (per set)",
            [
                .init(label: "hand-written, locked") { n in
                    DispatchQueue.concurrentPerform(iterations: 2) { _ in
                        for index in 0..<max(1, n / 2) { hand.title = titles[index & 1] }
                    }
                },
                .init(label: "@Saved") { n in
                    DispatchQueue.concurrentPerform(iterations: 2) { _ in
                        for index in 0..<max(1, n / 2) { item.title = titles[index & 1] }
                    }
                },
            ])
    }
}
