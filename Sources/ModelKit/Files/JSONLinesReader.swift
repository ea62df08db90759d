import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Reads a JSON Lines file a chunk at a time and loads one model per line.
///
/// Invariant: `buffer[start...]` holds the bytes read but not yet handed
/// out, and `buffer[start..<scanned]` holds no `\n`: the search for a line's
/// end goes on from where the last one stopped, so each byte is looked at
/// once however many chunks a line spans, and reading a file costs time
/// linear in its size. The buffer is compacted before each read, so it
/// holds at most one chunk plus one line.
///
/// A line that could start a torn tail (``LineFileWriting/tail(of:size:url:)``
/// says which: one holding a zero byte, or a last line without a newline
/// that is not a whole JSON value) is one only when every line after it is
/// blank or torn too; the reader then reads those lines to see, and stops
/// as ``JSONLines/TornTail`` says. Otherwise the line is loaded, and fails
/// as the malformed line it is.
/// Not `Sendable`: one reader serves one stream, whose iteration is serial.
final class JSONLinesReader<M: ModelObject> {
    private let url: URL
    private var handle: FileHandle?
    private var buffer: [UInt8] = []
    private var start = 0
    /// Where the search for the next `\n` goes on (see the invariant).
    private var scanned = 0
    /// How many bytes the searches for line ends have looked at (for
    /// tests: each byte of the file once).
    private(set) var bytesScanned = 0
    private var isAtEnd = false
    private var isOpened = false
    /// Set once a torn tail ended the reading (``JSONLines/TornTail/readUpToIt``).
    private var isFinished = false
    private let tornTail: JSONLines.TornTail
    /// The number of the next line, from 1, and its byte offset in the file
    /// (`Int64`: a file past 2 GiB is no trap where `Int` has 32 bits).
    private var line = 1
    private var offset: Int64 = 0
    static var chunkSize: Int { 1 << 16 }
    /// The most bytes the buffer held at once (for tests: a chunk and a line).
    private(set) var largestBuffer = 0

    init(url: URL, tornTail: JSONLines.TornTail = .refuse) {
        self.url = url
        self.tornTail = tornTail
    }

    deinit { try? handle?.close() }

    /// The next model, or `nil` after the last line.
    func next() throws -> M? {
        if isFinished { return nil }
        if !isOpened { try open() }
        while true {
            guard let (bytes, lineNumber, lineOffset, isEnded) = try nextLine() else { return nil }
            if Self.isBlank(bytes) { continue }
            if Self.mayBeTorn(bytes, isEnded: isEnded), try restIsTorn() {
                isFinished = true
                switch tornTail {
                case .readUpToIt: return nil
                case .refuse:
                    throw ModelError(
                        code: .tornTail,
                        message: "the file ends in a torn line, which a crash cut short while lines were being added; "
                            + "read the lines before it with tornTail: .readUpToIt, and the next append or write removes it",
                        location: ModelError.Location(line: lineNumber, column: 1, byteOffset: Int(clamping: lineOffset)),
                        format: "JSON Lines", file: url)
                }
            }
            return try load(Data(bytes), line: lineNumber, offset: lineOffset)
        }
    }

    /// Whether a line holds only spaces and tabs (a carriage return at its end is already gone).
    private static func isBlank(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
    }

    /// Whether a line that is not blank would be torn, if the lines after it are too.
    private static func mayBeTorn(_ bytes: ArraySlice<UInt8>, isEnded: Bool) -> Bool {
        bytes.contains(0) || (!isEnded && LineFileWriting.isCutShort(bytes))
    }

    /// Reads the rest of the file: whether every line left is blank or torn.
    private func restIsTorn() throws -> Bool {
        while let (bytes, _, _, isEnded) = try nextLine() {
            if Self.isBlank(bytes) || Self.mayBeTorn(bytes, isEnded: isEnded) { continue }
            return false
        }
        return true
    }

    private func open() throws {
        isOpened = true
        try DurableFile.requireFileURL(url)
        let descriptor = Foundation.open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileReading.problem(at: url, code: errno) }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            close(descriptor)
            throw FileReading.problem(at: url, code: EISDIR)
        }
        handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// The next line without its `\n` or `\r\n`, with its number and
    /// offset, and whether a `\n` ended it.
    private func nextLine() throws -> (ArraySlice<UInt8>, Int, Int64, Bool)? {
        while true {
            if let end = findNewline() {
                var content = buffer[start..<end]
                if content.last == UInt8(ascii: "\r") { content = content.dropLast() }
                let result = (content, line, offset, true)
                offset += Int64(end + 1 - start)
                start = end + 1
                scanned = start
                line += 1
                return result
            }
            if isAtEnd {
                guard start < buffer.count else { return nil }
                var content = buffer[start...]
                if content.last == UInt8(ascii: "\r") { content = content.dropLast() }
                let result = (content, line, offset, false)
                offset += Int64(buffer.count - start)
                start = buffer.count
                scanned = start
                line += 1
                return result
            }
            try readChunk()
        }
    }

    /// The index of the first `\n` in `buffer[scanned...]`, searched with
    /// `memchr`; when there is none, `scanned` moves to the buffer's end.
    private func findNewline() -> Int? {
        let from = scanned
        let count = buffer.count - from
        guard count > 0 else { return nil }
        let found = buffer.withUnsafeBufferPointer { bytes -> Int? in
            guard let base = bytes.baseAddress,
                let hit = memchr(base + from, Int32(UInt8(ascii: "\n")), count)
            else { return nil }
            return UnsafeRawPointer(hit) - UnsafeRawPointer(base)
        }
        bytesScanned += (found.map { $0 + 1 } ?? buffer.count) - from
        scanned = found.map { $0 + 1 } ?? buffer.count
        return found
    }

    private func readChunk() throws {
        buffer.removeSubrange(0..<start)
        scanned -= start
        start = 0
        let data: Data?
        do {
            data = try handle?.read(upToCount: Self.chunkSize)
        } catch {
            throw FileReading.problem(at: url, code: (error as NSError).code == 0 ? EIO : Int32(truncatingIfNeeded: (error as NSError).code))
        }
        guard let data, !data.isEmpty else {
            isAtEnd = true
            try? handle?.close()
            handle = nil
            return
        }
        buffer.append(contentsOf: data)
        largestBuffer = max(largestBuffer, buffer.count)
    }

    /// Loads one line: the fast path of `init(json:)`, or, for a line that
    /// names a registered subclass, `decoded(from:)`.
    private func load(_ data: Data, line: Int, offset: Int64) throws -> M {
        do {
            do {
                return try M(json: data)
            } catch let error as ModelError where error.code == .typeNotAllowed {
                let model: M
                do {
                    model = try M.decoded(from: ModelValue(modelJSON: data))
                } catch let error as ModelError {
                    throw error.locatingUnknownKeys(inJSON: data)
                }
                try model.validate()
                return model
            }
        } catch let error as ModelError {
            throw Self.located(error, line: line, column: error.location?.column ?? 1,
                byteOffset: Int(clamping: offset + Int64(error.location?.byteOffset ?? 0)), url: url)
        }
    }

    /// `error` placed at `line` of the file `url`.
    static func located(_ error: ModelError, line: Int, column: Int, byteOffset: Int?, url: URL) -> ModelError {
        var located = error
        located.location = ModelError.Location(line: line, column: column, byteOffset: byteOffset ?? 0)
        located.format = "JSON Lines"
        located.file = url
        return located
    }
}
