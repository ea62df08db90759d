/// One recorded change of one model: what a history step keeps to undo
/// and redo it.
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

    /// Puts the value from before the edit back (`undoing`), or the value
    /// after it again, as a change of the model like any other.
    func apply(undoing: Bool) {
        switch self {
        case .value(let object, let slot, let old, let new):
            object.setSlotForHistory(slot, undoing ? old : new)
        case .elements(let object, let slot, let change):
            change.apply(to: object, slot: slot, undoing: undoing)
        case .bag(let object, let key, let old, let new):
            // Never a saved or metadata key: it was recorded as a bag key.
            try? object.setExtensibleProperty(undoing ? old : new, forKey: key)
        }
    }
}

/// A named group of edits, undone and redone together.
struct HistoryStep {
    let name: String?
    let edits: [HistoryEdit]
    /// Whether an edit changed a property that may hold models.
    let touchesModels: Bool

    var storedCount: Int { edits.reduce(0) { $0 + $1.storedCount } }

    func apply(undoing: Bool) {
        if undoing {
            for edit in edits.reversed() { edit.apply(undoing: true) }
        } else {
            for edit in edits { edit.apply(undoing: false) }
        }
    }
}

extension ModelObject {
    /// Sets a saved property's value for an undo or redo, recording the
    /// change as an assignment does (``hasChanges``, observers).
    func setSlotForHistory(_ slot: Int, _ value: Any) {
        let layout = self.layout
        withState { state in
            let old = state.value(at: slot)
            guard !layout.slots[slot].codec.isEqual(old, value) else { return }
            state.setValue(value, at: slot)
            state.markChanged(slot: slot, old: old, layout: layout)
            queueChange(layout.slots[slot].key, slot: slot, old: old, new: value, in: &state)
        }
        deliverChanges()
    }

    /// Mutates a saved property's value in place for an undo or redo, as
    /// an in-place mutation by the app does.
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
        let offset = slot ?? layout.offsetsByKey[key]
        for tracker in recorders { tracker.record(self, slot: offset, key: key, old: old, new: new, in: &state) }
    }
}
