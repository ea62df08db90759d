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
public enum JSONLines {
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
        let reader = UncheckedSendable(JSONLinesReader<M>(url: url))
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
        let reader = JSONLinesReader<M>(url: url)
        while let model = try reader.next() { try body(model) }
    }

    /// Writes `models` to a file, one compact JSON document per line, each
    /// line ended by `\n`, replacing the file durably through ModelKit's
    /// file writer (as ``ModelObject/write(to:format:validating:references:durability:clearingChanges:)``
    /// does): a temporary file beside it, synced and renamed over it.
    ///
    /// The lines are made in memory first, so that a model that cannot be
    /// written leaves the file as it was.
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
        try DurableFile.write(lines, to: url, durability: durability)
    }

    /// Adds `models` at the end of a JSON Lines file, one line each,
    /// creating the file if there is none; a last line without a newline
    /// gets one first. The lines are synced to disk before this returns.
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
                firstOffset: end.size + (end.needsNewline ? 1 : 0), validating: validating)
        } catch var error as ModelError {
            // Counted only now: an append does not read the whole file.
            if var location = error.location {
                location.line += LineFileWriting.lineCount(of: url)
                error.location = location
            }
            throw error
        }
        try LineFileWriting.append(pending, to: url, needsNewline: end.needsNewline)
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
