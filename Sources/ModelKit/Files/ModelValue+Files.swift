import Foundation

extension ModelValue {
    /// Reads a document file of any kind, JSON or a property list, whichever
    /// its content is, with any value at its root; a property list that is
    /// an `NSKeyedArchiver` archive is read as ``init(keyedArchive:)`` reads it.
    ///
    /// ```swift
    /// let value = try ModelValue(contentsOf: URL(fileURLWithPath: "settings.plist"))
    /// ```
    /// - Throws: ``ModelError`` naming the file: no such file, a folder, an
    ///   empty file, content in no known format (saying what it starts
    ///   with), or a malformed document (with its line and column).
    public init(contentsOf url: URL) throws {
        let (data, format) = try ModelDocumentFormat.bytes(contentsOf: url)
        self = try ModelDocumentFormat.attributing(to: url) {
            if case .json = format { return try ModelValue(json: data) }
            if KeyedArchive.isKeyedArchive(data) { return try ModelValue(keyedArchive: data) }
            return try ModelValue(propertyList: data)
        }
    }

    /// Writes the value as a document file through ModelKit's durable
    /// writer, as ``ModelObject/write(to:format:validating:references:durability:clearingChanges:)``
    /// writes a model: atomically, synced, keeping the file's permissions and
    /// symbolic links.
    ///
    /// ```swift
    /// let value: ModelValue = ["volume": 0.8, "tags": ["a", "b"]]
    /// try value.write(to: URL(fileURLWithPath: "settings.plist"))
    /// ```
    /// - Parameters:
    ///   - url: a file URL.
    ///   - format: the format; `nil` takes it from the extension (`.json`,
    ///     `.plist` or `.xml`, `.bplist`, `.archive`: a keyed archive of
    ///     plain Foundation objects).
    ///   - durability: ``FileDurability/synced`` (the default), or
    ///     ``FileDurability/unsynced`` for caches and scratch files.
    /// - Throws: ``ModelError`` for an extension that names no format, a
    ///   value the format cannot hold, or a file that cannot be written,
    ///   naming the file and the cause.
    public func write(to url: URL, format: ModelDocumentFormat? = nil, durability: FileDurability = .synced) throws {
        try DurableFile.requireFileURL(url)
        let format = try ModelDocumentFormat.chosen(format, for: url)
        let data = try ModelDocumentFormat.attributing(to: url) { try format.data(for: self) }
        try DurableFile.write(data, to: url, durability: durability)
    }
}
