import Foundation

/// Newline-delimited JSON of models (JSON Lines, `.jsonl`): one compact
/// document per line, read as a stream, so that a file of any size is read
/// in the memory of one chunk and one model at a time.
///
/// ```swift
/// try JSONLines.write(books, to: url)                    // replaces the file, durably
/// try JSONLines.append([newBook], to: url)               // adds lines at its end
///
/// for try await book in JSONLines.models(Book.self, contentsOf: url) {
///     print(book.title)
/// }
/// try JSONLines.forEachModel(Book.self, contentsOf: url) { book in print(book.title) }
/// ```
///
/// Reading accepts blank lines (skipped), a last line without a newline and
/// `\r\n` line ends. Each line is loaded as
/// ``ModelObject/init(json:options:)-(Data,_)`` loads a document (rules
/// checked, unknown keys as the class's ``ModelObject/unknownKeys`` says); a
/// line naming a registered subclass in its `type` gives that subclass. An error
/// names the file, the line and the key path:
/// `books.jsonl, JSON Lines at line 3, column 1 (byte 120), in children[2].count: expected Int, found a string ("x")`.
///
/// ## Crashes
///
/// ``write(_:to:validating:durability:)`` replaces the file atomically: a
/// crash leaves the old file or the new one. ``append(_:to:validating:)``
/// is atomic by line: a crash while it adds lines leaves the file as it was,
/// followed by some of the new lines, whole, and at most one *torn tail*:
/// the start of a line without its newline, or zero bytes where the new
/// size reached the disk before the data. Reading tells a torn tail from
/// a malformed line in the middle: by default it stops there with a
/// ``ModelError/Code/tornTail`` error naming the byte where the tail
/// starts; ``TornTail/readUpToIt`` reads the lines before it instead. The
/// next ``append(_:to:validating:)`` or ``write(_:to:validating:durability:)``
/// removes a torn tail before it writes, so a crash never leaves a bad line
/// in the middle of the file.
///
/// ```swift
/// for try await book in JSONLines.models(Book.self, contentsOf: url, tornTail: .readUpToIt) {
///     print(book.title)     // every whole line, however the last append ended
/// }
/// ```
///
/// Appends and writes lock the file (`flock`), so that processes and threads
/// adding lines at once never interleave parts of lines; readers take no
/// lock, and see whole lines, plus at most a last line being added, which
/// they read as a torn tail.
public enum JSONLines {
    /// What reading does with a torn tail: a last line that a crash cut
    /// short while lines were being added (it has no newline, and is a JSON
    /// value that its end interrupts), or zero bytes after the last line, which a crash
    /// leaves where the file's new size reached the disk before its bytes.
    public enum TornTail: Sendable, Hashable {
        /// Throws a ``ModelError/Code/tornTail`` error naming the byte
        /// where the torn tail starts, after delivering the lines before
        /// it. The default.
        case refuse
        /// Ends the stream at the torn tail, as at the end of the file: the
        /// lines before it are the file's lines.
        case readUpToIt
    }

    /// The models in a JSON Lines file, read in chunks as the stream is
    /// iterated (nothing is read ahead of the consumer).
    ///
    /// - Parameters:
    ///   - type: the class of every line (or a registered superclass).
    ///   - url: the file.
    /// - Returns: a stream that ends after the last line, or throws
    ///   ``ModelError`` for a file that cannot be read or a line that does
    ///   not load, naming the line and key path; the lines before it have
    ///   been delivered.
    public static func models<M: ModelObject>(_ type: M.Type, contentsOf url: URL) -> AsyncThrowingStream<M, any Error> {
        models(type, contentsOf: url, tornTail: .refuse)
    }

    /// The models in a JSON Lines file, as ``models(_:contentsOf:)`` reads
    /// them, with a choice of what a torn tail does.
    ///
    /// - Parameters:
    ///   - type: the class of every line (or a registered superclass).
    ///   - url: the file.
    ///   - tornTail: ``TornTail/refuse`` to throw at a torn tail,
    ///     ``TornTail/readUpToIt`` to end there.
    /// - Returns: a stream as ``models(_:contentsOf:)`` returns.
    public static func models<M: ModelObject>(
        _ type: M.Type, contentsOf url: URL, tornTail: TornTail
    ) -> AsyncThrowingStream<M, any Error> {
        let reader = UncheckedSendable(JSONLinesReader<M>(url: url, tornTail: tornTail))
        return AsyncThrowingStream(unfolding: { try reader.value.next() })
    }

    /// Calls `body` with each model of a JSON Lines file in turn, reading
    /// in chunks: the synchronous form of ``models(_:contentsOf:)``.
    ///
    /// - Throws: what ``models(_:contentsOf:)`` throws, or what `body` throws
    ///   (which stops the reading).
    public static func forEachModel<M: ModelObject>(
        _ type: M.Type, contentsOf url: URL, _ body: (M) throws -> Void
    ) throws {
        try forEachModel(type, contentsOf: url, tornTail: .refuse, body)
    }

    /// Calls `body` with each model of a JSON Lines file in turn, with a
    /// choice of what a torn tail does: the synchronous form of
    /// ``models(_:contentsOf:tornTail:)``.
    ///
    /// - Throws: what ``models(_:contentsOf:tornTail:)`` throws, or what
    ///   `body` throws (which stops the reading).
    public static func forEachModel<M: ModelObject>(
        _ type: M.Type, contentsOf url: URL, tornTail: TornTail, _ body: (M) throws -> Void
    ) throws {
        let reader = JSONLinesReader<M>(url: url, tornTail: tornTail)
        while let model = try reader.next() { try body(model) }
    }

    /// Writes `models` to a file, one compact JSON document per line, each
    /// line ended by `\n`, replacing the file durably through ModelKit's
    /// file writer (as ``ModelObject/write(to:format:validating:references:durability:clearingChanges:)``
    /// does): a temporary file beside it, synced and renamed over it.
    ///
    /// The lines are made in memory first, so that a model that cannot be
    /// written leaves the file as it was. An existing file is locked while
    /// it is replaced, as ``append(_:to:validating:)`` locks it, so that no
    /// lines are added to the file being replaced.
    ///
    /// - Parameters:
    ///   - models: the models, written in order.
    ///   - url: the file.
    ///   - validating: whether to run ``ModelObject/validate()`` on each model
    ///     first and refuse to write an invalid one; `true` by default.
    ///   - durability: whether the file is synced (see ``FileDurability``).
    /// - Throws: ``ModelError`` naming the line of a model that is invalid or
    ///   cannot be written, or the file when it cannot be written; the
    ///   previous file is then left as it was.
    public static func write(
        _ models: some Sequence<some ModelObject>, to url: URL, validating: Bool = true,
        durability: FileDurability = .synced
    ) throws {
        try DurableFile.requireFileURL(url)
        var lines = Data()
        try writeLines(
            of: models, to: { lines.append($0) }, url: url, firstLine: 1, firstOffset: 0, validating: validating)
        let replaced: Void? = try LineFileWriting.withLockedFile(at: url, creating: false) { _, _ in
            try DurableFile.write(lines, to: url, durability: durability)
        }
        if replaced == nil { try DurableFile.write(lines, to: url, durability: durability) }
    }

    /// Adds `models` at the end of a JSON Lines file, one line each,
    /// creating the file if there is none; a last line without a newline
    /// gets one first. The lines, and the folder of a file this creates,
    /// are synced to disk before this returns.
    ///
    /// The file is locked (`flock`) from before its end is looked at until
    /// the lines are synced, so appends of several threads or processes
    /// never interleave. A torn tail (see ``TornTail``) that a crash left is
    /// removed first, and the removal synced. A crash during the append
    /// leaves the lines that were there, followed by some of the new lines,
    /// whole, and at most a torn tail, which reading reports (or skips with
    /// ``TornTail/readUpToIt``) and the next append or write removes.
    ///
    /// - Throws: ``ModelError`` naming the line of a model that is invalid or
    ///   cannot be written (nothing is added then), or the file.
    public static func append(_ models: some Sequence<some ModelObject>, to url: URL, validating: Bool = true)
        throws
    {
        try DurableFile.requireFileURL(url)
        // Every line is made before the file is touched, so a model that
        // cannot be written adds nothing.
        let end = LineFileWriting.end(of: url)
        var pending = Data()
        do {
            try writeLines(of: models, to: { pending.append($0) }, url: url, firstLine: 1,
                firstOffset: Int(clamping: end.end) + (end.needsNewline ? 1 : 0), validating: validating)
        } catch var error as ModelError {
            // Counted only now: an append does not read the whole file.
            if var location = error.location {
                location.line += LineFileWriting.lineCount(of: url)
                error.location = location
            }
            throw error
        }
        try LineFileWriting.append(pending, to: url)
    }

    /// Encodes each model as one line, handing the bytes to `output` in
    /// chunks of about 1 MiB.
    private static func writeLines(
        of models: some Sequence<some ModelObject>, to output: (Data) throws -> Void, url: URL, firstLine: Int,
        firstOffset: Int, validating: Bool
    ) throws {
        var chunk = Data()
        var line = firstLine
        var offset = firstOffset
        for model in models {
            let lineStart = chunk.count
            do {
                if validating { try model.validate() }
                chunk.append(try model.jsonData())
            } catch let error as ModelError {
                throw JSONLinesReader<ModelObject>.located(error, line: line, column: 1, byteOffset: offset, url: url)
            }
            chunk.append(UInt8(ascii: "\n"))
            line += 1
            offset += chunk.count - lineStart
            if chunk.count >= 1 << 20 {
                try output(chunk)
                chunk.removeAll(keepingCapacity: true)
            }
        }
        if !chunk.isEmpty { try output(chunk) }
    }
}
