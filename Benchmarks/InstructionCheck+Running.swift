import Foundation

extension InstructionCheck {
    /// `Benchmarks --check [--update-baseline]`: counts every row under
    /// callgrind, prints each with its ratio to the baseline, and exits 1 when
    /// a row counts more than `tolerance` times its baseline (or has none, or
    /// could not be counted). With `updatingBaseline`, writes the counts to
    /// the baseline file instead of failing.
    static func check(updatingBaseline: Bool) -> Never {
        guard let valgrind = executableInPath("valgrind") else {
            if ProcessInfo.processInfo.environment[skipVariable] == "1" {
                print("Benchmarks --check: valgrind was not found in PATH; skipped because \(skipVariable)=1.")
                exit(0)
            }
            print(
                "Benchmarks --check: valgrind was not found in PATH (the check counts instructions with callgrind). "
                    + "Install it (apt-get install valgrind), or set \(skipVariable)=1 to skip the check.")
            exit(1)
        }
        let baseline = readBaseline()
        if baseline == nil && !updatingBaseline {
            print("Benchmarks --check: no baseline at \(baselineURL.path); make one with --update-baseline.")
            exit(1)
        }
        let started = Date()
        print("Instructions per operation (callgrind, setup excluded) against \(baselineURL.lastPathComponent);")
        print(String(format: "a row fails above %.2fx its baseline.", tolerance))
        print("")
        print("| row | iterations | baseline | now | ratio |")
        print("| --- | ---: | ---: | ---: | ---: |")
        var counts: [String: Int] = [:]
        var failures: [String] = []
        for row in rows {
            if let name = row.corpus, Corpus.document(name) == nil {
                print("| \(row.name) | skipped: ../shared/corpus/\(name).json not found | | | |")
                continue
            }
            let old = baseline?[row.name]
            let now: Int
            switch countInstructions(row, valgrind: valgrind) {
            case .failure(let message):
                print("| \(row.name) | could not be counted | \(old.map(grouped) ?? "none") | — | — |")
                failures.append("\(row.name): could not be counted: \(message)")
                continue
            case .success(let count):
                now = count
            }
            counts[row.name] = now
            guard let old else {
                print("| \(row.name) | \(grouped(row.iterations)) | none | \(grouped(now)) | — |")
                if !updatingBaseline {
                    failures.append("\(row.name): no baseline (\(grouped(now)) instructions per operation now)")
                }
                continue
            }
            let ratio = Double(now) / Double(max(old, 1))
            let verdict = ratio > tolerance ? " REGRESSION" : ""
            print(
                "| \(row.name) | \(grouped(row.iterations)) | \(grouped(old)) | \(grouped(now)) | "
                    + String(format: "%.3fx", ratio) + "\(verdict) |")
            if ratio > tolerance {
                failures.append(
                    "\(row.name) (\(row.what)): \(grouped(now)) instructions per operation, baseline \(grouped(old)) ("
                        + String(format: "%.2fx, more than %.2fx", ratio, tolerance) + ")")
            }
        }
        print("")
        print(String(format: "Counted in %.0f s.", Date().timeIntervalSince(started)))
        if updatingBaseline {
            writeBaseline(counts, keeping: baseline ?? [:])
            print("Wrote \(baselineURL.path). Commit it with a message that says why the counts changed.")
            exit(failures.isEmpty ? 0 : 1)
        }
        if failures.isEmpty {
            print("Benchmarks --check: every row within \(String(format: "%.2fx", tolerance)) of its baseline.")
            exit(0)
        }
        print("Benchmarks --check FAILED:")
        for failure in failures { print("  \(failure)") }
        exit(1)
    }

    /// Runs `Benchmarks --count ROW` under callgrind and returns the
    /// instructions per operation it collected.
    private static func countInstructions(_ row: Row, valgrind: URL) -> Result<Int, CheckError> {
        countInstructions(arguments: ["--count", row.name], iterations: row.iterations, valgrind: valgrind)
    }

    /// Runs this program with `arguments` under callgrind, collecting inside
    /// ``countedOperations(_:_:)`` only, and returns the instructions it
    /// collected divided by `iterations`.
    static func countInstructions(arguments: [String], iterations: Int, valgrind: URL) -> Result<Int, CheckError> {
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("modelkit-check-\(getpid())-\(UUID().uuidString).callgrind")
        defer { try? FileManager.default.removeItem(at: output) }
        let executable = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        let child = Process()
        child.executableURL = valgrind
        child.arguments = [
            "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=\(countedFunctionPattern)",
            "--callgrind-out-file=\(output.path)", executable.path,
        ] + arguments
        var environment = ProcessInfo.processInfo.environment
        // Hashing seeded per process would make dictionaries' work differ from run to run.
        environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
        child.environment = environment
        let log = Pipe()
        child.standardOutput = log
        child.standardError = log
        do {
            try child.run()
        } catch {
            return .failure(CheckError("valgrind did not start: \(error)"))
        }
        let text = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        guard child.terminationStatus == 0 else {
            let tail = text.split(separator: "\n").suffix(8).joined(separator: "\n")
            return .failure(CheckError("exit status \(child.terminationStatus):\n\(tail)"))
        }
        guard let profile = try? String(contentsOf: output, encoding: .utf8) else {
            return .failure(CheckError("callgrind wrote no profile"))
        }
        // `totals:` (or `summary:`) is the whole run's count of what was collected.
        let total = profile.split(separator: "\n").lazy
            .first { $0.hasPrefix("totals:") || $0.hasPrefix("summary:") }
            .flatMap { $0.split(separator: " ").dropFirst().first }
            .flatMap { Int($0) }
        guard let total, total > 0 else {
            return .failure(CheckError("callgrind collected nothing inside \(countedFunctionPattern)"))
        }
        return .success(Int((Double(total) / Double(iterations)).rounded()))
    }

    struct CheckError: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// The baseline file's rows: name, then instructions per operation.
    private static func readBaseline() -> [String: Int]? {
        guard let text = try? String(contentsOf: baselineURL, encoding: .utf8) else { return nil }
        var counts: [String: Int] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            guard words.count >= 2, let count = Int(words[1].filter { $0 != "," }) else { continue }
            counts[String(words[0])] = count
        }
        return counts
    }

    /// Writes the counts, one row per line; rows not counted this time (no
    /// corpus) keep their old figure.
    private static func writeBaseline(_ counts: [String: Int], keeping old: [String: Int]) {
        let formatter = ISO8601DateFormatter()
        var text = """
            # Instructions per operation for `swift run -c release Benchmarks --check`:
            # callgrind's Ir inside the counted loop (setup and warm-up excluded),
            # divided by the row's iterations. The check fails when a row counts
            # more than \(String(format: "%.0f", (tolerance - 1) * 100))% above its figure here.
            #
            # Rewritten by `Benchmarks --update-baseline`; commit it only in a
            # commit whose message says why the counts changed.
            # Last measured \(formatter.string(from: Date())).
            #
            # row                       instructions  what one operation is

            """
        for row in rows {
            guard let count = counts[row.name] ?? old[row.name] else { continue }
            let name = row.name.padding(toLength: max(row.name.count, 27), withPad: " ", startingAt: 0)
            let figure = String(count)
            let padded = String(repeating: " ", count: max(0, 12 - figure.count)) + figure
            text += "\(name) \(padded)  \(row.what)\n"
        }
        do {
            try text.write(to: baselineURL, atomically: true, encoding: .utf8)
        } catch {
            print("Benchmarks --update-baseline: could not write \(baselineURL.path): \(error)")
            exit(1)
        }
    }

    /// `name` in a folder of `PATH`, if it is there and executable.
    static func executableInPath(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// 1234567 as "1,234,567".
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result += "," }
            result.append(digit)
        }
        return value < 0 ? "-" + result : result
    }
}
