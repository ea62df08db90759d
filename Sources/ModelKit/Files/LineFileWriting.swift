import Foundation

/// How JSON Lines files are written until ModelKit's durable file writer
/// is shared: a whole file goes to a temporary file beside the destination,
/// is synced, renamed over it, and the folder is synced; an append is
/// synced. (One small place, to switch to the shared writer when it lands.)
enum LineFileWriting {
    /// Replaces the file at `url` with what `body` hands to its writer.
    static func replace(_ url: URL, _ body: ((Data) throws -> Void) throws -> Void) throws {
        let destination = url.resolvingSymlinksInPath()
        let folder = destination.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
            throw ModelDocumentFormat.writeProblem(at: url)
        }
        var finished = false
        defer { if !finished { try? FileManager.default.removeItem(at: temporary) } }
        let handle: FileHandle
        do {
            handle = try FileHandle(forWritingTo: temporary)
        } catch {
            throw ModelDocumentFormat.writeProblem(at: url)
        }
        defer { try? handle.close() }
        // A rewrite keeps the file's permission bits.
        if let attributes = try? FileManager.default.attributesOfItem(atPath: destination.path),
            let permissions = attributes[.posixPermissions] as? NSNumber
        {
            fchmod(handle.fileDescriptor, mode_t(permissions.uint16Value))
        }
        try body { chunk in
            do { try handle.write(contentsOf: chunk) } catch { throw ModelDocumentFormat.writeProblem(at: url) }
        }
        do {
            try handle.synchronize()
        } catch {
            throw ModelDocumentFormat.writeProblem(at: url)
        }
        guard rename(temporary.path, destination.path) == 0 else { throw ModelDocumentFormat.writeProblem(at: url) }
        finished = true
        let folderDescriptor = Foundation.open(folder.path, O_RDONLY)
        if folderDescriptor >= 0 {
            fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }

    /// Adds `data` at the end of the file at `url` (made if missing), with
    /// a newline first when `needsNewline`, and syncs it.
    static func append(_ data: Data, to url: URL, needsNewline: Bool) throws {
        let descriptor = Foundation.open(url.path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
        guard descriptor >= 0 else { throw ModelDocumentFormat.writeProblem(at: url) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        defer { try? handle.close() }
        do {
            if needsNewline { try handle.write(contentsOf: Data([UInt8(ascii: "\n")])) }
            try handle.write(contentsOf: data)
            try handle.synchronize()
        } catch {
            throw ModelDocumentFormat.writeProblem(at: url)
        }
    }

    /// The size of the file at `url` (0 when there is none), and whether it
    /// ends in a line without a newline.
    static func end(of url: URL) -> (size: Int, needsNewline: Bool) {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return (0, false) }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), size > 0 else { return (0, false) }
        try? handle.seek(toOffset: size - 1)
        let last = (try? handle.read(upToCount: 1))?.first
        return (Int(size), last != UInt8(ascii: "\n"))
    }

    /// The number of lines in the file at `url` (0 when there is none),
    /// counting a last line without a newline.
    static func lineCount(of url: URL) -> Int {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return 0 }
        defer { try? handle.close() }
        var lines = 0
        var last: UInt8?
        while let chunk = try? handle.read(upToCount: 1 << 16), !chunk.isEmpty {
            lines += chunk.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
            last = chunk.last
        }
        return lines + (last != nil && last != UInt8(ascii: "\n") ? 1 : 0)
    }
}
