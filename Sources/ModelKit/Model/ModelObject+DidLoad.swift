extension ModelObject {
    /// Runs `body`, one load of models (a document read, a dictionary
    /// applied, a patch), then ``didLoad()`` on the models it gave values
    /// to, children before parents: the models reachable from `roots` that
    /// `before` does not hold (`nil`: every one), and those the load edited
    /// in place (``noteEditedByLoad(_:)``).
    ///
    /// A load inside another on the same thread (a model decoded by a
    /// `Codable` value of a model being decoded, a nested model's
    /// `decoded(from:)`) runs no hooks of its own: the outermost one runs
    /// them, once per model, when everything is applied. Hooks run after
    /// the thread's load has ended, so a hook that loads something runs that
    /// load's hooks in turn. A load that throws runs none.
    ///
    /// What a hook changes in a model that the load made is not recorded
    /// as a change: a model read from a file has no changes, whatever its
    /// hook rebuilt. In a model that the load edited in place, it is.
    @inline(__always)  // lets `roots` build its array on the stack (about 380 instructions a load)
    static func loading<Result>(
        before: IdentitySet? = nil, roots: (Result) -> [ModelObject], _ body: () throws -> Result
    ) rethrows -> Result {
        let load = LoadInProgress.current
        load.depth += 1
        let result: Result
        do {
            result = try body()
        } catch {
            load.depth -= 1
            if load.depth == 0 {
                load.edited.removeAll()
                load.madeInOrder = nil
            }
            throw error
        }
        load.depth -= 1
        guard load.depth == 0 else { return result }
        let edited = load.edited
        load.edited.removeAll()
        if let made = load.madeInOrder {
            load.madeInOrder = nil
            callDidLoad(inOrder: made, roots: roots(result), before: before, edited: edited)
            return result
        }
        callDidLoad(roots: roots(result), before: before, edited: edited)
        return result
    }

    /// Runs `body`, which loads this new object, then ``didLoad()`` on it
    /// and every model it holds, children first.
    func loadingNew(_ body: () throws -> Void) rethrows {
        try Self.loading(roots: { _ in [self] }, body)
    }

    /// Runs `body`, a load into this live object (`update(from:)`, a
    /// patch), then ``didLoad()`` on the models it brought (those not
    /// reachable before), on those it edited in place, and on this object
    /// last.
    func loadingInPlace<Result>(_ body: () throws -> Result) rethrows -> Result {
        // Only the outermost load looks at the graph as it was.
        let before = LoadInProgress.current.depth == 0 ? reachableModels() : nil
        return try Self.loading(before: before, roots: { _ in [self] }) {
            Self.noteEditedByLoad(self)
            return try body()
        }
    }

    /// Notes that the load in progress on this thread gave `model` new values
    /// in place: its ``didLoad()`` runs when the load ends.
    static func noteEditedByLoad(_ model: ModelObject) {
        let load = LoadInProgress.current
        if load.depth > 0 { load.edited.append(model) }
    }

    /// The identities of the models reachable from this object, itself included.
    func reachableModels() -> IdentitySet {
        var set = IdentitySet(self)
        walkGraph { object, _ in
            set.insert(object)
            return true
        }
        return set
    }

    /// Calls ``didLoad()`` on `made`, the models of a new graph in the order
    /// the walk of ``callDidLoad(roots:before:edited:)`` finds them, its
    /// root last (see `LoadInProgress.madeInOrder`), with no walk; or, for
    /// a load that is not the one that list is for, as that function does.
    @inline(never)
    private static func callDidLoad(
        inOrder made: [ModelObject], roots: [ModelObject], before: IdentitySet?, edited: [ModelObject]
    ) {
        guard before == nil, edited.isEmpty, roots.count == 1, made.last === roots[0] else {
            callDidLoad(roots: roots, before: before, edited: edited)
            return
        }
        for model in made { model.didLoad() }
        for model in made {
            model.withState { state in
                if state.hasChangeRecords { state.clearChangeRecords() }
            }
        }
    }

    /// Calls ``didLoad()`` on the models reachable from `roots` (through
    /// saved properties, not weak references) that are new since `before`
    /// or in `edited`, each once, children before parents; then clears what
    /// the hooks recorded in the new ones.
    private static func callDidLoad(roots: [ModelObject], before: IdentitySet?, edited: [ModelObject]) {
        guard !roots.isEmpty else { return }
        // The common case, a new model that holds no models (its lists
        // empty, its optionals nil): no walk, no sets, no arrays.
        if roots.count == 1, before == nil, edited.isEmpty {
            let model = roots[0]
            if model.layout.modelSlots.isEmpty || model.heldModels().isEmpty {
                model.didLoad()
                model.withState { state in
                    if state.hasChangeRecords { state.clearChangeRecords() }
                }
                return
            }
        }
        var editedSet: IdentitySet?
        if !edited.isEmpty {
            var set = IdentitySet()
            for model in edited { set.insert(model) }
            editedSet = set
        }
        var called: [ModelObject] = []
        var made: [ModelObject] = []
        forEachModelChildrenFirst(from: roots) { model in
            let identifier = ObjectIdentifier(model)
            let isNew = !(before?.contains(identifier) ?? false)
            let isEdited = editedSet?.contains(identifier) ?? false
            guard isNew || isEdited else { return }
            called.append(model)
            if isNew && !isEdited { made.append(model) }
        }
        for model in called { model.didLoad() }
        for model in made { model.withState { $0.clearChangeRecords() } }
    }

    /// Visits the models reachable from `roots` through saved properties
    /// (not weak references), each once, every model after the models it
    /// holds (a cycle is cut where the walk meets a model again), without
    /// recursion.
    static func forEachModelChildrenFirst(from roots: [ModelObject], _ visit: (ModelObject) -> Void) {
        var seen = IdentitySet()
        var stack: [(model: ModelObject, children: [ModelObject], next: Int)] = []
        for root in roots where seen.insert(root) {
            stack.append((root, root.heldModels(), 0))
            while let top = stack.last {
                guard top.next < top.children.count else {
                    stack.removeLast()
                    visit(top.model)
                    continue
                }
                let child = top.children[top.next]
                stack[stack.count - 1].next += 1
                if seen.insert(child) { stack.append((child, child.heldModels(), 0)) }
            }
        }
    }

    /// Whether the slots of `layout.modelSlots` that `seen` leaves out hold
    /// a model (or may: a container of models whose shape is not a model,
    /// an optional model or an array of them), read in `cells`, this
    /// object's, which nothing else is changing.
    func holdsModels(outside seen: SlotSet, inCells cells: UnsafeMutableRawPointer) -> Bool {
        let layout = self.layout
        for (index, offset) in layout.modelSlots.enumerated() where !seen.contains(offset) {
            guard let shape = layout.modelShapes[index] else { return true }
            var holds = false
            shape.forEachModel(inCell: cells + offset &* SlotCell.size) { _ in holds = true }
            if holds { return true }
        }
        return false
    }

    /// The models this object's saved properties hold (not its weak
    /// references), in slot order, read under its lock.
    func heldModels() -> [ModelObject] {
        let layout = self.layout
        guard !layout.modelSlots.isEmpty else { return [] }
        var held: [ModelObject] = []
        withState { state in
            for (index, offset) in layout.modelSlots.enumerated() {
                // A slot being mutated in place (on this thread: a load
                // inside the mutation) holds a marker, and no models.
                if state.mutatingSlots.contains(offset) { continue }
                if let shape = layout.modelShapes[index] {
                    // Read in its cell: a box and a cast per slot cost more
                    // than the rest of a small model's hook.
                    shape.forEachModel(inCell: state.cells + offset &* SlotCell.size) { held.append($0) }
                } else {
                    layout.slots[offset].codec.forEachModel(in: state.value(at: offset)) { held.append($0) }
                }
            }
        }
        return held
    }
}

/// The load of models in progress on this thread: how many loads are
/// nested (only the outermost runs ``ModelObject/didLoad()``), and the live
/// models they edited in place.
final class LoadInProgress {
    var depth = 0
    var edited: [ModelObject] = []
    /// Every model of the new graph that the outermost load made, root
    /// last, in the order ``ModelObject/forEachModelChildrenFirst(from:_:)``
    /// visits them, when the load that made them could vouch for it (the
    /// direct JSON decoder, see `JSONModelDecoder.madeModels`): its hooks
    /// then run with no walk. Taken when the load ends.
    var madeInOrder: [ModelObject]?

    private static let storage = ThreadLocal { LoadInProgress() }
    static var current: LoadInProgress { storage.value }
    /// This thread's, if it has one yet.
    static var existing: LoadInProgress? { storage.existingValue }
    /// Makes `load` this thread's (a thread continuing another's work on a
    /// larger stack, while the other waits).
    static func install(_ load: LoadInProgress) { storage.install(load) }
}
