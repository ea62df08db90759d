extension ModelObject {
    /// A deep copy of this object, of the same dynamic class.
    ///
    /// Every model reachable through saved properties is copied too, once: a
    /// model that appears twice in the graph appears twice in the copy as one
    /// copied object, and cycles are copied as cycles. The
    /// ``extensibleProperties`` are copied, and so is what a
    /// ``SavedDialect/dejalObject`` class read beside its values (a
    /// date-less `DejalDate`, `extraValues`…), so that the copy saves what
    /// the original would; the copy has no changes.
    /// Properties that are not `@Saved` get their declared defaults, as in a
    /// new object.
    ///
    /// ```swift
    /// let original = Note()
    /// original.child = Note()
    /// let copy: Note = original.copy()
    /// copy.child?.title = "Edited"
    /// print(original.child?.title ?? "", copy === original, copy.hasChanges)   // Untitled false false
    /// ```
    ///
    /// Each object is read once, under its own lock: a graph that other
    /// threads change while it is copied gives each copied object a state it
    /// had, not necessarily all at one instant. Wrap the edits and the copy in
    /// the root's ``withLock(_:)`` if that matters.
    ///
    /// - Returns: the copy, typed as the class you call it on.
    public func copy() -> Self {
        // 1. Visit the graph without recursion, reading each object's state
        //    once and making an empty object of its class.
        var originals: [ModelObject] = []
        var snapshots:
            [(values: ContiguousArray<Any>, bag: ExtensibleBag, newerVersion: Int?, kept: [Int: DejalObjectForm.Kept])] =
                []
        var copies: [ObjectIdentifier: ModelObject] = [:]
        var pending: [ModelObject] = [self]
        var seen = IdentitySet(self)
        while let object = pending.popLast() {
            let layout = object.layout
            let snapshot = object.withState {
                ($0.snapshotValues(), $0.bag, $0.loadedNewerVersion, $0.extras?.dejalKept ?? [:])
            }
            for offset in layout.modelSlots {
                layout.slots[offset].codec.forEachModel(in: snapshot.0[offset]) { child in
                    if seen.insert(child) { pending.append(child) }
                }
            }
            originals.append(object)
            snapshots.append(snapshot)
            copies[ObjectIdentifier(object)] = Swift.type(of: object).init()
        }
        // 2. Fill each copy, pointing it at the copies of its models.
        for (index, object) in originals.enumerated() {
            let layout = object.layout
            var (values, bag, newerVersion, kept) = snapshots[index]
            for offset in layout.modelSlots {
                values[offset] = layout.slots[offset].codec.replacingModels(in: values[offset]) {
                    copies[ObjectIdentifier($0)] ?? $0
                }
            }
            // A weak reference to a model copied too points at its copy.
            for offset in layout.weakSlots {
                if let reference = values[offset] as? any WeakReferenceValue, let target = reference.target,
                    let copy = copies[ObjectIdentifier(target)]
                {
                    values[offset] = reference.pointing(to: copy)
                }
            }
            copies[ObjectIdentifier(object)]!.withState { state in
                state.replaceValues(with: values)
                state.bag = bag
                state.loadedNewerVersion = newerVersion
                // What a DejalObject file held beside the values (value
                // types only, shared safely).
                if !kept.isEmpty { state.madeExtras().dejalKept = kept }
                state.clearChangeRecords()
            }
        }
        return copies[ObjectIdentifier(self)] as! Self
    }
}
