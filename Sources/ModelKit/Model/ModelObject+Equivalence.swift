extension ModelObject {
    /// Whether `other` has the same contents: the same class, equal saved
    /// values and equal ``extensibleProperties``, with the models held
    /// compared the same way, recursively.
    ///
    /// `==` and `hashValue` compare identity, as for `NSObject`, Core Data
    /// and SwiftData objects, so that a model can sit in a `Set` or be a
    /// dictionary key while it is edited (a hash of the contents would change
    /// under the set's feet). Use this method to compare contents.
    ///
    /// ```swift
    /// let note = Note()
    /// note.tags = ["home"]
    /// let copy = note.copy()
    /// print(copy == note, copy.isEquivalent(to: note))   // false true
    /// ```
    ///
    /// The comparison walks both graphs together without recursion and ends
    /// on cycles: a pair of models already being compared counts as
    /// equivalent where it appears again. Where the two graphs share models
    /// differently but hold equal contents, they are equivalent. Change
    /// records and properties that are not `@Saved` are not compared.
    ///
    /// - Parameter other: the object to compare with.
    /// - Returns: whether the two hold the same contents.
    public func isEquivalent(to other: ModelObject) -> Bool {
        var pending: [(ModelObject, ModelObject)] = [(self, other)]
        var compared: Set<ObjectPair> = [ObjectPair(self, other)]
        // Keeps every compared object alive, so that identifiers stay unique.
        var visited: [ModelObject] = []
        while let (lhs, rhs) = pending.popLast() {
            if lhs === rhs { continue }
            guard Swift.type(of: lhs) == Swift.type(of: rhs) else { return false }
            visited.append(lhs)
            visited.append(rhs)
            // One object's lock at a time: two threads comparing the same
            // pair in opposite directions cannot deadlock.
            let left = lhs.withState { ($0.snapshotValues(), $0.bag) }
            let right = rhs.withState { ($0.snapshotValues(), $0.bag) }
            guard left.1 == right.1 else { return false }
            for slot in lhs.layout.slots {
                if !lhs.layout.weakSlots.isEmpty, lhs.layout.weakSlots.contains(slot.offset),
                    let a = left.0[slot.offset] as? any WeakReferenceValue,
                    let b = right.0[slot.offset] as? any WeakReferenceValue
                {
                    // Weak references match when they name matching models.
                    switch (a.target, b.target) {
                    case (nil, nil): continue
                    case (let x?, let y?):
                        if x !== y, compared.insert(ObjectPair(x, y)).inserted { pending.append((x, y)) }
                        continue
                    default: return false
                    }
                }
                let equal = slot.codec.matches(left.0[slot.offset], right.0[slot.offset]) { a, b in
                    if compared.insert(ObjectPair(a, b)).inserted { pending.append((a, b)) }
                }
                guard equal else { return false }
            }
        }
        return true
    }
}

/// Two objects compared with each other, by identity.
private struct ObjectPair: Hashable {
    let lhs: ObjectIdentifier
    let rhs: ObjectIdentifier

    init(_ lhs: ModelObject, _ rhs: ModelObject) {
        self.lhs = ObjectIdentifier(lhs)
        self.rhs = ObjectIdentifier(rhs)
    }
}
