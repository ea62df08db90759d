#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

/// What identifies one version of a file: replacing it atomically gives it a
/// new inode, writing it in place a new size or modification time.
struct FileStamp: Equatable {
    var seconds: Int
    var nanoseconds: Int
    var size: Int
    var inode: UInt64

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
            seconds = Int(info.st_mtimespec.tv_sec)
            nanoseconds = Int(info.st_mtimespec.tv_nsec)
        #else
            seconds = Int(info.st_mtim.tv_sec)
            nanoseconds = Int(info.st_mtim.tv_nsec)
        #endif
        size = Int(info.st_size)
        inode = UInt64(info.st_ino)
    }
}

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
            if stamp != nil, let bytes = try? Data(contentsOf: url) {
                data = bytes
                break
            }
            guard FileManager.default.fileExists(atPath: url.path) else { return (ModelValue.Object(), nil) }
            // There now, but not when it was looked at or read: once more.
            guard attempts < 3 else { throw ModelDocumentFormat.readProblem(at: url) }
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
    /// - Throws: ``ModelError`` naming the file when it cannot be read (it
    ///   is then left as it is) or written.
    public func save() throws {
        if let loadProblem = lock.withLock({ loadProblem }) { throw loadProblem }
        captureAttachedModels()
        let changes = try FileLock(url: lockURL).withLock { () -> [(String, ModelValue?, ModelValue?)] in
            guard lock.withLock({ !pendingKeys.isEmpty }) else { return [] }
            var (merged, _) = try Self.read(url)
            let data: Data
            let (keys, values) = lock.withLock { (pendingKeys, pendingValues) }
            for key in keys {
                if let value = values[key]! {
                    merged[key] = value
                } else {
                    _ = merged.removeValue(forKey: key)
                }
            }
            data = try ModelDocumentFormat.attributing(to: url) {
                try ModelValue.object(merged).propertyListData(format: format)
            }
            try write(data)
            let stamp = FileStamp(path: path)
            return lock.withLock {
                // Changes made while writing stay pending for the next save.
                for key in keys where pendingValues[key] == values[key] {
                    pendingValues[key] = nil
                }
                pendingKeys.removeAll { pendingValues[$0] == nil }
                fileStamp = stamp
                disk = merged
                return adopt(merged)
            }
        }
        notify(changes)
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

    /// Saves, keeping the error for ``autosaveError``.
    func saveRecordingError() {
        do {
            try save()
            lock.withLock { lastAutosaveError = nil }
        } catch {
            let failure = ModelError(error)
            lock.withLock { lastAutosaveError = failure }
        }
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
        atexit { ModelDefaults.saveOpenStores() }
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

    /// Saves every open store that has changes.
    static func saveOpenStores() {
        let stores = openStores.withLock { $0.values.compactMap(\.store) }
        for store in stores where store.hasUnsavedChanges { store.saveRecordingError() }
    }

    // MARK: - Watching the file

    /// Checks the file every `interval` seconds and reloads when another
    /// process changed it.
    func startWatching(every interval: TimeInterval) {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(100))
        timer.setEventHandler { [weak self] in self?.reloadIfChanged() }
        watcher = timer
        timer.resume()
    }

    /// Reloads when the file is not the one last read or written.
    func reloadIfChanged() {
        let stamp = FileStamp(path: path)
        guard lock.withLock({ stamp != fileStamp }) else { return }
        try? reload()
    }
}
