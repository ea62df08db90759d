#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation
import Synchronization

extension ModelDefaults {
    /// Reads the store's file: its values and stamp, or nothing when there is no file.
    /// - Throws: ``ModelError`` naming the file when it cannot be read or is
    ///   not a property list holding a dictionary.
    ///
    /// Other processes create, replace and remove the file at any moment
    /// (without the lock, which only writers take), so its stamp and its
    /// bytes are read at different instants: a file that appears between
    /// them (another store's first save) is read again, and one that is gone
    /// by the time its bytes are read counts as no file. Only a file that
    /// stays there and still cannot be read is an error.
    static func read(_ url: URL) throws -> (ModelValue.Object, FileStamp?) {
        var attempts = 0
        var stamp: FileStamp?
        var data = Data()
        while true {
            attempts += 1
            stamp = FileStamp(path: url.path)
            var problem: ModelError?
            if let stamp {
                guard stamp.isRegularFile else {
                    var status = stat()
                    _ = stat(url.path, &status)
                    try DurableFile.requireRegularFile(status, url: url, destination: url)
                    throw DurableFile.failure(url, "this is not a regular file")
                }
                do {
                    data = try FileReading.data(at: url)
                    break
                } catch let error as ModelError {
                    problem = error
                }
            }
            guard FileManager.default.fileExists(atPath: url.path) else { return (ModelValue.Object(), nil) }
            // There now, but not when it was looked at or read: once more.
            guard attempts < 3 else { throw problem ?? ModelDocumentFormat.readProblem(at: url) }
        }
        guard !data.isEmpty else {
            throw ModelError(
                code: .malformedDocument, message: "the file is empty, not a property list of settings", file: url)
        }
        let value = try ModelDocumentFormat.attributing(to: url) { try ModelValue(propertyList: data) }
        guard case .object(let members) = value else {
            throw ModelError(
                code: .typeMismatch,
                message: "expected a dictionary of settings at the top of the property list, found \(value.excerpt)",
                file: url)
        }
        return (members, stamp)
    }

    /// Renames a file that cannot be read to `<name>.corrupt-<timestamp>` beside it.
    static func moveAside(_ url: URL) throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        var destination = url.appendingPathExtension("corrupt-\(formatter.string(from: Date()))")
        var attempt = 1
        while FileManager.default.fileExists(atPath: destination.path) {
            attempt += 1
            destination = url.appendingPathExtension("corrupt-\(formatter.string(from: Date()))-\(attempt)")
        }
        do {
            try FileManager.default.moveItem(at: url, to: destination)
        } catch {
            throw ModelError(
                code: .fileAccess, message: "the unreadable file could not be moved aside to \(destination.lastPathComponent)",
                file: url)
        }
    }

    /// Writes this store's changes to the file now.
    ///
    /// Under an advisory lock on `<file>.lock`, it reads the file again,
    /// applies this store's changes (sets and removals, in order) over what
    /// it holds, and replaces it atomically: keys that other processes wrote
    /// in the meantime are kept, and then seen by this store too. Attached
    /// models are written as they are now. Registered defaults are never
    /// written. A store without changes writes nothing.
    ///
    /// A value the file's format cannot hold (a string with a control
    /// character in an XML property list, nesting past the limit) does not
    /// stop the others: they are written, the value stays in the store
    /// unsaved (the file keeps what it had for that key), and `save()` throws
    /// an error naming the key, on every save until the key is set to a
    /// value that can be written or removed.
    ///
    /// With `clearingChanges: true`, the models attached to the store (those
    /// that ``model(_:forKey:)`` and ``set(_:forKey:)`` hand out) have their
    /// change flags (``ModelObject/hasChanges``, ``ModelObject/hasAnyChanges``)
    /// cleared once the file holds them: the store is their home, as a
    /// document's file is. Only models that recorded no change while the
    /// store saved are cleared, and none whose key could not be written. It
    /// is `false` by default, as for ``ModelObject/write(to:format:validating:references:durability:clearingChanges:)``,
    /// so that a save never tells an app that edits are saved that are not.
    /// - Parameter clearingChanges: whether a successful save clears the
    ///   change flags of the attached models it wrote.
    /// - Throws: ``ModelError`` naming the file when it cannot be read (it
    ///   is then left as it is) or written, or naming the key of a value
    ///   that cannot be written (the other changes are saved).
    public func save(clearingChanges: Bool = false) throws {
        // Counted before the attached models are read for the file.
        let counts = clearingChanges ? attachedChangeCounts() : []
        let (changes, unwritable) = try saveChanges()
        if !counts.isEmpty {
            let written = lock.withLock {
                counts.filter { key, model, _ in attachedModels[key] === model && pendingValues[key] == nil }
            }
            for (_, model, modelCounts) in written { model.clearChanges(unchangedSince: modelCounts) }
        }
        notify(changes)
        if let unwritable { throw unwritable }
    }

    /// The attached models, each with the change counts of its graph.
    private func attachedChangeCounts() -> [(String, ModelObject, ChangeCounts)] {
        let attached = lock.withLock { attachedModels }
        return attached.map { key, model in (key, model, model.changeCounts()) }
    }

    /// Writes the pending changes; returns what changed for observers, and
    /// the error naming the keys whose values could not be written (the
    /// rest were).
    private func saveChanges() throws -> ([(String, ModelValue?, ModelValue?)], ModelError?) {
        // A file that could not be read when the store opened (protected
        // until the device's first unlock, unreadable for a while, broken
        // and since mended) is read again first: the save goes ahead once it
        // reads, and throws why not while it does not.
        if lock.withLock({ loadProblem != nil }) { try reload() }
        captureAttachedModels()
        guard lock.withLock({ !pendingKeys.isEmpty }) else { return ([], nil) }
        return try FileLock(url: lockURL, file: url).withLock {
            () -> ([(String, ModelValue?, ModelValue?)], ModelError?) in
            guard lock.withLock({ !pendingKeys.isEmpty }) else { return ([], nil) }
            let (onDisk, _) = try Self.read(url)
            let (keys, values) = lock.withLock { (pendingKeys, pendingValues) }
            var (merged, data, unwritable) = try encodedFile(onDisk, changes: keys, values: values)
            if !unwritable.isEmpty {
                // Written without them: the file keeps what it had for those keys.
                (merged, data, _) = try encodedFile(onDisk, changes: keys.filter { unwritable[$0] == nil }, values: values)
            }
            try write(data)
            // A store opened before its folder existed had to poll: its first
            // save made the folder, which file events can now watch.
            if let interval = lock.withLock({ watcher?.mechanism == .polling ? watchingInterval : nil }) {
                startWatching(every: interval)
            }
            let stamp = FileStamp(path: path)
            let changes = lock.withLock {
                // Changes made while writing, and values that could not be
                // written, stay pending for the next save.
                for key in keys where unwritable[key] == nil && pendingValues[key] == values[key] {
                    pendingValues[key] = nil
                }
                pendingKeys.removeAll { pendingValues[$0] == nil }
                fileStamp = stamp
                disk = merged
                return adopt(merged)
            }
            return (changes, Self.unwritableError(unwritable, in: keys, file: url))
        }
    }

    /// `disk` with the changes of `keys` applied, and its bytes; when they
    /// cannot be encoded, the keys among `keys` whose values cannot be, with
    /// why (and no bytes).
    /// - Throws: the encoder's error when no change is to blame: a value
    ///   the file already held cannot be written in the store's format.
    private func encodedFile(
        _ disk: ModelValue.Object, changes keys: [String], values: [String: ModelValue?]
    ) throws -> (ModelValue.Object, Data, [String: ModelError]) {
        var merged = disk
        for key in keys {
            if let value = values[key]! {
                merged[key] = value
            } else {
                _ = merged.removeValue(forKey: key)
            }
        }
        do {
            return (merged, try ModelValue.object(merged).propertyListData(format: format), [:])
        } catch let whole as ModelError {
            var unwritable: [String: ModelError] = [:]
            for key in keys {
                guard let value = values[key]! else { continue }
                do {
                    _ = try ModelValue.object([key: value]).propertyListData(format: format)
                } catch let error as ModelError {
                    unwritable[key] = error.keyPath.components.first == .key(key) ? error : error.prepending(.key(key))
                }
            }
            guard !unwritable.isEmpty else {
                var error = whole
                error.file = url
                throw error
            }
            return (merged, Data(), unwritable)
        }
    }

    /// The error of a save that wrote every change but those of `unwritable`:
    /// the first such key's (in the order the changes were made), naming the others.
    private static func unwritableError(_ unwritable: [String: ModelError], in keys: [String], file: URL) -> ModelError? {
        let named = keys.filter { unwritable[$0] != nil }
        guard let first = named.first, var error = unwritable[first] else { return nil }
        let others = named.dropFirst()
        error.message +=
            "; this value stays unsaved"
            + (others.isEmpty ? "" : " (and the values of \(others.map { "\"\($0)\"" }.joined(separator: ", ")) too)")
            + ", the store's other changes were saved"
        error.file = file
        return error
    }

    /// Reads the file again, so that changes other processes saved are seen;
    /// this store's unsaved changes stay on top. Observers hear of every key
    /// whose value changed.
    /// - Throws: ``ModelError`` naming the file when it cannot be read; the
    ///   store then keeps what it had.
    public func reload() throws {
        // No lock to read: writers replace the file atomically, so a read
        // sees one whole version of it.
        let (values, stamp) = try Self.read(url)
        let changes = lock.withLock { () -> [(String, ModelValue?, ModelValue?)] in
            fileStamp = stamp
            disk = values
            loadProblem = nil
            return adopt(values)
        }
        notify(changes)
    }

    /// Makes `disk` with the pending changes over it the stored values, and
    /// returns what changed for observers. Attached models whose key another
    /// process changed are detached. Call holding `lock`.
    private func adopt(_ disk: ModelValue.Object) -> [(String, ModelValue?, ModelValue?)] {
        var next = disk
        for key in pendingKeys {
            if let value = pendingValues[key]! {
                next[key] = value
            } else {
                _ = next.removeValue(forKey: key)
            }
        }
        var changes: [(String, ModelValue?, ModelValue?)] = []
        var seen = Set<String>()
        for (key, value) in next {
            seen.insert(key)
            let old = stored[key]
            if old != value {
                changes.append((key, old ?? registered[key], value))
                attachedModels[key] = nil
            }
        }
        for (key, value) in stored where !seen.contains(key) {
            changes.append((key, value, registered[key]))
            attachedModels[key] = nil
        }
        stored = next
        return changes
    }

    /// Records the current state of attached models that changed as pending sets.
    private func captureAttachedModels() {
        let attached = lock.withLock { attachedModels }
        guard !attached.isEmpty else { return }
        var updates: [(String, ModelObject, ModelValue)] = []
        for (key, model) in attached {
            updates.append((key, model, model.modelValue))
        }
        var changes: [(String, ModelValue?, ModelValue?)] = []
        lock.withLock {
            for (key, model, value) in updates where attachedModels[key] === model && stored[key] != value {
                changes.append((key, stored[key], value))
                stored[key] = value
                if pendingValues.updateValue(value, forKey: key) == nil { pendingKeys.append(key) }
            }
        }
        notify(changes)
    }

    /// Replaces the file with `data` through the durable writer, making its
    /// folder first (`0700`); a new file is `0600`, an old one keeps its mode.
    private func write(_ data: Data) throws {
        try DurableFile.makeFolders(url.deletingLastPathComponent(), file: url)
        try DurableFile.write(data, to: url, durability: durability, newFileMode: 0o600)
    }

    /// How the store's saves sync the file: ``FileDurability/synced`` (the
    /// default) makes each save survive a power cut; ``FileDurability/unsynced``
    /// keeps saves atomic but skips the syncs, for stores of caches.
    public var durability: FileDurability {
        get { lock.withLock { fileDurability } }
        set { lock.withLock { fileDurability = newValue } }
    }

    // MARK: - Saving by itself

    /// The error of the last save the store made by itself (after a change,
    /// or at exit), or `nil` when it succeeded.
    public var autosaveError: ModelError? { lock.withLock { lastAutosaveError } }

    /// Saves a moment after the last of a burst of changes.
    func scheduleAutosave() {
        guard let delay = autosaveDelay else { return }
        let generation = lock.withLock {
            autosaveGeneration += 1
            return autosaveGeneration
        }
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + delay) { [weak self] in
            guard let self, self.lock.withLock({ self.autosaveGeneration == generation }) else { return }
            self.saveRecordingError()
        }
    }

    /// Saves, keeping the error for ``autosaveError``; returns it.
    @discardableResult
    func saveRecordingError() -> ModelError? {
        do {
            try save()
            lock.withLock { lastAutosaveError = nil }
            return nil
        } catch {
            let failure = ModelError(error)
            lock.withLock { lastAutosaveError = failure }
            return failure
        }
    }

    /// Saves the changes of a store being released (from `deinit`); a
    /// failure goes to standard error and ``releaseSaveError``.
    func saveBeforeRelease() {
        guard hasUnsavedChanges, let failure = saveRecordingError() else { return }
        Self.releaseFailure.withLock { $0 = failure }
        Self.reportToStandardError(failure, when: "as the store was released")
    }

    /// The error of the last save that a store made as it was released
    /// (``ModelDefaults`` saves its unsaved changes then), or `nil` when
    /// none failed in this process. Such a failure is also written to
    /// standard error, since the store that could report it is gone.
    ///
    /// ```swift
    /// func remember(_ url: URL) throws {
    ///     let store = try ModelDefaults(url: url)
    ///     store.set("x", forKey: "k")
    /// }                                   // saved here, as the store goes
    /// if let error = ModelDefaults.releaseSaveError { print(error) }
    /// ```
    public static var releaseSaveError: ModelError? { releaseFailure.withLock { $0 } }
    private static let releaseFailure = Mutex<ModelError?>(nil)

    /// Writes a failed save that no one else can report (at release, at
    /// exit) to standard error, as one line.
    static func reportToStandardError(_ failure: ModelError, when: String) {
        let line = "ModelKit: the settings in \(failure.file?.path ?? "a ModelDefaults store") could not be saved \(when): "
            + failure.description + "\n"
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// Whether saving now would write anything.
    var hasUnsavedChanges: Bool {
        lock.withLock { !pendingKeys.isEmpty || !attachedModels.isEmpty }
    }

    private final class WeakStore {
        weak var store: ModelDefaults?
        init(_ store: ModelDefaults) { self.store = store }
    }
    private static let openStores = LockedTable<ObjectIdentifier, WeakStore>()
    private static let exitHandler: Void = {
        atexit { ModelDefaults.saveOpenStores(when: "at exit") }
        // Apple platforms suspend an app in the background and may kill it
        // later without running `atexit`: save when it leaves the foreground.
        let center = NotificationCenter.default
        for name in Platform.appLeavingNotifications {
            _ = center.addObserver(forName: name, object: nil, queue: nil) { _ in
                ModelDefaults.saveOpenStores(when: "as the app left the foreground")
            }
        }
        for name in Platform.protectedDataAvailableNotifications {
            _ = center.addObserver(forName: name, object: nil, queue: nil) { _ in
                ModelDefaults.readUnreadableStoresAgain()
            }
        }
    }()

    /// Keeps `store` to be saved when the process exits normally.
    static func registerForExit(_ store: ModelDefaults) {
        _ = exitHandler
        openStores.withLock { stores in
            // Forget closed stores now and then, not on every open.
            if stores.count >= 64, stores.count.isMultiple(of: 64) {
                stores = stores.filter { $0.value.store != nil }
            }
            stores[ObjectIdentifier(store)] = WeakStore(store)
        }
    }

    /// The file's values as an open store of this process last read or wrote
    /// them, when the file is still that version (the same `stat`), so
    /// opening a store on a file already open costs no parsing, as a
    /// `UserDefaults` suite is loaded once per process.
    static func cachedValues(of path: String, stamp: FileStamp) -> ModelValue.Object? {
        let stores = openStores.withLock { $0.values.compactMap(\.store) }
        for store in stores where store.path == path {
            if let values = store.lock.withLock({ store.fileStamp == stamp ? store.disk : nil }) { return values }
        }
        return nil
    }

    /// Saves every open store that has changes (at exit, and when the app
    /// leaves the foreground); a failure goes to standard error.
    static func saveOpenStores(when: String) {
        let stores = openStores.withLock { $0.values.compactMap(\.store) }
        for store in stores where store.hasUnsavedChanges {
            if let failure = store.saveRecordingError() { reportToStandardError(failure, when: when) }
        }
    }

    /// Reads again the file of every open store that could not read it
    /// (when protected data becomes available: the device was unlocked).
    static func readUnreadableStoresAgain() {
        let stores = openStores.withLock { $0.values.compactMap(\.store) }
        for store in stores where store.loadError != nil { try? store.reload() }
    }

    // MARK: - Watching the file

    /// Watches the file (``FileWatcher``: file events, or a look every
    /// `interval` seconds where there are none) and reloads when another
    /// process changed it.
    func startWatching(every interval: TimeInterval) {
        let new = FileWatcher(url: url, interval: interval) { [weak self] in self?.reloadIfChanged() }
        let old = lock.withLock {
            defer { watcher = new }
            return watcher
        }
        old?.cancel()
    }

    /// Reloads when the file is not the one last read or written, or could
    /// not be read last time.
    func reloadIfChanged() {
        let stamp = FileStamp(path: path)
        guard lock.withLock({ stamp != fileStamp || loadProblem != nil }) else { return }
        try? reload()
    }
}
