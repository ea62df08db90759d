extension WeakReference {
    /// A `@Saved(reference: .weak)` property: `{"$ref": id}` naming a model
    /// written elsewhere in the same document, or `null`. Strict profiles
    /// describe only `null`: a language model writes no ids, and a missing
    /// reference loads as `nil`.
    static func jsonSchema(in builder: JSONSchemaBuilder) -> ModelValue {
        if builder.isStrict {
            return ["type": "null", "description": .string("A weak reference to a \(Model.self); always null here.")]
        }
        return [
            "description": .string(
                "A weak reference to a \(Model.self): {\"$ref\": id} naming a model written elsewhere in the document, or null."),
            "anyOf": [JSONSchemaBuilder.modelReference, ["type": "null"]],
        ]
    }
}
