import Synchronization
import Foundation

extension ModelObject {
    /// The saved form of this object: the metadata keys, then the saved keys
    /// in ``savedKeys`` order, then the ``extensibleProperties`` in the order
    /// they were loaded or set.
    ///
    /// A cycle in the graph of models, models nested past the limit, or a
    /// class with declaration problems is recorded in the thread's
    /// `EncodingGuard` (the throwing APIs report it), and the object that
    /// cannot be written is marked where it stands, as `{"$error": "…"}`, so
    /// APIs that cannot throw (`modelValue`, `dictionary`) neither trap nor
    /// cut the graph silently.
    func encodedMembers(includeMetadata: Bool = true) -> ModelValue.Object {
        let layout = self.layout
        let guardian = EncodingGuard.current
        if let error = layout.declarationError {
            if guardian.failure == nil { guardian.failure = error }
            return Self.errorMarker(error)
        }
        guard guardian.enter(self) else {
            return Self.errorMarker(guardian.failure ?? ModelError.invalidValue("this model cannot be written here"))
        }
        defer { guardian.leave() }

        let (values, bag, newerVersion) = withState { ($0.values, $0.bag.object, $0.loadedNewerVersion) }
        var members = ModelValue.Object(minimumCapacity: layout.savedOrder.count + bag.count + 2)
        if includeMetadata {
            if let typeKey = layout.typeKey { members.appendNew(key: typeKey, value: .string(layout.typeName)) }
            if let versionKey = layout.versionKey {
                members.appendNew(key: versionKey, value: .int(max(layout.version, newerVersion ?? 0)))
            }
        }
        CodingContext.with(classStrategy: layout.dateStrategy) { context in
            for offset in layout.savedOrder {
                let slot = layout.slots[offset]
                let value: ModelValue
                if let strategy = slot.dateStrategy {
                    context.dateStrategy = strategy
                    value = slot.codec.encode(values[offset])
                    context.dateStrategy = layout.dateStrategy
                } else {
                    value = slot.codec.encode(values[offset])
                }
                members.appendNew(key: slot.key, value: value)
            }
        }
        for (key, value) in bag where members.index(forKey: key) == nil {
            members.appendNew(key: key, value: value)
        }
        return members
    }

    /// The saved form of this object as the root of a document.
    /// - Throws: ``ModelError`` for a class with declaration problems or a
    ///   cycle in the graph of models.
    func encodedRoot() throws -> ModelValue.Object {
        let guardian = EncodingGuard.current
        let outer = guardian.failure
        guardian.failure = nil
        defer { guardian.failure = outer }
        let members = encodedMembers()
        if let failure = guardian.failure { throw failure }
        return members
    }

    /// The saved form, for APIs that cannot throw: where ``encodedRoot()``
    /// would throw, the model that cannot be written is marked with
    /// `{"$error": "…"}` instead.
    func encodedRootOrMarked() -> ModelValue.Object {
        let guardian = EncodingGuard.current
        let outer = guardian.failure
        guardian.failure = nil
        defer { guardian.failure = outer }
        return encodedMembers()
    }

    /// The marker that stands for a model that cannot be written.
    static func errorMarker(_ error: ModelError) -> ModelValue.Object {
        ["$error": .string(error.message)]
    }
}
