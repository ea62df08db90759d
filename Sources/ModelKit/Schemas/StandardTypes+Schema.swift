import Foundation

// The schemas of the standard types' saved forms in JSON. In the standard
// profile a type lists every form ModelKit reads (a Data's base64 text, a
// Decimal's number); in strict profiles only the form it writes.

extension Bool {
    /// `{"type": "boolean"}`.
    public static func jsonSchema(in builder: JSONSchemaBuilder) -> ModelValue { ["type": "boolean"] }
}

extension String {
    /// `{"type": "string"}`.
    public static func jsonSchema(in builder: JSONSchemaBuilder) -> ModelValue { ["type": "string"] }
}

extension Double {
    /// `{"type": "number"}`.
    public static func jsonSchema(in builder: JSONSchemaBuilder) -> ModelValue { ["type": "number"] }
}

extension Float {
    /// A number no larger in magnitude than `Float.greatestFiniteMagnitude`
    /// as ModelKit writes it (3.4028235e+38, which reads back as it).
    public static func jsonSchema(in builder: JSONSchemaBuilder) -> ModelValue {
        ["type": "number", "minimum": (-Float.greatestFiniteMagnitude).modelValue,
         "maximum": Float.greatestFiniteMagnitude.modelValue]
    }
}

extension Data {
    /// Base64 text (`contentEncoding: base64`), with padding.
    public static func jsonSchema(in builder: JSONSchemaBuilder) -> ModelValue {
        ["type": "string", "contentEncoding": "base64",
         "pattern": "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$"]
    }
}

extension URL {
    /// A URL's text: `format: uri-reference`, not empty.
    public static func jsonSchema(in builder: JSONSchemaBuilder) -> ModelValue {
        ["type": "string", "format": "uri-reference", "minLength": 1]
    }
}

extension UUID {
    /// A UUID's text, `format: uuid`; ModelKit writes upper case and reads either case.
    public static func jsonSchema(in builder: JSONSchemaBuilder) -> ModelValue {
        ["type": "string", "format": "uuid",
         "pattern": "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$"]
    }
}

extension Decimal {
    /// The exact decimal text ModelKit writes (`"19.99"`); in the standard
    /// profile also a number, which it reads.
    public static func jsonSchema(in builder: JSONSchemaBuilder) -> ModelValue {
        let text: ModelValue = [
            "type": "string", "description": "A decimal number as text, such as \"19.99\".",
            "pattern": "^[+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?$",
        ]
        return builder.isStrict ? text : ["anyOf": [text, ["type": "number"]]]
    }
}

extension Date {
    /// As the date strategy in force writes it: a `date-time` string (ISO
    /// 8601 with a time zone), or a number of seconds or milliseconds since
    /// 1970, which in the standard profile may also be a `date-time` string.
    public static func jsonSchema(in builder: JSONSchemaBuilder) -> ModelValue {
        var text: ModelValue.Object = ["type": "string", "format": "date-time"]
        if !builder.isStrict {
            // What ModelKit's ISO 8601 reader accepts, month and day ranges
            // aside (a 30 February passes the pattern and is refused).
            text["pattern"] =
                "^(?:[+-][0-9]{6,}|[0-9]{4})-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]+)?(?:Z|[+-][0-9]{2}:[0-9]{2})$"
        }
        let number: ModelValue
        switch builder.dateStrategy {
        case .iso8601: return .object(text)
        case .secondsSince1970:
            number = ["type": "number", "description": "Seconds since 1970-01-01T00:00:00Z."]
        case .millisecondsSince1970:
            number = ["type": "number", "description": "Milliseconds since 1970-01-01T00:00:00Z."]
        case .deferredToDate:
            number = ["type": "number", "description": "Seconds since 2001-01-01T00:00:00Z."]
        }
        return builder.isStrict ? number : ["anyOf": [number, .object(text)]]
    }
}

extension ModelValue {
    /// Any value: `{}`. Strict profiles cannot say "any value" and refuse it.
    public static func jsonSchema(in builder: JSONSchemaBuilder) -> ModelValue {
        if builder.isStrict { builder.refuse("a ModelValue may be any value, which a strict schema cannot say") }
        return [:]
    }
}

extension Optional where Wrapped: ModelValueConvertible {
    /// The wrapped type's schema, or `null`.
    public static func jsonSchema(in builder: JSONSchemaBuilder) -> ModelValue {
        builder.nullable(builder.schema(for: Wrapped.self))
    }
}

extension Array where Element: ModelValueConvertible {
    /// An array of the element's schema.
    public static func jsonSchema(in builder: JSONSchemaBuilder) -> ModelValue {
        ["type": "array", "items": builder.schema(for: Element.self)]
    }
}

extension ContiguousArray where Element: ModelValueConvertible {
    /// An array of the element's schema.
    public static func jsonSchema(in builder: JSONSchemaBuilder) -> ModelValue {
        ["type": "array", "items": builder.schema(for: Element.self)]
    }
}

extension Set where Element: ModelValueConvertible {
    /// An array of the element's schema; repeated elements are accepted
    /// (they collapse when read), so there is no `uniqueItems`.
    public static func jsonSchema(in builder: JSONSchemaBuilder) -> ModelValue {
        ["type": "array", "items": builder.schema(for: Element.self)]
    }
}

extension Dictionary where Key == String, Value: ModelValueConvertible {
    /// An object whose members have the value's schema. Strict profiles have
    /// no form for keys that are not known in advance, so they refuse it.
    public static func jsonSchema(in builder: JSONSchemaBuilder) -> ModelValue {
        if builder.isStrict {
            builder.refuse(
                "a dictionary ([String: \(Value.self)]) has keys that are not known in advance, "
                    + "which strict structured outputs cannot describe (use an array of models with a key property)")
        }
        return ["type": "object", "additionalProperties": builder.schema(for: Value.self)]
    }
}
