extension ModelObject {
    /// Reads a `@Saved(reference: .weak)` property: the model its cell's box
    /// refers to, while it lives. `Value` is the property's `Model?`, whose
    /// layout is that of any optional class reference.
    @usableFromInline
    final func _readWeakSlot<Value>(at position: Int, as type: Value.Type) -> Value {
        // The cell holds a `WeakReference<Model>`, whose one stored property
        // is its box: read as the box, with the lock, checks and tracking of
        // every read.
        let object = _readSlot(at: position, as: WeakBox?.self)?.object
        return unsafeBitCast(object, to: Value.self)
    }

    /// Starts an in-place mutation of a `@Saved(reference: .weak)` property:
    /// its model is copied out of the box in its cell into memory that
    /// `_endWeakMutation(at:_:)` writes back from and frees. Unlike a strong
    /// property's, the lock is not held in between.
    @usableFromInline
    final func _beginWeakMutation<Value>(at position: Int, as type: Value.Type) -> UnsafeMutablePointer<Value> {
        let copy = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        copy.initialize(to: _readWeakSlot(at: position, as: Value.self))
        return copy
    }

    /// Ends an in-place mutation begun by `_beginWeakMutation(at:as:)`: writes
    /// the copy back as an assignment would and frees it.
    @usableFromInline
    final func _endWeakMutation<Value>(at position: Int, _ copy: UnsafeMutablePointer<Value>) {
        let value = copy.move()
        copy.deallocate()
        _writeWeakSlot(at: position, value)
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
            state.changeCount &+= 1
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
