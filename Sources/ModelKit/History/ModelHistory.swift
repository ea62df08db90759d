import Foundation

/// Undo and redo for a model and every model it reaches.
///
/// A history records each change of the model it tracks, and of every
/// model reachable from it through saved properties (models in optionals,
/// arrays, dictionaries and sets, added later too; a model that leaves the
/// graph is no longer tracked; weak references are not followed), as steps
/// that ``undo()`` and ``redo()`` take back and make again.
///
/// ```swift
/// let note = Note()
/// let history = ModelHistory(tracking: note)
/// note.title = "Groceries"
/// note.tags.append("home")
/// history.group("Tidy") {
///     note.title = "Shopping"
///     note.tags.removeAll()
/// }
/// print(history.undoName ?? "-")   // Tidy
/// history.undo()
/// print(note.title, note.tags)     // Groceries ["home"]
/// history.undo()
/// history.undo()
/// print(note.title, note.tags)     // Untitled []
/// history.redo()
/// print(note.title, history.canRedo) // Groceries true
/// ```
///
/// ## Steps
///
/// Each top-level change is one step: an assignment, an in-place mutation
/// (`tags.append(x)`, `count += 1`), ``ModelObject/update(from:)-([String:Any])``,
/// ``ModelObject/setValue(_:forKey:)``, a change of an extensible property,
/// ``ModelObject/revertChanges()``, an applied ``JSONPatch`` or
/// ``JSONMergePatch``, or a whole ``ModelObject/withLock(_:)`` block,
/// whatever models it changes. ``group(_:_:)`` makes one named step of
/// everything its body changes; other steps have no name. A change that
/// leaves every value as it was (setting an equal value, sorting a sorted
/// array) makes no step. A new step clears the steps that ``redo()`` would
/// make; ``limit`` bounds how many steps ``undo()`` can take back.
///
/// ## Undoing is changing
///
/// ``undo()`` and ``redo()`` set the recorded values back as the app would:
/// observers and streams are told, `Observable` trackers see the keys, and
/// ``ModelObject/hasChanges`` and ``ModelObject/changedKeys`` follow. The
/// history is independent of that change record: ``ModelObject/clearChanges()``
/// leaves the steps alone, so undoing past a `clearChanges()` makes the model
/// changed again (its ``ModelObject/changes`` then show the values it had at
/// the `clearChanges()`), and a saved and cleared model can still be undone.
/// Models in arrays come back as the same objects, and an element added by an
/// in-place mutation is removed in place by its undo.
///
/// ## What a step keeps
///
/// A step keeps the models it changed and, for each change, what it needs:
/// the property's value before and after an assignment, the removed and the
/// inserted elements of an array's in-place mutation (one element for an
/// append, never the whole array), the old and new value of an extensible
/// property. To tell what an in-place mutation of an array changed, the
/// history keeps one copy of each tracked array and compares its bytes with
/// the array after the mutation, so the mutation stays in place: an append
/// costs a comparison of the array's bytes, and 100,000 appends followed by
/// 100,000 undos keep 100,000 elements. In-place mutations of other values
/// (a dictionary, a set, a string) keep the value before and after.
///
/// ## Threads
///
/// `ModelHistory` is `@unchecked Sendable`: its steps sit behind a lock, and
/// each tracked model's record of its last values behind that model's lock.
/// Any thread may change tracked models and call ``undo()`` and ``redo()``.
/// A change is recorded by the thread that makes it, while it holds the
/// model's lock, and becomes a step when that thread's top-level change ends,
/// so concurrent changes on several threads are separate steps, kept in the
/// order they end. ``group(_:_:)`` collects the changes of its own thread only.
/// ``undo()`` takes the last step and sets its values back model by model,
/// never holding the history's lock while it touches a model; a change that
/// another thread makes meanwhile is a step of its own, and an array another
/// thread has shortened meanwhile is left as it is rather than trapping.
/// Changes that the undo itself causes, and those that observers make while
/// it runs on its thread, are not recorded. Call ``undo()`` and ``redo()``
/// outside ``group(_:_:)``.
public final class ModelHistory: @unchecked Sendable {
    /// The model the history tracks, with everything it reaches.
    public let model: ModelObject

    private let lock = NSLock()
    /// Serialises walks of the graph, which take the models' locks.
    private let walkLock = NSLock()
    private var undoSteps: [HistoryStep] = []
    private var redoSteps: [HistoryStep] = []
    private var stepLimit = Int.max
    private var needsWalk = false
    /// The tracked models and their trackers, by identity.
    private var tracked: [ObjectIdentifier: (model: Weak, tracker: HistoryTracker)] = [:]

    private struct Weak {
        weak var object: ModelObject?
    }

    /// Starts recording the changes of `model` and of every model it
    /// reaches through saved properties. The history starts empty.
    /// - Parameter model: the root of the graph to track.
    public init(tracking model: ModelObject) {
        self.model = model
        refreshGraph()
    }

    deinit {
        for (_, entry) in tracked { entry.model.object.map { detach($0, entry.tracker) } }
    }

    // MARK: - State

    /// Whether ``undo()`` has a step to take back.
    public var canUndo: Bool { locked { !undoSteps.isEmpty } }

    /// Whether ``redo()`` has a step to make again.
    public var canRedo: Bool { locked { !redoSteps.isEmpty } }

    /// The name of the step ``undo()`` would take back: the name given to
    /// ``group(_:_:)``, or `nil` for any other step and when there is none.
    public var undoName: String? { locked { undoSteps.last?.name } }

    /// The name of the step ``redo()`` would make again, as ``undoName``.
    public var redoName: String? { locked { redoSteps.last?.name } }

    /// How many steps ``undo()`` can take back; older steps are forgotten.
    /// Unlimited (`Int.max`) by default; lowering it forgets the oldest
    /// steps at once. Values below 0 count as 0.
    public var limit: Int {
        get { locked { stepLimit } }
        set {
            locked {
                stepLimit = max(0, newValue)
                trimToLimit()
            }
        }
    }

    /// Forgets every step, to undo and to redo. The models stay tracked.
    public func removeAll() {
        locked {
            undoSteps.removeAll()
            redoSteps.removeAll()
        }
    }

    // MARK: - Undo and redo

    /// Takes back the last step: each value it changed is set back to what
    /// it was, in reverse order, as a change of its model. Does nothing when
    /// there is no step (see ``canUndo``).
    public func undo() {
        guard let step = locked({ undoSteps.popLast() }) else { return }
        apply(step, undoing: true)
        locked { redoSteps.append(step) }
    }

    /// Makes the last undone step again. Does nothing when there is none
    /// (see ``canRedo``); a change after an ``undo()`` leaves none.
    public func redo() {
        guard let step = locked({ redoSteps.popLast() }) else { return }
        apply(step, undoing: false)
        locked {
            undoSteps.append(step)
            trimToLimit()
        }
    }

    /// Runs `body` and makes everything it changes in tracked models, on
    /// this thread, one step named `name`.
    ///
    /// ```swift
    /// history.group("Rename") {
    ///     note.title = "Milk"
    ///     note.tags = ["shop"]
    /// }
    /// print(history.undoName ?? "-")   // Rename
    /// ```
    ///
    /// Groups nest: the outermost one makes the step, with its name. A body
    /// that changes nothing makes no step. When `body` throws, what it
    /// changed before throwing is still one step, so that it can be undone.
    /// - Parameters:
    ///   - name: the step's name, given by ``undoName`` and ``redoName``.
    ///   - body: the changes to make.
    /// - Throws: what `body` throws.
    public func group(_ name: String, _ body: () throws -> Void) rethrows {
        let thread = HistoryThreadState.current
        thread.beginGroup(self, name: name)
        defer {
            if let step = thread.endGroup(self) { commit(step) }
        }
        try body()
    }

    // MARK: - Recording

    /// Keeps a finished step (called by the thread that made it).
    func commit(_ open: HistoryThreadState.OpenStep) {
        guard !open.edits.isEmpty else { return }
        let step = HistoryStep(name: open.name, edits: open.edits, touchesModels: open.touchesModels)
        let walk = locked { () -> Bool in
            undoSteps.append(step)
            redoSteps.removeAll()
            trimToLimit()
            return needsWalk
        }
        if step.touchesModels || walk { refreshGraph() }
    }

    /// How many steps there are to undo and to redo.
    var stepCounts: (undo: Int, redo: Int) { locked { (undoSteps.count, redoSteps.count) } }

    /// How many values the steps keep (see `HistoryEdit.storedCount`).
    var storedCount: Int {
        locked { undoSteps.reduce(0) { $0 + $1.storedCount } + redoSteps.reduce(0) { $0 + $1.storedCount } }
    }

    private func apply(_ step: HistoryStep, undoing: Bool) {
        let thread = HistoryThreadState.current
        thread.applying.append(ObjectIdentifier(self))
        step.apply(undoing: undoing)
        thread.applying.removeLast()
        if step.touchesModels || locked({ needsWalk }) { refreshGraph() }
    }

    private func trimToLimit() {
        if undoSteps.count > stepLimit { undoSteps.removeFirst(undoSteps.count - stepLimit) }
        if redoSteps.count > stepLimit { redoSteps.removeFirst(redoSteps.count - stepLimit) }
    }

    // MARK: - The tracked graph

    /// Tracks the models reachable from the root now, and only those. A
    /// thread inside `withLock` leaves it for later: the walk takes the
    /// models' locks one by one, which must not nest inside another.
    func refreshGraph() {
        guard StackGuard.current.locksHeld == 0 else {
            locked { needsWalk = true }
            return
        }
        walkLock.lock()
        defer { walkLock.unlock() }
        locked { needsWalk = false }
        var reachable: [ObjectIdentifier: ModelObject] = [:]
        model.walkGraph(from: model) { reachable[ObjectIdentifier($0)] = $0 }
        let (gone, new) = locked { () -> ([(ModelObject?, HistoryTracker)], [ModelObject]) in
            var gone: [(ModelObject?, HistoryTracker)] = []
            for (id, entry) in tracked {
                let object = entry.model.object
                // Gone, dead, or a new object where a dead one was.
                if object == nil || reachable[id] !== object {
                    gone.append((object, entry.tracker))
                    tracked[id] = nil
                }
            }
            return (gone, reachable.filter { tracked[$0.key] == nil }.map(\.value))
        }
        for (object, tracker) in gone { object.map { detach($0, tracker) } }
        for object in new {
            let tracker = object.withState { state -> HistoryTracker in
                let tracker = HistoryTracker(history: self, state: state)
                let center = state.observation ?? ModelObject._makeObservationCenter(&state)
                center.recorders.append(tracker)
                return tracker
            }
            locked { tracked[ObjectIdentifier(object)] = (Weak(object: object), tracker) }
        }
    }

    private func detach(_ object: ModelObject, _ tracker: HistoryTracker) {
        object.withState { state in state.observation?.recorders.removeAll { $0 === tracker } }
    }

    private func locked<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
