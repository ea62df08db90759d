import Foundation

/// A type whose values can be saved: it converts to and from ``ModelValue``.
///
/// Every type a `@Saved` property holds conforms. ModelKit conforms the
/// standard types (`Bool`, the integer and floating-point types, `String`,
/// `Date`, `Data`, `URL`, `UUID`, `Decimal`), `Optional`, `Array`, `Set`,
/// `Dictionary` with `String` keys, its own value types and every
/// ``ModelObject`` subclass. An enum with a convertible raw value conforms by
/// declaring it: the implementation comes from a protocol extension.
///
/// ```swift
/// enum Priority: String, ModelValueConvertible { case low, normal, high }
///
/// struct Point: ModelValueConvertible {
///     var x = 0.0, y = 0.0
///     init(x: Double, y: Double) { self.x = x; self.y = y }
///     init(modelValue: ModelValue) throws {
///         guard case .array(let pair) = modelValue, pair.count == 2,
///               let x = pair[0].doubleValue, let y = pair[1].doubleValue
///         else { throw ModelError.typeMismatch(expected: "a pair of numbers", found: modelValue) }
///         self.init(x: x, y: y)
///     }
///     var modelValue: ModelValue { [.double(x), .double(y)] }
/// }
/// ```
///
/// Conformances are `Equatable` so that setting a property to an equal value
/// is not recorded as a change.
public protocol ModelValueConvertible: Equatable {
    /// Reads a value from its saved form.
    /// - Throws: ``ModelError`` when `modelValue` is of the wrong kind or not
    ///   acceptable. Containers add the failing element's key or index to the
    ///   error's key path.
    init(modelValue: ModelValue) throws

    /// The saved form of this value.
    var modelValue: ModelValue { get }

    /// Reads a value of this type from its saved form. The default calls
    /// ``init(modelValue:)``; model classes override it to create the
    /// registered subclass that the data names.
    static func decoded(from modelValue: ModelValue) throws -> Self

    /// The JSON Schema of this type's saved form, as JSON has it, for
    /// ``ModelObject/jsonSchema(_:)``. `builder` says which profile is being
    /// written and gives the schemas of other types.
    ///
    /// ModelKit describes the types it conforms; a raw-value enum gets its
    /// raw value's schema (with `enum` listing the cases when it is
    /// `CaseIterable`), and a `Codable` type with the `Codable` conversion
    /// the shape its coding has. A type with a conversion of its own is
    /// described as any value unless it implements this:
    ///
    /// ```swift
    /// extension Point {
    ///     static func jsonSchema(in builder: JSONSchemaBuilder) -> ModelValue {
    ///         ["type": "array", "items": ["type": "number"], "minItems": 2, "maxItems": 2]
    ///     }
    /// }
    /// ```
    static func jsonSchema(in builder: JSONSchemaBuilder) -> ModelValue

    /// Ends the life of a value of this type kept in an object's storage.
    ///
    /// An implementation detail of ModelKit's storage: the default, which
    /// every type uses, is compiled for each conforming type, so that
    /// destroying an object's values runs code made for their types. Do not
    /// implement it.
    static func _destroyStoredValue(at cell: UnsafeMutableRawPointer)

    /// Ends the life of an optional of this type kept in an object's
    /// storage: what `Optional`'s ``_destroyStoredValue(at:)`` calls, so
    /// that it too runs code made for the wrapped type (the generic
    /// `Optional` would look up its own type at run time, each time). An
    /// implementation detail; do not implement it.
    static func _destroyStoredOptional(at cell: UnsafeMutableRawPointer)

    /// Ends the life of an array of this type kept in an object's storage:
    /// what `Array`'s ``_destroyStoredValue(at:)`` calls, for the same
    /// reason. An implementation detail; do not implement it.
    static func _destroyStoredArray(at cell: UnsafeMutableRawPointer)
}

extension ModelValueConvertible {
    /// Ends the life of a value of this type kept in an object's storage
    /// (an implementation detail; see the requirement).
    @inlinable
    public static func _destroyStoredValue(at cell: UnsafeMutableRawPointer) {
        SlotCell.destroy(cell, as: Self.self)
    }

    /// Ends the life of an optional of this type kept in an object's
    /// storage (an implementation detail; see the requirement).
    @inlinable
    public static func _destroyStoredOptional(at cell: UnsafeMutableRawPointer) {
        SlotCell.destroy(cell, as: Self?.self)
    }

    /// Ends the life of an array of this type kept in an object's storage
    /// (an implementation detail; see the requirement): whatever the
    /// elements, the value is one reference, released by storing the empty
    /// array in its place.
    @inlinable
    public static func _destroyStoredArray(at cell: UnsafeMutableRawPointer) {
        cell.assumingMemoryBound(to: [Self].self).pointee = []
    }

    /// Reads a value of this type from its saved form, as ``init(modelValue:)`` does.
    public static func decoded(from modelValue: ModelValue) throws -> Self {
        // Tells a probe that this default is Self's (see CodableDefaultProbe).
        CodableDefaultProbe.noteDecodedDefault(Self.self)
        return try Self(modelValue: modelValue)
    }
}

extension ModelValue: ModelValueConvertible {
    /// Reads a value of this type from its saved form.
    /// - Throws: ``ModelError`` when `modelValue` is not such a value.
    public init(modelValue: ModelValue) throws { self = modelValue }
    /// The saved form of this value.
    public var modelValue: ModelValue { self }
}
