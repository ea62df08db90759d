extension ModelObject {
    /// Reads a `@Saved(reference: .weak)` property: the model its cell's box
    /// refers to, while it lives. `Value` is the property's `Model?`, whose
    /// layout is that of any optional class reference.
    @usableFromInline
    final func _readWeakSlot<Value>(at position: Int, as type: Value.Type) -> Value {
        let slot = position &- slotBase
        let storage = self.storage
        storage.lock()
        let (object, center) = storage.withUnsafeMutablePointerToHeader {
            header -> (ModelObject?, Unmanaged<ObservationCenter>) in
            if header.pointee.mutatingSlots.contains(slot) {
                storage.unlock()
                _overlappingAccess(slot: slot)
            }
            let center: Unmanaged<ObservationCenter>
            if let existing = header.pointee.observation {
                center = Unmanaged.passUnretained(existing)
            } else {
                center = Unmanaged.passUnretained(ModelObject._makeObservationCenter(&header.pointee))
            }
            let box = SlotCell.pointer(header.pointee.cells + slot &* SlotCell.size, as: WeakBox?.self).pointee
            let object = box?.object
            storage.unlock()
            return (object, center)
        }
        _trackRead(slot, center)
        return unsafeBitCast(object, to: Value.self)
    }

    /// Writes a `@Saved(reference: .weak)` property: a new box for the model,
    /// a change when it is another model (identity) than before.
    @usableFromInline
    final func _writeWeakSlot<Value>(at position: Int, _ newValue: Value) {
        let slot = position &- slotBase
        let newObject = unsafeBitCast(newValue, to: ModelObject?.self)
        let outcome = withState { state -> SlotWrite in
            if state.mutatingSlots.contains(slot) { return .overlapping }
            let cell = SlotCell.pointer(state.cells + slot &* SlotCell.size, as: WeakBox?.self)
            let old = cell.pointee?.object
            if old === newObject { return .unchanged }
            state.changedSlots.insert(slot)
            cell.pointee = newObject.map(WeakBox.init)
            guard let center = state.observation else { return .changed }
            guard center.hasListeners || state.lockHolds > 0 else {
                return .tracked(Unmanaged.passUnretained(center))
            }
            _queueSlotChange(slot, old: unsafeBitCast(old, to: Value.self), new: newValue, in: &state)
            return .changedAndObserved
        }
        switch outcome {
        case .overlapping: _overlappingAccess(slot: slot)
        case .changedAndObserved: deliverChanges()
        case .tracked(let center): _notifyTracking(slot, center)
        case .changed, .unchanged: break
        }
    }
}
