extension ModelObject {
    private static let registry = LockedTable<String, ModelObject.Type>()

    /// Allows loaded data to name these classes for polymorphic decoding.
    ///
    /// Loaded data names its class under ``typeKey``. ModelKit creates that
    /// class only if it is the declared type of the property being read or a
    /// registered subclass of it: data cannot make an app instantiate any
    /// class it likes.
    ///
    /// ```swift
    /// ModelObject.register(Photo.self, Video.self)
    /// ```
    ///
    /// Registering a class twice does nothing; registering two classes under
    /// the same ``typeName`` stops the program with a message naming both.
    public static func register(_ types: ModelObject.Type...) {
        for type in types {
            let name = type.typeName
            registry.withLock { registry in
                if let existing = registry[name], existing != type {
                    preconditionFailure(
                        "ModelKit: \(existing) and \(type) are both registered under the type name \"\(name)\"; "
                            + "override typeName in one of them")
                }
                registry[name] = type
            }
        }
    }

    /// The registered classes, by type name.
    public static var registeredTypes: [String: ModelObject.Type] {
        registry.withLock { $0 }
    }

    /// The class that `name` names, if it is this class or a registered
    /// subclass of it; otherwise the error to throw, with the type key in its
    /// key path.
    class func resolveType(named name: String) -> Result<ModelObject.Type, ModelError> {
        let layout = ClassLayout.of(self)
        let keyPath = ModelKeyPath(layout.typeKey.map { [.key($0)] } ?? [])
        if name == layout.typeName { return .success(self) }
        guard let found = registry.withLock({ $0[name] }) else {
            return .failure(
                ModelError(
                    code: .unknownType,
                    message:
                        "expected \"\(layout.typeName)\" or the type name of a registered subclass of \(self), "
                        + "found \"\(name)\", which names no registered class (see ModelObject.register(_:))",
                    keyPath: keyPath))
        }
        guard found is Self.Type else {
            return .failure(
                ModelError(
                    code: .typeNotAllowed,
                    message:
                        "expected \(self) or a subclass of it, found \"\(name)\", which names \(found), "
                        + "a class that is not a subclass of \(self)",
                    keyPath: keyPath))
        }
        return .success(found)
    }
}
