import Foundation

extension ModelDefaults {
    /// One closure observer: of one key, or of every key.
    struct KeyObserver {
        let key: String?
        let handler: @Sendable (_ key: String, _ old: ModelValue?, _ new: ModelValue?) -> Void
    }

    /// Calls `handler` with each change of the value under `key`, as
    /// ``ModelObject/observe(_:handler:)`` does for a model: the change's
    /// `oldValue` and `newValue` are ``ModelValue``s, `nil` where the key has
    /// none. A change is a value set or removed here, a registered default
    /// that answers for it, or another process's change seen on reloading.
    /// The handler runs on the thread that made the change, after the
    /// store's lock is released.
    ///
    /// ```swift
    /// let token = store.observe("volume") { change in print(change) }
    /// store.set(0.3, forKey: "volume")   // volume: 0.8 → 0.3
    /// ```
    /// - Returns: the token; the observer stops when it is cancelled or released.
    public func observe(_ key: String, handler: @escaping @Sendable (ModelChange) -> Void) -> ModelObservation {
        addObserver(KeyObserver(key: key) { key, old, new in
            handler(ModelChange(key: key, oldValue: old, newValue: new))
        })
    }

    /// Calls `handler` with the old and new value each time the value under
    /// `key` changes: the two-argument form of ``observe(_:handler:)-(String,_)``.
    ///
    /// ```swift
    /// let token = store.observe("volume") { old, new in print(old as Any, new as Any) }
    /// ```
    public func observe(
        _ key: String, _ handler: @escaping @Sendable (_ old: ModelValue?, _ new: ModelValue?) -> Void
    ) -> ModelObservation {
        addObserver(KeyObserver(key: key) { _, old, new in handler(old, new) })
    }

    /// Calls `handler` with every change of any key.
    public func observeAll(handler: @escaping @Sendable (ModelChange) -> Void) -> ModelObservation {
        addObserver(KeyObserver(key: nil) { key, old, new in
            handler(ModelChange(key: key, oldValue: old, newValue: new))
        })
    }

    /// Calls `handler` with the key, old and new value of every change.
    public func observeAll(
        _ handler: @escaping @Sendable (_ key: String, _ old: ModelValue?, _ new: ModelValue?) -> Void
    ) -> ModelObservation {
        addObserver(KeyObserver(key: nil, handler: handler))
    }

    /// Calls `handler` with each change of a typed key, its values typed: each
    /// is what the key reads as (``subscript(_:)``'s rule) before and after.
    ///
    /// ```swift
    /// let token = store.observe(.volume) { change in print(change.newValue as! Int) }
    /// ```
    public func observe<Value: ModelValueConvertible>(
        _ key: Key<Value>, handler: @escaping @Sendable (ModelChange) -> Void
    ) -> ModelObservation {
        let forward = UncheckedSendable { [unowned self] (old: ModelValue?, new: ModelValue?) in
            handler(ModelChange(key: key.name, oldValue: resolved(key, storedValue: old), newValue: resolved(key, storedValue: new)))
        }
        return observe(key.name) { old, new in forward.value(old, new) }
    }

    /// Calls `handler` with the old and new value of a typed key each time it
    /// changes, each what the key reads as (``subscript(_:)``'s rule).
    public func observe<Value: ModelValueConvertible>(
        _ key: Key<Value>, _ handler: @escaping @Sendable (_ old: Value, _ new: Value) -> Void
    ) -> ModelObservation {
        // Made here, where the type is known; the observer only calls it.
        let forward = UncheckedSendable { [unowned self] (old: ModelValue?, new: ModelValue?) in
            handler(resolved(key, storedValue: old), resolved(key, storedValue: new))
        }
        return observe(key.name) { old, new in forward.value(old, new) }
    }

    /// The keys that change from now on, as an asynchronous sequence; it ends
    /// when the task iterating it is cancelled.
    ///
    /// ```swift
    /// for await key in store.changedKeys() { print("changed:", key) }
    /// ```
    public func changedKeys() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .unbounded)
        let id = lock.withLock {
            nextObserverID += 1
            streams[nextObserverID] = continuation
            return nextObserverID
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.lock.withLock { self.streams.removeValue(forKey: id) }
        }
        return stream
    }

    private func addObserver(_ observer: KeyObserver) -> ModelObservation {
        let id = lock.withLock {
            nextObserverID += 1
            observers[nextObserverID] = observer
            return nextObserverID
        }
        return ModelObservation { [weak self] in
            guard let self else { return }
            _ = self.lock.withLock { self.observers.removeValue(forKey: id) }
        }
    }

    /// Tells observers and streams of `changes`, outside the lock.
    func notify(_ changes: [(String, ModelValue?, ModelValue?)]) {
        guard !changes.isEmpty else { return }
        // In the order they were added.
        let (observers, streams) = lock.withLock {
            (self.observers.sorted { $0.key < $1.key }.map(\.value), self.streams.sorted { $0.key < $1.key }.map(\.value))
        }
        for (key, old, new) in changes where old != new {
            for observer in observers where observer.key == nil || observer.key == key {
                observer.handler(key, old, new)
            }
            for stream in streams { stream.yield(key) }
        }
    }
}
