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

    /// Visits the state of this object and of every model reachable from it
    /// once, each under its object's lock, until `visit` returns false.
    ///
    /// The models an object holds are gathered under the same lock: one lock
    /// round trip per object. Slots holding a model, an optional model or an
    /// array of models are read as such; other slots that may hold models
    /// (dictionaries, sets, nested arrays) are searched through their codec.
    func walkGraph(_ visit: (inout ModelState) -> Bool) {
        var pending: [ModelObject] = [self]
        var seen = IdentitySet(self)
        while let object = pending.popLast() {
            let layout = object.layout
            let goOn = object.withState { state -> Bool in
                guard visit(&state) else { return false }
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
