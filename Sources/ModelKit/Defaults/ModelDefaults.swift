import Foundation

/// A `UserDefaults`-like store of settings and small models, persisted to a
/// property-list file, on every platform.
///
/// ```swift
/// let store = try ModelDefaults(url: URL(fileURLWithPath: "settings.plist"))
/// store.set(0.5, forKey: "volume")
/// store.set(Color.orange, forKey: "accent")
/// print(store.double(forKey: "volume") ?? 0)       // 0.5
/// try store.save()                                  // also saved soon after, and at exit
/// ```
///
/// - **Values**: every ``ModelValueConvertible`` type (numbers, strings,
///   dates, data, URLs, ``Color``, ``Interval``, arrays, dictionaries,
///   `Codable` types that declare the conformance) and ``ModelObject``
///   subclasses. Typed getters such as ``integer(forKey:)`` return `nil`
///   when the key is absent or holds another type; ``value(_:forKey:)``
///   throws for the wrong type, naming the key and the file.
/// - **Typed keys**: declare `static let volume = Key<Double>("volume",
///   default: 0.8)` in `extension ModelDefaults.Keys` and use `store[.volume]`.
/// - **Registered defaults** (``register(defaults:)``) answer for keys the
///   file does not hold, and are never written to it.
/// - **Saving**: ``save(clearingChanges:)`` writes now; changes are also written a moment
///   after they are made, when the store is released, and when the process
///   exits normally. A value the file cannot hold is reported by key and
///   does not stop the others from being saved. Each write
///   takes an advisory lock on `<file>.lock`, reads the file again, applies
///   this store's changes over it and replaces it atomically, so several
///   processes that set different keys of one file all keep their keys.
/// - **Other processes**: their changes are seen after ``reload()``, and by
///   themselves when the file changes (the store checks it every second).
/// - **Models**: a model set in the store, or read with ``model(_:forKey:)``,
///   stays attached to its key: when the store saves, it writes the model's
///   current state, so changing the model in place is not lost. Setting
///   another value, removing the key, or another process changing it
///   detaches the model.
/// - **Bad files**: a corrupt, truncated or unreadable file is an error
///   naming the file, and is never replaced;
///   ``CorruptFileRecovery/moveAside`` keeps it beside the file with a
///   timestamp and starts empty.
public final class ModelDefaults: @unchecked Sendable {
    /// The property-list file of the store.
    public let url: URL
    /// Its path, worked out once.
    let path: String
    /// The format the file is written in.
    public let format: PropertyListSerialization.PropertyListFormat
    /// How long after a change the store saves by itself; `nil` when it does not.
    public let autosaveDelay: TimeInterval?

    /// What to do when the file exists but cannot be read as a store.
    public enum CorruptFileRecovery: Sendable, Hashable {
        /// Throw an error naming the file; the file is left as it is.
        case fail
        /// Rename the file to `<name>.corrupt-<timestamp>` beside it, and start empty.
        case moveAside
    }

    // Everything below is guarded by `lock`.
    let lock = NSLock()
    /// The values of the file as last read or written, with this store's
    /// unsaved changes applied.
    var stored = ModelValue.Object()
    /// This store's changes not yet saved, by key, in order: a value, or `nil` for a removal.
    var pendingKeys: [String] = []
    var pendingValues: [String: ModelValue?] = [:]
    var registered: [String: ModelValue] = [:]
    /// Models attached to their keys, written as they are when the store saves.
    var attachedModels: [String: ModelObject] = [:]
    /// The file as last read or written, to notice changes by others, and its values then.
    var fileStamp: FileStamp?
    var disk = ModelValue.Object()
    /// Why the file could not be read, for a store that was made anyway (``standard``).
    var loadProblem: ModelError?
    /// The error of the last save the store made by itself.
    var lastAutosaveError: ModelError?
    var autosaveGeneration = 0
    var observers: [Int: KeyObserver] = [:]
    var streams: [Int: AsyncStream<String>.Continuation] = [:]
    var nextObserverID = 0
    var watcher: FileWatcher?
    /// The `watchInterval` the store was opened with.
    var watchingInterval: TimeInterval?
    var fileDurability = FileDurability.synced

    /// Opens the store on the property-list file at `url`, reading it if it exists.
    ///
    /// - Parameters:
    ///   - url: the file (a file URL; any other URL is refused); it and its
    ///     folder are created on the first save.
    ///   - format: `.xml` (the default) or `.binary`, for writing; either is read.
    ///   - recovery: what to do with a file that cannot be read as a store.
    ///   - autosaveDelay: seconds after a change before the store saves by
    ///     itself; `nil` saves only on ``save(clearingChanges:)`` and at exit.
    ///   - watchInterval: whether to watch the file for changes other
    ///     processes save, and reload them: `nil` never watches (use
    ///     ``reload()``). The file is watched with the system's file events
    ///     (kqueue on Apple platforms, inotify on Linux), which cost nothing
    ///     while the file does not change; only where neither is available is
    ///     it looked at every `watchInterval` seconds.
    /// - Throws: ``ModelError`` naming the file when it exists but cannot be
    ///   read, or is not a dictionary of settings (with `.fail`); naming the
    ///   URL when it is not a file URL.
    public init(
        url: URL, format: PropertyListSerialization.PropertyListFormat = .xml,
        recovery: CorruptFileRecovery = .fail, autosaveDelay: TimeInterval? = 0.2,
        watchInterval: TimeInterval? = 1
    ) throws {
        try DurableFile.requireFileURL(url)
        self.url = url
        path = url.path
        self.format = format == .binary ? .binary : .xml
        self.autosaveDelay = autosaveDelay
        do {
            // No lock to read: writers replace the file atomically. A file
            // another store of this process has open, unchanged since, is not parsed again.
            let (values, stamp): (ModelValue.Object, FileStamp?)
            if let current = FileStamp(path: path), let cached = Self.cachedValues(of: path, stamp: current) {
                (values, stamp) = (cached, current)
            } else {
                (values, stamp) = try Self.read(url)
            }
            stored = values
            disk = values
            fileStamp = stamp
        } catch let error as ModelError where recovery == .moveAside && FileManager.default.fileExists(atPath: url.path) {
            _ = error
            try Self.moveAside(url)
        }
        ModelDefaults.registerForExit(self)
        watchingInterval = watchInterval
        if let watchInterval { startWatching(every: watchInterval) }
    }

    /// A store that keeps working in memory after its file failed to load
    /// (``standard``); saving it throws the load's error.
    init(url: URL, unreadable problem: ModelError) {
        self.url = url
        path = url.path
        format = .xml
        autosaveDelay = nil
        loadProblem = problem
        ModelDefaults.registerForExit(self)
    }

    /// A store released with unsaved changes saves them first, at once,
    /// through the same writer as ``save(clearingChanges:)``: a change the store accepted is
    /// not lost because the store went away before its autosave. A failure
    /// then is written to standard error and kept in ``releaseSaveError``.
    deinit {
        watcher?.cancel()
        saveBeforeRelease()
    }

    /// The file beside the store's file that writers lock.
    var lockURL: URL { url.appendingPathExtension("lock") }

    // MARK: - Reading

    /// The value stored under `key`, or else the registered default, or `nil`.
    public func modelValue(forKey key: String) -> ModelValue? {
        lock.withLock { stored[key] ?? registered[key] }
    }

    /// The value under `key` as a `Value`, or `nil` when the key has no
    /// value (stored or registered).
    ///
    /// ```swift
    /// let size = try store.value(Int.self, forKey: "fontSize") ?? 12
    /// ```
    /// - Throws: ``ModelError`` naming the key and the file when the value
    ///   is not a `Value`.
    public func value<Value: ModelValueConvertible>(_ type: Value.Type, forKey key: String) throws -> Value? {
        if let model = lock.withLock({ attachedModels[key] }), let typed = model as? Value { return typed }
        guard let raw = modelValue(forKey: key) else { return nil }
        do {
            return try Value.decoded(from: raw)
        } catch let error as ModelError {
            var located = error.prepending(.key(key))
            located.file = url
            throw located
        } catch {
            throw ModelError(code: .invalidValue, message: "\(error)", keyPath: ModelKeyPath([.key(key)]), file: url)
        }
    }

    /// The model under `key`, decoded as `type` (or a registered subclass the
    /// data names) and attached to the key: the store writes its current
    /// state whenever it saves, and hands out the same object until the key
    /// is set, removed or changed by another process.
    /// - Throws: ``ModelError`` naming the key and the file when the value is not such a model.
    public func model<Model: ModelObject>(_ type: Model.Type, forKey key: String) throws -> Model? {
        if let attached = lock.withLock({ attachedModels[key] }) {
            if let model = attached as? Model { return model }
        }
        guard let model = try value(type, forKey: key) else { return nil }
        lock.withLock {
            if stored[key] != nil { attachedModels[key] = model }
        }
        return model
    }

    /// The keys the store holds (not the registered defaults), in their order in the file.
    public var keys: [String] { lock.withLock { stored.keys } }

    /// Every value: the stored ones and the registered defaults of the keys not stored.
    public func dictionaryRepresentation() -> [String: ModelValue] {
        lock.withLock {
            var result = registered
            for (key, value) in stored { result[key] = value }
            return result
        }
    }

    /// The string under `key`, or `nil` when absent or not a string.
    public func string(forKey key: String) -> String? { try? value(String.self, forKey: key) }
    /// The integer under `key`, or `nil` when absent or not an integer that fits `Int`.
    public func integer(forKey key: String) -> Int? { try? value(Int.self, forKey: key) }
    /// The number under `key` (an integer too), or `nil` when absent or not a number.
    public func double(forKey key: String) -> Double? { try? value(Double.self, forKey: key) }
    /// The Boolean under `key`, or `nil` when absent or not a Boolean.
    public func bool(forKey key: String) -> Bool? { try? value(Bool.self, forKey: key) }
    /// The date under `key`, or `nil` when absent or not a date.
    public func date(forKey key: String) -> Date? { try? value(Date.self, forKey: key) }
    /// The data under `key`, or `nil` when absent or not data.
    public func data(forKey key: String) -> Data? { try? value(Data.self, forKey: key) }
    /// The URL under `key`, or `nil` when absent or not a URL.
    public func url(forKey key: String) -> URL? { try? value(URL.self, forKey: key) }
    /// The array under `key`, or `nil` when absent or not an array.
    public func array(forKey key: String) -> [ModelValue]? {
        guard case .array(let elements)? = modelValue(forKey: key) else { return nil }
        return elements
    }
    /// The dictionary under `key`, or `nil` when absent or not a dictionary.
    public func dictionary(forKey key: String) -> [String: ModelValue]? {
        guard case .object(let members)? = modelValue(forKey: key) else { return nil }
        return members.dictionary
    }
    /// The colour under `key`, or `nil` when absent or not a colour.
    public func color(forKey key: String) -> Color? { try? value(Color.self, forKey: key) }
    /// The interval under `key`, or `nil` when absent or not an interval.
    public func interval(forKey key: String) -> Interval? { try? value(Interval.self, forKey: key) }

    // MARK: - Writing

    /// Stores `value` under `key` (`nil` removes the key). A model stays
    /// attached to the key: the store writes its current state when it saves.
    public func set<Value: ModelValueConvertible>(_ value: Value?, forKey key: String) {
        guard let value else {
            removeValue(forKey: key)
            return
        }
        let encoded = value.modelValue
        let model = value as? ModelObject
        change(key, to: encoded, attaching: model)
    }

    /// Removes the value stored under `key`; a registered default answers for it again.
    public func removeValue(forKey key: String) {
        change(key, to: nil, attaching: nil)
    }

    /// Sets the values that answer for keys the store does not hold. They
    /// are kept in memory only, never written to the file; registering
    /// again replaces the default of the same key.
    ///
    /// ```swift
    /// store.register(defaults: ["volume": 0.8, "name": "Guest"])
    /// ```
    public func register(defaults: [String: any ModelValueConvertible]) {
        let changes: [(String, ModelValue?, ModelValue?)] = lock.withLock {
            var changes: [(String, ModelValue?, ModelValue?)] = []
            for (key, value) in defaults {
                let new = value.modelValue
                let old = stored[key] ?? registered[key]
                registered[key] = new
                if stored[key] == nil, old != new { changes.append((key, old, new)) }
            }
            return changes
        }
        notify(changes)
    }

    /// Applies one change to the store, records it for the next save and
    /// tells observers.
    func change(_ key: String, to value: ModelValue?, attaching model: ModelObject?) {
        let (old, new) = lock.withLock { () -> (ModelValue?, ModelValue?) in
            let old = stored[key] ?? registered[key]
            if let value {
                stored[key] = value
            } else {
                _ = stored.removeValue(forKey: key)
            }
            if pendingValues.updateValue(value, forKey: key) == nil { pendingKeys.append(key) }
            attachedModels[key] = model
            return (old, stored[key] ?? registered[key])
        }
        if old != new { notify([(key, old, new)]) }
        scheduleAutosave()
    }
}
