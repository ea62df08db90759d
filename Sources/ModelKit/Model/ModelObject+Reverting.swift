extension ModelObject {
    /// Each changed key's value from before its first change since the
    /// object was loaded or created, or since ``clearChanges()``.
    ///
    /// Saved keys give the property's Swift value (an optional property's
    /// `nil` as `Optional.none`); extensible properties their ``ModelValue``,
    /// or `nil` when the key was absent. An in-place mutation keeps the value
    /// from before the first mutation.
    ///
    /// Properties that may hold models (a model, an optional model, a list
    /// of models) are not kept here, and revert leaves them: keeping their
    /// old values would keep a whole graph alive after the app lets it go.
    /// They still count in ``changedKeys``.
    ///
    /// ```swift
    /// let note = Note()
    /// note.title = "A"
    /// note.title = "B"
    /// note.tags.append("x")
    /// print(note.changes["title"]!)   // Untitled
    /// print(note.changes["tags"]!)    // []
    /// ```
    public var changes: [String: Any] {
        let layout = self.layout
        return withState { state in
            var changes: [String: Any] = [:]
            for (slot, value) in state.originalValues { changes[layout.slots[slot].key] = value }
            for (key, value) in state.originalBagValues { changes[key] = value as Any }
            return changes
        }
    }

    /// Puts back every changed saved property and extensible property of this
    /// object as it was before its first change (see ``changes``), and
    /// forgets the changes; observers hear of each key that moves back.
    ///
    /// ```swift
    /// note.title = "Draft"
    /// note.revertChanges()
    /// print(note.title, note.hasChanges)   // Untitled false
    /// ```
    public func revertChanges() {
        let layout = self.layout
        withState { state in
            for (slot, original) in state.originalValues {
                let current = state.value(at: slot)
                state.setValue(original, at: slot)
                queueChange(layout.slots[slot].key, old: current, new: original, in: &state)
            }
            for (key, original) in state.originalBagValues {
                let current = state.bag.set(original, forKey: key)
                queueChange(key, old: current, new: original, in: &state)
            }
            state.clearChangeRecords()
        }
        deliverChanges()
    }

    /// Reverts this object and every model reachable from it through saved
    /// properties (``revertChanges()`` on each), so a graph is back as it was
    /// loaded, or as it was at the last ``clearChanges()``.
    public func revertAnyChanges() {
        var objects: [ModelObject] = []
        var pending: [ModelObject] = [self]
        var seen = IdentitySet(self)
        // Gather first: reverting changes which models are reachable.
        while let object = pending.popLast() {
            objects.append(object)
            let layout = object.layout
            let values = object.withState { $0.snapshotValues() }
            let originals = object.withState { Array($0.originalValues.values) }
            for offset in layout.modelSlots {
                layout.slots[offset].codec.forEachModel(in: values[offset]) { child in
                    if seen.insert(child) { pending.append(child) }
                }
            }
            // Models that were there before a change come back too: revert them as well.
            for original in originals {
                for offset in layout.modelSlots {
                    layout.slots[offset].codec.forEachModel(in: original) { child in
                        if seen.insert(child) { pending.append(child) }
                    }
                }
            }
        }
        for object in objects { object.revertChanges() }
    }
}
