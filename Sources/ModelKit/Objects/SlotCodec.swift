import Foundation

/// What ModelKit needs to know about the Swift type of one `@Saved` property,
/// with the type erased: how to convert its values to and from `ModelValue`,
/// compare them, check a value's type, and find the models they hold.
protocol SlotCodec: Sendable {
    var valueType: Any.Type { get }
    /// The slot's type, whose `_destroyStoredValue(at:)` is compiled for it.
    var convertibleType: any ModelValueConvertible.Type { get }
    /// Whether values may hold models, so that change tracking looks inside them.
    var mayContainModels: Bool { get }
    func encode(_ value: Any) -> ModelValue
    func decode(_ value: ModelValue) throws -> Any
    func isEqual(_ lhs: Any, _ rhs: Any) -> Bool
    /// `value` as the slot's type, or `nil` when it is of another type.
    func cast(_ value: Any?) -> Any?
    func forEachModel(in value: Any, _ body: (ModelObject) -> Void)
    /// `value` with every model it holds replaced by `transform(model)`
    /// (`copy()` uses it to point a copy at the copies of its models).
    func replacingModels(in value: Any, _ transform: (ModelObject) -> ModelObject) -> Any
    /// Whether the two values are equal apart from the identity of the models
    /// they hold, handing each pair of models in the same place to `pair`
    /// (`isEquivalent(to:)` compares those later).
    func matches(_ lhs: Any, _ rhs: Any, pairing pair: (ModelObject, ModelObject) -> Void) -> Bool

    // The slot's `SlotCell`, which holds a value of the slot's type.
    /// The value in an initialised cell, boxed.
    func readCell(_ cell: UnsafeMutableRawPointer) -> Any
    /// Replaces the value in an initialised cell with `value`, of the slot's type.
    func assignCell(_ cell: UnsafeMutableRawPointer, _ value: Any)
    /// Starts the life of `value`, of the slot's type, in an uninitialised cell.
    func initializeCell(_ cell: UnsafeMutableRawPointer, _ value: Any)
    /// Whether values are plain bytes, which need no destroying (`_isPOD`).
    var isPlainData: Bool { get }
    /// Moves the value of an initialised cell into an uninitialised one.
    func moveCell(from source: UnsafeMutableRawPointer, to target: UnsafeMutableRawPointer)
    /// How the direct JSON decoder reads values of this type straight from
    /// the bytes, if it can (probes the type's conversion: not cached here).
    func codableSlotReader() -> CodableSlotReader?
    /// How the direct JSON encoder writes values of this type without a
    /// `ModelValue`, if it may (the type is probed on first use).
    func codableSlotWriter() -> CodableSlotWriter?
}

struct TypedSlotCodec<Value: ModelValueConvertible>: SlotCodec {
    var valueType: Any.Type { Value.self }
    var convertibleType: any ModelValueConvertible.Type { Value.self }

    var mayContainModels: Bool {
        (Value.self as? any ModelGraphNode.Type)?.mayContainModels ?? false
    }

    func encode(_ value: Any) -> ModelValue {
        (value as! Value).modelValue
    }

    func readCell(_ cell: UnsafeMutableRawPointer) -> Any {
        SlotCell.pointer(cell, as: Value.self).pointee
    }

    func assignCell(_ cell: UnsafeMutableRawPointer, _ value: Any) {
        guard !ExactType.assign(cell, as: Value.self, from: value) else { return }
        SlotCell.pointer(cell, as: Value.self).pointee = value as! Value
    }

    func initializeCell(_ cell: UnsafeMutableRawPointer, _ value: Any) {
        guard !ExactType.initialize(cell, as: Value.self, from: value) else { return }
        SlotCell.initialize(cell, to: value as! Value)
    }

    var isPlainData: Bool { _isPOD(Value.self) && SlotCell.holdsInline(Value.self) }

    func moveCell(from source: UnsafeMutableRawPointer, to target: UnsafeMutableRawPointer) {
        SlotCell.move(from: source, to: target, as: Value.self)
    }

    func decode(_ value: ModelValue) throws -> Any {
        try Value.decoded(from: value)
    }

    func codableSlotReader() -> CodableSlotReader? { CodableSlotReader.of(Value.self) }

    func codableSlotWriter() -> CodableSlotWriter? { CodableSlotWriter.of(Value.self) }

    func isEqual(_ lhs: Any, _ rhs: Any) -> Bool {
        guard let lhs = lhs as? Value, let rhs = rhs as? Value else { return false }
        return lhs == rhs
    }

    func cast(_ value: Any?) -> Any? {
        if let value {
            if let typed = value as? Value { return typed }
            // A weak reference's cell is set from the property's own value.
            if let weak = Value.self as? any WeakReferenceValue.Type { return weak.referring(to: value) }
            return nil
        }
        if let weak = Value.self as? any WeakReferenceValue.Type { return weak.referring(to: nil) }
        // nil is a value only of optional types.
        if let optional = Value.self as? any ExpressibleByNilLiteral.Type {
            return optional.init(nilLiteral: ())
        }
        return nil
    }

    func forEachModel(in value: Any, _ body: (ModelObject) -> Void) {
        (value as? any ModelGraphNode)?.forEachModel(body)
    }

    func replacingModels(in value: Any, _ transform: (ModelObject) -> ModelObject) -> Any {
        guard mayContainModels, let node = value as? any ModelGraphNode else { return value }
        return node.replacingModels(transform)
    }

    func matches(_ lhs: Any, _ rhs: Any, pairing pair: (ModelObject, ModelObject) -> Void) -> Bool {
        guard let lhs = lhs as? Value, let rhs = rhs as? Value else { return false }
        guard mayContainModels, let node = lhs as? any ModelGraphNode else { return lhs == rhs }
        return node.matches(rhs, pairing: pair)
    }
}

/// A value that may hold models: a model, or a container of them. Change
/// tracking walks these to find every model reachable from an object.
protocol ModelGraphNode {
    static var mayContainModels: Bool { get }
    func forEachModel(_ body: (ModelObject) -> Void)
    /// This value with every model in it replaced by `transform(model)`.
    func replacingModels(_ transform: (ModelObject) -> ModelObject) -> Self
    /// Whether `other` (of this type) is equal to this value apart from the
    /// identity of the models held, handing each pair of models to `pair`.
    func matches(_ other: Any, pairing pair: (ModelObject, ModelObject) -> Void) -> Bool
}

extension ModelGraphNode {
    static func containsModels(_ type: Any.Type) -> Bool {
        (type as? any ModelGraphNode.Type)?.mayContainModels ?? false
    }

    /// `element` with its models replaced, when its type may hold models.
    static func replacing<Element>(in element: Element, _ transform: (ModelObject) -> ModelObject) -> Element {
        guard let node = element as? any ModelGraphNode else { return element }
        return node.replacingModels(transform) as! Element
    }

    /// Whether two elements match, models paired, when their type may hold
    /// models; `==` otherwise.
    static func match<Element: Equatable>(
        _ lhs: Element, _ rhs: Element, pairing pair: (ModelObject, ModelObject) -> Void
    ) -> Bool {
        guard let node = lhs as? any ModelGraphNode else { return lhs == rhs }
        return node.matches(rhs, pairing: pair)
    }
}

extension ModelObject: ModelGraphNode {
    static var mayContainModels: Bool { true }
    func forEachModel(_ body: (ModelObject) -> Void) { body(self) }
    func replacingModels(_ transform: (ModelObject) -> ModelObject) -> Self { transform(self) as! Self }
    func matches(_ other: Any, pairing pair: (ModelObject, ModelObject) -> Void) -> Bool {
        guard let other = other as? ModelObject else { return false }
        pair(self, other)
        return true
    }
}

extension Optional: ModelGraphNode where Wrapped: ModelValueConvertible {
    static var mayContainModels: Bool { containsModels(Wrapped.self) }
    func forEachModel(_ body: (ModelObject) -> Void) {
        if case .some(let wrapped) = self { (wrapped as? any ModelGraphNode)?.forEachModel(body) }
    }
    func replacingModels(_ transform: (ModelObject) -> ModelObject) -> Self {
        map { Self.replacing(in: $0, transform) }
    }
    func matches(_ other: Any, pairing pair: (ModelObject, ModelObject) -> Void) -> Bool {
        guard let other = other as? Self else { return false }
        switch (self, other) {
        case (nil, nil): return true
        case (let lhs?, let rhs?): return Self.match(lhs, rhs, pairing: pair)
        default: return false
        }
    }
}

extension Array: ModelGraphNode where Element: ModelValueConvertible {
    static var mayContainModels: Bool { containsModels(Element.self) }
    func forEachModel(_ body: (ModelObject) -> Void) {
        guard Self.mayContainModels else { return }
        for element in self { (element as? any ModelGraphNode)?.forEachModel(body) }
    }
    func replacingModels(_ transform: (ModelObject) -> ModelObject) -> Self {
        guard Self.mayContainModels else { return self }
        return Self(map { Self.replacing(in: $0, transform) })
    }
    func matches(_ other: Any, pairing pair: (ModelObject, ModelObject) -> Void) -> Bool {
        guard let other = other as? Self, count == other.count else { return false }
        guard Self.mayContainModels else { return self == other }
        return zip(self, other).allSatisfy { Self.match($0, $1, pairing: pair) }
    }
}

extension ContiguousArray: ModelGraphNode where Element: ModelValueConvertible {
    static var mayContainModels: Bool { containsModels(Element.self) }
    func forEachModel(_ body: (ModelObject) -> Void) {
        guard Self.mayContainModels else { return }
        for element in self { (element as? any ModelGraphNode)?.forEachModel(body) }
    }
    func replacingModels(_ transform: (ModelObject) -> ModelObject) -> Self {
        guard Self.mayContainModels else { return self }
        return Self(map { Self.replacing(in: $0, transform) })
    }
    func matches(_ other: Any, pairing pair: (ModelObject, ModelObject) -> Void) -> Bool {
        guard let other = other as? Self, count == other.count else { return false }
        guard Self.mayContainModels else { return self == other }
        return zip(self, other).allSatisfy { Self.match($0, $1, pairing: pair) }
    }
}

extension Set: ModelGraphNode where Element: ModelValueConvertible {
    static var mayContainModels: Bool { containsModels(Element.self) }
    func forEachModel(_ body: (ModelObject) -> Void) {
        guard Self.mayContainModels else { return }
        for element in self { (element as? any ModelGraphNode)?.forEachModel(body) }
    }
    func replacingModels(_ transform: (ModelObject) -> ModelObject) -> Self {
        guard Self.mayContainModels else { return self }
        return Self(map { Self.replacing(in: $0, transform) })
    }
    /// Sets of models hash by identity, so two sets of distinct models are
    /// matched through their saved forms rather than pair by pair.
    func matches(_ other: Any, pairing pair: (ModelObject, ModelObject) -> Void) -> Bool {
        guard let other = other as? Self, count == other.count else { return false }
        guard Self.mayContainModels else { return self == other }
        return Set<ModelValue>(map(\.modelValue)) == Set<ModelValue>(other.map(\.modelValue))
    }
}

extension Dictionary: ModelGraphNode where Key == String, Value: ModelValueConvertible {
    static var mayContainModels: Bool { containsModels(Value.self) }
    func forEachModel(_ body: (ModelObject) -> Void) {
        guard Self.mayContainModels else { return }
        for value in values { (value as? any ModelGraphNode)?.forEachModel(body) }
    }
    func replacingModels(_ transform: (ModelObject) -> ModelObject) -> Self {
        guard Self.mayContainModels else { return self }
        return mapValues { Self.replacing(in: $0, transform) }
    }
    func matches(_ other: Any, pairing pair: (ModelObject, ModelObject) -> Void) -> Bool {
        guard let other = other as? Self, count == other.count else { return false }
        guard Self.mayContainModels else { return self == other }
        for (key, value) in self {
            guard let otherValue = other[key], Self.match(value, otherValue, pairing: pair) else { return false }
        }
        return true
    }
}
