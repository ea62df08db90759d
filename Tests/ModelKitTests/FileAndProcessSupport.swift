import Foundation
import Testing

@testable import ModelKit

/// A temporary folder, removed with everything in it when the body ends,
/// whether it returns or throws.
func withTemporaryFolder<Result>(_ body: (URL) throws -> Result) throws -> Result {
    _ = sweptStaleFolders
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("ModelKitTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try body(folder)
}

/// The same for async bodies.
func withTemporaryFolder<Result>(_ body: (URL) async throws -> Result) async throws -> Result {
    _ = sweptStaleFolders
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("ModelKitTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try await body(folder)
}

/// Folders of these helpers that a test run killed mid-way (a crash, a
/// timeout) could not remove: removed once per run when older than two
/// hours, so that no run still in progress loses its folder.
let sweptStaleFolders: Void = {
    let manager = FileManager.default
    let temporary = manager.temporaryDirectory
    guard let names = try? manager.contentsOfDirectory(atPath: temporary.path) else { return }
    let cutoff = Date().addingTimeInterval(-2 * 60 * 60)
    for name in names where name.hasPrefix("ModelKitTests-") {
        let url = temporary.appendingPathComponent(name)
        if let modified = (try? manager.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date, modified < cutoff {
            try? manager.removeItem(at: url)
        }
    }
}()

/// Waits until `condition` holds, up to `seconds`; returns whether it did.
func eventually(within seconds: Double = 5, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return condition()
}

/// An executable target of the package built beside the tests (`Demo`,
/// `FileWorker`), or `nil` when it has not been built (`swift build` builds it).
func builtExecutable(named name: String) -> URL? {
    var candidates: [URL] = []
    if let tests = Bundle.main.executableURL?.deletingLastPathComponent() {
        candidates.append(tests.appendingPathComponent(name))
    }
    let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    candidates.append(packageRoot.appendingPathComponent(".build/debug/\(name)"))
    for argument in CommandLine.arguments.prefix(1) {
        var url = URL(fileURLWithPath: argument).deletingLastPathComponent()
        for _ in 0..<3 {
            candidates.append(url.appendingPathComponent(name))
            url = url.deletingLastPathComponent()
        }
    }
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
}

/// Runs the Demo executable built beside the tests.
enum DemoProcess {
    /// The Demo executable, or `nil` when it has not been built (`swift build` builds it).
    static let executable: URL? = builtExecutable(named: "Demo")

    struct Outcome {
        var status: Int32
        var output: String
        var errors: String
    }

    /// Runs the Demo with `arguments`, its standard store in `storeFolder`
    /// and, when given, `currentDirectory` as its current folder and `input`
    /// on its standard input, which is closed once written (so a command
    /// reading `-` sees its end).
    ///
    /// The input is written into the pipe before the Demo starts, so a Demo
    /// that does not read it cannot make the write fail: inputs here are a
    /// few hundred bytes, far below a pipe's buffer (at least 4 KiB).
    static func run(
        _ arguments: [String], input: String? = nil, storeFolder: URL, currentDirectory: URL? = nil
    ) throws -> Outcome {
        let executable = try #require(executable, "the Demo executable is not built: run swift build")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment[ModelDefaults.directoryEnvironmentVariable] = storeFolder.path
        // Documents' bases beside the store, never in the user's folders.
        environment[DocumentBaseHistory.directoryEnvironmentVariable] = storeFolder.appendingPathComponent("bases").path
        process.environment = environment
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        if let input {
            let standardInput = Pipe()
            process.standardInput = standardInput
            let bytes = Data(input.utf8)
            #expect(bytes.count <= 4096, "the input must fit in the pipe's buffer")
            try standardInput.fileHandleForWriting.write(contentsOf: bytes)
            try standardInput.fileHandleForWriting.close()
        }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Read both pipes to their ends before waiting, so a full pipe cannot block the Demo.
        let errorData = SendableData()
        let errorReader = Thread { errorData.value = errors.fileHandleForReading.readDataToEndOfFile() }
        errorReader.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errorData.isSet { usleep(1_000) }
        return Outcome(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            errors: String(decoding: errorData.value, as: UTF8.self))
    }

    /// Runs the Demo in a new temporary folder `work` holding `files` (name
    /// to text), its store in a folder beside it, and returns what it
    /// printed and the text afterwards of each of `files` and of `reading`
    /// (files it should have written). Both folders are removed, whatever
    /// happens.
    static func run(
        _ arguments: [String], input: String?, files: [String: String], reading: [String] = []
    ) throws -> (outcome: Outcome, files: [String: String]) {
        try withTemporaryFolder { folder in
            let work = folder.appendingPathComponent("work", isDirectory: true)
            let store = folder.appendingPathComponent("store", isDirectory: true)
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: false)
            for (name, text) in files { try Data(text.utf8).write(to: work.appendingPathComponent(name)) }
            let outcome = try run(arguments, input: input, storeFolder: store, currentDirectory: work)
            var after: [String: String] = [:]
            for name in Set(files.keys).union(reading) {
                after[name] = try String(contentsOf: work.appendingPathComponent(name), encoding: .utf8)
            }
            return (outcome, after)
        }
    }
}

/// Data handed from a reading thread.
final class SendableData: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?
    var value: Data {
        get { lock.withLock { data ?? Data() } }
        set { lock.withLock { data = newValue } }
    }
    var isSet: Bool { lock.withLock { data != nil } }
}
