import Foundation

/// How JSON Lines files are appended to (a whole file is written by
/// `DurableFile`): the bytes go at the end with `O_APPEND` and are synced.
enum LineFileWriting {
    /// Adds `data` at the end of the file at `url` (made if missing), with
    /// a newline first when `needsNewline`, and syncs it.
    static func append(_ data: Data, to url: URL, needsNewline: Bool) throws {
        let descriptor = Foundation.open(url.path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
        guard descriptor >= 0 else {
            throw DurableFile.failure(url, "the file could not be opened: \(DurableFile.describe(errno))")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        defer { try? handle.close() }
        do {
            if needsNewline { try handle.write(contentsOf: Data([UInt8(ascii: "\n")])) }
            try handle.write(contentsOf: data)
            try handle.synchronize()
        } catch {
            throw DurableFile.failure(url, "the lines could not be added: \(DurableFile.describe(errno))")
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
