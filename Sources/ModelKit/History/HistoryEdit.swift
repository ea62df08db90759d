/// One recorded change of one model: what a history step keeps to undo
/// and redo it.
///
/// An edit applies only where the model still holds what the edit
/// recorded: before an undo, the value it set (or, for an array, the very
/// elements it inserted, at the same place); before a redo, the value it
/// replaced (the elements it removed). `HistoryStep` checks every edit of
/// a step first, so a step applies whole or not at all.
enum HistoryEdit {
    /// A saved property's whole value before and after (an assignment, or
    /// an in-place mutation of a value that is not an array).
    case value(ModelObject, slot: Int, old: Any, new: Any)
    /// An array property's elements: one range replaced by others.
    case elements(ModelObject, slot: Int, change: any ElementsChange)
    /// An extensible property (`nil`: absent).
    case bag(ModelObject, key: String, old: ModelValue?, new: ModelValue?)

    /// How many values the edit keeps: two for a whole value or a bag
    /// key, the removed and inserted elements for an array.
    var storedCount: Int {
        switch self {
        case .value, .bag: 2
        case .elements(_, _, let change): change.storedCount
        }
    }

    /// The model the edit changed.
    var object: ModelObject {
        switch self {
        case .value(let object, _, _, _), .elements(let object, _, _), .bag(let object, _, _, _): object
        }
    }

    /// The property the edit changed, as a key for a step's checks.
    var target: HistoryTarget {
        switch self {
        case .value(let object, let slot, _, _), .elements(let object, let slot, _):
            HistoryTarget(object: ObjectIdentifier(object), slot: slot, key: nil)
        case .bag(let object, let key, _, _):
            HistoryTarget(object: ObjectIdentifier(object), slot: -1, key: key)
        }
    }

    /// The edited property's value as the model holds it now.
    func currentValue() -> HistoryValue {
        switch self {
        case .value(let object, let slot, _, _), .elements(let object, let slot, _):
            .slot(object.withState { $0.value(at: slot) })
        case .bag(let object, let key, _, _):
            .bag(object.withState { $0.bag.value(forKey: key) })
        }
    }

    /// Whether `value`, the property's value just before the edit is
    /// applied, is the one the edit expects: the value it left (`undoing`)
    /// or the one it found (redoing).
    func holds(_ value: HistoryValue, undoing: Bool) -> Bool {
        switch (self, value) {
        case (.value(let object, let slot, let old, let new), .slot(let current)):
            object.layout.slots[slot].codec.isEqual(current, undoing ? new : old)
        case (.elements(_, _, let change), .slot(let current)):
            change.holds(current, undoing: undoing)
        case (.bag(_, _, let old, let new), .bag(let current)):
            current == (undoing ? new : old)
        default:
            false
        }
    }

    /// `value` as the edit leaves it (for a step that edits one property
    /// more than once, whose later edits are checked against the earlier's).
    func applied(to value: inout HistoryValue, undoing: Bool) {
        switch self {
        case .value(_, _, let old, let new): value = .slot(undoing ? old : new)
        case .bag(_, _, let old, let new): value = .bag(undoing ? old : new)
        case .elements(_, _, let change):
            guard case .slot(var array) = value else { return }
            value = .bag(nil)  // `array` is then the only reference to its elements
            change.applied(to: &array, undoing: undoing)
            value = .slot(array)
        }
    }

    /// Puts the value from before the edit back (`undoing`), or the value
    /// after it again, as a change of the model like any other, if the
    /// model still holds what ``holds(_:undoing:)`` expects (checked under
    /// the model's lock).
    /// - Returns: whether it did; otherwise nothing changed.
    func apply(undoing: Bool) -> Bool {
        switch self {
        case .value(let object, let slot, let old, let new):
            return object.setSlotForHistory(slot, undoing ? old : new, expecting: undoing ? new : old)
        case .elements(let object, let slot, let change):
            return change.apply(to: object, slot: slot, undoing: undoing)
        case .bag(let object, let key, let old, let new):
            return object.withLock {
                guard object.withState({ $0.bag.value(forKey: key) }) == (undoing ? new : old) else { return false }
                // Never a saved or metadata key: it was recorded as a bag key.
                try? object.setExtensibleProperty(undoing ? old : new, forKey: key)
                return true
            }
        }
    }

    /// The error of an undo or redo that finds `found` where the edit
    /// expects something else.
    func conflict(undoing: Bool, found: HistoryValue) -> ModelError {
        let action = undoing ? "undo" : "redo"
        let owner = "this \(Swift.type(of: object))"
        let detail: String
        let key: String
        switch (self, found) {
        case (.value(let object, let slot, let old, let new), .slot(let current)):
            let codec = object.layout.slots[slot].codec
            key = object.layout.slots[slot].key
            detail =
                codec.mayContainModels
                ? "it holds another value than the step \(undoing ? "set" : "replaced")"
                : "\(action) expects \(Self.describe(codec.encode(undoing ? new : old))), "
                    + "found \(Self.describe(codec.encode(current)))"
        case (.elements(let object, let slot, let change), .slot(let current)):
            key = object.layout.slots[slot].key
            detail = change.mismatch(in: current, undoing: undoing)
        case (.bag(_, let bagKey, let old, let new), .bag(let current)):
            key = bagKey
            detail = "\(action) expects \(Self.describe(undoing ? new : old)), found \(Self.describe(current))"
        default:
            key = ""
            detail = "it holds a value of another type"
        }
        return ModelError(
            code: .historyConflict,
            message: "\(owner) changed since the step was recorded, so the step cannot be "
                + "\(undoing ? "undone" : "redone"): \(detail); nothing was changed",
            keyPath: key.isEmpty ? ModelKeyPath() : ModelKeyPath([.key(key)]))
    }

    /// A value for a message: its JSON text, cut short; `absent` for `nil`.
    static func describe(_ value: ModelValue?) -> String {
        guard let value else { return "absent" }
        let text = value.description
        return text.count <= 60 ? text : text.prefix(57) + "…"
    }
}

/// A property of one model, edited by a step: a saved property by its
/// slot, or an extensible property by its key (`slot` -1).
struct HistoryTarget: Hashable {
    let object: ObjectIdentifier
    let slot: Int
    let key: String?
}

/// The value of an edited property, as a step's checks see it.
enum HistoryValue {
    /// A saved property's value, of the slot's type.
    case slot(Any)
    /// An extensible property's value (`nil`: absent).
    case bag(ModelValue?)
}

/// An undo or redo refused: the model whose property no longer holds what
/// the step recorded, and the error, whose key path is the property's key
/// (``ModelHistory`` puts the model's path from its root before it).
struct HistoryConflict: Error {
    let object: ModelObject
    var error: ModelError
}

/// A named group of edits, undone and redone together.
struct HistoryStep {
    let name: String?
    let edits: [HistoryEdit]
    /// Whether an edit changed a property that may hold models.
    let touchesModels: Bool

    var storedCount: Int { edits.reduce(0) { $0 + $1.storedCount } }

    /// Undoes (in reverse order) or redoes the edits, all or none: each
    /// edit is first checked against the models, as the edits before it
    /// in the step would leave them.
    /// - Throws: `HistoryConflict`, the first edit whose property no
    ///   longer holds what the step recorded; nothing is changed then.
    func apply(undoing: Bool) throws(HistoryConflict) {
        let ordered = undoing ? Array(edits.reversed()) : edits
        try check(ordered, undoing: undoing)
        var applied: [HistoryEdit] = []
        applied.reserveCapacity(ordered.count)
        for edit in ordered {
            guard edit.apply(undoing: undoing) else {
                // Another thread changed the model since the check: take
                // back what this step has changed so far.
                let found = edit.currentValue()
                for done in applied.reversed() { _ = done.apply(undoing: !undoing) }
                throw HistoryConflict(object: edit.object, error: edit.conflict(undoing: undoing, found: found))
            }
            applied.append(edit)
        }
    }

    /// Checks every edit, in the order they apply, against the models, and
    /// each later edit of a property against the value the earlier ones
    /// leave (worked out on a copy, made only for properties edited more
    /// than once).
    private func check(_ ordered: [HistoryEdit], undoing: Bool) throws(HistoryConflict) {
        var remaining: [HistoryTarget: Int] = [:]
        for edit in ordered { remaining[edit.target, default: 0] += 1 }
        var values: [HistoryTarget: HistoryValue] = [:]
        for edit in ordered {
            let target = edit.target
            var value = values.removeValue(forKey: target) ?? edit.currentValue()
            guard edit.holds(value, undoing: undoing) else {
                throw HistoryConflict(object: edit.object, error: edit.conflict(undoing: undoing, found: value))
            }
            let left = remaining[target, default: 1] - 1
            remaining[target] = left
            if left > 0 {
                edit.applied(to: &value, undoing: undoing)
                values[target] = value
            }
        }
    }
}

extension ModelObject {
    /// Sets a saved property's value for an undo or redo, recording the
    /// change as an assignment does (``hasChanges``, observers), if the
    /// property holds `expected`.
    /// - Returns: whether it did; otherwise nothing changed.
    func setSlotForHistory(_ slot: Int, _ value: Any, expecting expected: Any) -> Bool {
        let layout = self.layout
        let codec = layout.slots[slot].codec
        let set = withState { state -> Bool in
            let old = state.value(at: slot)
            guard codec.isEqual(old, expected) else { return false }
            guard !codec.isEqual(old, value) else { return true }
            state.setValue(value, at: slot)
            state.markChanged(slot: slot, old: old, layout: layout)
            queueChange(layout.slots[slot].key, slot: slot, old: old, new: value, in: &state)
            return true
        }
        deliverChanges()
        return set
    }

    /// Mutates a saved property's value in place for an undo or redo, as
    /// an in-place mutation by the app does (the caller holds the lock).
    func mutateSlotForHistory<Value>(_ slot: Int, as type: Value.Type, _ body: (inout Value) -> Void) {
        let position = slot + slotBase
        let value = _beginMutation(at: position, as: Value.self)
        defer { _endMutation(at: position) }
        body(&value.pointee)
    }

    /// Tells the trackers of histories about a change of `key` (the lock is held).
    func recordForHistory(
        _ key: String, slot: Int?, old: () -> Any?, new: () -> Any?, recorders: [HistoryTracker],
        in state: inout ModelState
    ) {
        let offset = slot ?? layout.offset(forKey: key)
        for tracker in recorders { tracker.record(self, slot: offset, key: key, old: old, new: new, in: &state) }
    }
}
