import Foundation

extension ModelObject {
    /// Applies a JSON Patch to this object's saved form.
    ///
    /// The patch works on what ``jsonData(options:)`` writes: the metadata
    /// keys, the saved keys, the ``extensibleProperties``, and nested models
    /// as objects, so `/children/1/title` reaches the title of the second
    /// child.
    ///
    /// ```swift
    /// let note = Note()
    /// try note.apply(JSONPatch(json: #"[{"op":"replace","path":"/title","value":"Milk"}]"#))
    /// print(note.title, note.changedKeys)   // Milk ["title"]
    /// ```
    ///
    /// All or nothing: the patched form is checked, decoded and validated
    /// before anything changes, and if any step fails the object is left as
    /// it was. Then each saved key and extensible property whose value the
    /// patch changed is set, as ``update(from:)-(ModelValue)`` would set it,
    /// in one step under the object's lock: the changes are recorded
    /// (``hasChanges``, ``changedKeys``) and observers are told. A nested
    /// model whose saved form changed is replaced by a new one decoded from
    /// it; models the patch does not touch stay the same objects.
    ///
    /// The saved form keeps its shape:
    /// - the metadata keys (`"type"` and `"version"` by default) may be
    ///   tested but not changed or removed: a patch cannot turn an object
    ///   into another class or claim another data version;
    /// - a saved key may be replaced but not removed (a removed key has no
    ///   value to load); extensible properties may be added and removed.
    /// - Parameter patch: the patch, for example from ``patch(to:)`` or a server.
    /// - Throws: ``ModelError``, with the object unchanged: the patch's own
    ///   failure (`operation 2 (replace /tags/7): no element at index 7; the
    ///   array has 3 elements`), a change to the metadata or removal of a saved
    ///   key (naming the operation), a value the property cannot hold
    ///   (naming the operation and the key path), or the failures of
    ///   ``validate()``.
    public func apply(_ patch: JSONPatch) throws {
        // Nested models edited in place and the root: one step of a history.
        try HistoryThreadState.asOneStep { try loadingInPlace { try applyPatch(patch) } }
    }

    private func applyPatch(_ patch: JSONPatch) throws {
        let original = try encodedRoot()
        let layout = self.layout
        let type = Swift.type(of: self)
        let patched = try patch.applied(
            to: .object(original),
            inspecting: { operation, document in
                // Nested models keep their metadata and saved keys as the root does.
                if let reason = Self.nestedShapeViolation(of: operation, in: document, root: type) {
                    throw JSONPatch.Failure(code: .invalidValue, reason: reason)
                }
            }
        ) { operation, document in
            // Only an operation at the top level can change the form's shape.
            guard operation.path.tokens.count <= 1 || (operation.from?.tokens.count ?? 2) <= 1 else { return }
            if let reason = shapeViolation(of: document, original: original, layout: layout, removed: "removed") {
                throw JSONPatch.Failure(code: .invalidValue, reason: reason)
            }
        }
        guard case .object(let members) = patched else { return }
        do {
            try loadPatchedForm(members, original: original)
        } catch var error as ModelError where !error.keyPath.isEmpty {
            // Name the operation that put the bad value there.
            let path = error.keyPath.components.map { component -> String in
                switch component {
                case .key(let key): key
                case .index(let index): String(index)
                }
            }
            guard
                let index = patch.operations.lastIndex(where: { operation in
                    switch operation {
                    case .remove, .test: return false
                    default:
                        // `-` (past the end of an array) stands for the index the value was added at.
                        let same = { (token: String, component: String) in
                            token == component || (token == "-" && Int(component) != nil)
                        }
                        return path.starts(with: operation.path.tokens, by: { same($1, $0) })
                            || operation.path.tokens.starts(with: path, by: same)
                    }
                })
            else { throw error }
            error.message = "operation \(index) (\(patch.operations[index].summary)): \(error.description)"
            error.keyPath = ModelKeyPath()
            throw error
        }
    }

    /// Applies a JSON Merge Patch to this object's saved form.
    ///
    /// ```swift
    /// let note = Note()
    /// try note.apply(JSONMergePatch(json: #"{"title":"Milk","count":2}"#))
    /// print(note.title, note.count)   // Milk 2
    /// ```
    ///
    /// It works as ``apply(_:)-(JSONPatch)`` does: on the saved form, all or
    /// nothing, validated, recorded as changes. A merge patch cannot change
    /// or remove a metadata key, nor remove (set to `null`) a saved key;
    /// `null` for an optional property is written as a ``JSONPatch``
    /// `replace` instead. Nested models named in the patch are merged member
    /// by member; arrays, of models too, are replaced whole.
    /// - Parameter patch: the merge patch; it must be an object.
    /// - Throws: ``ModelError``, with the object unchanged: for a patch that
    ///   is not an object, changes a metadata key or removes a saved key, a
    ///   value a property cannot hold, or the failures of ``validate()``.
    public func apply(_ patch: JSONMergePatch) throws {
        try HistoryThreadState.asOneStep { try loadingInPlace { try applyMergePatch(patch) } }
    }

    private func applyMergePatch(_ patch: JSONMergePatch) throws {
        guard case .object = patch.value else {
            throw ModelError(
                code: .typeMismatch,
                message: "a merge patch of a \(Swift.type(of: self)) must be an object, found \(patch.value.excerpt)")
        }
        let original = try encodedRoot()
        let patched = try patch.applied(to: .object(original))
        var path: [String] = []
        if let reason = shapeViolation(of: patched, original: original, layout: layout, removed: "set to null")
            ?? Self.nestedMergeViolation(
                patch.value, at: &path, target: .object(original), shape: .model(Swift.type(of: self)))
        {
            throw ModelError(code: .invalidValue, message: "the merge patch is not allowed: \(reason)")
        }
        guard case .object(let members) = patched else { return }
        try loadPatchedForm(members, original: original)
    }

    /// A JSON Patch that turns this object's saved form into `other`'s.
    ///
    /// ```swift
    /// let before = Note(), after = before.copy()
    /// after.title = "Milk"
    /// print(try before.patch(to: after).jsonString())
    /// // [{"op":"replace","path":"/title","value":"Milk"}]
    /// ```
    ///
    /// It is ``JSONPatch/difference(from:to:)`` of the two saved forms, so
    /// it reaches into nested models and keeps unchanged array elements.
    /// Applied to this object with ``apply(_:)-(JSONPatch)``, it makes it
    /// equivalent to `other` when both are of the same class; a patch between
    /// two classes changes `"type"`, which ``apply(_:)-(JSONPatch)`` refuses.
    /// A model that cannot be written (see ``modelValue``) appears in the
    /// saved form as an `"$error"` marker.
    /// - Parameter other: the model to turn this one into.
    /// - Returns: the patch.
    public func patch(to other: ModelObject) -> JSONPatch {
        JSONPatch.difference(from: .object(encodedRootOrMarked()), to: .object(other.encodedRootOrMarked()))
    }

    /// Why `document`, a patched saved form, may not be loaded, or `nil`;
    /// `removed` says what happened to a saved key that is missing.
    func shapeViolation(
        of document: ModelValue, original: ModelValue.Object, layout: ClassLayout, removed: String
    ) -> String? {
        let type = Swift.type(of: self)
        guard case .object(let members) = document else {
            return "the saved form of a \(type) must stay an object, found \(document.excerpt)"
        }
        for key in [layout.typeKey, layout.versionKey].compactMap({ $0 }) where members[key] != original[key] {
            return "\(ModelValue.quoted(key)) is a metadata key of \(type), written by ModelKit; "
                + "a patch may test it but not change or remove it"
        }
        for offset in layout.savedOrder where members.index(forKey: layout.slots[offset].key) == nil {
            let key = layout.slots[offset].key
            return "\(ModelValue.quoted(key)) is a saved key of \(type) and cannot be \(removed); "
                + "replace its value instead"
        }
        return nil
    }

    /// Why `operation` may not change a model nested in `document` (the saved
    /// form of a `root`, before the operation), or `nil`: a nested model's
    /// metadata keys may not change and its saved keys may not be removed,
    /// as the root's may not (which the caller checks on the whole form).
    private static func nestedShapeViolation(
        of operation: JSONPatch.Operation, in document: ModelValue, root: ModelObject.Type
    ) -> String? {
        func violation(at pointer: JSONPointer, removing: Bool, value: ModelValue? = nil) -> String? {
            guard pointer.tokens.count >= 2, let key = pointer.tokens.last,
                let layout = SavedFormShape.model(at: pointer.tokens.dropLast(), in: document, root: root)
            else { return nil }
            let place = JSONPatch.shown(JSONPointer(tokens: Array(pointer.tokens.dropLast())))
            let isMetadata = [layout.typeKey, layout.versionKey].contains { $0.map { KeyHash.sameBytes($0, key) } ?? false }
            if isMetadata {
                // Setting the value it has is no change.
                if let value, let current = try? JSONPatch.value(at: pointer, in: document), current == value {
                    return nil
                }
                return "\(ModelValue.quoted(key)) is a metadata key of the \(layout.type) at \(place), written by "
                    + "ModelKit; a patch may test it but not change or remove it"
            }
            if removing, let offset = layout.offsetsByKey[key], KeyHash.sameBytes(layout.slots[offset].key, key) {
                return "\(ModelValue.quoted(key)) is a saved key of the \(layout.type) at \(place) and cannot be "
                    + "removed; replace its value instead"
            }
            return nil
        }
        switch operation {
        case .add(let path, let value), .replace(let path, let value):
            return violation(at: path, removing: false, value: value)
        case .remove(let path):
            return violation(at: path, removing: true)
        case .move(let from, let path):
            return violation(at: from, removing: true) ?? violation(at: path, removing: false)
        case .copy(_, let path):
            return violation(at: path, removing: false)
        case .test:
            return nil
        }
    }

    /// Why the merge patch `change`, which merges into the value at `path`
    /// of `original` (the saved form of a `root`), may not change a nested
    /// model there, or `nil`: as ``nestedShapeViolation(of:in:root:)`` for
    /// the members of each object that merges into a nested model.
    private static func nestedMergeViolation(
        _ change: ModelValue, at path: inout [String], target: ModelValue?, shape: SavedFormShape
    ) -> String? {
        // The target and its shape come down with the walk (looking them up
        // from the root at every level made deep patches quadratic).
        guard case .object(let changes) = change, case .object(let members)? = target else { return nil }
        let layout = shape.layout(of: .object(members))
        if !path.isEmpty, let layout {
            // Only an error names the place: made at every level, its text
            // (as long as the depth) made deep merge patches quadratic.
            func place() -> String { JSONPatch.shown(JSONPointer(tokens: path)) }
            for (key, value) in changes {
                let isMetadata = [layout.typeKey, layout.versionKey].contains {
                    $0.map { KeyHash.sameBytes($0, key) } ?? false
                }
                if isMetadata, members[key] != value {
                    return "\(ModelValue.quoted(key)) is a metadata key of the \(layout.type) at \(place()), written by "
                        + "ModelKit; a patch may test it but not change or remove it"
                }
                if case .null = value, let offset = layout.offsetsByKey[key],
                    KeyHash.sameBytes(layout.slots[offset].key, key)
                {
                    return "\(ModelValue.quoted(key)) is a saved key of the \(layout.type) at \(place()) and cannot be "
                        + "set to null; replace its value instead"
                }
            }
        }
        return StackGuard.descending(path.count) {
            for (key, value) in changes {
                let inner: SavedFormShape
                if let layout {
                    inner = layout.shape(ofKey: key)
                } else if case .members(let member) = shape {
                    inner = member
                } else {
                    inner = .other
                }
                path.append(key)
                defer { path.removeLast() }
                if let reason = nestedMergeViolation(value, at: &path, target: members[key], shape: inner) {
                    return reason
                }
            }
            return nil
        }
    }

    /// Loads a patched saved form into this object, all or nothing: decodes
    /// the members that differ from `original`, validates the result on a
    /// copy, then applies them in one step, recording changes. With
    /// `decodingEveryKey`, every member is decoded (so that references
    /// may name models anywhere in `patched`), and only values that differ
    /// change. `references` is the policy `original` was written with.
    func loadPatchedForm(
        _ patched: ModelValue.Object, original: ModelValue.Object, references: ReferencePolicy = .cycles,
        decodingEveryKey: Bool = false
    ) throws {
        let layout = self.layout
        var changed = ModelValue.Object()
        if let id = patched[ReferenceKeys.id] { changed.appendNew(key: ReferenceKeys.id, value: id) }
        for (index, (key, value)) in patched.enumerated()
        where key != ReferenceKeys.id && key != layout.typeKey && key != layout.versionKey {
            guard decodingEveryKey || original[key] != value else { continue }
            changed.appendNew(key: key, value: value)
            // A member keeps its text (an extensible property's `1.10`).
            if let text = patched.text(at: index) { changed.setText(text, at: changed.count - 1) }
        }
        let removed = original.keys.filter {
            patched.index(forKey: $0) == nil && $0 != ReferenceKeys.id && layout.offset(forKey: $0) == nil
        }.map { key in
            if case .escaped = ReferenceKeys.kind(of: key) { return ReferenceKeys.unescaped(key) }
            return key
        }
        guard changed.count > (patched[ReferenceKeys.id] == nil ? 0 : 1) || !removed.isEmpty else { return }

        // Decode for this object (nothing changes yet), and check the
        // result's rules on a copy.
        let pending = try decodePendingRoot(changed)
        let trial = copy()
        let trialPending = try trial.decodePendingRoot(changed)
        trial.apply(trialPending, recordingChanges: false, replacingBag: false)
        for key in removed { trial.removeExtensibleProperty(forKey: key) }
        try trial.validate()

        // Models the patch did not touch are put back in their places, and
        // those it edited take the new values in place.
        let reconciler = ModelReconciler(root: self, references: references)
        let current = withState { $0.snapshotValues() }
        for (offset, value) in pending.values
        where layout.slotMayHoldModels[offset] && !layout.weakSlots.contains(offset) {
            reconciler.pair(old: current[offset], new: value, codec: layout.slots[offset].codec, depth: 0)
        }
        var values = pending
        values.values = pending.values.map { offset, value in
            if layout.weakSlots.contains(offset) { return (offset, reconciler.repointed(value)) }
            guard layout.slotMayHoldModels[offset] else { return (offset, value) }
            return (offset, reconciler.replacingModels(in: value, codec: layout.slots[offset].codec))
        }
        reconciler.applyEdits()
        withLock {
            apply(values, recordingChanges: true, replacingBag: false)
            for key in removed { removeExtensibleProperty(forKey: key) }
        }
    }
}
