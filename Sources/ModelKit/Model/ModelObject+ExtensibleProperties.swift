import Observation
import Synchronization
extension ModelObject {
    /// Keys present in loaded data that this class does not save, with their
    /// values in loaded form, plus any set by hand.
    ///
    /// They are written back, in their original order, every time the object
    /// is saved, in every format: data written by a newer version of an app
    /// survives a round trip through an older one.
    ///
    /// ```swift
    /// let note = try Note(json: Data(#"{"title":"A","pinned":true}"#.utf8))
    /// print(note.extensibleProperties)   // ["pinned": true]
    /// ```
    public var extensibleProperties: [String: ModelValue] {
        let object = withState { $0.bag.object }
        trackBagRead(object.keys, wholeBag: true)
        return object.dictionary
    }

    /// Tells observation tracking that these bag keys were read, and with
    /// `wholeBag` that the set of keys was: a view that lists the bag hears
    /// of a key added or removed.
    private func trackBagRead(_ keys: [String], wholeBag: Bool = false) {
        let center = observationCenter()
        for key in keys { center.registrar.access(self, keyPath: Self.observationKeyPath(key)) }
        if wholeBag { center.registrar.access(self, keyPath: Self.bagKeysKeyPath) }
    }

    /// The extensible properties in their loaded order.
    public var orderedExtensibleProperties: ModelValue.Object {
        let object = withState { $0.bag.object }
        trackBagRead(object.keys, wholeBag: true)
        return object
    }

    /// The extensible property for `key`, or `nil`.
    public func extensibleProperty(forKey key: String) -> ModelValue? {
        trackBagRead([key])
        return withState { $0.bag.value(forKey: key) }
    }

    /// Sets an extensible property, recording a change if the value differs;
    /// `nil` removes it.
    /// - Throws: ``ModelError`` when `key` is a saved key or a metadata key of
    ///   the class: those are not extensible properties; or when the class's
    ///   ``unknownKeys`` is ``UnknownKeyPolicy/ignore`` or
    ///   ``UnknownKeyPolicy/reject`` and `value` is not `nil`: such a class
    ///   keeps no extensible properties, since it would not write them back
    ///   (`.ignore`) or could not read them back (`.reject`).
    public func setExtensibleProperty(_ value: ModelValue?, forKey key: String) throws {
        let layout = self.layout
        if layout.offset(forKey: key) != nil {
            throw ModelError(
                code: .invalidValue,
                message: "\"\(key)\" is a saved key of \(Swift.type(of: self)), not an extensible property; "
                    + "set it with setValue(_:forKey:)",
                keyPath: ModelKeyPath([.key(key)]))
        }
        // DejalObject's class name is read as metadata too (see DejalObjectForm).
        if key == layout.versionKey || key == layout.typeKey || key == DejalObjectForm.classNameKey {
            throw ModelError(
                code: .invalidValue,
                message: "\"\(key)\" is a metadata key of \(Swift.type(of: self)), written by ModelKit",
                keyPath: ModelKeyPath([.key(key)]))
        }
        if value != nil, layout.unknownKeys != .keep {
            throw ModelError(
                code: .unknownKey,
                message: "\(Swift.type(of: self)) saves no key \(ModelValue.quoted(key)) and keeps no extensible "
                    + "properties (its unknownKeys is .\(layout.unknownKeys))",
                keyPath: ModelKeyPath([.key(key)]))
        }
        withState { state in
            let old = state.bag.value(forKey: key)
            guard old != value else { return }
            state.bag.set(value, forKey: key)
            state.markBagChanged(key: key, old: old)
            queueChange(key, old: old, new: value, in: &state)
        }
        deliverChanges()
    }

    /// Removes an extensible property, recording a change if it was there.
    /// - Returns: the removed value.
    @discardableResult
    public func removeExtensibleProperty(forKey key: String) -> ModelValue? {
        let old = withState { state -> ModelValue? in
            guard let old = state.bag.set(nil, forKey: key) else { return nil }
            state.markBagChanged(key: key, old: old)
            queueChange(key, old: old, new: nil as ModelValue?, in: &state)
            return old
        }
        deliverChanges()
        return old
    }
}
