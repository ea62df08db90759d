extension ModelValueConvertible where Self: ModelObject {
    /// The three-way merge of two versions of a model that both came from
    /// `base`: a new model with every change either side made.
    ///
    /// ```swift
    /// let result = try Note.merge(base: base, ours: mine, theirs: other)   // policy: .ours
    /// let merged: Note = result.merged
    /// for conflict in result.conflicts { print(conflict) }
    /// // children[2].title: base "a", ours "b", theirs "c"
    /// ```
    ///
    /// The saved forms of the three are merged as
    /// ``ModelValue/merge(base:ours:theirs:policy:identityKey:)`` merges documents, with
    /// one addition: arrays of models of a class with an
    /// ``ModelObject/identityKey`` match their elements by it, so an element
    /// moved or surrounded by insertions on one side still merges with its
    /// edits on the other. The extensible properties of both sides are kept.
    /// The merged form is then loaded as a new model (its rules checked and
    /// ``ModelObject/didLoad()`` run) and validated. The three inputs are
    /// never changed; models loaded from older data were upgraded when they
    /// were loaded, so versions never conflict.
    /// - Parameters:
    ///   - base: the last version both sides had.
    ///   - ours: our version, whose value a conflict keeps under `.ours`.
    ///   - theirs: their version.
    ///   - policy: how conflicts are settled; `.ours` by default.
    /// - Returns: the merged model and every conflict met.
    /// - Throws: ``ModelError``: ``ModelError/Code/mergeConflict`` listing
    ///   every conflict under ``MergePolicy/fail``; the error of a merged form
    ///   that does not load (a resolution that removes a saved key or gives a
    ///   value of the wrong type, naming its key path) or breaks the class's
    ///   rules or ``ModelObject/validate()``, with the conflicts that led
    ///   there (``ModelError/mergeConflicts``); an error a `.resolve` closure
    ///   throws.
    public static func merge(
        base: Self, ours: Self, theirs: Self, policy: MergePolicy = .ours
    ) throws -> MergeResult<Self> {
        let oursForm = try ours.encodedRoot(references: .shared)
        var merger = ThreeWayMerge(policy: policy, rootShape: .model(Swift.type(of: ours)))
        let merged = try merger.mergeModels(
            base: base.encodedRoot(references: .shared), ours: oursForm,
            theirs: theirs.encodedRoot(references: .shared))
        if case .fail = policy, !merger.conflicts.isEmpty { throw ModelError.mergeConflicts(merger.conflicts) }
        do {
            if let reason = ours.shapeViolation(
                of: merged, original: oursForm, layout: ours.layout, removed: "removed by a merge")
            {
                throw ModelError(code: .invalidValue, message: "the merged value cannot be loaded: \(reason)")
            }
            let model = try Self.decoded(from: merged)
            try model.validate()
            return MergeResult(merged: model, conflicts: merger.conflicts)
        } catch let error as ModelError {
            throw error.afterMerge(with: merger.conflicts)
        }
    }

    /// Merges their changes since `base` into this model (ours), in place.
    ///
    /// ```swift
    /// let conflicts = try note.merge(base: base, theirs: other, policy: .ours)
    /// for conflict in conflicts { print(conflict) }
    /// ```
    ///
    /// The merge is that of ``merge(base:ours:theirs:policy:)`` with this
    /// model as ours, applied as a patch is (see ``ModelObject/apply(_:)-(JSONPatch)``):
    /// all or nothing, checked, decoded and validated before anything
    /// changes; then each changed value is set, recording the changes and
    /// telling observers. Models the merge does not touch stay the same
    /// objects, with their observers. The whole merge is one step of a
    /// ``ModelHistory`` tracking the model, and ``ModelObject/didLoad()``
    /// runs on the models it edited, as after a patch.
    /// - Parameters:
    ///   - base: the last version both sides had.
    ///   - theirs: their version; neither it nor `base` is changed.
    ///   - policy: how conflicts are settled; `.ours` by default.
    /// - Returns: every conflict met, each settled by `policy`.
    /// - Throws: as ``merge(base:ours:theirs:policy:)``, with this model unchanged.
    @discardableResult
    public func merge(base: Self, theirs: Self, policy: MergePolicy = .ours) throws -> [MergeConflict] {
        try mergeInPlace(
            base: base.encodedRoot(references: .shared), theirs: theirs.encodedRoot(references: .shared),
            policy: policy)
    }

    /// Merges their changes since `base` into this model in place, as
    /// ``merge(base:theirs:policy:)`` does, from saved forms written with
    /// ``ReferencePolicy/shared`` (as ``ModelDocument`` keeps them).
    func mergeInPlace(
        base: ModelValue.Object, theirs: ModelValue.Object, policy: MergePolicy
    ) throws -> [MergeConflict] {
        // The merge runs before the load: a model a `.resolve` closure
        // loads is a load of its own, whose didLoad() runs as it ends.
        let original = try encodedRoot(references: .shared)
        var merger = ThreeWayMerge(policy: policy, rootShape: .model(Swift.type(of: self)))
        let merged = try merger.mergeModels(base: base, ours: original, theirs: theirs)
        if case .fail = policy, !merger.conflicts.isEmpty {
            throw ModelError.mergeConflicts(merger.conflicts)
        }
        return try HistoryThreadState.asOneStep {
            try loadingInPlace {
                do {
                    if let reason = shapeViolation(
                        of: merged, original: original, layout: layout, removed: "removed by a merge")
                    {
                        throw ModelError(code: .invalidValue, message: "the merged value cannot be loaded: \(reason)")
                    }
                    guard case .object(let members) = merged else { return merger.conflicts }
                    // References may name models under keys the merge left alone:
                    // every key is decoded, and those that did not change stay.
                    try loadPatchedForm(
                        members, original: original, references: .shared, decodingEveryKey: merger.hadReferences)
                } catch let error as ModelError {
                    throw error.afterMerge(with: merger.conflicts)
                }
                return merger.conflicts
            }
        }
    }
}
