/// What a ``ModelHistory`` keeps of one model it tracks: the last value of
/// each saved property it has seen, to tell what a change changed.
///
/// It sits in the model's `ObservationCenter` and is only touched while the
/// model's lock is held, which orders every access (`@unchecked Sendable`).
/// A property's last value is the value itself (shared, copy on write), or,
/// for an array, a copy of its elements in a buffer of the tracker's own,
/// so that an in-place mutation of the model's array stays in place and
/// costs a comparison of the elements' bytes, not a copy.
final class HistoryTracker: @unchecked Sendable {
    /// The last value of one saved property.
    enum Shadow {
        case value(Any)
        case elements(any ElementsShadow)
    }

    weak var history: ModelHistory?
    private var shadows: [Shadow]

    /// A tracker for the model whose state is `state` (its lock is held).
    init(history: ModelHistory, state: ModelState) {
        self.history = history
        let layout = state.layout
        shadows = layout.codecs.indices.map { slot in
            let cell = state.cells + slot * SlotCell.size
            if let array = layout.codecs[slot].valueType as? any HistoryArray.Type {
                return .elements(array.makeShadow(cell: cell))
            }
            return .value(state.value(at: slot))
        }
    }

    /// Records the change of `key` (the saved property at `slot`, or an
    /// extensible property when `slot` is `nil`) in this thread's open step.
    func record(
        _ object: ModelObject, slot: Int?, key: String, old: () -> Any?, new: () -> Any?, in state: inout ModelState
    ) {
        guard let history else { return }
        let edit: HistoryEdit
        guard let slot else {
            let old = old() as? ModelValue, new = new() as? ModelValue
            guard old != new else { return }
            HistoryThreadState.record(.bag(object, key: key, old: old, new: new), for: history, touchesModels: false)
            return
        }
        // The new value as the change gives it: some callers record a
        // change before they store the value.
        let codec = state.layout.codecs[slot]
        let after = codec.cast(new()) ?? state.value(at: slot)
        switch shadows[slot] {
        case .value(let before):
            guard !codec.isEqual(before, after) else { return }
            shadows[slot] = .value(after)
            edit = .value(object, slot: slot, old: before, new: after)
        case .elements(let shadow):
            guard let change = shadow.update(to: after) else { return }
            edit = .elements(object, slot: slot, change: change)
        }
        HistoryThreadState.record(edit, for: history, touchesModels: state.layout.slotMayHoldModels[slot])
    }
}
