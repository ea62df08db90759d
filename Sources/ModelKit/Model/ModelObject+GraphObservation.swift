import Foundation

/// One change somewhere in a graph of models: which object, which key.
public struct ModelGraphChange: Sendable, CustomStringConvertible {
    /// The model that changed.
    public let object: ModelObject
    /// The saved or extensible key that changed on it.
    public let key: String

    /// A readable description.
    public var description: String { "\(type(of: object)).\(key)" }
}

extension ModelObject {
    /// A stream of the changes anywhere in this object's graph: this object
    /// and every model reachable from it through saved properties, followed
    /// as the graph changes (a model added to a list is observed from then
    /// on; one removed is not). It ends when the task iterating it is
    /// cancelled or the stream is released.
    ///
    /// ```swift
    /// for await change in folder.graphChanges() {
    ///     print(change)   // Note.title
    /// }
    /// ```
    public final func graphChanges() -> AsyncStream<ModelGraphChange> {
        let (stream, continuation) = AsyncStream<ModelGraphChange>.makeStream(bufferingPolicy: .unbounded)
        let watcher = GraphWatcher(root: self, continuation: continuation)
        continuation.onTermination = { _ in watcher.stop() }
        watcher.refresh()
        return stream
    }
}

/// Observes every model of a graph and keeps the set up to date: after a
/// change of a key that may hold models, the graph is walked again from the
/// root, new models are observed and models no longer reachable are let go.
final class GraphWatcher: @unchecked Sendable {
    private weak var root: ModelObject?
    private let continuation: AsyncStream<ModelGraphChange>.Continuation
    private let lock = NSLock()
    private var tokens: [ObjectIdentifier: ModelObservation] = [:]
    private var stopped = false

    init(root: ModelObject, continuation: AsyncStream<ModelGraphChange>.Continuation) {
        self.root = root
        self.continuation = continuation
    }

    /// Observes the models reachable from the root now, and only those.
    func refresh() {
        guard let root else { return }
        var reachable: [ObjectIdentifier: ModelObject] = [:]
        root.walkGraph(from: root) { reachable[ObjectIdentifier($0)] = $0 }
        lock.lock()
        guard !stopped else {
            lock.unlock()
            return
        }
        let gone = tokens.filter { reachable[$0.key] == nil }
        for key in gone.keys { tokens[key] = nil }
        let new = reachable.filter { tokens[$0.key] == nil }
        lock.unlock()
        for token in gone.values { token.cancel() }
        var added: [ObjectIdentifier: ModelObservation] = [:]
        for (id, model) in new {
            added[id] = model.observe(keys: nil) { [weak self, weak model] change in
                guard let self, let model else { return }
                self.continuation.yield(ModelGraphChange(object: model, key: change.key))
                if let offset = model.layout.offset(forKey: change.key), model.layout.slotMayHoldModels[offset] {
                    self.refresh()
                }
            }
        }
        lock.lock()
        if stopped {
            lock.unlock()
            for token in added.values { token.cancel() }
            return
        }
        tokens.merge(added) { old, _ in old }
        lock.unlock()
    }

    func stop() {
        lock.lock()
        stopped = true
        let all = tokens
        tokens = [:]
        lock.unlock()
        for token in all.values { token.cancel() }
    }
}

extension ModelObject {
    /// Calls `visit` for `start` and every model reachable from it, once each, without recursion.
    func walkGraph(from start: ModelObject, _ visit: (ModelObject) -> Void) {
        var pending: [ModelObject] = [start]
        var seen = IdentitySet(start)
        while let object = pending.popLast() {
            visit(object)
            let layout = object.layout
            let values = object.withState { $0.snapshotValues() }
            for offset in layout.modelSlots {
                layout.slots[offset].codec.forEachModel(in: values[offset]) { child in
                    if seen.insert(child) { pending.append(child) }
                }
            }
        }
    }
}
