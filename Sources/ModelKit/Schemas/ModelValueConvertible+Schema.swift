import Foundation

// The defaults of `ModelValueConvertible.jsonSchema(in:)`, from the least
// specific (any value) to raw-value enums, integers and `Codable` types.
// Each default that a more specific one must beat for `Codable` types is
// stated again with `& Codable`, as the conversions' defaults are.

extension ModelValueConvertible {
    /// Any value: what ModelKit knows of a type with a conversion of its
    /// own, unless the type describes itself.
    public static func jsonSchema(in builder: JSONSchemaBuilder) -> ModelValue {
        if builder.isStrict {
            builder.refuse(
                "\(Self.self) has a conversion of its own and does not describe its saved form "
                    + "(implement static func jsonSchema(in:))")
        }
        return ["description": .string("A \(Self.self), in the form its conversion writes.")]
    }
}

extension ModelValueConvertible where Self: Codable {
    /// The shape the type's `Codable` coding has, learnt by probing its
    /// `init(from:)` (see `CodableShapeProbe`), when its conversion is the
    /// `Codable` one; any value otherwise.
    public static func jsonSchema(in builder: JSONSchemaBuilder) -> ModelValue {
        guard CodableDefaultProbe.usesCodableDefault(Self.self),
            let schema = CodableShapeProbe(builder: builder).schema(of: Self.self)
        else {
            if builder.isStrict {
                builder.refuse("the saved form of \(Self.self) could not be learnt from its coding")
            }
            return ["description": .string("A \(Self.self), in the form its conversion writes.")]
        }
        return schema
    }
}

extension ModelValueConvertible where Self: RawRepresentable, RawValue: ModelValueConvertible {
    /// The raw value's schema, with `enum` listing the raw values when the
    /// type is `CaseIterable`.
    public static func jsonSchema(in builder: JSONSchemaBuilder) -> ModelValue {
        RawValueSchema.schema(of: Self.self, in: builder)
    }
}

extension ModelValueConvertible where Self: RawRepresentable & Codable, RawValue: ModelValueConvertible {
    /// The raw value's schema, with `enum` listing the raw values when the
    /// type is `CaseIterable`.
    public static func jsonSchema(in builder: JSONSchemaBuilder) -> ModelValue {
        RawValueSchema.schema(of: Self.self, in: builder)
    }
}

enum RawValueSchema {
    static func schema<T: RawRepresentable>(of type: T.Type, in builder: JSONSchemaBuilder) -> ModelValue
    where T.RawValue: ModelValueConvertible {
        let raw = builder.schema(for: T.RawValue.self)
        guard let iterable = type as? any CaseIterable.Type, case .object(var object) = raw else { return raw }
        var cases: [ModelValue] = []
        for element in iterable.allCases as any Collection {
            guard let value = element as? T else { continue }
            let saved = value.rawValue.modelValue
            if !cases.contains(saved) { cases.append(saved) }
        }
        guard !cases.isEmpty else { return raw }
        for keyword in ["minimum", "maximum", "pattern", "format"] { object[keyword] = nil }
        object["enum"] = .array(cases)
        return .object(object)
    }
}

extension ModelValueConvertible where Self: FixedWidthInteger {
    /// An integer, with the type's bounds unless it is 64 bits wide and signed.
    public static func jsonSchema(in builder: JSONSchemaBuilder) -> ModelValue {
        IntegerSchema.schema(of: Self.self)
    }
}

extension ModelValueConvertible where Self: FixedWidthInteger & Codable {
    /// An integer, with the type's bounds unless it is 64 bits wide and signed.
    public static func jsonSchema(in builder: JSONSchemaBuilder) -> ModelValue {
        IntegerSchema.schema(of: Self.self)
    }
}

enum IntegerSchema {
    /// `{"type": "integer"}` with `minimum` and `maximum` where they are
    /// narrower than a 64-bit signed integer's (JSON integers beyond that
    /// are read as big integers, which `UInt64` accepts).
    static func schema<T: FixedWidthInteger>(of type: T.Type) -> ModelValue {
        var object: ModelValue.Object = ["type": "integer"]
        if T.isSigned, T.bitWidth >= 64 { return .object(object) }
        object["minimum"] = IntegerConversion.modelValue(of: T.min)
        object["maximum"] = IntegerConversion.modelValue(of: T.max)
        return .object(object)
    }
}
