extension ModelObject {
    /// The model class that DejalObject's `"representedClassName"` `raw`
    /// stands for, read as this class: this class itself (its
    /// ``archivedClassName`` or ``typeName``), a name mapped with
    /// ``register(_:as:)``, or a registered subclass whose archived class
    /// name it is (with or without a module prefix, as keyed archives name
    /// classes).
    /// - Throws: ``ModelError`` with the key `representedClassName` when the
    ///   name is not a string, names no known class, or a class that is not
    ///   this one or a subclass of it.
    class func representedClass(named raw: ModelValue) throws -> ModelObject.Type {
        let key = DejalObjectForm.classNameKey
        guard case .string(let name) = raw else {
            throw ModelError.typeMismatch(expected: "a class name", found: raw).prepending(.key(key))
        }
        if name == archivedClassName || name == ClassLayout.of(self).typeName { return self }
        guard let found = ModelObject.archivedType(named: name, root: self) else {
            throw ModelError(
                code: .unknownType,
                message:
                    "expected \"\(archivedClassName)\" or the class name of a registered subclass of \(self), "
                    + "found \"\(name)\", which names no registered class (see ModelObject.register(_:as:))",
                keyPath: ModelKeyPath([.key(key)]))
        }
        guard found is Self.Type else {
            throw ModelError(
                code: .typeNotAllowed,
                message:
                    "expected \(self) or a subclass of it, found \"\(name)\", which names \(found), "
                    + "a class that is not a subclass of \(self)",
                keyPath: ModelKeyPath([.key(key)]))
        }
        return found
    }
}

extension ModelObject {
    /// The saved form of this object as the root of a document (a file,
    /// JSON, a dictionary, a property list): ``encodedRoot(references:maximumDepth:)``,
    /// with nil values left out of DejalObject's dictionaries when this
    /// class writes DejalObject's form.
    func encodedDocument(
        references: ReferencePolicy = .cycles, maximumDepth: Int = PropertyListBridge.maximumDepth
    ) throws -> ModelValue.Object {
        let members = try encodedRoot(references: references, maximumDepth: maximumDepth)
        return layout.savedDialect == .dejalObject ? DejalObjectForm.leavingOutNils(members) : members
    }

    /// The same for APIs that cannot throw (see `encodedRootOrMarked`).
    func encodedDocumentOrMarked(references: ReferencePolicy = .cycles) -> ModelValue.Object {
        let members = encodedRootOrMarked(references: references)
        return layout.savedDialect == .dejalObject ? DejalObjectForm.leavingOutNils(members) : members
    }
}

extension ModelObject {
    /// ``encodedRoot(references:maximumDepth:)`` in ModelKit's form whatever
    /// each class's ``savedDialect``: for keyed archives, whose writer tells
    /// models by their type key.
    func encodedRootInModelKitForm(references: ReferencePolicy) throws -> ModelValue.Object {
        let guardian = EncodingGuard.current
        let saved = guardian.writesSavedDialects
        guardian.writesSavedDialects = false
        defer { guardian.writesSavedDialects = saved }
        return try encodedRoot(references: references)
    }
}

extension Array where Element: ModelObject {
    /// Whether a model of the array writes DejalObject's form.
    var hasDejalObjectModels: Bool {
        contains { $0.layout.savedDialect == .dejalObject }
    }

    /// The models as the root of a document: ``arrayModelValue(references:maximumDepth:)``,
    /// with nil values left out of DejalObject's dictionaries (as
    /// `encodedDocument` leaves them out for one model).
    func arrayDocument(references: ReferencePolicy = .cycles, maximumDepth: Int = 512) throws -> ModelValue {
        let value = try arrayModelValue(references: references, maximumDepth: maximumDepth)
        guard hasDejalObjectModels, case .array(let elements) = value else { return value }
        return .array(elements.map { element in
            guard case .object(let members) = element else { return element }
            return .object(DejalObjectForm.leavingOutNils(members))
        })
    }
}
