import Foundation
import Testing

@testable import ModelKit

/// `Demo edit` and `Demo watch`: a document saved through a `ModelDocument`,
/// merging with what another program saved meanwhile, and each merge printed
/// as it lands.
@Suite(.enabled(if: DemoProcess.executable != nil, "the Demo executable is not built: run swift build"))
struct DemoDocumentTests {
    /// Starts the Demo with `arguments` in `folder`, its store and history
    /// in `folder/store`; returns the process and its output pipe.
    static func start(_ arguments: [String], in folder: URL) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = DemoProcess.executable
        process.arguments = arguments
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        environment[ModelDefaults.directoryEnvironmentVariable] = folder.appendingPathComponent("store").path
        environment[DocumentBaseHistory.directoryEnvironmentVariable] = folder.appendingPathComponent("store/bases").path
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        return (process, output)
    }

    static let note = #"{"type": "Note", "title": "Groceries", "count": 1}"#

    @Test func editMergesWithWhatAnotherProgramSavedMeanwhile() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("note.json")
            try Data(Self.note.utf8).write(to: url)
            let (process, output) = try Self.start(["edit", "note.json", "title=Errands", "--delay", "1.5"], in: folder)
            usleep(400_000)
            try Data(#"{"type": "Note", "title": "Groceries", "count": 5}"#.utf8).write(to: url)  // another program
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(printed)")
            #expect(
                printed == "saved note.json: changed title\nmerged with the changes saved meanwhile: no conflicts\n",
                "\(printed)")
            let saved = try ModelValue(contentsOf: url)
            #expect(saved["title"] == .string("Errands") && saved["count"] == .int(5), "\(saved)")
        }
    }

    @Test func editSettlesAConflictAsPreferredAndPrintsIt() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("note.json")
            try Data(Self.note.utf8).write(to: url)
            let (process, output) = try Self.start(
                ["edit", "note.json", "title=Ours", "--prefer", "theirs", "--delay", "1.5"], in: folder)
            usleep(400_000)
            try Data(#"{"type": "Note", "title": "Theirs", "count": 1}"#.utf8).write(to: url)
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(printed)")
            #expect(printed.contains("merged with the changes saved meanwhile: 1 conflict\n"), "\(printed)")
            #expect(printed.contains(#"conflict (settled by theirs): title: base "Groceries", ours "Ours", theirs "Theirs""#), "\(printed)")
            #expect(try ModelValue(contentsOf: url)["title"] == .string("Theirs"))
        }
    }

    @Test func watchPrintsEachMergeAsItLands() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("note.json")
            try Data(Self.note.utf8).write(to: url)
            let (process, output) = try Self.start(["watch", "note.json", "--count", "1"], in: folder)
            var printed = Data()
            while !String(decoding: printed, as: UTF8.self).contains("watching") {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                printed.append(chunk)
            }
            try Data(#"{"type": "Note", "title": "Shopping", "count": 1}"#.utf8).write(to: url)
            printed.append(output.fileHandleForReading.readDataToEndOfFile())
            process.waitUntilExit()
            let text = String(decoding: printed, as: UTF8.self)
            #expect(process.terminationStatus == 0, "\(text)")
            #expect(text.contains("note.json: merged from watching: no conflicts\n"), "\(text)")
            #expect(text.contains(#"{"op":"replace","path":"/title","value":"Shopping"}"#), "\(text)")
        }
    }

    @Test(arguments: [
        (["edit", "note.json"], "Demo: edit takes FILE and KEY=VALUE (see 'Demo edit --help')\n", Int32(2)),
        (["edit", "-", "a=1"], "Demo: edit takes a FILE, not standard input (see 'Demo edit --help')\n", 2),
        (["edit", "note.json", "title=x", "--delay", "soon"], "Demo: --delay takes seconds from 0 to 3600, not 'soon' (see 'Demo edit --help')\n", 2),
        (["watch", "note.json", "--count", "0"], "Demo: --count takes a number of merges above 0, not '0' (see 'Demo watch --help')\n", 2),
        (["edit", "missing.json", "title=x"], "Demo: missing.json: no such file\n", 1),
        (["edit", "plain.json", "a=1"], "Demo: plain.json: edit opens documents of a class the Demo knows (Note, Todo); 'Demo set' changes any document\n", 1),
    ])
    func mistakesAreOneLine(_ arguments: [String], _ message: String, _ status: Int32) throws {
        try withTemporaryFolder { folder in
            try Data(Self.note.utf8).write(to: folder.appendingPathComponent("note.json"))
            try Data(#"{"type": "Elsewhere", "a": 0}"#.utf8).write(to: folder.appendingPathComponent("plain.json"))
            let (process, output) = try Self.start(arguments, in: folder)
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(printed == message)
            #expect(process.terminationStatus == status)
        }
    }
}
