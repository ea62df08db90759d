#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

/// A document file opened for editing, that never loses an edit made to it
/// elsewhere.
///
/// ```swift
/// let opened = try ModelDocument<Note>(contentsOf: url)
/// opened.root.title = "Groceries"
/// let conflicts = try opened.save()   // merges with whatever changed the file meanwhile
/// for conflict in conflicts { print(conflict) }
/// ```
///
/// ``ModelObject/write(to:format:validating:references:durability:clearingChanges:)``
/// replaces a file: whoever saves last wins, and edits saved meanwhile by a
/// second window, a widget, a command-line tool, a text editor or a sync
/// service are gone. A document remembers the version it loaded (its
/// *base*: the saved form and the file's device, inode, size and
/// modification time), and ``save()``:
/// 1. takes an exclusive lock for the whole save (`flock` on
///    `.<name>.modelkit-lock` beside the file, which every ModelKit process
///    takes; where the folder refuses new files, a lock of the same name in
///    the history folder), so two processes saving at once never lose an
///    edit;
/// 2. writes the file durably when it is as it was at the last load or save;
/// 3. otherwise reads *theirs*, merges base, ours (the live model) and
///    theirs under the document's ``MergePolicy`` and the classes'
///    ``ModelObject/identityKey``s, applies their side to ``root`` in place
///    (one undo step; ``ModelObject/didLoad()`` on the models it changed;
///    observers told; unsaved edits kept), and writes the result durably.
///
/// The merged version becomes the new base, and the conflicts are returned
/// and kept in ``conflicts``. A file that was deleted, or replaced by a
/// folder or another kind of file, is an error: a document is never created
/// again silently.
///
/// Watching (``startWatching(queue:)``) merges other writers' saves as they
/// land, without saving; ``mergeConflictCopies()`` folds back the copies
/// that sync services leave beside a document. The bases the app loaded and
/// saved are kept in a small history outside the document
/// (``DocumentHistory``), so that a conflict copy found after a relaunch
/// still merges three ways.
///
/// A document is safe to use from any thread: saves, merges and watching
/// take turns.
public final class ModelDocument<Root: ModelObject>: @unchecked Sendable {
    /// The document's file.
    public let url: URL
    /// The live model: edit it, then ``save()``.
    public let root: Root
    /// The format the document is written in: the one it was read in.
    public let format: ModelDocumentFormat
    /// How conflicts are settled; every conflict is reported whatever it is.
    public let policy: MergePolicy
    /// Which models of the graph are written once and referred to elsewhere.
    public let references: ReferencePolicy
    /// How far each save goes to survive a power cut.
    public let durability: FileDurability
    /// Where the bases of documents are kept across launches, or `nil` to
    /// keep them in memory only.
    public let history: DocumentHistory?

    /// Guards everything below; recursive, so that an observer told of a
    /// merge may save.
    let lock = NSRecursiveLock()
    /// The version of the file the live model last loaded or saved.
    var base: Base
    var lastConflicts: [MergeConflict] = []
    var watcher: FileWatcher?
    var watchQueue: DispatchQueue?
    var pendingRetries = 0
    var lastWatchingError: ModelError?
    /// Versions loaded or saved that the history has not kept yet.
    var waitingVersions: [Data] = []
    var observers: [UUID: @Sendable (DocumentMerge) -> Void] = [:]

    /// The version of the file the live model last loaded or saved: its
    /// bytes, their stamp, and (worked out when a merge first needs it) its
    /// saved form as a merge compares it.
    struct Base {
        var data: Data
        var stamp: FileStamp
        var form: ModelValue.Object?
    }

    /// Opens the document at `url`, in any format ModelKit reads.
    /// - Parameters:
    ///   - url: the document's file URL (any other URL is refused).
    ///   - format: the format to save in; `nil` (the default) keeps the one
    ///     the file is in, and for JSON its layout: pretty-printed when the
    ///     file spans lines (as a person or a text editor leaves it), compact
    ///     when it is one line.
    ///   - policy: how conflicts are settled; `.ours` by default.
    ///   - references: which models are written once and referred to
    ///     elsewhere; see ``ReferencePolicy``.
    ///   - durability: ``FileDurability/synced`` (the default) or
    ///     ``FileDurability/unsynced``.
    ///   - history: where bases are kept across launches;
    ///     ``DocumentHistory/standard`` by default, `nil` for none.
    /// - Throws: ``ModelError`` naming the file: missing, unreadable, empty,
    ///   an unknown format, or a document that does not load.
    public init(
        contentsOf url: URL, format: ModelDocumentFormat? = nil, policy: MergePolicy = .ours,
        references: ReferencePolicy = .cycles, durability: FileDurability = .synced,
        history: DocumentHistory? = .standard
    ) throws {
        try DurableFile.requireFileURL(url)
        self.url = url
        self.policy = policy
        self.references = references
        self.durability = durability
        self.history = history
        let (data, stamp) = try Self.readVersion(of: url)
        let detected = try Self.detectedFormat(of: data, url: url)
        self.format = format ?? Self.keepingLayout(detected, of: data)
        root = try Self.decodedRoot(data, format: detected, url: url)
        base = Base(data: data, stamp: stamp, form: nil)
        remember(data)
    }

    deinit {
        watcher?.cancel()
        // Kept here, not handed to a queue that a process ending now would
        // never run (nor on the history's queue, where this may be running).
        if let history, !waitingVersions.isEmpty { history.record(waitingVersions, of: url) }
    }

    /// The conflicts of the last merge (at a save, while watching, or of
    /// conflict copies), each settled by ``policy``: for the app to show.
    public var conflicts: [MergeConflict] {
        lock.withLock { lastConflicts }
    }

    /// Saves the live model, merging first with whatever changed the file
    /// since it was loaded or last saved, as described above.
    /// - Returns: the conflicts of that merge, each settled by ``policy``
    ///   (none when the file had not changed).
    /// - Throws: ``ModelError`` naming the file: deleted or replaced by
    ///   something that is not a file since it was loaded; changed into
    ///   something that does not load (with its line and column); an invalid
    ///   live model; the merge's errors (``ModelError/Code/mergeConflict``
    ///   under ``MergePolicy/fail``); the write's. Nothing is written then,
    ///   and the live model is unchanged, except that a merge that succeeded
    ///   stays merged when only the write failed: the next save writes it.
    @discardableResult
    public func save() throws -> [MergeConflict] {
        try lock.withLock {
            try root.validate()
            return try fileLock().withLock {
                let conflicts = try mergeChangedFile(source: .save, readFailure: .thrown)
                try writeRoot(keepingForm: conflicts != nil)
                return conflicts ?? []
            }
        }
    }

    /// Registers `observer`, called after each merge into the live model
    /// (on the thread that merged: the saving one, or the watching queue).
    /// - Returns: a token; pass it to ``removeObserver(_:)``.
    @discardableResult
    public func addObserver(_ observer: @escaping @Sendable (DocumentMerge) -> Void) -> UUID {
        let token = UUID()
        lock.withLock { observers[token] = observer }
        return token
    }

    /// Stops calling the observer `token` names.
    public func removeObserver(_ token: UUID) {
        lock.withLock { _ = observers.removeValue(forKey: token) }
    }

    /// Each merge into the live model from now on, as an asynchronous
    /// sequence that ends when the task iterating it is cancelled.
    public func merges() -> AsyncStream<DocumentMerge> {
        AsyncStream { continuation in
            let token = addObserver { continuation.yield($0) }
            continuation.onTermination = { [weak self] _ in self?.removeObserver(token) }
        }
    }

    // MARK: - Saving

    /// What a read of their version that does not load means: an error to
    /// throw (a save), or a file not written whole yet (watching).
    enum ReadFailure {
        case thrown
        case notReady
    }

    /// When the file is not the base version, reads theirs and merges it
    /// into the live model; the base is then theirs. Call holding `lock`.
    /// - Returns: the conflicts, or `nil` when there was nothing to merge
    ///   (or, with `.notReady`, nothing that loads yet).
    func mergeChangedFile(source: DocumentMerge.Source, readFailure: ReadFailure) throws -> [MergeConflict]? {
        guard try requireFile() != base.stamp else { return nil }
        let (data, stamp) = try Self.readVersion(of: url)
        guard data != base.data else {
            base.stamp = stamp  // touched, or rewritten with the same bytes
            return nil
        }
        let theirs: ModelValue.Object
        do {
            theirs = try Self.decodedRoot(data, format: Self.detectedFormat(of: data, url: url), url: url)
                .encodedRoot(references: .shared)
        } catch let error as ModelError {
            if readFailure == .notReady { return nil }
            throw error.prefixingMessage("the file changed since it was loaded or saved, and the new version cannot be read: ")
        }
        let conflicts = try root.mergeInPlace(base: baseForm(), theirs: theirs, policy: policy)
        // The live model now holds their version's changes: whatever happens
        // to the write, theirs is the version it started from.
        base = Base(data: data, stamp: stamp, form: theirs)
        remember(data)
        lastConflicts = conflicts
        announce(DocumentMerge(source: source, conflicts: conflicts))
        return conflicts
    }

    /// Writes the live model durably; its version becomes the base. Call
    /// holding `lock` and the file lock.
    /// - Parameter keepingForm: whether to keep the saved form of what is
    ///   written as the base's, so that the next merge need not read it from
    ///   the bytes (after a merge, when the next save is likely to merge
    ///   too). It is kept only when no model changed while the bytes were
    ///   made, so that it is exactly what the file holds.
    func writeRoot(keepingForm: Bool) throws {
        let counts = root.changeCounts()
        let form = keepingForm ? try root.encodedRoot(references: .shared) : nil
        let data = try root.documentData(format: format, references: references)
        // Kept only when it is what reading the file back gives: nothing
        // changed meanwhile, and no model is written twice that the form
        // writes once (shared models under `.cycles`).
        let exact =
            form != nil && root.isUnchanged(since: counts)
            && (references == .shared || !Self.hasReferences(form.map { ModelValue.object($0) } ?? .null))
        let written = try DurableFile.write(data, to: url, durability: durability)
        root.clearChanges(unchangedSince: counts)
        base = Base(data: data, stamp: written ?? FileStamp(path: url.path) ?? base.stamp, form: exact ? form : nil)
        remember(data)
    }

    /// Whether `value` holds a reference (`$ref`) anywhere; a loop, for any depth.
    static func hasReferences(_ value: ModelValue) -> Bool {
        var pending = [value]
        while let next = pending.popLast() {
            switch next {
            case .object(let members):
                if members[ReferenceKeys.ref] != nil { return true }
                for (_, member) in members { pending.append(member) }
            case .array(let elements):
                pending.append(contentsOf: elements)
            default:
                continue
            }
        }
        return false
    }

    /// The base's saved form, worked out from its bytes the first time a
    /// merge needs it.
    func baseForm() throws -> ModelValue.Object {
        if let form = base.form { return form }
        let form = try Self.decodedRoot(base.data, format: Self.detectedFormat(of: base.data, url: url), url: url)
            .encodedRoot(references: .shared)
        base.form = form
        return form
    }

    /// The stamp of the document's file; refuses one that was deleted or
    /// replaced by something that is not a file since it was opened.
    func requireFile() throws -> FileStamp {
        var info = stat()
        if stat(url.path, &info) != 0 {
            let code = errno
            if code == ENOENT {
                throw ModelError(
                    code: .fileNotFound,
                    message: "the document was deleted or moved since it was opened; "
                        + "it is not created again (write the model with write(to:) to make a new file)",
                    file: url)
            }
            throw FileReading.problem(at: url, code: code)
        }
        if info.st_mode & S_IFMT != S_IFREG {
            let kind = info.st_mode & S_IFMT == S_IFDIR ? "a folder" : "something that is not a file"
            throw ModelError(
                code: .fileAccess, message: "the document was replaced by \(kind) since it was opened", file: url)
        }
        return FileStamp(info)
    }

    /// Hands `data`, a version the file held, to the history: kept in the
    /// background with the other versions of the same
    /// ``DocumentHistory/recordingInterval`` (none is dropped but those past
    /// its ``DocumentHistory/basesPerDocument``). Call holding `lock`.
    func remember(_ data: Data) {
        guard let history else { return }
        if waitingVersions.isEmpty {
            DocumentHistory.queue.asyncAfter(deadline: .now() + DocumentHistory.recordingInterval) { [weak self] in
                self?.keepWaitingVersions()
            }
        }
        waitingVersions.append(data)
        if waitingVersions.count > history.basesPerDocument {
            waitingVersions.removeFirst(waitingVersions.count - history.basesPerDocument)
        }
    }

    /// Keeps the versions waiting for the history now, on the caller's thread.
    func keepWaitingVersions() {
        guard let history else { return }
        let versions = lock.withLock {
            defer { waitingVersions = [] }
            return waitingVersions
        }
        history.record(versions, of: url)
    }

    /// Tells the observers of a merge.
    func announce(_ merge: DocumentMerge) {
        for observer in observers.values { observer(merge) }
    }

    // MARK: - Reading

    static func readVersion(of url: URL) throws -> (Data, FileStamp) {
        let (data, stamp) = try FileReading.version(at: url)
        guard stamp.isRegularFile else {
            throw DurableFile.failure(url, "this is not a regular file; a document must be one")
        }
        return (data, stamp)
    }

    static func detectedFormat(of data: Data, url: URL) throws -> ModelDocumentFormat {
        guard !data.isEmpty else {
            throw ModelError(code: .malformedDocument, message: "the file is empty", file: url)
        }
        guard let format = ModelDocumentFormat(detecting: data) else {
            throw ModelError(
                code: .unknownFormat,
                message: "expected JSON or a property list, found \(ModelDocumentFormat.describeStart(of: data))",
                file: url)
        }
        return format
    }

    /// `format`, and for JSON that spans lines, pretty-printed.
    static func keepingLayout(_ format: ModelDocumentFormat, of data: Data) -> ModelDocumentFormat {
        guard case .json = format else { return format }
        // A newline before the last byte that is not white space: more than one line.
        guard let last = data.lastIndex(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) else {
            return format
        }
        return data[..<last].contains(0x0A) ? .json(.pretty) : format
    }

    static func decodedRoot(_ data: Data, format: ModelDocumentFormat, url: URL) throws -> Root {
        let model = Root()
        try model.loadingNew { try model.loadDocument(data, format: format, url: url) }
        return model
    }

    // MARK: - Locking

    /// The lock every ModelKit process saving this document takes.
    func fileLock() -> FileLock {
        let folder = url.deletingLastPathComponent()
        let name = "." + DurableFile.TemporaryName.stem(of: url.lastPathComponent) + ".modelkit-lock"
        if access(folder.path, W_OK) == 0 || history == nil {
            return FileLock(url: folder.appendingPathComponent(name), file: url)
        }
        // A folder that refuses new files (a security-scoped URL of the one
        // file): the lock lives in the history, named by the document.
        return FileLock(url: history!.folder(for: url).appendingPathComponent("lock"), file: url)
    }
}

extension ModelError {
    /// The error with `prefix` before its message.
    func prefixingMessage(_ prefix: String) -> ModelError {
        var error = self
        error.message = prefix + error.message
        return error
    }
}
