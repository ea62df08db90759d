import Foundation

/// The formats a model can be written to a file in.
///
/// Reading needs no format: ``ModelObject/init(contentsOf:)`` recognises JSON,
/// XML and binary property lists, and `NSKeyedArchiver` archives, from the
/// content. Writing takes the format from an argument, or else from the
/// file's extension: `.json` is JSON, `.plist` and `.xml` an XML property
/// list, `.bplist` a binary one, `.archive` a keyed archive.
public enum ModelDocumentFormat: Sendable, Hashable {
    /// JSON, with writing options.
    case json(JSONWritingOptions)
    /// An XML property list.
    case xmlPropertyList
    /// A binary property list.
    case binaryPropertyList
    /// An `NSKeyedArchiver` archive that the old app's `NSCoding` classes
    /// read, in a ``KeyedArchiveStyle`` (see
    /// ``ModelObject/keyedArchiveData(style:)``), as AutoCoding's
    /// `writeToFile:atomically:` saved one; a ``ModelValue`` is archived as
    /// plain Foundation objects.
    case keyedArchive(KeyedArchiveStyle)

    /// Compact JSON.
    public static var json: ModelDocumentFormat { .json(JSONWritingOptions()) }

    /// A keyed archive of `NSNumber` objects, for `decodeObject(forKey:)`
    /// (``KeyedArchiveStyle/objects``).
    public static var keyedArchive: ModelDocumentFormat { .keyedArchive(.objects) }

    /// The format for a file with `pathExtension`, or `nil` when the
    /// extension names none.
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "json": self = .json
        case "plist", "xml": self = .xmlPropertyList
        case "bplist": self = .binaryPropertyList
        case "archive": self = .keyedArchive
        default: return nil
        }
    }

    /// The format of a document, recognised from its first bytes, or `nil`:
    /// `bplist00` is a binary property list, `<` an XML one, and what starts
    /// as a JSON text does (an object, an array, or a scalar: a string, a
    /// number, `true`, `false`, `null`) is JSON. UTF-16 and UTF-32 text (a
    /// byte-order mark, or a zero byte beside each ASCII character) is an XML
    /// property list when it starts with `<` (Foundation reads those), and
    /// otherwise in no format ModelKit reads: `nil`.
    public init?(detecting data: Data) {
        if BinaryPropertyListReader.isBinary(data) {
            self = .binaryPropertyList
            return
        }
        if let encoding = TextEncodingGuess(data) {
            // UTF-16 or UTF-32: an XML property list, as Foundation reads it; JSON must be UTF-8.
            guard encoding.start(of: data).hasPrefix("<") else { return nil }
            self = .xmlPropertyList
            return
        }
        var bytes = data[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard let first = bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return nil }
        switch first {
        case UInt8(ascii: "<"): self = .xmlPropertyList
        case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            self = .json
        default: return nil
        }
    }

    /// What a document that is in no known format starts with, for messages:
    /// UTF-16 or UTF-32 text as such, its first characters when they are
    /// text, else its first bytes.
    static func describeStart(of data: Data) -> String {
        if let encoding = TextEncodingGuess(data) {
            return encoding.description + " that starts \"" + encoding.start(of: data) + "\"; save it as UTF-8"
        }
        let head = data.prefix(24)
        if let text = String(validating: head, as: UTF8.self) ?? String(validating: head.dropLast(), as: UTF8.self),
            text.unicodeScalars.allSatisfy({ $0.value >= 0x20 || $0 == "\n" || $0 == "\t" || $0 == "\r" })
        {
            let line = text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? text
            let shown = line.trimmingCharacters(in: .whitespaces)
            let more = !text.dropFirst(line.count).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            return "text that starts \"\(shown)\"" + (more || data.count > head.count ? "…" : "")
        }
        return "binary data that starts " + data.prefix(8).map { String(format: "%02X", $0) }.joined(separator: " ")
    }

    /// Encodes `value` in this format.
    func data(for value: ModelValue) throws -> Data {
        switch self {
        case .json(let options): try value.jsonData(options: options)
        case .xmlPropertyList: try value.propertyListData(format: .xml)
        case .binaryPropertyList: try value.propertyListData(format: .binary)
        case .keyedArchive: try KeyedArchiveWriter.data(ofValue: value)
        }
    }

    /// The bytes of the file at `url` and the format they are in.
    static func bytes(contentsOf url: URL) throws -> (Data, ModelDocumentFormat) {
        try DurableFile.requireFileURL(url)
        let data = try FileReading.data(at: url)
        guard !data.isEmpty else {
            throw ModelError(code: .malformedDocument, message: "the file is empty", file: url)
        }
        guard let format = ModelDocumentFormat(detecting: data) else {
            throw ModelError(
                code: .unknownFormat,
                message: "expected JSON or a property list, found \(describeStart(of: data))", file: url)
        }
        return (data, format)
    }

    /// Why the file at `url` could not be read, as a sentence: a folder, no
    /// such file, permission denied, or (when none of those) that it could
    /// not be read.
    static func readProblem(at url: URL) -> ModelError {
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        guard manager.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            return ModelError(code: .fileNotFound, message: "no such file", file: url)
        }
        let message =
            if isFolder.boolValue { "this is a folder, not a file" }
            else if !manager.isReadableFile(atPath: url.path) { "permission denied: the file cannot be read" }
            else { "the file could not be read" }
        return ModelError(code: .fileAccess, message: message, file: url)
    }

    /// `format`, or else the format `url`'s extension names.
    /// - Throws: ``ModelError`` naming `url` when neither gives one.
    static func chosen(_ format: ModelDocumentFormat?, for url: URL) throws -> ModelDocumentFormat {
        guard let format = format ?? ModelDocumentFormat(pathExtension: url.pathExtension) else {
            throw ModelError(
                code: .unknownFormat,
                message: "cannot choose a format from the extension \"\(url.pathExtension)\"; "
                    + "use .json, .plist, .xml, .bplist or .archive, or pass a format",
                file: url)
        }
        return format
    }

    /// Runs `body`, naming `url` in the ``ModelError`` it throws.
    static func attributing<Result>(to url: URL, _ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch var error as ModelError {
            error.file = url
            throw error
        }
    }
}

extension ModelObject {
    /// Writes the saved form to a file, atomically and durably: the bytes go
    /// to a temporary file beside the destination, are synced, renamed over
    /// it, and the folder is synced, so a crash, a power cut, a full disk or
    /// a file-size limit leaves the previous file byte for byte intact and no
    /// temporary file behind.
    ///
    /// ```swift
    /// try note.write(to: URL(fileURLWithPath: "note.json"))
    /// try note.write(to: URL(fileURLWithPath: "note.data"), format: .binaryPropertyList)
    /// try note.write(to: URL(fileURLWithPath: "note.archive"))   // what the old app's NSKeyedUnarchiver reads
    /// ```
    ///
    /// A rewrite keeps the file's permission bits, and its owner and group
    /// where the process may set them; a new file gets `0666` less the
    /// umask. A destination that is a symbolic link stays a link: the file
    /// it names gets the new bytes (a dangling link gets its target created,
    /// when the target's folder exists). A temporary file that a killed
    /// writer left for the same destination is removed.
    /// - Parameters:
    ///   - url: a file URL; any other URL is refused.
    ///   - format: the format; `nil` takes it from the extension.
    ///   - validating: whether to run ``validate()`` first and refuse to write
    ///     an invalid graph; `true` by default.
    ///   - references: which models of a graph are written once and referred
    ///     to elsewhere (see ``ReferencePolicy``); for JSON, `.shared` here or
    ///     in the format's options asks for shared references.
    ///   - durability: ``FileDurability/synced`` (the default), or
    ///     ``FileDurability/unsynced`` for caches and scratch files.
    ///   - clearingChanges: whether a successful write clears the change
    ///     flags (``hasChanges``, ``hasAnyChanges``, ``changedKeys``) of this
    ///     model and every model it reaches, as saving a document clears its
    ///     "edited" mark; `false` by default. Pass `true` when the file is the
    ///     model's home (the document's own file). Leave it `false` for an
    ///     export, a backup or a copy (what `NSDocument` calls "Save To"),
    ///     which leaves the document as unsaved as it was. The default is
    ///     `false` because that mistake is the safer one: flags left set show
    ///     "unsaved" a moment too long, while flags cleared by a copy would
    ///     tell the app that edits are saved that are not, and lose them.
    ///     Only models that recorded no change while the file was written are
    ///     cleared: a change made meanwhile, on another thread, stays a change.
    ///     A write that fails clears nothing.
    /// - Throws: ``ModelError`` for an extension that names no format, an
    ///   invalid graph, a value the format cannot hold, or a file that cannot
    ///   be written, naming the file and the cause (no such folder,
    ///   permission denied, no space left, the file-size limit, a read-only
    ///   file system).
    public func write(
        to url: URL, format: ModelDocumentFormat? = nil, validating: Bool = true,
        references: ReferencePolicy = .cycles, durability: FileDurability = .synced, clearingChanges: Bool = false
    ) throws {
        try DurableFile.requireFileURL(url)
        // Counted before anything is read for the file.
        let counts = clearingChanges ? changeCounts() : nil
        if validating { try validate() }
        let data = try documentData(format: ModelDocumentFormat.chosen(format, for: url), references: references)
        try DurableFile.write(data, to: url, durability: durability)
        if let counts { clearChanges(unchangedSince: counts) }
    }

    /// The bytes of this model as a document in `format`.
    func documentData(format: ModelDocumentFormat, references: ReferencePolicy) throws -> Data {
        if case .json(var options) = format {
            if references == .shared { options.references = .shared }
            return try jsonData(options: options)
        } else if case .keyedArchive(let style) = format {
            return try keyedArchiveData(style: style)
        } else {
            return try format.data(for: .object(encodedDocument(references: references)))
        }
    }
}
