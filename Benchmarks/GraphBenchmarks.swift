import Foundation
import ModelKit

/// Growth of writing model graphs: a chain of models and a flat array of
/// models, each at two sizes, in every format. The ratio column is the
/// smaller graph's time over the larger one's: 0.50 when time grows
/// linearly with the graph, 0.25 when it grows with its square.
enum GraphBenchmarks {
    final class Link: ModelObject, @unchecked Sendable {
        @Saved var title = ""
        @Saved var count = 0
        @Saved var next: Link? = nil
        @Saved var items: [Link] = []
    }

    static func run() {
        // Chains stay within the 512-level nesting limit of every format.
        compareGrowth("chain of", sizes: (250, 500), make: chain)
        compareGrowth("flat array of", sizes: (100_000, 200_000), make: flat)
        deepJSONChains()
        cycles()
    }

    static func chain(_ length: Int) -> Link {
        let root = Link()
        var tail = root
        for index in 1..<length {
            let next = Link()
            next.title = "link \(index)"
            next.count = index
            tail.next = next
            tail = next
        }
        return root
    }

    static func flat(_ count: Int) -> Link {
        let root = Link()
        root.items = (0..<count).map { index in
            let item = Link()
            item.title = "item \(index)"
            item.count = index
            return item
        }
        return root
    }

    static let formats: [(String, @Sendable (Link) throws -> Any)] = [
        ("JSON", { try $0.jsonData() }),
        ("XML plist", { try $0.propertyListData(format: .xml) }),
        ("binary plist", { try $0.propertyListData(format: .binary) }),
        ("dictionary", { $0.dictionary }),
    ]

    static func compareGrowth(_ shape: String, sizes: (Int, Int), make: (Int) -> Link) {
        func task(_ format: String) -> String {
            "Write \(shape) \(sizes.0.formatted()) vs \(sizes.1.formatted()) models, \(format)"
        }
        guard formats.contains(where: { Harness.wants(task($0.0)) }) else { return }
        let small = make(sizes.0)
        let large = make(sizes.1)
        for (format, write) in formats {
            Harness.compare(task(format), rounds: 5, [
                .init(label: "\(sizes.0.formatted())") { iterations in
                    for _ in 0..<iterations { blackHole(try! write(small)) }
                },
                .init(label: "\(sizes.1.formatted())") { iterations in
                    for _ in 0..<iterations { blackHole(try! write(large)) }
                },
            ])
        }
    }

    /// JSON's limit can be raised, for writing and reading alike: chains of
    /// 10,000 and 20,000 models.
    static func deepJSONChains() {
        let task = "Write chain of 10,000 vs 20,000 models, JSON with maximumDepth 50,000"
        guard Harness.wants(task) else { return }
        let options = JSONWritingOptions(maximumDepth: 50_000)
        let small = chain(10_000)
        let large = chain(20_000)
        Harness.compare(task, rounds: 5, [
            .init(label: "10,000") { iterations in
                for _ in 0..<iterations { blackHole(try! small.jsonData(options: options)) }
            },
            .init(label: "20,000") { iterations in
                for _ in 0..<iterations { blackHole(try! large.jsonData(options: options)) }
            },
        ])
        // Let go of the chains a link at a time: releasing one recursively
        // would take a frame per link.
        for root in [small, large] {
            var link = root.next
            root.next = nil
            while let current = link {
                link = current.next
                current.next = nil
            }
        }
    }

    /// A tree of 10,000 models each referring back to its parent, against the
    /// same tree without the back-references: the cost of cycles.
    static func cycles() {
        let tasks = [
            "Write a 10,100-model tree to JSON: without vs with parent back-references",
            "Read a 10,100-model tree from JSON: without vs with parent back-references",
        ]
        guard tasks.contains(where: Harness.wants) else { return }
        final class Node: ModelObject, @unchecked Sendable {
            @Saved var name = ""
            @Saved var parent: Node? = nil
            @Saved var children: [Node] = []
        }
        func tree(backReferences: Bool) -> Node {
            let root = Node()
            root.children = (0..<100).map { index in
                let child = Node()
                child.name = "child \(index)"
                child.children = (0..<100).map { _ in Node() }
                if backReferences {
                    child.parent = root
                    for grandchild in child.children { grandchild.parent = child }
                }
                return child
            }
            return root
        }
        let plain = tree(backReferences: false)
        let linked = tree(backReferences: true)
        Harness.compare(tasks[0], rounds: 5, [
            .init(label: "tree") { iterations in
                for _ in 0..<iterations { blackHole(try! plain.jsonData()) }
            },
            .init(label: "with cycles") { iterations in
                for _ in 0..<iterations { blackHole(try! linked.jsonData()) }
            },
        ])
        // Loaded cycles are broken after each read (in both variants), or they would never be freed.
        func unlink(_ root: Node) {
            for child in root.children {
                child.parent = nil
                for grandchild in child.children { grandchild.parent = nil }
            }
        }
        let data = try! linked.jsonData()
        Harness.compare(tasks[1], rounds: 5, [
            .init(label: "tree") { iterations in
                let plainData = try! plain.jsonData()
                for _ in 0..<iterations { unlink(try! Node(json: plainData)) }
            },
            .init(label: "with cycles") { iterations in
                for _ in 0..<iterations { unlink(try! Node(json: data)) }
            },
        ])
    }
}
