import Foundation

// The schemas of ModelKit's value types. Standard profiles list every form
// ModelKit reads; strict profiles the one it writes.

extension Color {
    /// The components object `{"red", "green", "blue", "alpha"}` of numbers
    /// from 0 to 1 (alpha may be left out), or, in the standard profile,
    /// also hex text such as `"#FF8000"`.
    public static func jsonSchema(in builder: JSONSchemaBuilder) -> ModelValue {
        let component: ModelValue = ["type": "number", "minimum": 0, "maximum": 1]
        let components = builder.objectSchema(
            [("red", component, true), ("green", component, true), ("blue", component, true),
             ("alpha", component, builder.isStrict)],
            closed: true, description: builder.isStrict ? "A colour: red, green, blue and alpha from 0 to 1." : nil)
        if builder.isStrict { return components }
        let hex: ModelValue = [
            "type": "string",
            "pattern": "^#?(?:[0-9A-Fa-f]{3}|[0-9A-Fa-f]{4}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$",
        ]
        return ["anyOf": [components, hex]]
    }
}

extension Interval {
    /// `{"amount", "unit"}`, `{"from", "to", "unit"}` (amounts of zero or
    /// more, the unit's plural name), or the text `"never"` or `"forever"`;
    /// in the standard profile also any text, since ModelKit reads text
    /// such as `"5 minutes"` (the schema cannot check it).
    public static func jsonSchema(in builder: JSONSchemaBuilder) -> ModelValue {
        let amount: ModelValue = ["type": "number", "minimum": 0]
        let unit: ModelValue = ["type": "string", "enum": .array(Unit.allCases.map { .string($0.rawValue) })]
        let single = builder.objectSchema(
            [("amount", amount, true), ("unit", unit, true)], closed: true)
        let range = builder.objectSchema(
            [("from", amount, true), ("to", amount, true), ("unit", unit, true)], closed: true)
        let text: ModelValue =
            builder.isStrict
            ? ["type": "string", "enum": ["never", "forever"]]
            : ["type": "string", "description": "An interval as text, such as \"5 minutes\", \"2-4 hours\" or \"never\"."]
        return ["anyOf": [single, range, text]]
    }
}

extension Day {
    /// The text `"2026-11-21"` (`format: date`).
    public static func jsonSchema(in builder: JSONSchemaBuilder) -> ModelValue {
        ["type": "string", "format": "date", "pattern": "^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])$"]
    }
}

extension TimeOfDay {
    /// The text `"14:30:00"`; the seconds may be left out.
    public static func jsonSchema(in builder: JSONSchemaBuilder) -> ModelValue {
        ["type": "string", "pattern": "^(?:[01][0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9])?$"]
    }
}
