import Foundation

/// A tiny benchmark harness: variants of one task run alternately, round after
/// round, and each variant's median time per operation is reported, with the
/// ratio of the baseline's time to each other variant's (above 1: faster than
/// the baseline).
enum Harness {
    struct Variant {
        let label: String
        /// Runs the operation `iterations` times.
        let run: (_ iterations: Int) -> Void
    }

    struct Result {
        let task: String
        let labels: [String]
        let medians: [Double]  // seconds per operation
        let bytes: Int?
    }

    nonisolated(unsafe) static var results: [Result] = []
    nonisolated(unsafe) static var quick = false
    nonisolated(unsafe) static var filter: String?
    /// `--profile N`: run only the last variant (ModelKit's) of each row,
    /// `N` times, untimed, for a profiler (`valgrind --tool=callgrind`, `perf`).
    nonisolated(unsafe) static var profileIterations: Int?
    /// `--baseline` with `--profile N`: run the first variant (the baseline) instead.
    nonisolated(unsafe) static var profilesBaseline = false
    /// `--variant LABEL` with `--profile N`: run the variant with that label instead.
    nonisolated(unsafe) static var profiledVariant: String?

    /// Runs `Benchmarks <argument>` in a fresh process and prints the lines
    /// of its output that start with `prefix` (or says it could not start).
    static func printFromFreshProcess(_ argument: String, linesStartingWith prefix: String) {
        let child = Process()
        child.executableURL = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = [argument]
        let output = Pipe()
        child.standardOutput = output
        do {
            try child.run()
        } catch {
            print("\(prefix) | skipped: could not start a fresh process (\(error)) |")
            return
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        for line in text.split(separator: "\n") where line.hasPrefix(prefix) { print(line) }
    }

    /// Whether `name` passes the command line's filter.
    static func wants(_ name: String) -> Bool {
        guard let filter else { return true }
        return name.localizedCaseInsensitiveContains(filter)
    }

    /// The variant that `--profile` runs: the one `--variant` names, else the
    /// baseline with `--baseline`, else the last; `nil` when `--variant`
    /// names none of them (the row is then skipped).
    private static func profiled(_ variants: [Variant]) -> Variant? {
        if let profiledVariant { return variants.first { $0.label == profiledVariant } }
        return profilesBaseline ? variants.first : variants.last
    }

    /// Measures `variants` (the first is the baseline) alternately.
    /// - Parameters:
    ///   - task: the row's name.
    ///   - bytes: bytes processed per operation, for a MB/s column.
    ///   - rounds: rounds; the median is reported.
    ///   - minimumTime: seconds each variant runs per round, at least.
    @discardableResult
    static func compare(
        _ task: String, bytes: Int? = nil, rounds: Int = 7, minimumTime: Double = 0.2, _ variants: [Variant]
    ) -> Result? {
        guard wants(task) else { return nil }
        if let profileIterations {
            guard let variant = profiled(variants) else { return nil }
            variant.run(profileIterations)
            print("| \(task) | \(variant.label): ran \(profileIterations) times for a profiler |")
            return nil
        }
        let rounds = quick ? 3 : rounds
        let minimumTime = quick ? minimumTime / 4 : minimumTime
        // Calibrate: find an iteration count per variant that takes minimumTime.
        var counts: [Int] = []
        for variant in variants {
            var iterations = 1
            while true {
                let seconds = time { variant.run(iterations) }
                if seconds >= minimumTime / 4 || iterations >= 1 << 30 {
                    let perOp = seconds / Double(iterations)
                    counts.append(max(1, Int(minimumTime / max(perOp, 1e-9))))
                    break
                }
                iterations *= 4
            }
        }
        var samples = Array(repeating: [Double](), count: variants.count)
        for round in 0..<rounds {
            // Alternate the order each round so neither variant always runs first.
            let order = round % 2 == 0 ? Array(variants.indices) : Array(variants.indices.reversed())
            for index in order {
                let iterations = counts[index]
                let seconds = time { variants[index].run(iterations) }
                samples[index].append(seconds / Double(iterations))
            }
        }
        let medians = samples.map { $0.sorted()[$0.count / 2] }
        let result = Result(task: task, labels: variants.map(\.label), medians: medians, bytes: bytes)
        results.append(result)
        report(result)
        return result
    }

    static func time(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    static func format(seconds: Double) -> String {
        switch seconds {
        case ..<1e-6: String(format: "%.1f ns", seconds * 1e9)
        case ..<1e-3: String(format: "%.2f µs", seconds * 1e6)
        case ..<1: String(format: "%.2f ms", seconds * 1e3)
        default: String(format: "%.2f s", seconds)
        }
    }

    static func report(_ result: Result) {
        var line = "| \(result.task) |"
        for (label, median) in zip(result.labels, result.medians) {
            line += " \(label): \(format(seconds: median))"
            if let bytes = result.bytes { line += String(format: " (%.0f MB/s)", Double(bytes) / median / 1e6) }
            line += " |"
        }
        let baseline = result.medians[0]
        for median in result.medians.dropFirst() {
            line += String(format: " %.2fx |", baseline / median)
        }
        print(line)
    }

    /// The process's peak resident memory in bytes (VmHWM), or nil off Linux.
    static func peakResidentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let digits = line.filter(\.isNumber)
            return Int(digits).map { $0 * 1024 }
        }
        return nil
    }

    /// The process's current resident memory in bytes (VmRSS), or nil off Linux.
    static func residentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let digits = line.filter(\.isNumber)
            return Int(digits).map { $0 * 1024 }
        }
        return nil
    }

    /// Resets the peak resident memory to the current one (Linux 4.0 and later).
    static func resetPeakResidentBytes() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }
}

/// Keeps a value alive and opaque to the optimiser.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
