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

/// Files as the platform's own careful tools treat them: only regular files
/// are replaced, access never widens, any path `open` takes can be saved,
/// and every error names the user's file and the cause.
@Suite struct DurableFileAccessTests {
    static func kind(_ path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : 0
    }

    // MARK: - Only regular files

    @Test func aNamedPipeIsRefusedAndLeftAsItIs() throws {
        try withTemporaryFolder { folder in
            let pipe = folder.appendingPathComponent("pipe.json")
            #expect(mkfifo(pipe.path, 0o600) == 0)
            let link = folder.appendingPathComponent("link.json")
            symlink("pipe.json", link.path)
            for (url, message) in [
                (pipe, "pipe.json: this is a named pipe, not a regular file; only regular files are replaced"),
                (link, "link.json: the link leads to \(pipe.path), a named pipe, not a regular file; only regular files are replaced"),
            ] {
                do {
                    try DurableFileTests.sample().write(to: url)
                    Issue.record("the write succeeded")
                } catch let error as ModelError {
                    #expect(error.description == message)
                }
            }
            #expect(Self.kind(pipe.path) == S_IFIFO)
            #expect(try DurableFileTests.names(folder) == ["link.json", "pipe.json"])
        }
    }

    /// A private copy of `/dev/null` (made with `mknod`, which needs root),
    /// directly and through a link: refused, and still a device.
    @Test func aDeviceIsRefusedDirectlyAndThroughALink() throws {
        try withTemporaryFolder { folder in
            var null = stat()
            guard stat("/dev/null", &null) == 0 else { return }
            let device = folder.appendingPathComponent("null.json")
            guard mknod(device.path, S_IFCHR | 0o666, null.st_rdev) == 0 else { return }  // not root: skipped
            let link = folder.appendingPathComponent("settings.plist")
            symlink(device.path, link.path)
            for url in [device, link] {
                #expect(throws: ModelError.self) { try DurableFileTests.sample().write(to: url) }
            }
            let store = link.deletingLastPathComponent().appendingPathComponent("store.plist")
            symlink(device.path, store.path)
            do {
                _ = try ModelDefaults(url: store, autosaveDelay: nil, watchInterval: nil)
                Issue.record("the store opened")
            } catch let error as ModelError {
                #expect(error.description.hasPrefix("store.plist: this is a character device, not a regular file"))
            }
            do {
                try ModelValue.object(["a": 1]).write(to: link)
                Issue.record("the write succeeded")
            } catch let error as ModelError {
                #expect(
                    error.description
                        == "settings.plist: the link leads to \(device.path), a character device, not a regular file; "
                        + "only regular files are replaced")
            }
            #expect(Self.kind(device.path) == S_IFCHR)
            #expect(try DurableFileTests.names(folder) == ["null.json", "settings.plist", "store.plist"])
        }
    }

    // MARK: - Paths up to the system's limit

    /// Folders nested until the file's path is `length` bytes.
    static func deepFile(in folder: URL, length: Int) throws -> URL {
        var path = folder.path
        while length - path.utf8.count > 120 {  // a last name short enough to be kept whole in the temporary name
            path += "/" + String(repeating: "d", count: 200)
            guard mkdir(path, 0o700) == 0 else { throw ModelError(code: .fileAccess, message: "mkdir failed") }
        }
        let name = String(repeating: "f", count: length - path.utf8.count - 1 - 5) + ".json"
        return URL(fileURLWithPath: path + "/" + name)
    }

    @Test func aPathThatOpenAcceptsCanBeSaved() throws {
        try withTemporaryFolder { folder in
            let url = try Self.deepFile(in: folder, length: 4085)
            #expect(url.path.utf8.count == 4085)
            try DurableFileTests.sample("deep").write(to: url)
            try DurableFileTests.sample("deeper").write(to: url)
            #expect(try Note(contentsOf: url).title == "deeper")
            #expect(try DurableFileTests.names(url.deletingLastPathComponent()) == [url.lastPathComponent])
            // Removed here: FileManager does not walk paths this long.
            var path = url.path
            unlink(path)
            while path.utf8.count > folder.path.utf8.count + 1 {
                path = (path as NSString).deletingLastPathComponent
                if path.utf8.count > folder.path.utf8.count { rmdir(path) }
            }
        }
    }

    // MARK: - Errors

    @Test func aNameTooLongAndAPathTooLongAreToldApart() throws {
        try withTemporaryFolder { folder in
            let longName = folder.appendingPathComponent(String(repeating: "n", count: 251) + ".json")
            do {
                try DurableFileTests.sample().write(to: longName)
                Issue.record("the write succeeded")
            } catch let error as ModelError {
                #expect(
                    error.message
                        == "a name in the path is too long: \"nnnnnnnnnnnnnnnnnnnn…\" has 256 bytes, more than the 255 a name may have")
            }
            let longPath = URL(
                fileURLWithPath: folder.path + String(repeating: "/" + String(repeating: "p", count: 200), count: 21) + "/x.json")
            do {
                try DurableFileTests.sample().write(to: longPath)
                Issue.record("the write succeeded")
            } catch let error as ModelError {
                #expect(error.message == "the path is too long (\(longPath.path.utf8.count) bytes)")
            }
            #expect(try DurableFileTests.names(folder) == [])
        }
    }

    @Test func aFolderThatTakesNoNewFilesIsNamedAsSuch() throws {
        guard FileManager.default.fileExists(atPath: "/proc/self/status") else { return }  // no /proc here
        do {
            try DurableFileTests.sample().write(to: URL(fileURLWithPath: "/proc/self/doc.json"))
            Issue.record("the write succeeded")
        } catch let error as ModelError {
            #expect(error.description == "doc.json: the folder /proc/self does not let files be created in it")
        }
    }

    @Test func aSocketIsReadAsASocketNotAsAnUnreadableFile() throws {
        try withTemporaryFolder { temporary in
            // A socket's path must fit `sun_path`: 108 bytes on Linux, 104 on
            // Apple platforms, whose temporary folder
            // (/var/folders/…/T/ModelKitTests-<UUID>/) leaves no room for
            // the name. There the socket goes in a short folder of /tmp.
            var folder = temporary
            let capacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)
            if folder.appendingPathComponent("sock.json").path.utf8.count >= capacity {
                var template = Array("/tmp/mk.XXXXXX".utf8CString)
                guard let made = mkdtemp(&template) else { return }
                folder = URL(fileURLWithPath: String(cString: made), isDirectory: true)
            }
            defer { if folder != temporary { try? FileManager.default.removeItem(at: folder) } }
            let url = folder.appendingPathComponent("sock.json")
            guard url.path.utf8.count < capacity else {
                Issue.record("the socket's path \(url.path) does not fit sun_path (\(capacity) bytes)")
                return
            }
            #if canImport(Darwin)
                let descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
            #else
                let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            #endif
            guard descriptor >= 0 else { return }
            defer { close(descriptor) }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                let bytes = Array(url.path.utf8)
                raw.copyBytes(from: bytes)
                raw[bytes.count] = 0
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            guard bound == 0 else { return }
            do {
                _ = try ModelValue(contentsOf: url)
                Issue.record("the read succeeded")
            } catch let error as ModelError {
                #expect(error.description == "sock.json: this is a socket, not a file, and a socket cannot be opened to be read")
            }
            #expect(throws: ModelError.self) { try DurableFileTests.sample().write(to: url) }
        }
    }

    /// UTF-16 and UTF-32 JSON, with a byte-order mark or without (a zero
    /// byte beside each ASCII character), is named as such.
    @Test(arguments: [
        ("utf16le-bom", "UTF-16 text (little-endian, with a byte-order mark)"),
        ("utf16be-bom", "UTF-16 text (big-endian, with a byte-order mark)"),
        ("utf16le", "UTF-16 text (little-endian)"),
        ("utf16be", "UTF-16 text (big-endian)"),
        ("utf32le-bom", "UTF-32 text (little-endian, with a byte-order mark)"),
        ("utf32be", "UTF-32 text (big-endian)"),
        ("utf32le", "UTF-32 text (little-endian)"),
    ])
    func utf16AndUTF32TextIsNamedAsSuch(encoding: String, described: String) throws {
        try withTemporaryFolder { folder in
            let text = #"{"title": "héllo", "count": 1234567}"#
            let encodings: [String: String.Encoding] = [
                "utf16le": .utf16LittleEndian, "utf16be": .utf16BigEndian, "utf32le": .utf32LittleEndian,
                "utf32be": .utf32BigEndian,
            ]
            let base = String(encoding.prefix(7))
            var data = try #require(text.data(using: encodings[base]!))
            if encoding.hasSuffix("-bom") {
                let marks: [String: [UInt8]] = [
                    "utf16le": [0xFF, 0xFE], "utf16be": [0xFE, 0xFF], "utf32le": [0xFF, 0xFE, 0, 0], "utf32be": [0, 0, 0xFE, 0xFF],
                ]
                data = Data(marks[base]!) + data
            }
            let url = folder.appendingPathComponent("wide.json")
            try data.write(to: url)
            do {
                _ = try Note(contentsOf: url)
                Issue.record("the read succeeded")
            } catch let error as ModelError {
                #expect(
                    error.description
                        == "wide.json: expected JSON or a property list, found \(described) that starts "
                        + #""{"title": "héllo", "coun…"; save it as UTF-8"#)
                #expect(error.code == .unknownFormat)
            }
        }
    }

    // MARK: - Access never widens (Linux: ACLs with setfacl, extended attributes)

    #if !canImport(Darwin)
        /// Runs a tool of the `acl` package; `nil` where it is not installed.
        static func aclTool(_ name: String, _ arguments: [String]) throws -> (status: Int32, output: String)? {
            let tool = URL(fileURLWithPath: "/usr/bin/\(name)")
            guard FileManager.default.isExecutableFile(atPath: tool.path) else { return nil }
            return try FileWorker.run(arguments, executable: tool)
        }

        @Test func aRewriteKeepsTheACLAndTheModeAndGivesTheGroupNothingMore() throws {
            try withTemporaryFolder { folder in
                let url = folder.appendingPathComponent("shared.json")
                try DurableFileTests.sample("first").write(to: url)
                chmod(url.path, 0o600)
                guard let set = try Self.aclTool("setfacl", ["-m", "u:65534:rw-,g::---,m::rw-", url.path]), set.status == 0
                else { return }  // the acl package is not installed, or the file system has no ACLs
                let before = try #require(try Self.aclTool("getfacl", ["-cp", url.path])).output
                #expect(before.contains("user:65534:rw-") || before.contains("user:nobody:rw-"))
                #expect(before.contains("group::---"))
                try DurableFileTests.sample("second").write(to: url)
                #expect(try #require(try Self.aclTool("getfacl", ["-cp", url.path])).output == before)
                #expect(DurableFileTests.mode(url) == 0o660)
                #expect(try Note(contentsOf: url).title == "second")
                #expect(try DurableFileTests.names(folder) == ["shared.json"])
            }
        }

        /// A folder whose default ACL grants another user access: a file the
        /// user took that access away from keeps it away after a rewrite.
        @Test func aRewriteDoesNotTakeTheFoldersDefaultACLOverTheFilesOwn() throws {
            try withTemporaryFolder { folder in
                guard let set = try Self.aclTool("setfacl", ["-d", "-m", "u:65534:rwx", folder.path]), set.status == 0
                else { return }
                let url = folder.appendingPathComponent("private.json")
                try DurableFileTests.sample("first").write(to: url)
                #expect(try Self.aclTool("setfacl", ["-b", url.path])?.status == 0)
                chmod(url.path, 0o600)
                let before = try #require(try Self.aclTool("getfacl", ["-cp", url.path])).output
                #expect(!before.contains("65534") && !before.contains("nobody"))
                try DurableFileTests.sample("second").write(to: url)
                #expect(try #require(try Self.aclTool("getfacl", ["-cp", url.path])).output == before)
                #expect(DurableFileTests.mode(url) == 0o600)
            }
        }

        @Test func aRewriteKeepsUserExtendedAttributes() throws {
            try withTemporaryFolder { folder in
                let url = folder.appendingPathComponent("tagged.json")
                try DurableFileTests.sample("first").write(to: url)
                let calls = try #require(ExtendedAttributeCalls.shared)
                let tags: [(String, [UInt8])] = [("user.origin", Array("https://example.com".utf8)), ("user.empty", [])]
                let descriptor = open(url.path, O_RDONLY)
                defer { close(descriptor) }
                for (name, value) in tags {
                    let set = value.withUnsafeBytes { calls.fsetxattr(descriptor, name, $0.baseAddress, $0.count, 0) }
                    guard set == 0 else { return }  // this file system has no user attributes
                }
                try DurableFileTests.sample("second").write(to: url)
                let reopened = open(url.path, O_RDONLY)
                defer { close(reopened) }
                for (name, value) in tags {
                    var buffer = [UInt8](repeating: 0, count: 64)
                    let count = buffer.withUnsafeMutableBytes { calls.fgetxattr(reopened, name, $0.baseAddress, 64) }
                    #expect(count == value.count, "\(name)")
                    if count >= 0 { #expect(Array(buffer[..<count]) == value) }
                }
                #expect(try Note(contentsOf: url).title == "second")
            }
        }
    #endif
}

/// The same in child processes: other writers sharing a destination, and
/// a user without permission.
@Suite(.enabled(if: FileWorker.executable != nil, "the FileWorker executable is not built: run swift build"))
struct DurableFileAccessProcessTests {
    /// Three processes saving one file in loops, each removing the others'
    /// unlocked temporary files: no save fails (a writer whose new file was
    /// taken before its lock starts again), and none is left behind.
    @Test func writersInSeveralProcessesNeverTakeEachOthersTemporaryFiles() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("busy.json")
            let workers = try (0..<3).map { _ in try FileWorker.start(["save-loop", url.path, "2000"]) }
            for worker in workers { worker.waitForOutput(containing: "saved ") }
            usleep(1_500_000)
            // SIGKILL: a child of a test thread may start with other signals blocked.
            for worker in workers { kill(worker.process.processIdentifier, SIGKILL) }
            for worker in workers {
                let output = worker.finish()
                #expect(!output.contains("FileWorker:"), "\(output.split(separator: "\n").filter { $0.contains("FileWorker") })")
                #expect(output.contains("saved "))
            }
            try WorkerRecord().write(to: url)  // removes what the killed workers left
            #expect(try DurableFileTests.names(folder) == ["busy.json"])
        }
    }

    /// A store in a folder its user may not write: the error names the
    /// store's file and says why, never the lock beside it.
    @Test func aStoreInAReadOnlyFolderNamesItsFileAndTheFolder() throws {
        guard let worker = FileWorker.executable, getuid() == 0,
            FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
        else { return }  // needs root to become another user
        try withTemporaryFolder { folder in
            chmod(folder.path, 0o755)
            let url = folder.appendingPathComponent("prefs.plist")
            let outcome = try FileWorker.run(
                ["--reuid=65534", "--regid=65534", "--clear-groups", worker.path, "defaults-loop", url.path, "k", "1"],
                executable: URL(fileURLWithPath: "/usr/bin/setpriv"))
            #expect(outcome.output.contains("FileWorker: prefs.plist: the folder \(folder.path) is not writable\n"))
            #expect(!outcome.output.contains(".lock"), "\(outcome.output)")
            #expect(try DurableFileTests.names(folder) == [])
        }
    }
}
