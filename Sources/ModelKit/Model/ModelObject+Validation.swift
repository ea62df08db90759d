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
        // Each model with the way from its parent (so a path is built only
        // for a failure: storing whole paths would cost the square of a
        // chain's length).
        struct Visit {
            let object: ModelObject
            let parent: Int
            let steps: [ModelKeyPath.Component]
        }
        var visits: [Visit] = [Visit(object: self, parent: -1, steps: [])]
        var seen = IdentitySet(self)
        func path(to index: Int) -> ModelKeyPath {
            var components: [ModelKeyPath.Component] = []
            var cursor = index
            while cursor >= 0 {
                components.insert(contentsOf: visits[cursor].steps, at: 0)
                cursor = visits[cursor].parent
            }
            return ModelKeyPath(components)
        }
        var next = 0
        while next < visits.count {
            let current = next
            let object = visits[current].object
            next += 1
            let layout = object.layout
            let values = object.withState { $0.snapshotValues() }
            for offset in layout.savedOrder {
                let slot = layout.slots[offset]
                if let failure = object.validationFailure(of: values[offset], slot: slot) {
                    failures.append(failure.prepending(path(to: current)))
                }
                guard layout.slotMayHoldModels[offset] else { continue }
                for (child, steps) in Self.models(in: values[offset], at: [.key(slot.key)]) where seen.insert(child) {
                    visits.append(Visit(object: child, parent: current, steps: steps))
                }
            }
            do {
                try object.validateObject()
            } catch {
                failures.append(Self.modelError(error).prepending(path(to: current)))
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

    /// The models in a slot's value, with the steps from the object to each:
    /// a model, an optional model, arrays and dictionaries of them (nested as
    /// deep as they go).
    private static func models(in value: Any, at steps: [ModelKeyPath.Component])
        -> [(ModelObject, [ModelKeyPath.Component])]
    {
        var found: [(ModelObject, [ModelKeyPath.Component])] = []
        var pending: [(Any, [ModelKeyPath.Component])] = [(value, steps)]
        while let (current, currentSteps) = pending.popLast() {
            switch current {
            case let model as ModelObject:
                found.append((model, currentSteps))
            case let list as [Any]:
                // By index, not `enumerated().reversed()`: that may pick
                // EnumeratedSequence's BidirectionalCollection conformance,
                // which Apple platforms have only from their 26 releases.
                for index in list.indices.reversed() {
                    pending.append((list[index], currentSteps + [.index(index)]))
                }
            case let map as [String: Any]:
                for key in map.keys.sorted().reversed() {
                    pending.append((map[key]!, currentSteps + [.key(key)]))
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
