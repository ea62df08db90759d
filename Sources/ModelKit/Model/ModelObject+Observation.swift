import Observation
import Synchronization

/// A `ModelObject` is `Observable`: `withObservationTracking` (and SwiftUI)
/// see reads and changes of every `@Saved` property and every extensible
/// property, key by key.
///
/// ```swift
/// let note = Note()
/// withObservationTracking {
///     _ = note.title
/// } onChange: {
///     print("title changed")
/// }
/// note.count = 3          // nothing: count was not read
/// note.title = "Changed"  // prints "title changed"
/// ```
extension ModelObject: Observable {}

/// One change of one key: what ``ModelObject/observe(_:handler:)`` observers
/// receive.
///
/// For a saved property the values are the property's Swift values, with
/// an optional unwrapped: `nil` when it holds none, else the value it holds
/// (`newValue as? String`, never `Optional(Optional("hello"))`); for an
/// extensible property its ``ModelValue`` (`nil` when absent); for a key
/// declared in ``ModelObject/dependentKeys`` both are `nil`.
///
/// Its description shows the values as they would be written in Swift or
/// JSON: `notes: nil → "hello"`, `count: 2 → 3`, `tags: [] → ["home"]`.
public struct ModelChange: CustomStringConvertible {
    /// The key, or the key path observed (`"child.title"`).
    public let key: String
    /// The value before the change.
    public let oldValue: Any?
    /// The value after the change.
    public let newValue: Any?
    /// The slot of a saved key, whose tracking key path is cached.
    let slot: Int?
    /// Whether the change added a key to the bag or removed one, which a
    /// view of the whole bag must hear of.
    let changesBagKeys: Bool

    /// A change of `key` from `oldValue` to `newValue`.
    public init(key: String, oldValue: Any?, newValue: Any?) {
        self.init(key: key, oldValue: oldValue, newValue: newValue, slot: nil)
    }

    init(key: String, oldValue: Any?, newValue: Any?, slot: Int?, changesBagKeys: Bool = false) {
        self.key = key
        self.oldValue = oldValue.flatMap(ModelObject.unwrapped)
        self.newValue = newValue.flatMap(ModelObject.unwrapped)
        self.slot = slot
        self.changesBagKeys = changesBagKeys
    }

    /// `changes` with each key's changes made one: the first one's old
    /// value and the last one's new value, at the first one's place, as one
    /// undo or redo step reaches observers. A key that ends as it began
    /// (values known and equal) is left out.
    static func coalesced(_ changes: [ModelChange], layout: ClassLayout) -> [ModelChange] {
        guard changes.count > 1 else { return changes }
        var order: [String] = []
        var merged: [String: ModelChange] = [:]
        for change in changes {
            guard let first = merged[change.key] else {
                order.append(change.key)
                merged[change.key] = change
                continue
            }
            merged[change.key] = ModelChange(
                key: change.key, oldValue: first.oldValue, newValue: change.newValue, slot: first.slot ?? change.slot,
                changesBagKeys: first.changesBagKeys || change.changesBagKeys)
        }
        return order.compactMap { key in
            let change = merged[key]!
            guard let old = change.oldValue, let new = change.newValue else { return change }
            let same: Bool =
                if let slot = change.slot ?? layout.offset(forKey: key) {
                    layout.slots[slot].codec.isEqual(old, new)
                } else if let old = old as? ModelValue, let new = new as? ModelValue {
                    old == new
                } else {
                    false
                }
            return same ? nil : change
        }
    }

    /// The change of an array property as insertions and removals with their
    /// offsets, like KVO's to-many changes; computed only when asked for.
    ///
    /// ```swift
    /// let token = note.observe("tags") { change in
    ///     print(change.difference(of: String.self)!.insertions.count)
    /// }
    /// note.tags.append("new")   // prints 1
    /// ```
    /// - Returns: `nil` when the values are not arrays of `Element`.
    public func difference<Element: Equatable>(of type: Element.Type) -> CollectionDifference<Element>? {
        guard let new = newValue as? [Element] else { return nil }
        let old = oldValue as? [Element] ?? []
        return new.difference(from: old)
    }

    /// The key and the values before and after, as written in Swift or JSON:
    /// `notes: nil → "hello"`.
    public var description: String {
        "\(key): \(Self.describe(oldValue)) → \(Self.describe(newValue))"
    }

    /// `value` as a user would write it: `nil`, strings quoted, convertible
    /// values in their JSON-like form (``ModelValue/description``), models
    /// as their class and saved values.
    static func describe(_ value: Any?) -> String {
        switch value {
        case .none: return "nil"
        case let model as ModelObject: return model.description
        case let models as [ModelObject]: return "[" + models.map(\.description).joined(separator: ", ") + "]"
        case let modelValue as ModelValue: return modelValue.description
        case let string as String: return ModelValue.quoted(string)
        case let convertible as any ModelValueConvertible: return convertible.modelValue.description
        case .some(let other): return "\(other)"
        }
    }
}

/// A token for an observer: the observer stops when it is cancelled or
/// released. Keep it as long as you want to observe.
public final class ModelObservation: @unchecked Sendable {
    private let cancellation: () -> Void
    private var isCancelled = false
    private let lock = ModelStorage.make(layout: ClassLayout.empty) { _ in }

    init(cancellation: @escaping () -> Void) {
        self.cancellation = cancellation
    }

    /// Stops the observer; later changes are not reported. Calling it again does nothing.
    public func cancel() {
        lock.lock()
        let wasCancelled = isCancelled
        isCancelled = true
        lock.unlock()
        if !wasCancelled { cancellation() }
    }

    deinit {
        cancel()
        lock.destroy()
    }
}

extension ModelObject {
    /// The key path observation tracking records for `key` (a saved key or
    /// an extensible property's key): one per key, equal wherever it is made.
    static func observationKeyPath(_ key: String) -> KeyPath<ModelObject, Int> {
        \ModelObject.[_observedKey: key]
    }

    /// Stands for a key in observation key paths; holds nothing.
    final subscript(_observedKey key: String) -> Int { 0 }

    /// The observation key path of the bag's set of keys, read by
    /// ``extensibleProperties`` and changed when a key is added or removed
    /// (no bag key can spell it: it is another subscript). A key path is
    /// immutable once made, as `ClassLayout.observationKeyPaths` are.
    nonisolated(unsafe) static let bagKeysKeyPath: KeyPath<ModelObject, Int> = \ModelObject.[_observedBagKeys: 0]

    /// Stands for the bag's set of keys in observation key paths; holds nothing.
    final subscript(_observedBagKeys marker: Int) -> Int { 0 }

    /// The object's observation center, created on first use.
    final func observationCenter() -> ObservationCenter {
        withState { state in
            if let center = state.observation { return center }
            let center = ObservationCenter()
            state.observation = center
            return center
        }
    }

    // MARK: - Closure observers

    /// Calls `handler` after every real change of `key`, with the old and the
    /// new value, until the returned token is cancelled or released.
    ///
    /// `key` is a saved key, an extensible property's key, a key declared in
    /// ``dependentKeys``, or a dotted path through models (`"child.title"`,
    /// `"children.2.title"`), which follows whatever object is there now when
    /// an intermediate model is replaced. Setting an equal value reports
    /// nothing. The handler runs on the thread that made the change, after
    /// ModelKit has released the object's lock, so it may read and write the
    /// object; a change made inside ``withLock(_:)`` is reported when the
    /// block returns. ``update(from:)-([String:Any])`` reports each changed key once, after
    /// the whole update.
    ///
    /// ```swift
    /// let token = note.observe("title") { change in print(change) }
    /// note.title = "Milk"      // prints title: "Untitled" → "Milk"
    /// note.title = "Milk"      // nothing: the same value
    /// token.cancel()
    /// ```
    /// - Returns: the token that keeps the observer alive.
    public final func observe(_ key: String, handler: @escaping (ModelChange) -> Void) -> ModelObservation {
        let parts = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if parts.count > 1 { return NestedObserver.start(on: self, path: parts, handler: handler) }
        return observe(keys: [key], handler: handler)
    }

    /// Calls `handler` after every real change of any of `keys`, or of any
    /// key at all when `keys` is `nil`; see ``observe(_:handler:)``.
    public final func observe(keys: Set<String>?, handler: @escaping (ModelChange) -> Void) -> ModelObservation {
        let center = observationCenter()
        let id = withState { _ in center.add(keys: keys, handler: handler) }
        return ModelObservation { [weak self] in
            guard let self else { return }
            self.withState { _ in center.remove(id) }
        }
    }

    /// A stream of the keys that change, one element per change, for use
    /// from `async` code; it ends when the task iterating it is cancelled.
    ///
    /// ```swift
    /// for await key in note.keyChanges() { print("changed:", key) }
    /// ```
    public final func keyChanges() -> AsyncStream<String> {
        let center = observationCenter()
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .unbounded)
        let id = withState { _ in center.addStream(continuation) }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            self.withState { _ in center.remove(id) }
        }
        return stream
    }

    // MARK: - Delivery

    /// Records the change of `key` for observers, if anybody listens. Call
    /// with the lock held; deliver with `deliverChanges()` once it is released.
    final func queueChange(
        _ key: String, slot: Int? = nil, old: @autoclosure () -> Any?, new: @autoclosure () -> Any?,
        in state: inout ModelState
    ) {
        guard let center = state.observation else { return }
        if !center.recorders.isEmpty {
            recordForHistory(key, slot: slot, old: old, new: new, recorders: center.recorders, in: &state)
        }
        let wantsValues = center.observes(key)
        var oldValue = wantsValues ? old() : nil
        var newValue = wantsValues ? new() : nil
        // A bag key (no slot, not saved) added or removed changes the bag's key set.
        let changesBagKeys =
            slot == nil && layout.offset(forKey: key) == nil
            && ((wantsValues ? oldValue : old()) == nil) != ((wantsValues ? newValue : new()) == nil)
        if wantsValues, let slot, !layout.weakSlots.isEmpty, layout.weakSlots.contains(slot) {
            // A weak reference's cell holds a box: observers get the model.
            if let box = oldValue as? any WeakReferenceValue { oldValue = box.target }
            if let box = newValue as? any WeakReferenceValue { newValue = box.target }
        }
        state.pendingChanges.append(
            ModelChange(key: key, oldValue: oldValue, newValue: newValue, slot: slot, changesBagKeys: changesBagKeys))
        for dependent in layout.affectedKeys[key] ?? [] {
            state.pendingChanges.append(ModelChange(key: dependent, oldValue: nil, newValue: nil))
        }
    }

    /// Tells observation tracking that the slot changed, when nobody else
    /// listens: the registrar alone, without queueing.
    @usableFromInline
    final func _notifyTracking(_ slot: Int, _ center: Unmanaged<ObservationCenter>) {
        // Borrowed, not retained: layouts and their key paths live as long
        // as the process, and the center as long as the object.
        let layout = Unmanaged.passUnretained(self.layout)
        layout._withUnsafeGuaranteedRef { layout in
            center._withUnsafeGuaranteedRef { center in
                Unmanaged.passUnretained(layout.observationKeyPaths[slot])._withUnsafeGuaranteedRef { keyPath in
                    center.registrar.willSet(self, keyPath: keyPath)
                    center.registrar.didSet(self, keyPath: keyPath)
                }
                guard !layout.affectedKeyPaths[slot].isEmpty else { return }
                notifyDependents(slot, center)
            }
        }
    }

    /// Tells observation tracking that the keys depending on the slot changed.
    private func notifyDependents(_ slot: Int, _ center: ObservationCenter) {
        for dependentPath in layout.affectedKeyPaths[slot] {
            center.registrar.willSet(self, keyPath: dependentPath)
            center.registrar.didSet(self, keyPath: dependentPath)
        }
    }

    /// Tells trackers, observers and streams of the changes queued, unless
    /// this thread still holds the object's lock (inside `withLock`, or an
    /// in-place mutation), in which case the outermost release delivers them.
    ///
    /// While this thread applies an undo or redo step, the changes wait for
    /// the step's end (``HistoryThreadState/deferDelivery(of:)``), which
    /// delivers them `coalescing` each key's changes into one.
    @usableFromInline
    final func deliverChanges(coalescing: Bool = false) {
        if HistoryThreadState.deferringThreads.load(ordering: .relaxed) > 0, HistoryThreadState.deferDelivery(of: self) {
            return
        }
        let (queued, center, recorded) = withState { state -> ([ModelChange], ObservationCenter?, Bool) in
            guard state.lockHolds == 0, !state.pendingChanges.isEmpty else { return ([], nil, false) }
            let changes = state.pendingChanges
            state.pendingChanges = []
            return (changes, state.observation, state.observation?.recorders.isEmpty == false)
        }
        let changes = coalescing ? ModelChange.coalesced(queued, layout: layout) : queued
        // A history step ends with the change that makes it, before
        // observers run (what they change in turn is a step of its own).
        if recorded { HistoryThreadState.commitIfIdle() }
        guard let center, !changes.isEmpty else { return }
        for change in changes {
            let keyPath = change.slot.map { layout.observationKeyPaths[$0] } ?? Self.observationKeyPath(change.key)
            center.registrar.willSet(self, keyPath: keyPath)
            center.registrar.didSet(self, keyPath: keyPath)
        }
        if changes.contains(where: \.changesBagKeys) {
            center.registrar.willSet(self, keyPath: Self.bagKeysKeyPath)
            center.registrar.didSet(self, keyPath: Self.bagKeysKeyPath)
        }
        let (observers, streams) = withState { _ in (center.observers, Array(center.streams.values)) }
        for change in changes {
            for observer in observers where observer.keys == nil || observer.keys!.contains(change.key) {
                observer.handler(change)
            }
            for stream in streams { stream.yield(change.key) }
        }
    }
}

/// Follows a dotted key path: observes the first key on the root, and the
/// rest on whatever model is there now (a model property, or an element of a
/// list of models: `children.2.title`), starting again when it is replaced.
final class NestedObserver: @unchecked Sendable {
    private let path: [String]
    private let handler: (ModelChange) -> Void
    private var head: ModelObservation?
    private var tail: ModelObservation?
    /// The intermediate model observed now.
    private weak var current: ModelObject?
    private let lock = ModelStorage.make(layout: ClassLayout.empty) { _ in }

    private init(path: [String], handler: @escaping (ModelChange) -> Void) {
        self.path = path
        self.handler = handler
    }

    deinit {
        lock.destroy()
    }

    static func start(on root: ModelObject, path: [String], handler: @escaping (ModelChange) -> Void)
        -> ModelObservation
    {
        let observer = NestedObserver(path: path, handler: handler)
        observer.attach(to: root)
        observer.head = root.observe(path[0]) { [weak observer, weak root] _ in
            guard let observer, let root else { return }
            observer.rootChanged(root)
        }
        return ModelObservation { observer.stop() }
    }

    private var fullKey: String { path.joined(separator: ".") }

    /// The intermediate model the path goes through in `root`, and the rest of the path.
    private func intermediate(in root: ModelObject) -> (model: ModelObject?, rest: String) {
        let first = root.value(forKey: path[0])
        if path.count > 2, let index = Int(path[1]), let list = first as? [ModelObject] {
            return (index >= 0 && index < list.count ? list[index] : nil, path.dropFirst(2).joined(separator: "."))
        }
        return (first as? ModelObject, path.dropFirst().joined(separator: "."))
    }

    private func rootChanged(_ root: ModelObject) {
        let (replacement, rest) = intermediate(in: root)
        lock.lock()
        let previous = current
        lock.unlock()
        guard replacement !== previous else { return }
        let old = previous?.value(forKey: rest)
        let new = replacement?.value(forKey: rest)
        attach(to: root)
        if "\(old as Any)" != "\(new as Any)" {
            handler(ModelChange(key: fullKey, oldValue: old, newValue: new))
        }
    }

    /// Observes the rest of the path on the intermediate model now in `root`.
    private func attach(to root: ModelObject) {
        let (model, rest) = intermediate(in: root)
        let fullKey = self.fullKey
        let handler = self.handler
        let token = model?.observe(rest) { change in
            handler(ModelChange(key: fullKey, oldValue: change.oldValue, newValue: change.newValue))
        }
        lock.lock()
        let previous = tail
        tail = token
        current = model
        lock.unlock()
        previous?.cancel()
    }

    private func stop() {
        lock.lock()
        let (head, tail) = (self.head, self.tail)
        self.head = nil
        self.tail = nil
        lock.unlock()
        head?.cancel()
        tail?.cancel()
    }
}
