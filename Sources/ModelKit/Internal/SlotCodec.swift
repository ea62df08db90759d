import Foundation

/// What ModelKit needs to know about the Swift type of one `@Saved` property,
/// with the type erased: how to convert its values to and from `ModelValue`,
/// compare them, check a value's type, and find the models they hold.
protocol SlotCodec: Sendable {
    var valueType: Any.Type { get }
    /// Whether values may hold models, so that change tracking looks inside them.
    var mayContainModels: Bool { get }
    func encode(_ value: Any) -> ModelValue
    func decode(_ value: ModelValue) throws -> Any
    func isEqual(_ lhs: Any, _ rhs: Any) -> Bool
    /// `value` as the slot's type, or `nil` when it is of another type.
    func cast(_ value: Any?) -> Any?
    func forEachModel(in value: Any, _ body: (ModelObject) -> Void)
}

struct TypedSlotCodec<Value: ModelValueConvertible>: SlotCodec {
    var valueType: Any.Type { Value.self }

    var mayContainModels: Bool {
        (Value.self as? any ModelGraphNode.Type)?.mayContainModels ?? false
    }

    func encode(_ value: Any) -> ModelValue {
        (value as! Value).modelValue
    }

    func decode(_ value: ModelValue) throws -> Any {
        try Value.decoded(from: value)
    }

    func isEqual(_ lhs: Any, _ rhs: Any) -> Bool {
        guard let lhs = lhs as? Value, let rhs = rhs as? Value else { return false }
        return lhs == rhs
    }

    func cast(_ value: Any?) -> Any? {
        if let value {
            if let typed = value as? Value { return typed }
            return nil
        }
        // nil is a value only of optional types.
        if let optional = Value.self as? any ExpressibleByNilLiteral.Type {
            return optional.init(nilLiteral: ())
        }
        return nil
    }

    func forEachModel(in value: Any, _ body: (ModelObject) -> Void) {
        (value as? any ModelGraphNode)?.forEachModel(body)
    }
}

/// A value that may hold models: a model, or a container of them. Change
/// tracking walks these to find every model reachable from an object.
protocol ModelGraphNode {
    static var mayContainModels: Bool { get }
    func forEachModel(_ body: (ModelObject) -> Void)
}

extension ModelGraphNode {
    static func containsModels(_ type: Any.Type) -> Bool {
        (type as? any ModelGraphNode.Type)?.mayContainModels ?? false
    }
}

extension ModelObject: ModelGraphNode {
    static var mayContainModels: Bool { true }
    func forEachModel(_ body: (ModelObject) -> Void) { body(self) }
}

extension Optional: ModelGraphNode where Wrapped: ModelValueConvertible {
    static var mayContainModels: Bool { containsModels(Wrapped.self) }
    func forEachModel(_ body: (ModelObject) -> Void) {
        if case .some(let wrapped) = self { (wrapped as? any ModelGraphNode)?.forEachModel(body) }
    }
}

extension Array: ModelGraphNode where Element: ModelValueConvertible {
    static var mayContainModels: Bool { containsModels(Element.self) }
    func forEachModel(_ body: (ModelObject) -> Void) {
        guard Self.mayContainModels else { return }
        for element in self { (element as? any ModelGraphNode)?.forEachModel(body) }
    }
}

extension ContiguousArray: ModelGraphNode where Element: ModelValueConvertible {
    static var mayContainModels: Bool { containsModels(Element.self) }
    func forEachModel(_ body: (ModelObject) -> Void) {
        guard Self.mayContainModels else { return }
        for element in self { (element as? any ModelGraphNode)?.forEachModel(body) }
    }
}

extension Set: ModelGraphNode where Element: ModelValueConvertible {
    static var mayContainModels: Bool { containsModels(Element.self) }
    func forEachModel(_ body: (ModelObject) -> Void) {
        guard Self.mayContainModels else { return }
        for element in self { (element as? any ModelGraphNode)?.forEachModel(body) }
    }
}

extension Dictionary: ModelGraphNode where Key == String, Value: ModelValueConvertible {
    static var mayContainModels: Bool { containsModels(Value.self) }
    func forEachModel(_ body: (ModelObject) -> Void) {
        guard Self.mayContainModels else { return }
        for value in values { (value as? any ModelGraphNode)?.forEachModel(body) }
    }
}
