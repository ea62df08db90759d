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
/// try history.undo()
/// print(note.title, note.tags)     // Groceries ["home"]
/// try history.undo()
/// try history.undo()
/// print(note.title, note.tags)     // Untitled []
/// try history.redo()
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
/// ## Undoing only what the step did
///
/// A step is undone only where the models still hold what it left, and
/// redone only where they hold what it found: a property it set must still
/// have the value it set, an array must still have, at the same place, the
/// very elements the step inserted (compared by their bytes, so the same
/// string or the same model object), an extensible property the value it
/// set. A model can hold something else when it changed while the history
/// did not track it (after it left the graph, before it came back with an
/// undo), or when changes on several threads ended in another order than
/// they were made. Then ``undo()`` and ``redo()`` throw a ``ModelError``
/// (``ModelError/Code/historyConflict``) naming the property, change
/// nothing, and keep the step where it was: every edit of a step is checked
/// (each against what the edits before it leave) before any is made. They
/// never remove or overwrite an element or a value that the step did not
/// record. ``removeAll()`` forgets a step that no longer fits.
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
/// another thread makes meanwhile is a step of its own. Each edit is checked
/// again under its model's lock as it is made; should another thread change
/// a property between the step's checks and its edit, what the step had
/// changed is taken back and the undo throws.
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
    /// How many steps have been kept: a redo that fails goes back to the
    /// steps to redo only if no new step cleared them meanwhile.
    private var commits = 0
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
    ///
    /// The step is taken back only where the models still hold what it
    /// left: each property it set still has the value it set, each array
    /// still has the elements it inserted, at the same place. Every edit
    /// of the step is checked before any is made, so the step is taken
    /// back whole or not at all.
    ///
    /// ```swift
    /// let root = Note(), child = Note()
    /// let history = ModelHistory(tracking: root)
    /// root.children = [child]
    /// child.tags.append("a")
    /// root.children = []               // child is no longer tracked
    /// child.tags.insert("x", at: 0)    // so this is not recorded
    /// try history.undo()               // child is back in root.children
    /// do {
    ///     try history.undo()           // would remove "x", which it never added
    /// } catch let error as ModelError where error.code == .historyConflict {
    ///     print(error)
    ///     // children[0].tags: this Note changed since the step was recorded, so the step cannot be
    ///     // undone: it no longer holds the element the step inserted at index 0 (["a"]),
    ///     // but ["x"]; nothing was changed
    /// }
    /// print(child.tags)                // ["x", "a"]
    /// ```
    /// - Throws: ``ModelError`` (``ModelError/Code/historyConflict``) when a
    ///   model changed since the step in a way that the history did not
    ///   record (while it was not reachable from ``model``, say), naming the
    ///   property; the models and the history are then left as they were,
    ///   the step still the one to undo (``removeAll()`` forgets it).
    public func undo() throws {
        try step(undoing: true)
    }

    /// Makes the last undone step again. Does nothing when there is none
    /// (see ``canRedo``); a change after an ``undo()`` leaves none.
    ///
    /// As ``undo()``, the step is made again only where the models still
    /// hold what the undo left, whole or not at all.
    /// - Throws: ``ModelError`` (``ModelError/Code/historyConflict``) when a
    ///   model changed since the undo in a way that the history did not
    ///   record, naming the property; the models and the history are then
    ///   left as they were.
    public func redo() throws {
        try step(undoing: false)
    }

    /// Takes the last step to undo (or redo), applies it, and moves it to
    /// the other list; puts it back where it was when it does not apply.
    private func step(undoing: Bool) throws {
        guard let (step, index, commitsBefore) = locked({ () -> (HistoryStep, Int, Int)? in
            if undoing {
                guard let step = undoSteps.popLast() else { return nil }
                return (step, undoSteps.count, commits)
            }
            guard let step = redoSteps.popLast() else { return nil }
            return (step, redoSteps.count, commits)
        }) else { return }
        do {
            try apply(step, undoing: undoing)
        } catch let conflict {
            // Back where it was (before steps other threads ended meanwhile).
            locked {
                if undoing {
                    undoSteps.insert(step, at: min(index, undoSteps.count))
                    trimToLimit()
                } else if commits == commitsBefore {
                    redoSteps.insert(step, at: min(index, redoSteps.count))
                }
            }
            var error = conflict.error
            if let path = keyPath(to: conflict.object) {
                error.keyPath = ModelKeyPath(path + error.keyPath.components)
            }
            throw error
        }
        locked {
            if undoing {
                redoSteps.append(step)
            } else {
                undoSteps.append(step)
                trimToLimit()
            }
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
            commits += 1
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

    private func apply(_ step: HistoryStep, undoing: Bool) throws(HistoryConflict) {
        let thread = HistoryThreadState.current
        thread.applying.append(ObjectIdentifier(self))
        defer {
            thread.applying.removeLast()
            if step.touchesModels || locked({ needsWalk }) { refreshGraph() }
        }
        try HistoryThreadState.deliveringOnce { () throws(HistoryConflict) in try step.apply(undoing: undoing) }
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
