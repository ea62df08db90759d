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

/// A document argument that is a named pipe (what `<(command)` gives) is
/// read once, to its end, as a file is.
@Suite(.enabled(if: DemoProcess.executable != nil, "the Demo executable is not built: run swift build"))
struct DemoPipeTests {
    @Test(arguments: [
        (#"{"type":"Book","title":"Piped"}"#, 0, "file: pipe.json (JSON)\nclass: Book (the Demo knows Note, Todo; shown as it is)\nversion: none\nvalues:\n  title: \"Piped\"\n", ""),
        ("hello", 1, "", "Demo: pipe.json, JSON at line 1, column 1 (byte 0): expected a value, found 'h'\n"),
        ("", 1, "", "Demo: pipe.json: the file is empty\n"),
    ] as [(String, Int32, String, String)])
    func aNamedPipeShowsAsAFileDoes(content: String, status: Int32, output: String, errors: String) throws {
        try withTemporaryFolder { folder in
            let pipe = folder.appendingPathComponent("pipe.json")
            try #require(mkfifo(pipe.path, 0o600) == 0)
            // Opened without blocking, retried until the Demo opens its end
            // (for 20 seconds at most), so the writer never waits forever.
            let written = SendableData()
            let writer = Thread {
                let deadline = Date().addingTimeInterval(20)
                var descriptor: Int32 = -1
                while descriptor < 0 && Date() < deadline {
                    descriptor = open(pipe.path, O_WRONLY | O_NONBLOCK)
                    if descriptor < 0 { usleep(10_000) }
                }
                if descriptor >= 0 {
                    let bytes = Array(content.utf8)
                    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                    close(descriptor)
                }
                written.value = Data(descriptor >= 0 ? [1] : [0])
            }
            writer.start()
            let outcome = try DemoProcess.run(["show", "pipe.json"], input: "", storeFolder: folder, currentDirectory: folder)
            while !written.isSet { usleep(1_000) }
            #expect(written.value == Data([1]), "the Demo never opened the pipe")
            #expect(outcome.status == status)
            #expect(outcome.output == output)
            #expect(outcome.errors == errors)
        }
    }
}
