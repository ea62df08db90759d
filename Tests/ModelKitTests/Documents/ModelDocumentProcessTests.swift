#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation
import Testing

@testable import ModelKit

/// The judges of many writers: `FileWorker document-loop` processes save
/// one document at random moments, each editing its own counter, its own
/// cards of a shared array (matched by identity) and the shared title.
/// `MODELKIT_MANY_WRITERS_SECONDS` sets how long each run lasts: a minute
/// by default, as the issue's judge asks.
@Suite(.serialized) struct ModelDocumentProcessTests {
    static var seconds: Double {
        ProcessInfo.processInfo.environment["MODELKIT_MANY_WRITERS_SECONDS"].flatMap(Double.init) ?? 60
    }

    /// What one report of a writer says it saved.
    struct Report {
        var counter: Int
        var cards: [String: String]

        /// The last `saved …` line of a worker's output.
        init?(lastOf output: String) {
            guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("saved ") }) else { return nil }
            let parts = line.dropFirst("saved ".count).split(separator: " ", maxSplits: 1)
            guard let counter = Int(parts[0]) else { return nil }
            self.counter = counter
            cards = [:]
            if parts.count > 1 {
                for card in parts[1].split(separator: ",") {
                    let pair = card.split(separator: "=", maxSplits: 1)
                    if pair.count == 2 { cards[String(pair[0])] = String(pair[1]) }
                }
            }
        }
    }

    /// The board in the file: each writer's counter, and every card's title by id.
    static func board(at url: URL) throws -> (counters: [String: Int], cards: [String: String], title: String) {
        let value = try ModelValue(contentsOf: url)
        guard case .object(let members) = value else { throw ModelError.invalidValue("not an object") }
        var counters: [String: Int] = [:]
        for (key, member) in members where key.hasPrefix("w") {
            if case .int(let counter) = member { counters[key] = counter }
        }
        var cards: [String: String] = [:]
        if case .array(let elements)? = members["cards"] {
            for case .object(let card) in elements {
                if case .string(let id)? = card["id"], case .string(let title)? = card["title"] {
                    #expect(cards[id] == nil, "card \(id) is in the array twice")
                    cards[id] = title
                }
            }
        }
        var title = ""
        if case .string(let text)? = members["title"] { title = text }
        return (counters, cards, title)
    }

    /// Checks that the file holds what `report` of writer `writer` says it saved.
    static func expectSaved(_ report: Report, by writer: Int, in url: URL) throws {
        let board = try board(at: url)
        let counter = board.counters["w\(writer)"] ?? 0
        #expect(counter >= report.counter, "writer \(writer) saved \(report.counter), the file has \(counter)")
        for (id, title) in report.cards {
            #expect(board.cards[id] != nil, "writer \(writer)'s card \(id) (\(title)) was lost")
        }
    }

    static func startBoard(in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("board.json")
        try Data(#"{"type":"Board","version":1,"title":"","cards":[]}"#.utf8).write(to: url)
        return url
    }

    @Test func fourWritersLoseNoSavedEditAndNeverLeaveAHalfMergedFile() throws {
        try withTemporaryFolder { folder in
            let url = try Self.startBoard(in: folder)
            let seconds = Self.seconds
            let workers = try (0..<4).map {
                try FileWorker.start(["document-loop", url.path, "\($0)", "\(seconds)", "\(41 + $0)"])
            }
            // While they write, every version on disk is whole.
            let deadline = Date().addingTimeInterval(seconds)
            var looks = 0
            while Date() < deadline {
                #expect(throws: Never.self) { _ = try Self.board(at: url) }
                looks += 1
                usleep(20_000)
            }
            for (writer, worker) in workers.enumerated() {
                let output = worker.finish()
                #expect(worker.process.terminationStatus == 0, "writer \(writer): \(output.suffix(500))")
                let report = try #require(Report(lastOf: output), "writer \(writer) printed: \(output.suffix(300))")
                let board = try Self.board(at: url)
                #expect(board.counters["w\(writer)"] == report.counter)
                for (id, title) in report.cards {
                    #expect(board.cards[id] == title, "writer \(writer)'s card \(id)")
                }
            }
            let title = try Self.board(at: url).title
            #expect(title.isEmpty || title.split(separator: " ").count == 2, "the shared title is one writer's: \(title)")
            #expect(looks > 10)
        }
    }

    @Test func writersKilledAtRandomMomentsLoseNothingTheyReportedSaved() throws {
        try withTemporaryFolder { folder in
            let url = try Self.startBoard(in: folder)
            let seconds = Self.seconds
            var random = SeededGenerator(seed: 60)
            let deadline = Date().addingTimeInterval(seconds)
            var seeds: UInt64 = 100
            func start(_ writer: Int) throws -> FileWorker.Running {
                seeds += 1
                let left = max(deadline.timeIntervalSinceNow, 1)
                return try FileWorker.start(["document-loop", url.path, "\(writer)", "\(left)", "\(seeds)"])
            }
            var workers = try (0..<4).map { try start($0) }
            var kills = 0
            while deadline.timeIntervalSinceNow > 2 {
                usleep(UInt32.random(in: 100_000...600_000, using: &random))
                let writer = Int.random(in: 0..<4, using: &random)
                kill(workers[writer].process.processIdentifier, SIGKILL)
                let output = workers[writer].finish()
                kills += 1
                // Whatever it reported saved is in the file, and the file loads.
                if let report = Report(lastOf: output) { try Self.expectSaved(report, by: writer, in: url) }
                workers[writer] = try start(writer)
            }
            for (writer, worker) in workers.enumerated() {
                let output = worker.finish()
                #expect(worker.process.terminationStatus == 0, "writer \(writer): \(output.suffix(500))")
                if let report = Report(lastOf: output) { try Self.expectSaved(report, by: writer, in: url) }
            }
            #expect(kills > 5)
            // Killed writers leave no temporary file behind the next save.
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            #expect(names.allSatisfy { $0 == "board.json" || $0 == ".board.json.modelkit-lock" }, "\(names)")
        }
    }
}
