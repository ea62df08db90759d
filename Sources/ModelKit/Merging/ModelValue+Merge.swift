extension ModelValue {
    /// The three-way merge of two versions of a document that both came
    /// from `base`: every change either side made, by key path.
    ///
    /// ```swift
    /// let base: ModelValue = ["title": "Groceries", "items": ["milk", "eggs"], "done": false]
    /// let ours: ModelValue = ["title": "Shopping", "items": ["milk", "eggs"], "done": false]
    /// let theirs: ModelValue = ["title": "Groceries", "items": ["milk", "eggs", "bread"], "done": true]
    /// let result = try ModelValue.merge(base: base, ours: ours, theirs: theirs)
    /// print(result.merged)   // {"title":"Shopping","items":["milk","eggs","bread"],"done":true}
    /// ```
    ///
    /// What merges cleanly: changes to different keys at any depth; the same
    /// change on both sides; insertions and removals in an array on one side
    /// with changes elsewhere in it on the other (arrays are matched with
    /// the base as a three-way text merge matches lines); keys only one side
    /// added. What conflicts: a value both sides changed differently (or
    /// added differently); a value one side removed and the other changed;
    /// array edits at the same place. Each conflict is reported and settled
    /// by `policy`. Values compare exactly, as `==` does: `1` and `1.0` are
    /// different values, and strings differ unless their Unicode scalars are
    /// the same. Arrays of objects merge by position; models merged with
    /// ``ModelObject``'s `merge(base:ours:theirs:policy:)` match elements by
    /// their class's ``ModelObject/identityKey``, and arrays of plain objects
    /// by `identityKey` when one is given. Values of any depth merge
    /// without running out of stack.
    ///
    /// With an `identityKey`, arrays whose elements are all objects with a
    /// distinct value under that key, in each of the three versions, are
    /// matched by that value instead, wherever elements moved: two sides
    /// that each add an element, one of them editing another element too,
    /// merge cleanly (`"id"` for most documents from a server).
    /// - Parameters:
    ///   - base: the last version both sides had.
    ///   - ours: our version, whose value a conflict keeps under `.ours`.
    ///   - theirs: their version.
    ///   - policy: how conflicts are settled; `.ours` by default.
    ///   - identityKey: the member that identifies the objects of an array,
    ///     or `nil` (the default) to match every array by position.
    /// - Returns: the merged value and every conflict met.
    /// - Throws: ``ModelError``: ``ModelError/Code/mergeConflict`` listing
    ///   every conflict under ``MergePolicy/fail``; an error a `.resolve`
    ///   closure throws; ``ModelError/Code/invalidValue`` when a resolution
    ///   removes the whole document.
    public static func merge(
        base: ModelValue, ours: ModelValue, theirs: ModelValue, policy: MergePolicy = .ours,
        identityKey: String? = nil
    ) throws -> MergeResult<ModelValue> {
        var merger = ThreeWayMerge(policy: policy)
        merger.plainIdentityKey = identityKey
        var merged = try merger.mergeRoot(base, ours, theirs)
        if case .fail = policy, !merger.conflicts.isEmpty {
            // Swift would free the merged value by recursion, a few frames a level.
            merged.releaseWithoutRecursion()
            throw ModelError.mergeConflicts(merger.conflicts)
        }
        return MergeResult(merged: merged, conflicts: merger.conflicts)
    }
}
