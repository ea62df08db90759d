import Foundation
import Testing

@testable import ModelKit

extension DemoProcess {
    /// Runs the Demo with `input` on its standard input, which is closed
    /// once written (so a command reading `-` sees its end), its standard
    /// store in `storeFolder` and `currentDirectory` as its current folder.
    ///
    /// The input is written into the pipe before the Demo starts, so a Demo
    /// that does not read it cannot make the write fail: inputs here are a
    /// few hundred bytes, far below a pipe's buffer (at least 4 KiB).
    static func run(_ arguments: [String], input: String, storeFolder: URL, currentDirectory: URL) throws -> Outcome {
        let executable = try #require(executable, "the Demo executable is not built: run swift build")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment[ModelDefaults.directoryEnvironmentVariable] = storeFolder.path
        process.environment = environment
        process.currentDirectoryURL = currentDirectory
        let standardInput = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = standardInput
        process.standardOutput = output
        process.standardError = errors
        let bytes = Data(input.utf8)
        #expect(bytes.count <= 4096, "the input must fit in the pipe's buffer")
        try standardInput.fileHandleForWriting.write(contentsOf: bytes)
        try standardInput.fileHandleForWriting.close()
        try process.run()
        // Read both outputs to their ends before waiting, so a full pipe cannot block the Demo.
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
}
