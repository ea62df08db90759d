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

/// A save the crash-state explorer runs: what is there before, the save
/// (recorded), and how a fresh reader sees the target.
struct CrashWriter {
    var name: String
    /// A deliberately unsafe writer, which the explorer must catch.
    var isControl = false
    /// Whether lines are added: a crash may leave the old lines followed by
    /// some of the new ones, whole (atomic by line).
    var addsLines = false
    var setUp: (URL) throws -> Void = { _ in }
    /// Saves, and returns the versions that saves before the last one
    /// reported (a state may be any of them too).
    var save: (URL) throws -> [[String]]
    /// What a fresh reader finds: one string per model or line, or a
    /// single string saying the file is absent or unreadable.
    var read: (URL) -> [String]
}

/// Every save of ModelKit under every crash state of two models
/// (``CrashStateExplorer``), each state read by a fresh reader in this
/// process (a new `ModelObject(contentsOf:)`, `ModelDefaults.read`, or
/// `JSONLinesReader`: nothing cached). Each must read as the old version or
/// the new one (for appends, the old lines and some new ones, whole), and as
/// the new one after the save returned; two unsafe control writers must be
/// caught.
@Suite struct CrashStateExplorerTests {
    // MARK: Readers

    static func document(_ name: String) -> (URL) -> [String] {
        { root in
            let url = root.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path) else { return ["absent"] }
            do {
                return [String(decoding: try Note(contentsOf: url).jsonData(), as: UTF8.self)]
            } catch {
                return ["unreadable: \(error)"]
            }
        }
    }

    static func settings(_ path: String) -> (URL) -> [String] {
        { root in
            do {
                let (values, _) = try ModelDefaults.read(root.appendingPathComponent(path))
                return values.keys.sorted().map { "\($0)=\(values[$0].map { "\($0)" } ?? "")" }
            } catch {
                return ["unreadable: \(error)"]
            }
        }
    }

    /// The lines up to any torn tail; the default reader must agree or
    /// stop at the torn tail, and an append (to a copy) must then give every
    /// line read and its own, with no torn tail left.
    static func lines(_ name: String) -> (URL) -> [String] {
        { root in
            let url = root.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path) else { return [] }
            do {
                var titles: [String] = []
                try JSONLines.forEachModel(Book.self, contentsOf: url, tornTail: .readUpToIt) { titles.append($0.title) }
                var strict: [String] = []
                do {
                    try JSONLines.forEachModel(Book.self, contentsOf: url) { strict.append($0.title) }
                } catch let error as ModelError where error.code == .tornTail {
                    strict = titles
                }
                guard strict == titles else { return ["the default reader read \(strict)"] }
                // On a copy: the root is read too, before and after the save.
                let copy = FileManager.default.temporaryDirectory
                    .appendingPathComponent("ModelKitTests-\(UUID().uuidString).jsonl")
                try FileManager.default.copyItem(at: url, to: copy)
                defer { try? FileManager.default.removeItem(at: copy) }
                let repair = Book()
                repair.title = "repair"
                try JSONLines.append([repair], to: copy)
                var repaired: [String] = []
                try JSONLines.forEachModel(Book.self, contentsOf: copy) { repaired.append($0.title) }
                guard repaired == titles + ["repair"] else { return ["the next append gave \(repaired)"] }
                return titles
            } catch {
                return ["unreadable: \(error)"]
            }
        }
    }

    // MARK: Writers

    static func note(_ title: String) -> Note {
        let note = Note()
        note.title = title
        note.tags = (0..<400).map { "tag \($0) of \(title)" }  // several blocks of 4 KiB
        return note
    }

    static func books(_ prefix: String, _ count: Int, length: Int) -> [Book] {
        (0..<count).map { index in
            let book = Book()
            book.title = "\(prefix) \(index) " + String(repeating: prefix, count: length)
            return book
        }
    }

    static func documentWriters() -> [CrashWriter] {
        var writers: [CrashWriter] = []
        for (format, name) in [("JSON", "note.json"), ("XML property list", "note.plist"), ("binary property list", "note.bplist")] {
            writers.append(
                CrashWriter(
                    name: "document, \(format), new file",
                    save: { root in
                        try note("new").write(to: root.appendingPathComponent(name))
                        return []
                    }, read: document(name)))
            writers.append(
                CrashWriter(
                    name: "document, \(format), rewrite",
                    setUp: { root in try note("old").write(to: root.appendingPathComponent(name)) },
                    save: { root in
                        try note("new").write(to: root.appendingPathComponent(name))
                        return []
                    }, read: document(name)))
        }
        writers.append(
            CrashWriter(
                name: "ModelDocument, JSON, save that merges",
                setUp: { root in try note("old").write(to: root.appendingPathComponent("note.json")) },
                save: { root in
                    let url = root.appendingPathComponent("note.json")
                    let document = try ModelDocument<Note>(contentsOf: url, history: nil)
                    document.root.title = "ours"
                    // Another writer's save lands before ours: theirs.
                    let theirs = try Note(contentsOf: url)
                    theirs.tags = Array(theirs.tags.prefix(300)) + ["theirs"]
                    try theirs.write(to: url)
                    let saved = Self.document(url.lastPathComponent)(root)
                    let conflicts = try document.save()
                    #expect(conflicts.isEmpty)
                    #expect(document.root.title == "ours" && document.root.tags.last == "theirs")
                    return [saved]
                }, read: document("note.json")))
        writers.append(
            CrashWriter(
                name: "document array, JSON, rewrite",
                setUp: { root in try [note("old")].write(to: root.appendingPathComponent("notes.json")) },
                save: { root in
                    try [note("new"), note("two")].write(to: root.appendingPathComponent("notes.json"))
                    return []
                },
                read: { root in
                    do {
                        return try [Note](contentsOf: root.appendingPathComponent("notes.json")).map(\.title)
                    } catch {
                        return ["unreadable: \(error)"]
                    }
                }))
        return writers
    }

    static func defaultsWriters() -> [CrashWriter] {
        let path = "config/app/defaults.plist"
        func store(_ root: URL) throws -> ModelDefaults {
            try ModelDefaults(url: root.appendingPathComponent(path), autosaveDelay: nil, watchInterval: nil)
        }
        func existing(_ root: URL) throws {
            let first = try store(root)
            first.set("old", forKey: "a")
            try first.save()
        }
        return [
            CrashWriter(
                name: "ModelDefaults, first save into new folders",
                save: { root in
                    let defaults = try store(root)
                    defaults.set("new", forKey: "a")
                    try defaults.save()
                    return []
                }, read: settings(path)),
            CrashWriter(
                name: "ModelDefaults, save()", setUp: existing,
                save: { root in
                    let defaults = try store(root)
                    defaults.set("new", forKey: "b")
                    defaults.removeValue(forKey: "a")
                    try defaults.save()
                    return []
                }, read: settings(path)),
            CrashWriter(
                name: "ModelDefaults, the save at exit", setUp: existing,
                save: { root in
                    let defaults = try store(root)
                    defaults.set("new", forKey: "b")
                    // What the atexit handler runs for each open store.
                    if let failure = defaults.saveRecordingError() { throw failure }
                    return []
                }, read: settings(path)),
            CrashWriter(
                name: "ModelDefaults, the save at release", setUp: existing,
                save: { root in
                    func remember() throws {
                        let defaults = try store(root)
                        defaults.set("new", forKey: "b")
                    }
                    try remember()
                    return []
                }, read: settings(path)),
            CrashWriter(
                name: "ModelDefaults, two stores on one file", setUp: existing,
                save: { root in
                    let one = try store(root)
                    let two = try store(root)
                    one.set("one", forKey: "b")
                    two.set("two", forKey: "c")
                    try one.save()
                    let middle = settings(path)(root)
                    try two.save()
                    return [middle]
                }, read: settings(path)),
        ]
    }

    static func lineWriters() -> [CrashWriter] {
        let name = "books.jsonl"
        return [
            CrashWriter(
                name: "JSON Lines, write",
                setUp: { root in try JSONLines.write(books("o", 3, length: 1300), to: root.appendingPathComponent(name)) },
                save: { root in
                    try JSONLines.write(books("n", 2, length: 1300), to: root.appendingPathComponent(name))
                    return []
                }, read: lines(name)),
            CrashWriter(
                name: "JSON Lines, append", addsLines: true,
                setUp: { root in try JSONLines.write(books("o", 3, length: 1300), to: root.appendingPathComponent(name)) },
                save: { root in
                    try JSONLines.append(books("n", 3, length: 1800), to: root.appendingPathComponent(name))
                    return []
                }, read: lines(name)),
            CrashWriter(
                name: "JSON Lines, append creating the file", addsLines: true,
                save: { root in
                    try JSONLines.append(books("n", 2, length: 3000), to: root.appendingPathComponent(name))
                    return []
                }, read: lines(name)),
            CrashWriter(
                name: "JSON Lines, append after a torn tail", addsLines: true,
                setUp: { root in
                    let url = root.appendingPathComponent(name)
                    try JSONLines.write(books("o", 2, length: 1300), to: url)
                    let handle = try FileHandle(forWritingTo: url)
                    try handle.closeAfter { try $0.seekToEnd(); try $0.write(contentsOf: Data("{\"title\":\"to".utf8) + Data(count: 5000)) }
                },
                save: { root in
                    try JSONLines.append(books("n", 2, length: 1300), to: root.appendingPathComponent(name))
                    return []
                }, read: lines(name)),
        ]
    }

    /// Two writers that are not safe, which the explorer must catch.
    static func controls() -> [CrashWriter] {
        let name = "note.json"
        func write(_ data: Data, to path: String, flags: Int32) throws {
            let descriptor = open(path, flags, 0o644)
            guard descriptor >= 0 else { throw DurableFile.failure(URL(fileURLWithPath: path), "open failed") }
            defer { close(descriptor) }
            if flags & O_TRUNC != 0 { FileOperationRecorder.record(.truncate(path, size: 0)) }
            if flags & O_CREAT != 0 { FileOperationRecorder.record(.create(path)) }
            let written = data.withUnsafeBytes { Platform.write(descriptor, $0.baseAddress!, $0.count) }
            guard written == data.count else { throw DurableFile.failure(URL(fileURLWithPath: path), "short write") }
            FileOperationRecorder.record(.write(path, offset: 0, bytes: data))
        }
        return [
            CrashWriter(
                name: "control: write in place without fsync", isControl: true,
                setUp: { root in try note("old").write(to: root.appendingPathComponent(name)) },
                save: { root in
                    try write(try note("new").jsonData(), to: root.appendingPathComponent(name).path, flags: O_WRONLY | O_TRUNC)
                    return []
                }, read: document(name)),
            CrashWriter(
                name: "control: rename without syncing the file", isControl: true,
                setUp: { root in try note("old").write(to: root.appendingPathComponent(name)) },
                save: { root in
                    let temporary = root.appendingPathComponent(".note.json.unsafe").path
                    let destination = root.appendingPathComponent(name).path
                    try write(try note("new").jsonData(), to: temporary, flags: O_WRONLY | O_CREAT | O_EXCL)
                    guard rename(temporary, destination) == 0 else { throw DurableFile.failure(URL(fileURLWithPath: destination), "rename failed") }
                    FileOperationRecorder.record(.rename(temporary, to: destination))
                    DurableFile.syncFolder(root.path)
                    return []
                }, read: document(name)),
        ]
    }

    // MARK: The explorer

    struct Outcome {
        var operations = 0
        var states: [CrashStateExplorer.Model: Int] = [:]
        var losing: [CrashStateExplorer.Model: Int] = [:]
        var example: String?
    }

    /// Runs `writer` and reads every state a crash could leave.
    static func explore(_ writer: CrashWriter) throws -> Outcome {
        try withTemporaryFolder { folder in
            let root = folder.appendingPathComponent("root", isDirectory: true)
            let scratch = folder.appendingPathComponent("state", isDirectory: true)
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            try writer.setUp(root)
            let old = writer.read(root)
            var explorer = try CrashStateExplorer(root: root)
            let (middle, operations) = try FileOperationRecorder.recording { try writer.save(root) }
            let new = writer.read(root)
            explorer.replay(operations)
            #expect(explorer.problems.isEmpty, "\(writer.name): \(explorer.problems)")
            #expect(old != new, "\(writer.name): the save changed nothing")
            var outcome = Outcome(operations: explorer.operationCount)
            for model in CrashStateExplorer.Model.allCases {
                var read: [CrashStateExplorer.State: [String]] = [:]
                var losing: Set<CrashStateExplorer.State> = []
                for count in 0...explorer.operationCount {
                    for state in explorer.states(after: count, model: model) {
                        let found: [String]
                        if let known = read[state] {
                            found = known
                        } else {
                            try explorer.make(state, in: scratch)
                            found = writer.read(scratch)
                            read[state] = found
                        }
                        let isOldOrNew =
                            found == old || found == new || middle.contains(found)
                            || (writer.addsLines && found.starts(with: old) && new.starts(with: found))
                        let holds = count == explorer.operationCount ? found == new : isOldOrNew
                        if !holds, losing.insert(state).inserted, outcome.example == nil {
                            outcome.example =
                                "\(model.rawValue), after \(count) of \(explorer.operationCount) operations: "
                                + "\(found.map { String($0.prefix(120)) })"
                        }
                    }
                }
                outcome.states[model] = read.count
                outcome.losing[model] = losing.count
            }
            return outcome
        }
    }

    static var writers: [CrashWriter] { documentWriters() + defaultsWriters() + lineWriters() + controls() }

    /// The table of BENCHMARKS.md ("Crash states"): printed on every run.
    @Test func everySaveSurvivesEveryCrashStateAndBothControlsAreCaught() throws {
        var table = [
            "| writer | operations | states, ordered metadata | states, writeback | states that lose data |",
            "| --- | ---: | ---: | ---: | ---: |",
        ]
        for writer in Self.writers {
            let outcome = try Self.explore(writer)
            let losing = outcome.losing.values.reduce(0, +)
            table.append(
                "| \(writer.name) | \(outcome.operations) | \(outcome.states[.orderedMetadata] ?? 0) | "
                    + "\(outcome.states[.writeback] ?? 0) | \(losing) |")
            if writer.isControl {
                #expect(losing > 0, "\(writer.name): the explorer did not catch it")
            } else {
                #expect(losing == 0, "\(writer.name): \(outcome.example ?? "")")
            }
        }
        print("Crash states tried per writer:\n" + table.joined(separator: "\n"))
    }
}
