import Observation

/// One object's observation bookkeeping: the registrar that
/// `withObservationTracking` and SwiftUI use, closure observers by key, and
/// streams of changed keys.
///
/// `@unchecked Sendable`: everything but the registrar (which guards itself)
/// is only touched while the object's lock is held.
@usableFromInline
final class ObservationCenter: @unchecked Sendable {
    @usableFromInline let registrar = ObservationRegistrar()

    struct Observer {
        let id: Int
        /// The keys observed; `nil` for every key.
        let keys: Set<String>?
        let handler: (ModelChange) -> Void
    }

    // Only touched under the object's lock, which already orders every
    // access: the runtime's exclusivity checks would cost more than a
    // tracked change itself.
    @exclusivity(unchecked) var observers: [Observer] = []
    @exclusivity(unchecked) var streams: [Int: AsyncStream<String>.Continuation] = [:]
    @exclusivity(unchecked) var nextID = 0
    /// The ``ModelHistory`` trackers recording this object's changes, told
    /// of each change while the lock is held (see `HistoryTracker`).
    @exclusivity(unchecked) var recorders: [HistoryTracker] = []

    @usableFromInline init() {}

    /// Whether a closure observer, a stream or a history listens (the
    /// registrar's trackers are told of every change regardless).
    @usableFromInline var hasListeners: Bool { !observers.isEmpty || !streams.isEmpty || !recorders.isEmpty }

    /// Whether some closure observer wants to hear of `key`.
    func observes(_ key: String) -> Bool {
        observers.contains { $0.keys == nil || $0.keys!.contains(key) }
    }

    func add(keys: Set<String>?, handler: @escaping (ModelChange) -> Void) -> Int {
        nextID += 1
        observers.append(Observer(id: nextID, keys: keys, handler: handler))
        return nextID
    }

    func addStream(_ continuation: AsyncStream<String>.Continuation) -> Int {
        nextID += 1
        streams[nextID] = continuation
        return nextID
    }

    func remove(_ id: Int) {
        observers.removeAll { $0.id == id }
        streams[id]?.finish()
        streams[id] = nil
    }
}
