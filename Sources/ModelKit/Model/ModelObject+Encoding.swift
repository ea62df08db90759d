import Synchronization
import Foundation

extension ModelObject {
    /// The saved form of this object: the metadata keys, then the saved keys
    /// in ``savedKeys`` order, then the ``extensibleProperties`` in the order
    /// they were loaded or set (keys of the reference shape escaped, see
    /// ``ReferencePolicy``). A model met again on its own path is
    /// `{"$ref": "<id>"}`, and the model it refers to carries `"$id"` first.
    ///
    /// Models nested past the limit or a class with declaration problems are
    /// recorded in the thread's `EncodingGuard` (the throwing APIs report
    /// it), and the object that cannot be written is marked where it stands,
    /// as `{"$error": "…"}`, so APIs that cannot throw (`modelValue`,
    /// `dictionary`) neither trap nor cut the graph silently.
    func encodedMembers(includeMetadata: Bool = true) -> ModelValue.Object {
        // One level of recursion per model: on a large stack when this one runs low.
        if EncodingGuard.current.depth < StackGuard.uncheckedLevels {
            return encodedMembersHere(includeMetadata: includeMetadata)
        }
        do {
            return try StackGuard.continuingOnLargeStack { encodedMembersHere(includeMetadata: includeMetadata) }
        } catch {
            let failure = ModelError(error)
            let guardian = EncodingGuard.current
            if guardian.failure == nil { guardian.failure = failure }
            return Self.errorMarker(failure)
        }
    }

    private func encodedMembersHere(includeMetadata: Bool) -> ModelValue.Object {
        let layout = self.layout
        let guardian = EncodingGuard.current
        if let error = layout.declarationError {
            if guardian.failure == nil { guardian.failure = error }
            return Self.errorMarker(error)
        }
        let sharedID: String?
        switch guardian.enter(self) {
        case .reference(let id): return [ReferenceKeys.ref: .string(id)]
        case .refuse:
            return Self.errorMarker(guardian.failure ?? ModelError.invalidValue("this model cannot be written here"))
        case .write(let id): sharedID = id
        }
        var id = sharedID

        let (values, bag, newerVersion, kept) = withState {
            ($0.snapshotValues(), $0.bag.objectKeepingTexts, $0.loadedNewerVersion, $0.extras?.dejalKept)
        }
        var members = ModelValue.Object(minimumCapacity: layout.savedOrder.count + bag.count + 3)
        if let id { members.appendNew(key: ReferenceKeys.id, value: .string(id)) }
        let isDejalObject = layout.savedDialect == .dejalObject && guardian.writesSavedDialects
        if includeMetadata, isDejalObject {
            // DejalObject's metadata: its class name and version (see DejalObjectForm).
            members.appendNew(
                key: DejalObjectForm.classNameKey, value: .string(Swift.type(of: self).archivedClassName))
            members.appendNew(
                key: DejalObjectForm.versionKey, value: .int(max(layout.version, newerVersion ?? 0)))
        } else if includeMetadata {
            if let typeKey = layout.typeKey { members.appendNew(key: typeKey, value: .string(layout.typeName)) }
            if let versionKey = layout.versionKey {
                members.appendNew(key: versionKey, value: .int(max(layout.version, newerVersion ?? 0)))
            }
        }
        CodingContext.with(classStrategy: layout.dateStrategy) { context in
            for offset in layout.savedOrder {
                let slot = layout.slots[offset]
                let value: ModelValue
                if let kept = kept?[offset], slot.codec.isEqual(values[offset], kept.value) {
                    // Unedited since it was read from DejalObject's value
                    // dictionaries that held more: written in that form, in
                    // every format, with what they held (DejalObjectForm.Kept).
                    let fresh = DejalObjectForm.savedValue(values[offset]) { slot.codec.encode(values[offset]) }
                    value = DejalObjectForm.restoringKeptMembers(fresh, from: kept.original)
                } else if isDejalObject {
                    value = DejalObjectForm.savedValue(values[offset]) { slot.codec.encode(values[offset]) }
                } else if let strategy = slot.dateStrategy {
                    context.dateStrategy = strategy
                    value = slot.codec.encode(values[offset])
                    context.dateStrategy = layout.dateStrategy
                } else {
                    value = slot.codec.encode(values[offset])
                }
                members.appendNew(key: slot.key, value: value)
            }
        }
        for (index, (key, value)) in bag.enumerated() {
            let written = ReferenceKeys.escaped(key)
            if members.index(forKey: written) == nil {
                members.appendNew(key: written, value: value)
                if let text = bag.text(at: index) { members.setText(text, at: members.count - 1) }
            }
        }
        if let late = guardian.leave(), id == nil {
            // A model below referred back to this one: it carries the id first.
            id = late
            var withID = ModelValue.Object(minimumCapacity: members.count + 1)
            withID.appendNew(key: ReferenceKeys.id, value: .string(late))
            for (index, (key, value)) in members.enumerated() {
                withID.appendNew(key: key, value: value)
                if let text = members.text(at: index) { withID.setText(text, at: withID.count - 1) }
            }
            members = withID
        }
        return members
    }

    /// The saved form of this object as the root of a document.
    /// - Throws: ``ModelError`` for a class with declaration problems or
    ///   models nested past the limit.
    func encodedRoot(
        references: ReferencePolicy = .cycles, maximumDepth: Int = PropertyListBridge.maximumDepth
    ) throws -> ModelValue.Object {
        let guardian = EncodingGuard.current
        let saved = guardian.begin(root: self, policy: references, maximumDepth: maximumDepth)
        defer { guardian.end(saved) }
        let members = encodedMembersWithIDsInOrder(guardian, includeMetadata: true)
        if let failure = guardian.failure { throw failure }
        return members
    }

    /// The saved form, for APIs that cannot throw: where ``encodedRoot()``
    /// would throw, the model that cannot be written is marked with
    /// `{"$error": "…"}` instead.
    func encodedRootOrMarked(references: ReferencePolicy = .cycles, includeMetadata: Bool = true)
        -> ModelValue.Object
    {
        let guardian = EncodingGuard.current
        let saved = guardian.begin(root: self, policy: references)
        defer { guardian.end(saved) }
        return encodedMembersWithIDsInOrder(guardian, includeMetadata: includeMetadata)
    }

    /// The saved form of this object as the root of the document begun on
    /// `guardian`, written a second time when the ids it gave are not in
    /// document order, so that `"$id":"1"` comes first in the text.
    private func encodedMembersWithIDsInOrder(_ guardian: EncodingGuard, includeMetadata: Bool) -> ModelValue.Object {
        let members = encodedMembers(includeMetadata: includeMetadata)
        guard guardian.failure == nil, let renamed = guardian.idsInDocumentOrder() else { return members }
        guardian.restart(renaming: renamed)
        return encodedMembers(includeMetadata: includeMetadata)
    }

    /// The marker that stands for a model that cannot be written.
    static func errorMarker(_ error: ModelError) -> ModelValue.Object {
        ["$error": .string(error.message)]
    }
}
