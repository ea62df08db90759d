#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

/// How JSON Lines files are appended to (a whole file is written by
/// `DurableFile`), so that appends are atomic by line:
///
/// - The file is locked (`flock`, exclusive) from before its end is looked
///   at until its new lines are synced, and so is a file that
///   ``JSONLines/write(_:to:validating:durability:)`` replaces: two
///   processes (or threads) appending at once never interleave parts of
///   lines, and never add lines to a file that a write has just replaced
///   (the lock is taken again on whatever file the name then names). The
///   lock is on the file itself, not on a `FileLock` file beside it as
///   `ModelDefaults` takes: a JSON Lines file is appended to in place, so
///   its lock survives every append, and no `.lock` file is left beside
///   every file an app appends to. (A write replaces the file, so one that
///   waited for an old file's lock finds the name naming a new file, and
///   takes the new file's lock.)
/// - A torn tail (see ``tail(of:size:)``), left by a crash during an
///   earlier append, is cut off and the cut synced before anything is
///   written, so that one crash never leaves a bad line in the middle.
/// - The new lines go at the end in one `write` and are synced
///   (``Platform/syncFile(_:)``); a file the append created has its folder
///   synced too (``DurableFile/syncFolder(_:)``), so its name survives a
///   power cut.
///
/// Sizes and offsets are `Int64`, so that a file past 2 GiB is no trap
/// where `Int` has 32 bits.
enum LineFileWriting {
    /// Where a file's lines end.
    struct Tail: Equatable {
        /// Where new lines go: the file's size, or where its torn tail starts.
        var end: Int64
        /// Whether the bytes from ``end`` on are a torn tail, to be cut off.
        var isTorn: Bool
        /// Whether the last line (before any torn tail) has no newline yet.
        var needsNewline: Bool
    }

    /// Adds `data` (whole lines, each ended by `\n`) at the end of the file
    /// at `url`, made if missing, as described above.
    static func append(_ data: Data, to url: URL) throws {
        try withLockedFile(at: url, creating: true) { descriptor, created in
            var status = stat()
            guard fstat(descriptor, &status) == 0 else {
                throw DurableFile.failure(url, "the file could not be looked at: \(DurableFile.describe(errno))")
            }
            let tail = try tail(of: descriptor, size: Int64(status.st_size), url: url)
            if tail.isTorn {
                guard ftruncate(descriptor, off_t(tail.end)) == 0 else {
                    throw DurableFile.failure(url, "its torn last line could not be removed: \(DurableFile.describe(errno))")
                }
                FileOperationRecorder.record(.truncate(url.path, size: tail.end))
                try sync(descriptor, url: url)
            }
            var bytes = Data()
            if tail.needsNewline { bytes.append(UInt8(ascii: "\n")) }
            bytes.append(data)
            try bytes.withUnsafeBytes { buffer in
                var done = 0
                while done < buffer.count {
                    let written = Platform.write(descriptor, buffer.baseAddress! + done, buffer.count - done)
                    if written < 0 {
                        if errno == EINTR { continue }
                        throw DurableFile.failure(url, "the lines could not be added: \(DurableFile.describe(errno))")
                    }
                    FileOperationRecorder.record(
                        .write(
                            url.path, offset: tail.end + Int64(done),
                            bytes: Data(bytes: buffer.baseAddress! + done, count: written)))
                    done += written
                }
            }
            try sync(descriptor, url: url)
            if created { DurableFile.syncFolder(url.deletingLastPathComponent().path) }
        }
    }

    /// Syncs the file, or throws naming it.
    private static func sync(_ descriptor: Int32, url: URL) throws {
        guard Platform.syncFile(descriptor) else {
            throw DurableFile.failure(url, "the lines could not be synced: \(DurableFile.describe(errno))")
        }
        FileOperationRecorder.record(.sync(url.path))
    }

    /// Runs `body` holding an exclusive `flock` on the file at `url` (made
    /// when missing and `creating`, else `nil` is returned without calling
    /// `body`), with a descriptor open for appending when `creating`, and
    /// whether this call made the file. The lock is taken again when a
    /// writer replaced the file while this waited for it.
    @discardableResult
    static func withLockedFile<Result>(
        at url: URL, creating: Bool, _ body: (_ descriptor: Int32, _ created: Bool) throws -> Result
    ) throws -> Result? {
        let path = url.path
        let flags = (creating ? O_RDWR | O_APPEND : O_RDONLY) | O_NONBLOCK | O_CLOEXEC
        while true {
            var created = false
            var descriptor = open(path, flags)
            if descriptor < 0, errno == ENOENT, creating {
                descriptor = open(path, flags | O_CREAT | O_EXCL, 0o644)
                if descriptor < 0, errno == EEXIST { continue }  // another process made it first
                created = descriptor >= 0
                if created { FileOperationRecorder.record(.create(path)) }
            }
            guard descriptor >= 0 else {
                guard creating else { return nil }  // the writer says why
                throw DurableFile.failure(url, "the file could not be opened: \(DurableFile.describe(errno))")
            }
            defer { close(descriptor) }
            var opened = stat()
            guard fstat(descriptor, &opened) == 0, opened.st_mode & S_IFMT == S_IFREG else {
                guard creating else { return nil }
                try DurableFile.requireRegularFile(opened, url: url, destination: url)
                throw DurableFile.failure(url, "the file could not be looked at: \(DurableFile.describe(errno))")
            }
            var locked: Int32
            repeat {
                locked = flock(descriptor, LOCK_EX)
            } while locked != 0 && errno == EINTR
            guard locked == 0 else {
                throw DurableFile.failure(url, "the file could not be locked: \(DurableFile.describe(errno))")
            }
            // Replaced (or removed) while this waited: lock the file the name names now.
            var current = stat()
            guard stat(path, &current) == 0, current.st_dev == opened.st_dev, current.st_ino == opened.st_ino else {
                continue
            }
            return try body(descriptor, created)
        }
    }

    /// Where the lines of the file at `url` end, looked at without a lock
    /// (for the byte offsets of errors before an append; the append looks
    /// again under its lock). A missing file ends at 0.
    static func end(of url: URL) -> Tail {
        let descriptor = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return Tail(end: 0, isTorn: false, needsNewline: false) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            return Tail(end: 0, isTorn: false, needsNewline: false)
        }
        return (try? tail(of: descriptor, size: Int64(status.st_size), url: url))
            ?? Tail(end: Int64(status.st_size), isTorn: false, needsNewline: false)
    }

    /// Where the lines end in a file of `size` bytes open as `descriptor`.
    ///
    /// A torn tail is what a crash during an append can leave after the
    /// last whole line: the start of a line without its newline (a JSON
    /// value cut short), or bytes of the new size that never got their data
    /// (zero bytes, which JSON text never holds). Precisely: the lines at
    /// the end of the file that are blank or torn, from the first torn one,
    /// where a line is torn when it holds a zero byte, or is the last line,
    /// has no newline and is a JSON value cut short (``isCutShort(_:)``). A bad line followed by
    /// a whole line is no torn tail (it is a malformed line, which the
    /// reader reports and nothing removes); ``JSONLinesReader`` reads by the
    /// same rule.
    static func tail(of descriptor: Int32, size: Int64, url: URL) throws -> Tail {
        var tornStart: Int64?
        var position = size
        var isLast = true
        while position > 0 {
            let lineEnd = isLast ? position : position - 1  // without its newline
            let line = try lineEnding(at: lineEnd, in: descriptor, url: url)
            var isTorn = line.hasZero
            if !isTorn, isLast, !line.isBlank {
                isTorn = isCutShort(try bytes(line.start..<lineEnd, of: descriptor, url: url))
            }
            if isTorn {
                tornStart = line.start
            } else if !line.isBlank {
                break
            }
            position = line.start
            isLast = false
        }
        if let tornStart { return Tail(end: tornStart, isTorn: true, needsNewline: false) }
        guard size > 0 else { return Tail(end: 0, isTorn: false, needsNewline: false) }
        let last = try bytes((size - 1)..<size, of: descriptor, url: url)
        return Tail(end: size, isTorn: false, needsNewline: last.first != UInt8(ascii: "\n"))
    }

    /// Whether `line` (a last line without a newline, not blank) is cut
    /// short: a JSON value that the end of the line interrupts, which more
    /// bytes could complete. A line that breaks the grammar before its end
    /// (`{"title": }`, `{"a":tru}`, a value followed by more), nests too
    /// deep, or is a whole value that is no valid model, is a malformed
    /// line, which the reader reports and nothing removes.
    static func isCutShort(_ line: some Collection<UInt8>) -> Bool {
        let bytes = Array(line)
        do {
            _ = try ModelValue(json: Data(bytes))
            return false
        } catch let error as ModelError {
            if error.message.hasSuffix("found end of input") || error.message.hasPrefix("unterminated string") {
                return true
            }
            guard let offset = error.location?.byteOffset, offset >= 0, offset < bytes.count else { return false }
            return isCutToken(bytes[offset...])
        } catch {
            return false
        }
    }

    /// Whether `rest`, from where reading failed to the end, is the start
    /// of a literal (`tr`), an escape (`\u00`) or a character's UTF-8 bytes.
    private static func isCutToken(_ rest: ArraySlice<UInt8>) -> Bool {
        for literal in ["true", "false", "null"] where rest.count < literal.utf8.count && literal.utf8.starts(with: rest) {
            return true
        }
        if rest.count < 6, rest.starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) {
            return rest.dropFirst(2).allSatisfy { UInt8(ascii: "0")...UInt8(ascii: "9") ~= $0 || UInt8(ascii: "a")...UInt8(ascii: "f") ~= $0 | 0x20 }
        }
        guard let lead = rest.first, (0xC2...0xF4).contains(lead) else { return false }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        return rest.count < length && rest.dropFirst().allSatisfy { $0 & 0xC0 == 0x80 }
    }

    /// The line whose content ends at `end` (before its newline, if any):
    /// where it starts, whether it holds a zero byte, whether it is blank
    /// (spaces, tabs, a carriage return).
    private static func lineEnding(at end: Int64, in descriptor: Int32, url: URL) throws -> (
        start: Int64, hasZero: Bool, isBlank: Bool
    ) {
        var hasZero = false
        var isBlank = true
        var chunkEnd = end
        while chunkEnd > 0 {
            let chunkStart = max(0, chunkEnd - (1 << 16))
            let chunk = try bytes(chunkStart..<chunkEnd, of: descriptor, url: url)
            var index = chunk.count
            while index > 0 {
                let byte = chunk[chunk.startIndex + index - 1]
                if byte == UInt8(ascii: "\n") {
                    return (chunkStart + Int64(index), hasZero, isBlank)
                }
                if byte == 0 { hasZero = true }
                if byte != UInt8(ascii: " "), byte != UInt8(ascii: "\t"), byte != UInt8(ascii: "\r") { isBlank = false }
                index -= 1
            }
            chunkEnd = chunkStart
        }
        return (0, hasZero, isBlank)
    }

    /// The bytes of `range` of the file (`pread`).
    private static func bytes(_ range: Range<Int64>, of descriptor: Int32, url: URL) throws -> Data {
        guard let count = Int(exactly: range.upperBound - range.lowerBound) else {
            throw DurableFile.failure(url, "its last line is too long to read into memory")
        }
        var data = Data(count: count)
        var done = 0
        try data.withUnsafeMutableBytes { buffer in
            while done < buffer.count {
                let count = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(range.lowerBound) + off_t(done))
                if count < 0, errno == EINTR { continue }
                guard count > 0 else {
                    throw DurableFile.failure(
                        url, "the file could not be read: \(DurableFile.describe(count == 0 ? EIO : errno))")
                }
                done += count
            }
        }
        return data
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
