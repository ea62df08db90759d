import Foundation

extension Optional: ModelValueConvertible where Wrapped: ModelValueConvertible {
    /// Ends the life of a stored value (an implementation detail of
    /// ModelKit's storage) by code compiled for `Wrapped`.
    public static func _destroyStoredValue(at cell: UnsafeMutableRawPointer) {
        Wrapped._destroyStoredOptional(at: cell)
    }

    /// `null` reads as `nil`, and so does DejalObject's `DejalDate` with no
    /// date where the wrapped type is `Date`; anything else as the wrapped type.
    public init(modelValue: ModelValue) throws {
        if case .null = modelValue {
            self = .none
        } else if case .object(let object) = modelValue, Wrapped.self == Date.self, DejalObjectForm.isNoDate(object) {
            self = .none
        } else {
            self = .some(try Wrapped.decoded(from: modelValue))
        }
    }

    /// The saved form of this value.
    public var modelValue: ModelValue {
        switch self {
        case .none: .null
        case .some(let wrapped): wrapped.modelValue
        }
    }
}

extension Array: ModelValueConvertible where Element: ModelValueConvertible {
    /// Ends the life of a stored value (an implementation detail of
    /// ModelKit's storage) by code compiled for `Element`.
    public static func _destroyStoredValue(at cell: UnsafeMutableRawPointer) {
        Element._destroyStoredArray(at: cell)
    }

    /// Reads each element with ``ModelValueConvertible/decoded(from:)``, so an
    /// array of models may hold registered subclasses.
    public init(modelValue: ModelValue) throws {
        guard case .array(let elements) = modelValue else {
            throw ModelError.typeMismatch(expected: "an array of \(Element.self)", found: modelValue)
        }
        var result: [Element] = []
        result.reserveCapacity(elements.count)
        // Models that reject unknown keys: every element's are reported together.
        var unknown = UnknownKeyErrors()
        for (index, element) in elements.enumerated() {
            do {
                result.append(try Element.decoded(from: element))
            } catch let error as ModelError {
                try unknown.record(error, at: .index(index))
            }
        }
        try unknown.throwIfAny()
        self = result
    }

    /// The saved form of this value.
    public var modelValue: ModelValue { .array(map(\.modelValue)) }
}

extension ContiguousArray: ModelValueConvertible where Element: ModelValueConvertible {
    /// Ends the life of a stored value (an implementation detail of
    /// ModelKit's storage): whatever the elements, the value is one reference,
    /// released by storing the empty value in its place (which needs no
    /// releasing), with no call through the type's metadata.
    public static func _destroyStoredValue(at cell: UnsafeMutableRawPointer) {
        cell.assumingMemoryBound(to: ContiguousArray<Element>.self).pointee = []
    }

    /// Reads a value of this type from its saved form.
    /// - Throws: ``ModelError`` when `modelValue` is not such a value.
    public init(modelValue: ModelValue) throws {
        self.init(try [Element](modelValue: modelValue))
    }

    /// The saved form of this value.
    public var modelValue: ModelValue { .array(map(\.modelValue)) }
}

extension Set: ModelValueConvertible where Element: ModelValueConvertible {
    /// Ends the life of a stored value (an implementation detail of
    /// ModelKit's storage): whatever the elements, the value is one reference,
    /// released by storing the empty value in its place (which needs no
    /// releasing), with no call through the type's metadata.
    public static func _destroyStoredValue(at cell: UnsafeMutableRawPointer) {
        cell.assumingMemoryBound(to: Set<Element>.self).pointee = []
    }

    /// Reads an array; repeated elements collapse.
    public init(modelValue: ModelValue) throws {
        self.init(try [Element](modelValue: modelValue))
    }

    /// Saved as an array in a stable order (sorted by the elements' saved
    /// form), so that writing the same set twice gives the same document.
    public var modelValue: ModelValue {
        let values = map(\.modelValue)
        return .array(values.sorted(by: ModelValue.stableOrder))
    }
}

extension Dictionary: ModelValueConvertible where Key == String, Value: ModelValueConvertible {
    /// Ends the life of a stored value (an implementation detail of
    /// ModelKit's storage): whatever the elements, the value is one reference,
    /// released by storing the empty value in its place (which needs no
    /// releasing), with no call through the type's metadata.
    public static func _destroyStoredValue(at cell: UnsafeMutableRawPointer) {
        cell.assumingMemoryBound(to: [String: Value].self).pointee = [:]
    }

    /// Reads an object; each value's key joins the key path of any error.
    public init(modelValue: ModelValue) throws {
        guard case .object(let object) = modelValue else {
            throw ModelError.typeMismatch(expected: "a dictionary of \(Value.self)", found: modelValue)
        }
        var result: [String: Value] = [:]
        result.reserveCapacity(object.count)
        var unknown = UnknownKeyErrors()
        for (key, value) in object {
            do {
                result[key] = try Value.decoded(from: value)
            } catch let error as ModelError {
                try unknown.record(error, at: .key(key))
            }
        }
        try unknown.throwIfAny()
        self = result
    }

    /// Saved as an object with keys in ascending order, so that writing the
    /// same dictionary twice gives the same document.
    public var modelValue: ModelValue {
        var object = ModelValue.Object(minimumCapacity: count)
        for key in keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            object.appendNew(key: key, value: self[key]!.modelValue)
        }
        return .object(object)
    }
}

extension ModelValue {
    /// A total order used to write unordered collections stably: by kind,
    /// then by value.
    static func stableOrder(_ lhs: ModelValue, _ rhs: ModelValue) -> Bool {
        func rank(_ value: ModelValue) -> Int {
            switch value {
            case .null: 0
            case .bool: 1
            case .int, .bigInteger, .double: 2
            case .string: 3
            case .date: 4
            case .data: 5
            case .array: 6
            case .object: 7
            }
        }
        let (left, right) = (rank(lhs), rank(rhs))
        if left != right { return left < right }
        switch (lhs, rhs) {
        case (.bool(let a), .bool(let b)): return !a && b
        case (.int(let a), .int(let b)): return a < b
        case (.string(let a), .string(let b)): return a.utf8.lexicographicallyPrecedes(b.utf8)
        case (.date(let a), .date(let b)): return a < b
        default:
            if let a = lhs.doubleValue, let b = rhs.doubleValue, a != b { return a < b }
            return lhs.description.utf8.lexicographicallyPrecedes(rhs.description.utf8)
        }
    }
}
