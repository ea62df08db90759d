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

/// The durable writer: modes, links, temporary files, failures that leave
/// the old file intact, and syncs.
@Suite struct DurableFileTests {
    static func mode(_ url: URL) -> mode_t {
        var status = stat()
        return stat(url.path, &status) == 0 ? status.st_mode & 0o7777 : 0
    }

    /// The names in `folder`, sorted.
    static func names(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    static func sample(_ title: String = "Saved") -> Note {
        let note = Note()
        note.title = title
        return note
    }

    @Test(arguments: [0o600, 0o640, 0o604, 0o755, 0o400] as [mode_t], ["a.json", "a.plist", "a.bplist"])
    func aRewriteKeepsThePermissionBits(mode: mode_t, name: String) throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent(name)
            try Self.sample("first").write(to: url)
            chmod(url.path, mode)
            try Self.sample("second").write(to: url)
            #expect(Self.mode(url) == mode)
            #expect(try Note(contentsOf: url).title == "second")
            #expect(try Self.names(folder) == [name])
        }
    }

    /// Where the process may set them (root here), a rewrite keeps the
    /// file's owner and group.
    @Test func aRewriteKeepsTheOwnerWhereItMay() throws {
        guard getuid() == 0 else { return }  // only root may give a file away
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("owned.json")
            try Self.sample("first").write(to: url)
            #expect(chown(url.path, 65534, 65534) == 0)
            try Self.sample("second").write(to: url)
            var status = stat()
            #expect(stat(url.path, &status) == 0)
            #expect(status.st_uid == 65534 && status.st_gid == 65534)
            #expect(try Note(contentsOf: url).title == "second")
        }
    }

    @Test func aNewFileGetsTheUsualModeLessTheUmask() throws {
        try withTemporaryFolder { folder in
            let mask = umask(0o022)
            umask(mask)
            let url = folder.appendingPathComponent("new.json")
            try Self.sample().write(to: url)
            #expect(Self.mode(url) == 0o666 & ~mask)
        }
    }

    @Test func aStoreMakesItsFolders0700AndItsFiles0600AndLeavesFoldersThatExist() throws {
        try withTemporaryFolder { folder in
            let existing = folder.appendingPathComponent("config")
            try FileManager.default.createDirectory(at: existing, withIntermediateDirectories: false)
            chmod(existing.path, 0o755)
            let url = existing.appendingPathComponent("app/nested/defaults.plist")
            let store = try ModelDefaults(url: url, autosaveDelay: nil, watchInterval: nil)
            store.set(7, forKey: "token")
            try store.save()
            #expect(Self.mode(existing) == 0o755)
            #expect(Self.mode(existing.appendingPathComponent("app")) == 0o700)
            #expect(Self.mode(existing.appendingPathComponent("app/nested")) == 0o700)
            #expect(Self.mode(url) == 0o600)
            #expect(Self.mode(url.appendingPathExtension("lock")) == 0o600)
            // A user's own choice of mode survives the next save.
            chmod(url.path, 0o640)
            store.set(8, forKey: "token")
            try store.save()
            #expect(Self.mode(url) == 0o640)
            #expect(try ModelDefaults(url: url, autosaveDelay: nil, watchInterval: nil).integer(forKey: "token") == 8)
        }
    }

    /// Links as dotfile managers make them: absolute, relative, and a chain.
    @Test(arguments: ["absolute", "relative", "chain"])
    func aLinkStaysALinkAndItsTargetGetsTheBytes(kind: String) throws {
        try withTemporaryFolder { folder in
            let repository = folder.appendingPathComponent("dotfiles")
            try FileManager.default.createDirectory(at: repository, withIntermediateDirectories: false)
            let target = repository.appendingPathComponent("settings.json")
            try Self.sample("old").write(to: target)
            chmod(target.path, 0o600)
            let link = folder.appendingPathComponent("settings.json")
            switch kind {
            case "absolute": symlink(target.path, link.path)
            case "relative": symlink("dotfiles/settings.json", link.path)
            default:
                symlink(target.path, folder.appendingPathComponent("middle.json").path)
                symlink("middle.json", link.path)
            }
            try Self.sample("new").write(to: link)
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path).hasSuffix("settings.json")
                || kind == "chain")
            var status = stat()
            #expect(lstat(link.path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK)
            #expect(try Note(contentsOf: target).title == "new")
            #expect(Self.mode(target) == 0o600)
            #expect(try Self.names(repository) == ["settings.json"])
        }
    }

    @Test func aDanglingLinkGetsItsTargetCreated() throws {
        try withTemporaryFolder { folder in
            let target = folder.appendingPathComponent("real.json")
            let link = folder.appendingPathComponent("link.json")
            symlink("real.json", link.path)
            try Self.sample("made").write(to: link)
            #expect(try Note(contentsOf: target).title == "made")
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "real.json")
        }
    }

    @Test func aLoopOfLinksIsAnError() throws {
        try withTemporaryFolder { folder in
            let a = folder.appendingPathComponent("a.json")
            symlink("b.json", a.path)
            symlink("a.json", folder.appendingPathComponent("b.json").path)
            #expect(throws: ModelError.self) { try Self.sample().write(to: a) }
            do { try Self.sample().write(to: a) } catch let error as ModelError {
                #expect(error.description == "a.json: too many symbolic links")
            }
        }
    }

    /// Temporary files: the lock decides, not the process id in the name.
    /// Every unlocked temporary file of this destination goes, a live
    /// process's id in its name (a reused pid) or not; other names stay.
    @Test func theNextWriteRemovesTheUnlockedTemporaryFilesOfItsDestinationWhateverTheirPid() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("doc.json")
            let dead: pid_t = 4_194_305  // above the largest process id any kernel gives
            let abandoned = [
                ".doc.json.modelkit-\(dead)-1a2b.tmp", ".doc.json.modelkit-\(getpid())-ffff.tmp",
                ".doc.json.modelkit-\(getppid())-1234.tmp",  // a pid now another live process's
                ".doc.json.modelkit-1-abcd.tmp",  // init's, alive as long as the system
            ]
            let kept = [
                ".other.json.modelkit-\(dead)-1a2b.tmp",  // another destination's
                ".doc.json.modelkit-\(dead)-zz.tmp",  // not one of ours
                ".doc.json.nosync1234",  // Foundation's
                "doc.json.modelkit-\(dead)-1a2b.tmp",
            ]
            let dayOld = Date().addingTimeInterval(-86_400)
            for name in abandoned + kept {
                let path = folder.appendingPathComponent(name).path
                _ = FileManager.default.createFile(atPath: path, contents: Data("x".utf8))
                try FileManager.default.setAttributes([.modificationDate: dayOld], ofItemAtPath: path)
            }
            try Self.sample().write(to: url)
            #expect(try Self.names(folder) == (kept + ["doc.json"]).sorted())
        }
    }

    @Test func aTemporaryFileWhoseLockIsHeldIsLeftAlone() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("doc.json")
            let name = ".doc.json.modelkit-4194305-abcd.tmp"
            let path = folder.appendingPathComponent(name).path
            let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
            defer { close(descriptor) }
            #expect(flock(descriptor, LOCK_EX) == 0)
            try Self.sample().write(to: url)
            #expect(try Self.names(folder) == [name, "doc.json"].sorted())
        }
    }

    @Test func writersOnManyThreadsLeaveOneWholeFileAndNoTemporaryFiles() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("shared.json")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<8 {
                    group.addTask {
                        for round in 0..<25 { try Self.sample("\(writer).\(round)").write(to: url) }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try Note(contentsOf: url).title.hasSuffix(".24"))
            #expect(try Self.names(folder) == ["shared.json"])
        }
    }

    @Test func anUnsyncedWriteIsStillAtomicAndWhole() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("cache.bplist")
            try Self.sample("cached").write(to: url, durability: .unsynced)
            #expect(try Note(contentsOf: url).title == "cached")
            let value: ModelValue = ["a": 1]
            try value.write(to: folder.appendingPathComponent("v.json"), durability: .unsynced)
            #expect(try String(contentsOf: folder.appendingPathComponent("v.json"), encoding: .utf8) == #"{"a":1}"#)
            #expect(try Self.names(folder) == ["cache.bplist", "v.json"])
        }
    }

    /// Failures in this process: each leaves the old file and no temporary file.
    @Test(arguments: [
        ("blocker/doc.json", "doc.json: {folder}/blocker is a file, not a folder"),
        ("missing/doc.json", "doc.json: no such folder: {folder}/missing"),
        ("folder.json", "folder.json: this is a folder, not a file"),
    ])
    func failuresNameTheFileAndTheCause(path: String, message: String) throws {
        try withTemporaryFolder { folder in
            _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("blocker").path, contents: Data("b".utf8))
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent("folder.json"), withIntermediateDirectories: false)
            let before = try Self.names(folder)
            do {
                try Self.sample().write(to: folder.appendingPathComponent(path))
                Issue.record("the write succeeded")
            } catch let error as ModelError {
                #expect(error.code == .fileAccess)
                #expect(error.description == message.replacingOccurrences(of: "{folder}", with: folder.path))
            }
            #expect(try Self.names(folder) == before)
        }
    }
}

/// Failures and kills in child processes (`FileWorker`): a file-size limit,
/// a full disk, a read-only file system, no permission, and SIGKILL at
/// random moments.
@Suite(.enabled(if: FileWorker.executable != nil, "the FileWorker executable is not built: run swift build"))
struct DurableFileProcessTests {
    @Test func theFileSizeLimitIsAClearErrorAndLeavesTheOldFile() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("big.json")
            #expect(try FileWorker.run(["write", url.path, "100"]).output == "ok\n")
            let before = try Data(contentsOf: url)
            let outcome = try FileWorker.run(["write", url.path, "200000", "65536"])
            #expect(outcome.status == 1)
            #expect(
                outcome.output
                    == "big.json: the file could not be written: the file would pass the size limit this process may write (RLIMIT_FSIZE)\n"
            )
            #expect(try Data(contentsOf: url) == before)
            #expect(try DurableFileTests.names(folder) == ["big.json"])
        }
    }

    /// Runs `script` in a mount namespace of its own, where `$DIR` is a small
    /// tmpfs and `$WORKER` the worker; `nil` where namespaces or mounts are
    /// not allowed (not root, or a container that forbids them).
    static func inOwnMounts(_ script: String) throws -> String? {
        guard let worker = FileWorker.executable, getuid() == 0,
            FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")
        else { return nil }
        return try withTemporaryFolder { folder in
            let outcome = try FileWorker.run(
                ["-m", "sh", "-c", "mount -t tmpfs -o size=256k tmpfs \"$DIR\" || exit 97\n" + script],
                executable: URL(fileURLWithPath: "/usr/bin/unshare"),
                environment: ["DIR": folder.path, "WORKER": worker.path])
            return outcome.status == 97 ? nil : outcome.output
        }
    }

    @Test func aFullDiskIsAClearErrorAndLeavesTheOldFile() throws {
        guard
            let output = try Self.inOwnMounts(
                """
                "$WORKER" write "$DIR/doc.json" 1000 >/dev/null
                before=$(cksum < "$DIR/doc.json")
                "$WORKER" write "$DIR/doc.json" 400000
                [ "$before" = "$(cksum < "$DIR/doc.json")" ] && echo intact
                ls -A "$DIR"
                """)
        else { return }  // no mount namespaces here
        #expect(output == "doc.json: the file could not be written: no space left on the device\nintact\ndoc.json\n")
    }

    @Test func aReadOnlyFileSystemIsAClearErrorAndLeavesTheOldFile() throws {
        guard
            let output = try Self.inOwnMounts(
                """
                "$WORKER" write "$DIR/doc.json" 1000 >/dev/null
                before=$(cksum < "$DIR/doc.json")
                mount -o remount,ro "$DIR"
                "$WORKER" write "$DIR/doc.json" 10
                [ "$before" = "$(cksum < "$DIR/doc.json")" ] && echo intact
                "$WORKER" write "$DIR/new.json" 10
                ls -A "$DIR"
                """)
        else { return }
        #expect(
            output
                == "doc.json: the file could not be replaced: the file system is read-only\nintact\n"
                + "new.json: the file could not be created: the file system is read-only\ndoc.json\n")
    }

    @Test func noPermissionIsAClearErrorAndLeavesTheOldFile() throws {
        guard let worker = FileWorker.executable, getuid() == 0,
            FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
        else { return }  // needs root to become another user
        try withTemporaryFolder { folder in
            chmod(folder.path, 0o755)
            let url = folder.appendingPathComponent("root.json")
            try DurableFileTests.sample().write(to: url)
            let before = try Data(contentsOf: url)
            let asNobody = ["--reuid=65534", "--regid=65534", "--clear-groups", worker.path]
            let file = try FileWorker.run(asNobody + ["write", url.path, "10"], executable: URL(fileURLWithPath: "/usr/bin/setpriv"))
            #expect(file.output == "root.json: permission denied: the file cannot be written to\n")
            let fresh = try FileWorker.run(
                asNobody + ["write", folder.appendingPathComponent("new.json").path, "10"],
                executable: URL(fileURLWithPath: "/usr/bin/setpriv"))
            #expect(fresh.output == "new.json: the folder \(folder.path) is not writable\n")
            #expect(try Data(contentsOf: url) == before)
            #expect(try DurableFileTests.names(folder) == ["root.json"])
        }
    }

    /// A worker saving in a loop, killed with SIGKILL at a random moment, 50
    /// times: each time the file loads, and holds the last save the worker
    /// reported or the one after it (finished but not yet reported).
    @Test func killedWritersLeaveTheLastFinishedSaveAndTheNextWriteCleansUp() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("log.json")
            var random = SeededGenerator(seed: 28)
            var lastReported = 0
            var killsDuringWork = 0
            for _ in 0..<50 {
                let worker = try FileWorker.start(["save-loop", url.path, "20000"])
                // Once it saves (a build with sanitizers starts slowly), a
                // random moment in its loop of saves.
                worker.waitForOutput(containing: "saved ")
                usleep(UInt32.random(in: 0...20_000, using: &random))
                kill(worker.process.processIdentifier, SIGKILL)
                let reports = worker.finish().split(separator: "\n").compactMap { Int($0.dropFirst("saved ".count)) }
                if let last = reports.last {
                    lastReported = last
                    killsDuringWork += 1
                }
                guard FileManager.default.fileExists(atPath: url.path) else {
                    #expect(lastReported == 0)
                    continue
                }
                let counter = try WorkerRecord(contentsOf: url).counter
                #expect(counter == lastReported || counter == lastReported + 1)
                lastReported = counter
            }
            #expect(killsDuringWork == 50)
            try WorkerRecord().write(to: url)
            #expect(try DurableFileTests.names(folder) == ["log.json"])
        }
    }

    /// Four workers sharing one store, two killed midway: every key a worker
    /// reported saved is in the file.
    @Test func killedStoreWritersLoseNoKeyTheyReportedSaved() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("defaults.plist")
            let workers = try (0..<4).map { try FileWorker.start(["defaults-loop", url.path, "w\($0)", "60"]) }
            usleep(150_000)
            kill(workers[1].process.processIdentifier, SIGKILL)
            kill(workers[3].process.processIdentifier, SIGKILL)
            let store = try ModelDefaults(url: url, autosaveDelay: nil, watchInterval: nil)
            for (index, worker) in workers.enumerated() {
                let printed = worker.finish()
                let reports = printed.split(separator: "\n").compactMap { Int($0.dropFirst("saved ".count)) }
                let last = reports.last ?? 0
                if index % 2 == 0 { #expect(last == 60, "worker \(index) printed: \(printed.suffix(300))") }
                try store.reload()
                for key in 0..<last where store.integer(forKey: "w\(index)-\(key + 1)") != key + 1 {
                    Issue.record("w\(index)-\(key + 1) is missing though worker \(index) reported it saved")
                }
            }
        }
    }

    /// What a save really does, seen by `strace`: the bytes are synced
    /// before the rename and the folder after it; `.unsynced` makes no sync.
    @Test(arguments: [true, false])
    func aSyncedWriteSyncsTheFileThenRenamesThenSyncsTheFolder(synced: Bool) throws {
        guard let worker = FileWorker.executable, FileManager.default.isExecutableFile(atPath: "/usr/bin/strace") else {
            return  // strace is not installed
        }
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("traced.json")
            let log = folder.appendingPathComponent("strace.log")
            let outcome = try FileWorker.run(
                ["-f", "-y", "-o", log.path, "-e", "trace=fsync,fdatasync,rename,renameat,renameat2", worker.path,
                    "write", url.path, "10"] + (synced ? [] : ["0", "unsynced"]),
                executable: URL(fileURLWithPath: "/usr/bin/strace"))
            guard outcome.status == 0 else { return }  // ptrace not permitted here
            let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init)
            let fileSync = lines.firstIndex { $0.contains("fsync(") && $0.contains(".traced.json.modelkit-") }
            let rename = lines.firstIndex { $0.contains("rename") && $0.contains("traced.json\"") }
            let folderSync = lines.lastIndex { $0.contains("fsync(") && $0.contains("<\(folder.path)>") }
            #expect(rename != nil)
            if synced {
                #expect(fileSync != nil && folderSync != nil)
                if let fileSync, let rename, let folderSync { #expect(fileSync < rename && rename < folderSync) }
            } else {
                #expect(!lines.contains { $0.contains("fsync(") })
            }
        }
    }
}

/// The saved record of `FileWorker` (its `Record`), to read what it wrote.
final class WorkerRecord: ModelObject, @unchecked Sendable {
    override class var typeName: String { "Record" }
    @Saved var counter = 0
    @Saved var payload = ""
}

/// Runs the `FileWorker` executable (Tests/FileWorker).
enum FileWorker {
    static let executable: URL? = builtExecutable(named: "FileWorker")

    final class Running {
        let process: Process
        let output: Pipe
        /// What was read of the output before ``finish()``.
        private var consumed = Data()

        init(process: Process, output: Pipe) {
            self.process = process
            self.output = output
        }

        /// Waits until the process has printed `text` (or ended).
        func waitForOutput(containing text: String) {
            while !String(decoding: consumed, as: UTF8.self).contains(text) {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { return }
                consumed.append(chunk)
            }
        }

        /// Waits for the process to end and returns all it printed.
        func finish() -> String {
            let rest = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: consumed + rest, as: UTF8.self)
        }
    }

    static func start(_ arguments: [String], executable: URL? = nil, environment: [String: String] = [:]) throws -> Running {
        let process = Process()
        guard let executable = executable ?? Self.executable else {
            throw ModelError(code: .fileNotFound, message: "the FileWorker executable is not built: run swift build")
        }
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output  // a worker's error line comes with its reports
        try process.run()
        return Running(process: process, output: output)
    }

    static func run(_ arguments: [String], executable: URL? = nil, environment: [String: String] = [:]) throws -> (
        status: Int32, output: String
    ) {
        let running = try start(arguments, executable: executable, environment: environment)
        let output = running.finish()
        return (running.process.terminationStatus, output)
    }
}
