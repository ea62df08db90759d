extension ModelObject {
    /// Checks this object and every model reachable from it through saved
    /// properties: each property's declared rules (``ValidationRule``),
    /// ``validateValue(_:forKey:)`` for each saved key, then
    /// ``validateObject()``.
    ///
    /// Every failure is collected, not just the first: the error thrown
    /// lists each failing key path with its message, one per line, and
    /// ``ModelError/failures`` holds them one by one.
    ///
    /// ```swift
    /// do { try family.validate() } catch let error as ModelError { print(error) }
    /// // 2 values are invalid:
    /// // children[2].age: must be at most 150, found 200
    /// // name: must not be empty
    /// ```
    /// - Throws: ``ModelError`` with code ``ModelError/Code/invalidValue``.
    public final func validate() throws {
        var failures: [ModelError] = []
        var pending: [(ModelObject, ModelKeyPath)] = [(self, ModelKeyPath())]
        var seen = IdentitySet(self)
        while !pending.isEmpty {
            let (object, path) = pending.removeFirst()
            let layout = object.layout
            let values = object.withState { $0.values }
            for offset in layout.savedOrder {
                let slot = layout.slots[offset]
                if let failure = object.validationFailure(of: values[offset], slot: slot) {
                    failures.append(failure.prepending(path))
                }
                guard layout.slotMayHoldModels[offset] else { continue }
                for (child, childPath) in Self.models(in: values[offset], at: ModelKeyPath(path.components + [.key(slot.key)]))
                where seen.insert(child) {
                    pending.append((child, childPath))
                }
            }
            do {
                try object.validateObject()
            } catch {
                failures.append(Self.modelError(error).prepending(path))
            }
        }
        guard !failures.isEmpty else { return }
        throw ModelError.combining(failures)
    }

    /// The error for `value` of `slot`, or `nil` when it follows the rules
    /// and the class's hook accepts it.
    func validationFailure(of value: Any, slot: ClassLayout.Slot) -> ModelError? {
        var messages = slot.validator?.failures(of: value) ?? []
        do {
            try validateValue(value, forKey: slot.key)
        } catch {
            messages.append(Self.modelError(error).message)
        }
        guard !messages.isEmpty else { return nil }
        return ModelError(
            code: .invalidValue, message: messages.joined(separator: "; "), keyPath: ModelKeyPath([.key(slot.key)]))
    }

    /// `error` as a ``ModelError``.
    private static func modelError(_ error: any Error) -> ModelError {
        error as? ModelError ?? ModelError(code: .invalidValue, message: "\(error)")
    }

    /// The models in a slot's value, with their key paths: a model, an
    /// optional model, arrays and dictionaries of them (nested as deep as
    /// they go).
    private static func models(in value: Any, at path: ModelKeyPath) -> [(ModelObject, ModelKeyPath)] {
        var found: [(ModelObject, ModelKeyPath)] = []
        var pending: [(Any, ModelKeyPath)] = [(value, path)]
        while let (current, currentPath) = pending.popLast() {
            switch current {
            case let model as ModelObject:
                found.append((model, currentPath))
            case let list as [Any]:
                for (index, element) in list.enumerated().reversed() {
                    pending.append((element, ModelKeyPath(currentPath.components + [.index(index)])))
                }
            case let map as [String: Any]:
                for key in map.keys.sorted().reversed() {
                    pending.append((map[key]!, ModelKeyPath(currentPath.components + [.key(key)])))
                }
            default:
                break
            }
        }
        return found
    }
}

extension ModelError {
    /// The separate failures of an error that combines several (from
    /// ``ModelObject/validate()``); empty for a single failure.
    public var failures: [ModelError] { combined }

    /// One error listing `failures`, or the only one.
    static func combining(_ failures: [ModelError]) -> ModelError {
        guard failures.count > 1 else { return failures[0] }
        var error = ModelError(
            code: .invalidValue,
            message: "\(failures.count) values are invalid:\n" + failures.map(\.description).joined(separator: "\n"))
        error.combined = failures
        return error
    }
}
