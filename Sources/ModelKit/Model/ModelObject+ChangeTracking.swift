import Synchronization
extension ModelObject {
    /// Whether a saved property or the extensible properties of this object
    /// changed since it was created, loaded or last cleared.
    ///
    /// Setting a property to a value equal to its current one is not a
    /// change; mutating an array or dictionary property in place is. Changes
    /// inside models that this object holds are not changes of this object:
    /// see ``hasAnyChanges``.
    public var hasChanges: Bool {
        withState { !$0.changedSlots.isEmpty || !$0.changedBagKeys.isEmpty }
    }

    /// The saved keys, and the keys of extensible properties, that changed.
    public var changedKeys: Set<String> {
        let (slots, bagKeys) = withState { ($0.changedSlots, $0.changedBagKeys) }
        var keys = bagKeys
        for slot in layout.slots where slots.contains(slot.offset) { keys.insert(slot.key) }
        return keys
    }

    /// Whether this object, or any model reachable from it through saved
    /// properties (optionals, arrays, sets and dictionaries of models), has
    /// changes.
    ///
    /// Each model is visited once, so shared models and cycles are fine, and
    /// the walk uses no recursion, so deep graphs are too.
    public var hasAnyChanges: Bool {
        var found = false
        walkGraph { state in
            if !state.changedSlots.isEmpty || !state.changedBagKeys.isEmpty { found = true }
            return !found
        }
        return found
    }

    /// Forgets the changes of this object and of every model reachable from it.
    public func clearChanges() {
        walkGraph { state in
            state.clearChangeRecords()
            return true
        }
    }

    /// Each model reachable from this object (itself included) with the
    /// count of changes it has recorded: taken before a save that clears
    /// change flags, which then clears only models whose count is unchanged.
    func changeCounts() -> ChangeCounts {
        var counts = ChangeCounts()
        walkGraph { object, state in
            counts.models[ObjectIdentifier(object)] = (object, state.changeCount)
            return true
        }
        return counts
    }

    /// Clears the change flags of the models reachable from this object that
    /// recorded no change since `counts` was taken: what a save wrote is no
    /// longer a change, and a change made while it wrote stays one.
    func clearChanges(unchangedSince counts: ChangeCounts) {
        walkGraph { object, state in
            if let (_, count) = counts.models[ObjectIdentifier(object)], count == state.changeCount {
                state.clearChangeRecords()
            }
            return true
        }
    }

    /// Whether no model reachable from this object recorded a change since
    /// `counts` was taken, and the same models are reachable.
    func isUnchanged(since counts: ChangeCounts) -> Bool {
        var seen = 0
        var unchanged = true
        walkGraph { object, state in
            seen += 1
            guard let (_, count) = counts.models[ObjectIdentifier(object)], count == state.changeCount else {
                unchanged = false
                return false
            }
            return true
        }
        return unchanged && seen == counts.models.count
    }

    /// Visits the state of this object and of every model reachable from it
    /// once, each under its object's lock, until `visit` returns false.
    func walkGraph(_ visit: (inout ModelState) -> Bool) {
        walkGraph { _, state in visit(&state) }
    }

    /// Visits the state of this object and of every model reachable from it
    /// once, each under its object's lock, until `visit` returns false.
    ///
    /// The models an object holds are gathered under the same lock: one lock
    /// round trip per object. Slots holding a model, an optional model or an
    /// array of models are read as such; other slots that may hold models
    /// (dictionaries, sets, nested arrays) are searched through their codec.
    func walkGraph(_ visit: (ModelObject, inout ModelState) -> Bool) {
        var pending: [ModelObject] = [self]
        var seen = IdentitySet(self)
        while let object = pending.popLast() {
            let layout = object.layout
            let goOn = object.withState { state -> Bool in
                guard visit(object, &state) else { return false }
                for (index, offset) in layout.modelSlots.enumerated() {
                    let value = state.value(at: offset)
                    if let shape = layout.modelShapes[index] {
                        shape.forEachModel(in: value) { child in
                            if seen.insert(child) { pending.append(child) }
                        }
                    } else {
                        layout.slots[offset].codec.forEachModel(in: value) { child in
                            if seen.insert(child) { pending.append(child) }
                        }
                    }
                }
                return true
            }
            guard goOn else { return }
        }
    }
}

/// The models of a graph with their counts of recorded changes, held
/// strongly so that no other model can take one's identity meanwhile.
struct ChangeCounts {
    var models: [ObjectIdentifier: (ModelObject, UInt)] = [:]
}
