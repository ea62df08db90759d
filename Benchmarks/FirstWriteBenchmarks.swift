import Foundation
import ModelKit

/// Writes as an app saves a document: a handful of writes per round, not a
/// loop long enough to warm the allocator, in a process that does nothing
/// else, so that what a first write costs (a fresh output buffer, its page
/// faults, handing the bytes to `Data`) is in the figure.
///
/// The process does exactly what `../shared/orjson-bench.py` does for
/// orjson, so that the two compare: per corpus document, seven rounds of
/// `max(1, 8 MB / size)` parses, then seven rounds of a quarter as many
/// writes (at least one), each round's time per write, and the median, as
/// MB/s of the input file. The full run starts it as a fresh copy of itself
/// (`Benchmarks first-writes-alone`).
enum FirstWriteBenchmarks {
    static let aloneArgument = "first-writes-alone"

    static func run() {
        if Harness.filter == aloneArgument {
            for name in Corpus.names { measure(name) }
            return
        }
        guard Harness.profileIterations == nil, Harness.wants("first write") else { return }
        print("## First writes (a fresh process, as orjson-bench.py measures orjson)")
        Harness.printFromFreshProcess(aloneArgument, linesStartingWith: "| first write")
        print("")
    }

    private static func measure(_ name: String) {
        guard let data = Corpus.document(name), let value = try? ModelValue(json: data) else {
            print("| first write \(name) | skipped: ../shared/corpus/\(name).json not found or not readable |")
            return
        }
        let megabytes = Double(data.count) / 1e6
        let parses = max(1, Int(8 / megabytes))
        let writes = max(1, parses / 4)
        func perOperation(_ count: Int, _ operation: () -> Void) -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<count { operation() }
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 / Double(count)
        }
        func median(_ times: [Double]) -> Double { times.sorted()[times.count / 2] }
        let parse = median((0..<7).map { _ in perOperation(parses) { blackHole(try? ModelValue(json: data)) } })
        let write = median((0..<7).map { _ in perOperation(writes) { blackHole(try? value.jsonData()) } })
        print(
            "| first write \(name) | ModelKit: \(writes) per round, "
                + String(format: "%.3f ms (%.0f MB/s) | parse in the same process: %.0f MB/s |",
                    write * 1e3, megabytes / write, megabytes / parse))
    }
}
