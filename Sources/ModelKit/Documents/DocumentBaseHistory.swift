#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

/// The last bases of documents: the saved forms an app loaded or saved,
/// kept outside the documents so that a three-way merge finds the version
/// both sides started from, even after a relaunch.
///
/// A sync service's conflict copy C is the base B plus the other device's
/// edits; the document is B plus ours. Without B, a merge can only take one
/// side per difference. The history keeps B, and ``closestAncestor(of:for:excluding:)``
/// finds it again for C: C differs from B only by their edits, from our
/// later versions by their edits and ours, so the recorded base with the
/// fewest differing leaves from C is the one it started from.
///
/// **What is kept, and where.** Each document has a folder of its own in
/// ``folder``, named from the file's name (sanitized, up to 40 characters)
/// and a ``ContentHash`` of its absolute, standardized path with symbolic
/// links resolved, so two URLs of one file share it. In it, each base is
/// `<hash>.json`: the saved form as compact JSON, named by the hash the
/// caller gives (the hash of the document's bytes). The document itself is
/// never written. Files are written through ``DurableFile`` (atomic,
/// unsynced: a base lost in a power cut only makes a later merge two-way),
/// folders made `0700`, files `0666` less the umask. A lock file,
/// `.lock` in ``folder``, is held shared while a base is written and
/// exclusively while document folders are removed, so that no thread or
/// process loses its folder in the middle of a write.
///
/// **How big it grows.** At most ``basesPerDocument`` bases per document
/// (the newest by modification time; recording a base again makes it the
/// newest; on a file system that keeps whole seconds, bases recorded in
/// one second are ordered by name) and ``documentLimit`` documents (the
/// least recently recorded folder goes first; lookups do not count): at most `basesPerDocument × documentLimit` files
/// (512 by default), each the size of one saved form as JSON.
///
/// **Failures.** Lookups never throw: a missing, unreadable or corrupt
/// entry is skipped (it is only a cache). ``record(_:hash:for:)`` throws,
/// naming the history file.
///
/// Dates and data have no JSON form of their own: a form holding them
/// comes back with their strings (ISO 8601, base64), as any JSON document
/// reads; compare forms as JSON has them.
///
/// ```swift
/// let history = DocumentBaseHistory(folder: DocumentBaseHistory.standardFolder(.current))
/// let form: ModelValue = ["title": "Milk"]
/// let bytes = try form.jsonData()
/// try history.record(form, hash: ContentHash(bytes), for: URL(fileURLWithPath: "/tmp/notes.json"))
/// ```
struct DocumentBaseHistory: Sendable {
    /// The root of the history, holding one folder per document.
    var folder: URL
    /// The bases kept per document, newest first.
    var basesPerDocument = 8
    /// The documents kept; the least recently recorded is removed first.
    var documentLimit = 64

    /// A history rooted at `folder`.
    init(folder: URL, basesPerDocument: Int = 8, documentLimit: Int = 64) {
        self.folder = folder
        self.basesPerDocument = basesPerDocument
        self.documentLimit = documentLimit
    }

    // MARK: - Where

    /// The environment variable that, set to an absolute path, places the
    /// standard history there (for tests and tools, as
    /// `MODELKIT_DEFAULTS_DIRECTORY` places the standard store).
    static let directoryEnvironmentVariable = "MODELKIT_DOCUMENT_HISTORY_DIRECTORY"

    /// The standard place of the history:
    /// - `$MODELKIT_DOCUMENT_HISTORY_DIRECTORY` when it is an absolute path;
    /// - on Apple platforms, `Application Support/<bundle identifier or
    ///   process name>/ModelKit/DocumentBases` (in the app's container when
    ///   sandboxed), as the standard store's folder is chosen;
    /// - elsewhere, `<process name>/modelkit-document-bases` in
    ///   `$XDG_STATE_HOME` when that is an absolute path, else in
    ///   `$HOME/.local/state` when `$HOME` is one, else in `.local/state` of
    ///   the home folder the user database gives (the XDG base-directory
    ///   specification's place for state that survives a restart but is
    ///   not worth backing up).
    static func standardFolder(_ inputs: Platform.StoreFolderInputs) -> URL {
        if let folder = inputs.environment[directoryEnvironmentVariable], folder.hasPrefix("/") {
            return URL(fileURLWithPath: folder, isDirectory: true)
        }
        switch inputs.family {
        case .apple:
            let support =
                inputs.applicationSupport
                ?? inputs.home.appendingPathComponent("Library/Application Support", isDirectory: true)
            return support.appendingPathComponent(inputs.bundleIdentifier ?? inputs.processName, isDirectory: true)
                .appendingPathComponent("ModelKit/DocumentBases", isDirectory: true)
        case .freedesktop:
            let state: URL
            if let value = inputs.environment["XDG_STATE_HOME"], value.hasPrefix("/") {
                state = URL(fileURLWithPath: value, isDirectory: true)
            } else if let home = inputs.environment["HOME"], home.hasPrefix("/") {
                state = URL(fileURLWithPath: home, isDirectory: true)
                    .appendingPathComponent(".local/state", isDirectory: true)
            } else {
                state = inputs.home.appendingPathComponent(".local/state", isDirectory: true)
            }
            return state.appendingPathComponent(inputs.processName, isDirectory: true)
                .appendingPathComponent("modelkit-document-bases", isDirectory: true)
        }
    }

    /// The folder that holds the bases of `document`.
    func documentFolder(for document: URL) -> URL {
        folder.appendingPathComponent(Self.key(for: document), isDirectory: true)
    }

    /// The name of a document's folder: a readable prefix of its file name
    /// and the hash of its real path.
    static func key(for document: URL) -> String {
        let path = realPath(of: document)
        let name = (path as NSString).lastPathComponent
        var prefix = ""
        for scalar in name.unicodeScalars where prefix.unicodeScalars.count < 40 {
            let isPlain =
                scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "-_.".unicodeScalars.contains(scalar))
            prefix.unicodeScalars.append(isPlain ? scalar : "_")
        }
        while prefix.hasPrefix(".") { prefix.removeFirst() }
        return (prefix.isEmpty ? "" : prefix + "-") + ContentHash(Data(path.utf8)).hex
    }

    /// The absolute, standardized path of `url` with its links resolved:
    /// those of the whole path when it exists, else those of its folder.
    static func realPath(of url: URL) -> String {
        let standardized = url.standardizedFileURL.path
        if let resolved = resolved(standardized) { return resolved }
        let folder = (standardized as NSString).deletingLastPathComponent
        let name = (standardized as NSString).lastPathComponent
        if let resolvedFolder = resolved(folder) {
            return (resolvedFolder as NSString).appendingPathComponent(name)
        }
        return standardized
    }

    private static func resolved(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    // MARK: - Recording

    /// The lock of the whole history (`.lock` in ``folder``), whose errors
    /// name `file`.
    private func lock(guarding file: URL) -> FileLock {
        FileLock(url: folder.appendingPathComponent(".lock", isDirectory: false), file: file)
    }

    /// Keeps `form`, whose hash is `hash`, as a base of `document`, then
    /// removes the oldest bases and documents beyond the limits.
    /// - Throws: ``ModelError`` naming the history file when the form has no
    ///   JSON form (an infinite double) or the file cannot be written.
    func record(_ form: ModelValue, hash: ContentHash, for document: URL) throws {
        let documentFolder = documentFolder(for: document)
        let file = documentFolder.appendingPathComponent(hash.hex + ".json", isDirectory: false)
        let data = try ModelDocumentFormat.attributing(to: file) { try form.jsonData() }
        // Held shared while the folder is made and the file written, and
        // exclusively while other documents' folders are removed, so that
        // no writer's folder goes from under it (a thread's or a process's).
        try lock(guarding: file).withLock(shared: true) {
            try DurableFile.makeFolders(documentFolder, file: file)
            try DurableFile.write(data, to: file, durability: .unsynced)
        }
        prune(documentFolder)
    }

    /// Keeps a version of `document` as its bytes were loaded or saved (JSON,
    /// a property list or a keyed archive, as ``ModelValue/init(contentsOf:)``
    /// reads them): its saved form, named by the hash of the bytes, so that
    /// ``base(withHash:for:)`` finds it from the file's bytes alone.
    /// - Throws: ``ModelError`` naming the history file when the bytes are in
    ///   no format ModelKit reads, or as ``record(_:hash:for:)`` does.
    func record(version data: Data, for document: URL) throws {
        let hash = ContentHash(data)
        let file = documentFolder(for: document).appendingPathComponent(hash.hex + ".json", isDirectory: false)
        let form = try ModelDocumentFormat.attributing(to: file) { () throws -> ModelValue in
            switch ModelDocumentFormat(detecting: data) {
            case .json?: return try ModelValue(json: data)
            case .none:
                throw ModelError(
                    code: .unknownFormat,
                    message: "expected JSON or a property list, found \(ModelDocumentFormat.describeStart(of: data))")
            default:
                if KeyedArchive.isKeyedArchive(data) { return try ModelValue(keyedArchive: data) }
                return try ModelValue(propertyList: data)
            }
        }
        try record(form, hash: hash, for: document)
    }

    /// Removes the bases of `documentFolder` beyond ``basesPerDocument`` and
    /// the document folders beyond ``documentLimit``, oldest first.
    private func prune(_ documentFolder: URL) {
        for (url, _) in entries(in: documentFolder, where: { ContentHash(baseFileName: $0) != nil })
            .dropFirst(max(basesPerDocument, 1))
        {
            unlink(url.path)
        }
        // A history that cannot be locked now is pruned by a later record.
        try? lock(guarding: documentFolder).withLock {
            for (url, _) in entries(in: folder, where: { _ in true }).dropFirst(max(documentLimit, 1))
            where url.lastPathComponent != documentFolder.lastPathComponent {
                try? FileManager.default.removeItem(at: url)
            }
        }
    }

    // MARK: - Lookups

    /// The base of `document` whose hash is `hash`, if it is kept and reads.
    func base(withHash hash: ContentHash, for document: URL) -> ModelValue? {
        read(documentFolder(for: document).appendingPathComponent(hash.hex + ".json", isDirectory: false))
    }

    /// The bases of `document` that read, newest first.
    func bases(for document: URL) -> [(hash: ContentHash, form: ModelValue)] {
        var found: [(hash: ContentHash, form: ModelValue)] = []
        for (url, _) in entries(in: documentFolder(for: document), where: { ContentHash(baseFileName: $0) != nil }) {
            guard let hash = ContentHash(baseFileName: url.lastPathComponent), let form = read(url) else { continue }
            found.append((hash, form))
        }
        return found
    }

    /// The base of `document` with the fewest differing leaves from `form`
    /// (``ModelValue/leafDistance(to:limit:)``), the newer one among equals;
    /// `nil` when no base but those in `excluding` is kept.
    func closestAncestor(
        of form: ModelValue, for document: URL, excluding: Set<ContentHash> = []
    ) -> (hash: ContentHash, form: ModelValue)? {
        var best: (hash: ContentHash, form: ModelValue)?
        var bestDistance = Int.max
        for base in bases(for: document) where !excluding.contains(base.hash) {
            let distance = base.form.leafDistance(to: form, limit: bestDistance)
            if distance < bestDistance {
                best = base
                bestDistance = distance
                if distance == 0 { break }
            }
        }
        return best
    }

    /// The form in `file`, or nil when it is missing, unreadable or not JSON.
    private func read(_ file: URL) -> ModelValue? {
        guard let data = try? FileReading.data(at: file) else { return nil }
        return try? ModelValue(json: data)
    }

    /// The entries of `folder` whose names pass `include`, newest
    /// modification first (then by name, so that ties keep one order).
    private func entries(in folder: URL, where include: (String) -> Bool) -> [(URL, FileStamp)] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        var found: [(URL, FileStamp)] = []
        for name in names where include(name) && !name.hasPrefix(".") {
            let url = folder.appendingPathComponent(name)
            var status = stat()
            guard lstat(url.path, &status) == 0 else { continue }
            found.append((url, FileStamp(status)))
        }
        return found.sorted { a, b in
            if a.1.seconds != b.1.seconds { return a.1.seconds > b.1.seconds }
            if a.1.nanoseconds != b.1.nanoseconds { return a.1.nanoseconds > b.1.nanoseconds }
            return a.0.lastPathComponent.utf8.lexicographicallyPrecedes(b.0.lastPathComponent.utf8)
        }
    }
}

extension ContentHash {
    /// The hash a base file is named by (`<32 hex digits>.json`); nil for other names.
    init?(baseFileName name: String) {
        guard name.utf8.count == 37, name.hasSuffix(".json") else { return nil }
        self.init(hex: name.prefix(32))
    }
}
