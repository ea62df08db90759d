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
        walkGraph { object in
            if object.hasChanges { found = true }
            return !found
        }
        return found
    }

    /// Forgets the changes of this object and of every model reachable from it.
    public func clearChanges() {
        walkGraph { object in
            object.withState { state in
                state.changedSlots.removeAll()
                state.changedBagKeys.removeAll()
            }
            return true
        }
    }

    /// Visits this object and every model reachable from it once, until
    /// `visit` returns false.
    func walkGraph(_ visit: (ModelObject) -> Bool) {
        var pending: [ModelObject] = [self]
        var seen: Set<ObjectIdentifier> = [ObjectIdentifier(self)]
        while let object = pending.popLast() {
            guard visit(object) else { return }
            let layout = object.layout
            guard !layout.modelSlots.isEmpty else { continue }
            let values = object.withState { $0.values }
            for offset in layout.modelSlots {
                layout.slots[offset].codec.forEachModel(in: values[offset]) { child in
                    if seen.insert(ObjectIdentifier(child)).inserted { pending.append(child) }
                }
            }
        }
    }
}
