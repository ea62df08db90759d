import Foundation
import ModelKit

/// `Benchmarks --check`: a regression gate that needs no quiet machine.
///
/// Each hot operation runs in a copy of this program under
/// `valgrind --tool=callgrind` (`Benchmarks --count ROW`), which prepares the
/// row's data, runs the operation a few times to warm up, then runs it a
/// fixed number of times inside ``countedOperations(_:_:)``. Callgrind
/// collects only inside that function (`--collect-atstart=no
/// --toggle-collect`), so setup and warm-up are not counted, and the
/// instructions it reports (`Ir`), divided by the iterations, are the row's
/// figure. Hashing is made deterministic in the child
/// (`SWIFT_DETERMINISTIC_HASHING`), so the same binary counts the same
/// every time. The figures are compared with `instruction-baseline.txt`
/// beside this file; a row more than 10% above its baseline fails the check.
/// `--update-baseline` rewrites that file from the counts just taken.
enum InstructionCheck {
    /// One counted operation.
    struct Row {
        /// The row's name in the baseline file (one word).
        let name: String
        /// What one operation is, for people.
        let what: String
        /// How many operations the counted run does.
        let iterations: Int
        /// The corpus document the row needs, if any.
        let corpus: String?
        /// Prepares the row's data (not counted) and returns the operation,
        /// which runs `iterations` operations; `nil` when the data is missing.
        let prepare: () -> ((_ iterations: Int) -> Void)?
    }

    /// How far above its baseline a row may count before the check fails.
    static let tolerance = 1.10

    /// The environment variable that lets a machine without valgrind pass.
    static let skipVariable = "MODELKIT_SKIP_INSTRUCTION_CHECK"

    static let baselineURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("instruction-baseline.txt")

    static var rows: [Row] {
        [
            Row(
                name: "create", what: "new object (10 defaults), created and released", iterations: 20_000,
                corpus: nil
            ) {
                { n in for _ in 0..<n { blackHole(CoreBenchmarks.Item()) } }
            },
            Row(name: "get", what: "property get (String)", iterations: 200_000, corpus: nil) {
                let item = CoreBenchmarks.Item()
                item.title = "start"
                return { n in
                    var total = 0
                    for _ in 0..<n { total &+= item.title.utf8.count }
                    blackHole(total)
                }
            },
            Row(name: "set", what: "property set (String, recording a change)", iterations: 200_000, corpus: nil) {
                let item = CoreBenchmarks.Item()
                let titles = ["alpha", "beta"]
                return { n in for index in 0..<n { item.title = titles[index & 1] } }
            },
            Row(name: "append", what: "in-place append of an Int to a saved [Int]", iterations: 200_000, corpus: nil) {
                let tally = CoreBenchmarks.Tally()
                return { n in for value in 0..<n { tally.items.append(value) } }
            },
            Row(
                name: "append-read", what: "the same append on an object read before (it has an observation centre)",
                iterations: 200_000, corpus: nil
            ) {
                let tally = CoreBenchmarks.Tally()
                blackHole(tally.items.count)
                return { n in for value in 0..<n { tally.items.append(value) } }
            },
            Row(
                name: "dictionary-in-place", what: "in-place update of a saved [String: Int] (names[key] = value)",
                iterations: 200_000, corpus: nil
            ) {
                let names = CoreBenchmarks.Names()
                let keys = (0..<16).map { "key \($0)" }
                return { n in for value in 0..<n { names.names[keys[value & 15]] = value } }
            },
            Row(name: "from-dictionary", what: "dictionary → model (10 properties)", iterations: 10_000, corpus: nil) {
                let dictionary = CoreBenchmarks.sampleDictionary()
                return { n in for _ in 0..<n { blackHole(try? CoreBenchmarks.Item(dictionary: dictionary)) } }
            },
            Row(name: "to-dictionary", what: "model → dictionary (10 properties)", iterations: 10_000, corpus: nil) {
                guard let item = try? CoreBenchmarks.Item(dictionary: CoreBenchmarks.sampleDictionary()) else {
                    return nil
                }
                return { n in for _ in 0..<n { blackHole(item.dictionary) } }
            },
            Row(name: "parse-twitter", what: "ModelValue(json:) of twitter.json", iterations: 10, corpus: "twitter") {
                guard let data = Corpus.document("twitter") else { return nil }
                return { n in for _ in 0..<n { blackHole(try? ModelValue(json: data)) } }
            },
            Row(
                name: "write-twitter", what: "jsonData() of twitter.json's ModelValue", iterations: 10,
                corpus: "twitter"
            ) {
                guard let data = Corpus.document("twitter"), let value = try? ModelValue(json: data) else { return nil }
                return { n in for _ in 0..<n { blackHole(try? value.jsonData()) } }
            },
            Row(
                name: "decode-twitter-models", what: "TwitterSearch(json:) of twitter.json, every other key kept",
                iterations: 10, corpus: "twitter"
            ) {
                guard let data = Corpus.document("twitter") else { return nil }
                return { n in for _ in 0..<n { blackHole(try? JSONBenchmarks.TwitterSearch(json: data)) } }
            },
            Row(
                name: "encode-twitter-models", what: "jsonData() of twitter.json's models", iterations: 10,
                corpus: "twitter"
            ) {
                guard let data = Corpus.document("twitter"), let search = try? JSONBenchmarks.TwitterSearch(json: data)
                else { return nil }
                return { n in for _ in 0..<n { blackHole(try? search.jsonData()) } }
            },
            Row(
                name: "decode-typed-twitter", what: "ISearch(json:) of twitter.json: msgspec's shapes, other keys ignored",
                iterations: 10, corpus: "twitter"
            ) {
                guard let data = Corpus.document("twitter") else { return nil }
                return { n in for _ in 0..<n { blackHole(try? TypedPeerBenchmarks.ISearch(json: data)) } }
            },
            Row(
                name: "decode-declared", what: "DSearch(json:) of twitter's statuses with msgspec's declared keys only",
                iterations: 10, corpus: "twitter"
            ) {
                guard let data = Corpus.document("twitter"), let declared = TypedPeerBenchmarks.declaredDocument(data)
                else { return nil }
                return { n in for _ in 0..<n { blackHole(try? TypedPeerBenchmarks.DSearch(json: declared)) } }
            },
            Row(
                name: "encode-declared", what: "jsonData() of those DSearch models", iterations: 10, corpus: "twitter"
            ) {
                guard let data = Corpus.document("twitter"), let declared = TypedPeerBenchmarks.declaredDocument(data),
                    let search = try? TypedPeerBenchmarks.DSearch(json: declared)
                else { return nil }
                return { n in for _ in 0..<n { blackHole(try? search.jsonData()) } }
            },
            Row(
                name: "patch-difference-1mb", what: "JSONPatch.difference of a 1 MB document and an edited version",
                iterations: 2, corpus: nil
            ) {
                let (base, ours, _) = MergeBenchmarks.versions()
                return { n in for _ in 0..<n { blackHole(JSONPatch.difference(from: base, to: ours)) } }
            },
            Row(
                name: "patch-apply-1mb", what: "that difference applied to the 1 MB document", iterations: 2,
                corpus: nil
            ) {
                let (base, ours, _) = MergeBenchmarks.versions()
                let patch = JSONPatch.difference(from: base, to: ours)
                guard (try? patch.applied(to: base)) == ours else { return nil }
                return { n in for _ in 0..<n { blackHole(try? patch.applied(to: base)) } }
            },
            Row(
                name: "merge-1mb", what: "ModelValue.merge of two edited versions of a 1 MB document", iterations: 2,
                corpus: nil
            ) {
                let (base, ours, theirs) = MergeBenchmarks.versions()
                return { n in
                    for _ in 0..<n { blackHole(try? ModelValue.merge(base: base, ours: ours, theirs: theirs)) }
                }
            },
        ]
    }

    /// The one function callgrind collects in: `run(iterations)`.
    @inline(never)
    static func countedOperations(_ run: (_ iterations: Int) -> Void, _ iterations: Int) {
        run(iterations)
    }

    /// The callgrind pattern of ``countedOperations(_:_:)``'s symbol (and of
    /// any specialisation the optimiser makes of it).
    static let countedFunctionPattern = "*InstructionCheck*countedOperations*"

    /// `Benchmarks --count ROW`: the child's work under callgrind.
    static func count(_ name: String) -> Never {
        guard let row = rows.first(where: { $0.name == name }) else {
            FileHandle.standardError.write(Data("Benchmarks --count: no row named \(name)\n".utf8))
            exit(2)
        }
        guard let run = row.prepare() else {
            FileHandle.standardError.write(Data("Benchmarks --count \(name): its data could not be prepared\n".utf8))
            exit(3)
        }
        // Warm up: first-use costs (a class's layout, metadata, caches) are not the operation's.
        run(max(1, min(row.iterations / 10, 1_000)))
        countedOperations(run, row.iterations)
        exit(0)
    }
}
