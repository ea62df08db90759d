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

/// A crash during an append (issue 58): the torn tail it can leave is told
/// from a malformed line, refused or read up to, and removed by the next
/// append; appends lock the file; a file an append creates has its folder
/// synced.
@Suite struct JSONLinesTornTailTests {
    static let torn =
        "books.jsonl, JSON Lines at line 2, column 1 (byte 14): the file ends in a torn line, which a crash cut "
        + "short while lines were being added; read the lines before it with tornTail: .readUpToIt, and the next "
        + "append or write removes it"

    /// Files that a crash during an append can leave after `{"title":"a"}\n`
    /// (14 bytes): a line cut short, zero bytes where the new size reached
    /// the disk before the data, both, blank lines before them.
    static let tornFiles: [(String, Int)] = [
        ("{\"title\":\"a\"}\n{\"title\":\"b\",\"pa", 14),
        ("{\"title\":\"a\"}\n{\"title\":\"b\"", 14),
        ("{\"title\":\"a\"}\n{", 14),
        ("{\"title\":\"a\"}\n\0\0\0\0\0\0\0\0", 14),
        ("{\"title\":\"a\"}\n{\"title\":\"b\"\0\0\0\0", 14),
        ("{\"title\":\"a\"}\n\0\0\0\0\n\0\0\0", 14),
        ("{\"title\":\"a\"}\n\n   \n{\"tit", 19),
        ("{\"title\":\"a\"}\r\n{\"title\":\"b\"}\n\0\0", 29),
    ]

    @Test(arguments: tornFiles)
    func aTornTailIsRefusedNamingItsByteAndReadUpToOnRequest(text: String, byte: Int) async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("books.jsonl")
            try Data(text.utf8).write(to: url)
            let whole = text.hasPrefix("{\"title\":\"a\"}\r\n{\"title\":\"b\"}") ? ["a", "b"] : ["a"]
            var delivered: [String] = []
            do {
                for try await book in JSONLines.models(Book.self, contentsOf: url) { delivered.append(book.title) }
                Issue.record("no error")
            } catch let error as ModelError {
                #expect(error.code == .tornTail)
                #expect(error.location?.byteOffset == byte)
                if byte == 14 { #expect(error.description == Self.torn) }
            }
            #expect(delivered == whole)
            var read: [String] = []
            for try await book in JSONLines.models(Book.self, contentsOf: url, tornTail: .readUpToIt) {
                read.append(book.title)
            }
            #expect(read == whole)
            read = []
            try JSONLines.forEachModel(Book.self, contentsOf: url, tornTail: .readUpToIt) { read.append($0.title) }
            #expect(read == whole)
            #expect(LineFileWriting.end(of: url) == LineFileWriting.Tail(end: Int64(byte), isTorn: true, needsNewline: false))
        }
    }

    /// Fails without the fix: the append left the torn line in the middle,
    /// where every later read stopped.
    @Test(arguments: tornFiles)
    func theNextAppendRemovesATornTailFirst(text: String, byte: Int) async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("books.jsonl")
            try Data(text.utf8).write(to: url)
            let more = JSONLinesTests.books(2)
            try JSONLines.append(more, to: url)
            let whole = text.hasPrefix("{\"title\":\"a\"}\r\n{\"title\":\"b\"}") ? ["a", "b"] : ["a"]
            #expect(try await JSONLinesTests.read(url).map(\.title) == whole + more.map(\.title))
            let bytes = try Data(contentsOf: url)
            #expect(bytes.prefix(byte) == Data(text.utf8).prefix(byte))
            #expect(!bytes.contains(0))
        }
    }

    /// Every way a crash can cut a line short is told from a line that is
    /// malformed before its end.
    @Test func everyCutOfALineIsTornAndMalformedLinesAreNot() {
        let line = Array(#"{"title":"é x\"\u00e9 🎉","pages":12,"tags":["a",[]],"flag":true,"n":null,"d":-1.5e3,"f":false}"#.utf8)
        for length in 1..<line.count where !LineFileWriting.isCutShort(line[..<length]) {
            Issue.record("\(String(decoding: line[..<length], as: UTF8.self)) is not taken for cut short")
        }
        #expect(!LineFileWriting.isCutShort(line))
        let malformed = [
            #"{"title": }"#, #"{"a":tru}"#, #"{"a":1}x"#, #"{"a":"\u00zz"}"#, #"{"a":1,,"#,
            String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
        ]
        for text in malformed { #expect(!LineFileWriting.isCutShort(Array(text.utf8)), "\(text.prefix(20))") }
    }

    @Test func theNextWriteReplacesATornTail() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("books.jsonl")
            try Data("{\"title\":\"a\"}\n{\"ti\0\0".utf8).write(to: url)
            let books = JSONLinesTests.books(2)
            try JSONLines.write(books, to: url)
            #expect(try await JSONLinesTests.read(url).map(\.title) == books.map(\.title))
        }
    }

    /// Bad lines that are no torn tail: a line followed by a whole line, a
    /// whole JSON value that is no valid model. They fail as malformed
    /// lines, and an append leaves them.
    @Test(arguments: [
        (
            "{\"title\":\"a\"}\n{\"title\":\"b\0\"}\n{\"title\":\"c\"}\n",
            "books.jsonl, JSON Lines at line 2, column 12 (byte 25), in title: unescaped control character U+0000 in string"
        ),
        (
            "{\"title\":\"a\"}\n{\"title\":\"b\n{\"title\":\"c\"}\n",
            "books.jsonl, JSON Lines at line 2, column 10 (byte 23), in title: unterminated string"
        ),
        (
            "{\"title\":\"a\"}\n{\"pages\":-1}",
            "books.jsonl, JSON Lines at line 2, column 1 (byte 14), in pages: must be at least 0, found -1"
        ),
    ])
    func aMalformedLineIsNoTornTail(text: String, message: String) throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("books.jsonl")
            try Data(text.utf8).write(to: url)
            for tornTail in [JSONLines.TornTail.refuse, .readUpToIt] {
                do {
                    try JSONLines.forEachModel(Book.self, contentsOf: url, tornTail: tornTail) { _ in }
                    Issue.record("no error")
                } catch let error as ModelError {
                    #expect(error.description == message)
                }
            }
            #expect(!LineFileWriting.end(of: url).isTorn)
            try JSONLines.append(JSONLinesTests.books(1), to: url)
            #expect(try Data(contentsOf: url).prefix(text.utf8.count) == Data(text.utf8))
        }
    }

    /// Fails without the fix: nothing synced the folder, so the new file's
    /// name could vanish in a power cut after the append returned.
    @Test func anAppendThatCreatesTheFileSyncsItsFolder() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("books.jsonl")
            let book = Book()
            book.title = "a"
            let line = try book.jsonData() + Data("\n".utf8)
            let (_, created) = try FileOperationRecorder.recording { try JSONLines.append([book], to: url) }
            #expect(
                created == [
                    .create(url.path), .write(url.path, offset: 0, bytes: line), .sync(url.path), .sync(folder.path),
                ])
            let (_, added) = try FileOperationRecorder.recording { try JSONLines.append([book], to: url) }
            #expect(added == [.write(url.path, offset: Int64(line.count), bytes: line), .sync(url.path)])
            try Data(contentsOf: url).prefix(line.count).write(to: url)
            try FileHandle(forWritingTo: url).closeAfter { try $0.seekToEnd(); try $0.write(contentsOf: Data("{\"ti".utf8)) }
            let (_, repaired) = try FileOperationRecorder.recording { try JSONLines.append([book], to: url) }
            #expect(
                repaired == [
                    .truncate(url.path, size: Int64(line.count)), .sync(url.path),
                    .write(url.path, offset: Int64(line.count), bytes: line), .sync(url.path),
                ])
        }
    }

    /// An append waits for the file's lock, which another append (of any
    /// process) holds until its lines are synced.
    @Test func anAppendWaitsForTheFilesLock() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("books.jsonl")
            try JSONLines.write(JSONLinesTests.books(1), to: url)
            let holder = open(url.path, O_RDONLY | O_CLOEXEC)
            #expect(holder >= 0)
            defer { close(holder) }
            #expect(flock(holder, LOCK_EX) == 0)
            let done = SendableData()
            let path = url.path
            let appender = Thread {
                try? JSONLines.append(JSONLinesTests.books(1, seed: 2), to: URL(fileURLWithPath: path))
                done.value = Data([1])
            }
            appender.start()
            try await Task.sleep(for: .milliseconds(300))
            #expect(!done.isSet)
            #expect(LineFileWriting.lineCount(of: url) == 1)
            #expect(flock(holder, LOCK_UN) == 0)
            #expect(await eventually { done.isSet })
            #expect(try await JSONLinesTests.read(url).count == 2)
        }
    }
}

extension FileHandle {
    /// Runs `body` with the handle, then closes it, whatever `body` throws.
    func closeAfter(_ body: (FileHandle) throws -> Void) throws {
        defer { try? close() }
        try body(self)
    }
}

/// Two processes appending to one file at once: every line whole, none lost.
@Suite(.enabled(if: FileWorker.executable != nil, "the FileWorker executable is not built: run swift build"))
struct JSONLinesProcessTests {
    @Test func twoProcessesAppendingAtOnceNeverInterleaveLines() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("records.jsonl")
            let count = 25
            // Lines of 128 KiB: one write each, far past a pipe's atomic size.
            let workers = try ["a", "b"].map {
                try FileWorker.start(["append-loop", url.path, $0, "\(count)", "\(128 * 1024)"])
            }
            let outputs = workers.map { $0.finish() }
            for (worker, output) in zip(workers, outputs) {
                #expect(worker.process.terminationStatus == 0, "\(output)")
            }
            var counters: [Character: [Int]] = [:]
            try JSONLines.forEachModel(WorkerRecord.self, contentsOf: url) { record in
                #expect(record.payload.count == 128 * 1024 && Set(record.payload).count == 1)
                counters[record.payload.first ?? " ", default: []].append(record.counter)
            }
            #expect(counters["a"] == Array(1...count))
            #expect(counters["b"] == Array(1...count))
        }
    }

    /// What an append that creates its file really does, seen by `strace`
    /// (the recorder's account, checked against the system calls): the
    /// lines are synced, then the folder.
    @Test func anAppendThatCreatesTheFileSyncsTheFileThenItsFolder() throws {
        guard let worker = FileWorker.executable, FileManager.default.isExecutableFile(atPath: "/usr/bin/strace") else {
            return  // strace is not installed
        }
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("traced.jsonl")
            let log = folder.appendingPathComponent("strace.log")
            let outcome = try FileWorker.run(
                ["-f", "-y", "-o", log.path, "-e", "trace=fsync,fdatasync,flock", worker.path, "append-loop", url.path,
                    "a", "1", "10"],
                executable: URL(fileURLWithPath: "/usr/bin/strace"))
            guard outcome.status == 0 else { return }  // ptrace not permitted here
            let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init)
            let lock = lines.firstIndex { $0.contains("flock(") && $0.contains("traced.jsonl>") && $0.contains("LOCK_EX") }
            let fileSync = lines.firstIndex { $0.contains("fsync(") && $0.contains("traced.jsonl>") }
            let folderSync = lines.lastIndex { $0.contains("fsync(") && $0.contains("<\(folder.path)>") }
            #expect(lock != nil && fileSync != nil && folderSync != nil, "\(lines)")
            if let lock, let fileSync, let folderSync { #expect(lock < fileSync && fileSync < folderSync) }
        }
    }
}
