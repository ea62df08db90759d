import Synchronization
import Foundation

extension ModelObject {
    /// The value at a key or dotted key path, or `nil`.
    ///
    /// A saved key (or a saved property's name) gives the property's Swift
    /// value, `nil` for an optional that holds none; any other key gives the
    /// extensible property's ``ModelValue``. Dots reach into nested models,
    /// and numbers index arrays: `children.1.title`.
    ///
    /// ```swift
    /// print(note.value(forKey: "title") as? String ?? "")        // Groceries
    /// print(note.value(forKey: "children.0.count") as? Int ?? 0) // 3
    /// ```
    public func value(forKey key: String) -> Any? {
        var current: Any = self
        for component in key.split(separator: ".", omittingEmptySubsequences: false) {
            guard let next = Self.member(String(component), of: current) else { return nil }
            current = next
        }
        return current
    }

    /// Sets the value at a key or dotted key path, recording a change if it
    /// differs from the current one.
    ///
    /// For a saved key, `value` must be of the property's type (`nil` for an
    /// optional), or a ``ModelValue`` that converts to it. Any other key is
    /// an unknown key, which follows the class's ``unknownKeys`` policy as
    /// loaded data does: with ``UnknownKeyPolicy/keep`` (the default) it sets
    /// an extensible property (so a misspelt key lands in the bag: `value`
    /// must then be a ``ModelValue`` or a ``ModelValueConvertible`` value,
    /// and `nil` removes it); ``UnknownKeyPolicy/ignore`` drops it;
    /// ``UnknownKeyPolicy/reject`` throws, naming the key. Dots reach into
    /// nested models, and numbers index arrays: `children.0.title`.
    ///
    /// ```swift
    /// try note.setValue("Milk", forKey: "children.0.title")
    /// // with no children: children[0]: there is no element 0: the array is empty
    /// ```
    ///
    /// - Throws: ``ModelError`` naming the key path when the value is of the
    ///   wrong type, breaks a rule, is an unknown key of a class that rejects
    ///   them, or the path does not lead to a model (saying why: no such
    ///   element, no such key, a `nil` on the way).
    public func setValue(_ value: Any?, forKey key: String) throws {
        let components = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var current: Any = self
        var path = ModelKeyPath()
        for component in components.dropLast() {
            path = path.appending(Int(component).map { .index($0) } ?? .key(component))
            guard let next = Self.member(component, of: current) else {
                throw ModelError(
                    code: .unknownKey, message: Self.whyNothing(at: component, in: current), keyPath: path)
            }
            current = next
        }
        guard let target = current as? ModelObject else {
            throw ModelError(
                code: .unknownKey,
                message: "expected a model to set a value in, found a value of type \(Swift.type(of: current))",
                keyPath: path)
        }
        do {
            try target.setOwnValue(value, forKey: components.last ?? key)
        } catch let error as ModelError {
            throw error.prepending(path)
        }
    }

    /// Why ``member(_:of:)`` found nothing at `component` of `container`:
    /// the end of a key path's message.
    private static func whyNothing(at component: String, in container: Any) -> String {
        func elements(_ count: Int) -> String {
            count == 0 ? "the array is empty" : "the array has \(count) element\(count == 1 ? "" : "s")"
        }
        func noElement(_ count: Int) -> String {
            guard Int(component) != nil else {
                return "expected the index of an element, found \(ModelValue.quoted(component)): \(elements(count))"
            }
            return "there is no element \(component): \(elements(count))"
        }
        switch container {
        case let model as ModelObject:
            let layout = model.layout
            if layout.offset(forKeyOrName: component) != nil {
                return "this is nil, not a model"
            }
            return "\(Swift.type(of: model)) has no saved key or extensible property \(ModelValue.quoted(component))"
        case let value as ModelValue:
            switch value {
            case .array(let array): return noElement(array.count)
            case .object: return "the object has no member \(ModelValue.quoted(component))"
            default: return "expected an array or an object, found \(value)"
            }
        case is [String: Any]:
            return "the dictionary has no value for \(ModelValue.quoted(component))"
        case let array as [Any]:
            return noElement(array.count)
        default:
            return "expected a model, an array or a dictionary, found a value of type \(Swift.type(of: container))"
        }
    }

    /// Sets a saved property or an extensible property of this object.
    private func setOwnValue(_ value: Any?, forKey key: String) throws {
        let layout = self.layout
        guard let offset = layout.offset(forKeyOrName: key) else {
            // An unknown key follows the class's policy, as in loaded data:
            // `.ignore` drops it, `.reject` refuses it, `.keep` puts it in the bag.
            if layout.unknownKeys == .ignore, key != layout.versionKey, key != layout.typeKey { return }
            let modelValue: ModelValue?
            switch value {
            case .none: modelValue = nil
            case let direct as ModelValue: modelValue = direct
            case let convertible as any ModelValueConvertible: modelValue = convertible.modelValue
            case .some(let other):
                throw ModelError(
                    code: .typeMismatch,
                    message: "expected a ModelValue or a ModelValueConvertible value for an extensible property, "
                        + "found a value of type \(Swift.type(of: other))",
                    keyPath: ModelKeyPath([.key(key)]))
            }
            try setExtensibleProperty(modelValue, forKey: key)
            return
        }
        let slot = layout.slots[offset]
        var typed = slot.codec.cast(value)
        if typed == nil, let modelValue = value as? ModelValue {
            do {
                typed = try CodingContext.with(classStrategy: slot.dateStrategy ?? layout.dateStrategy) { _ in
                    try slot.codec.decode(modelValue) as Any?
                }
            } catch let error as ModelError {
                throw error.prepending(.key(slot.key))
            }
        }
        guard let typed else {
            let found = value.map { "a value of type \(Swift.type(of: $0))" } ?? "nil"
            let expected =
                (slot.codec.valueType as? any WeakReferenceValue.Type)?.propertyTypeName ?? "\(slot.codec.valueType)"
            throw ModelError(
                code: .typeMismatch, message: "expected \(expected), found \(found)",
                keyPath: ModelKeyPath([.key(slot.key)]))
        }
        // Key-value access validates: the declared rules, then the class's hook.
        if let failure = validationFailure(of: typed, slot: slot) { throw failure }
        withState { state in
            let old = state.value(at: offset)
            guard !slot.codec.isEqual(old, typed) else { return }
            state.setValue(typed, at: offset)
            state.markChanged(slot: offset, old: old, layout: layout)
            queueChange(slot.key, old: old, new: typed, in: &state)
        }
        deliverChanges()
    }

    /// The member of `container` named `component`: a saved property or
    /// extensible property of a model, an element of an array, a value of a
    /// dictionary or of a ``ModelValue``.
    private static func member(_ component: String, of container: Any) -> Any? {
        switch container {
        case let model as ModelObject:
            let layout = model.layout
            if let offset = layout.offset(forKeyOrName: component) {
                let value = model.withState { $0.value(at: offset) }
                return unwrapped(value)
            }
            return model.extensibleProperty(forKey: component)
        case let value as ModelValue:
            if let index = Int(component) { return value[index] }
            return value[component]
        case let dictionary as [String: Any]:
            return dictionary[component].flatMap(unwrapped)
        case let array as [Any]:
            guard let index = Int(component), array.indices.contains(index) else { return nil }
            return unwrapped(array[index])
        default:
            return nil
        }
    }

    /// `value`, or nil when it is an optional holding none.
    static func unwrapped(_ value: Any) -> Any? {
        if let optional = value as? any OptionalValue { return optional.wrappedAny }
        return value
    }
}

/// Lets type-erased code look inside an optional.
protocol OptionalValue {
    var wrappedAny: Any? { get }
}

extension Optional: OptionalValue {
    var wrappedAny: Any? {
        switch self {
        case .none: nil
        case .some(let wrapped): ModelObject.unwrapped(wrapped)
        }
    }
}
