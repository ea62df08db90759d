import Foundation

extension ModelObject {
    /// The JSON Schema of this class's saved form.
    ///
    /// ```swift
    /// final class Todo: ModelObject, @unchecked Sendable {
    ///     @Saved(description: "What to do", rules: .nonEmpty) var title = "Untitled"
    ///     @Saved(rules: .range(1...5)) var priority = 3
    /// }
    ///
    /// let schema = try Todo.jsonSchema()
    /// print(schema["$defs"]?["Todo"]?["properties"]?["priority"] ?? "none")
    /// // {"type":"integer","minimum":1,"maximum":5}
    /// ```
    ///
    /// - ``JSONSchemaProfile/standard`` is JSON Schema draft 2020-12: one
    ///   definition per model class under `$defs`, referred to with `$ref`
    ///   (so recursive classes work); every form ModelKit reads (a `Date` as
    ///   a `date-time` string, or a number under a seconds or milliseconds
    ///   strategy; a `Color` as its components or a hex string); raw-value
    ///   enums that are `CaseIterable` as `enum`; `Codable` values in the
    ///   shape their coding has; rules as `minimum`, `maximum`, `minLength`,
    ///   `maxLength`, `minItems`, `maxItems` and `pattern`; descriptions from
    ///   `@Saved(description:)`; the metadata keys `type` and `version`;
    ///   registered subclasses as `oneOf` over their `type`; the references
    ///   between models (see ``ReferencePolicy``): every model may carry an
    ///   `"$id"` string, and wherever a model may stand, so may
    ///   `{"$ref": "<id>"}`. So every document ModelKit writes of the class
    ///   validates against it, a ``UnknownKeyPolicy/reject`` class's too. No
    ///   key is required (missing keys keep their defaults), and other keys
    ///   are allowed (they go to the bag) unless the class rejects them.
    ///   Rules made with `check` cannot be expressed and are left out.
    /// - ``JSONSchemaProfile/openAI`` and ``JSONSchemaProfile/anthropic`` are
    ///   the subsets those structured outputs accept (see the article
    ///   "Schemas for APIs and language models"); they describe no `"$id"`
    ///   or `"$ref"` members, which a language model has no use for.
    ///
    /// ```swift
    /// do {
    ///     let schema = try Note.jsonSchema(.openAI)
    ///     // send schema.jsonData() as the response format
    /// } catch {
    ///     print(error)   // names each property the profile cannot describe
    /// }
    /// ```
    ///
    /// - Parameter profile: the schema to write; `.standard` when left out.
    /// - Returns: the schema, a JSON object (write it with
    ///   ``ModelValue/jsonData(options:)``).
    /// - Throws: ``ModelError`` (`notRepresentable`) listing every property
    ///   and limit that the profile refuses (a `[String: T]` property for a
    ///   language model, a recursive class for Anthropic); the class's
    ///   declaration error (`invalidDeclaration`) when it has one. Never a
    ///   schema standing for an error.
    public static func jsonSchema(_ profile: JSONSchemaProfile = .standard) throws -> ModelValue {
        let layout = ClassLayout.of(self)
        if let error = layout.declarationError { throw error }
        let builder = JSONSchemaBuilder(profile: profile, root: self)
        let rootName = builder.definitionName(of: self)
        var problems = builder.problems
        var schema: ModelValue.Object
        switch profile {
        case .standard:
            schema = ["$schema": "https://json-schema.org/draft/2020-12/schema"]
            schema["$ref"] = .string("#/$defs/\(JSONSchemaBuilder.escapedPointer(rootName))")
            schema["$defs"] = .object(builder.definitions)
        case .openAI, .anthropic:
            guard case .object(let root) = builder.definitions[rootName] else { fatalError("no root definition") }
            schema = root
            var others = builder.definitions
            others[rootName] = nil
            if !others.isEmpty { schema["$defs"] = .object(others) }
            if profile == .anthropic {
                for name in builder.recursiveDefinitions {
                    problems.append(
                        "\(name) refers to itself through its properties (a recursive class), "
                            + "which Anthropic's structured outputs do not accept")
                }
            }
            var adapted = ModelValue.object(schema)
            problems += JSONSchemaProfileRules(profile: profile).adapt(&adapted)
            return try refuseIfNeeded(problems, profile: profile, result: adapted)
        }
        return try refuseIfNeeded(problems, profile: profile, result: .object(schema))
    }

    /// The JSON Schema of this class's saved form: ``jsonSchema(_:)``,
    /// which now throws where this did.
    ///
    /// - Parameter profile: the schema to write; `.standard` when left out.
    /// - Returns: the schema that ``jsonSchema(_:)`` returns.
    /// - Throws: what ``jsonSchema(_:)`` throws.
    @available(*, deprecated, renamed: "jsonSchema(_:)")
    public static func validatedJSONSchema(_ profile: JSONSchemaProfile = .standard) throws -> ModelValue {
        try jsonSchema(profile)
    }

    private static func refuseIfNeeded(_ problems: [String], profile: JSONSchemaProfile, result: ModelValue) throws
        -> ModelValue
    {
        guard !problems.isEmpty else { return result }
        let list =
            problems.count == 1
            ? problems[0] : Array(problems.enumerated()).map { "(\($0.offset + 1)) \($0.element)" }.joined(separator: "; ")
        let name =
            switch profile {
            case .standard: "JSON Schema"
            case .openAI: "OpenAI's structured outputs"
            case .anthropic: "Anthropic's structured outputs"
            }
        throw ModelError(code: .notRepresentable, message: "\(self) cannot be described for \(name): \(list)")
    }

    /// The schema of a value declared as this class: a reference to the
    /// class's definition (see ``jsonSchema(_:)``).
    public static func jsonSchema(in builder: JSONSchemaBuilder) -> ModelValue {
        builder.reference(to: self)
    }

    /// The definition of `type`: its metadata keys and saved properties.
    static func definition(of type: ModelObject.Type, layout: ClassLayout, in builder: JSONSchemaBuilder) -> ModelValue {
        if let error = layout.declarationError {
            builder.refuse(error.message)
            return [:]
        }
        var properties: [(key: String, schema: ModelValue, isRequired: Bool)] = []
        if let typeKey = layout.typeKey {
            if !builder.isStrict {
                properties.append(
                    (typeKey,
                     ["description": "The class of the saved model; when left out, the declared class.",
                      "const": .string(layout.typeName)], false))
            } else if JSONSchemaBuilder.isPolymorphic(type) {
                properties.append((typeKey, ["type": "string", "enum": [.string(layout.typeName)]], true))
            }
        }
        if !builder.isStrict {
            // A model that a reference elsewhere in the document names carries its id.
            properties.append(
                (ReferenceKeys.id,
                 ["description": "The model's id, which {\"$ref\": id} elsewhere in the same document refers to.",
                  "type": "string"], false))
        }
        if let versionKey = layout.versionKey, !builder.isStrict {
            properties.append(
                (versionKey,
                 ["description": .string(
                     "The data version: \(layout.version) for this class; older versions are upgraded when loaded."),
                  "type": "integer", "minimum": 0], false))
        }
        for offset in layout.savedOrder {
            let slot = layout.slots[offset]
            let schema = builder.at(slot.key) {
                builder.with(dateStrategy: slot.dateStrategy) { slotSchema(slot, in: builder) }
            }
            properties.append((slot.key, schema, builder.isStrict))
        }
        let closed = !allowsUnknownKeysInSchema(type)
        return builder.objectSchema(properties, closed: closed)
    }

    /// Whether the schema of `type` lets other keys through: they go to the
    /// bag or are dropped, unless the class rejects them
    /// (``UnknownKeyPolicy/reject``), whose schema says
    /// `"additionalProperties": false`.
    static func allowsUnknownKeysInSchema(_ type: ModelObject.Type) -> Bool {
        ClassLayout.of(type).unknownKeys != .reject
    }

    /// One saved property's schema: its type's, with its rules and description.
    private static func slotSchema(_ slot: ClassLayout.Slot, in builder: JSONSchemaBuilder) -> ModelValue {
        var schema = slot.codec.convertibleType.jsonSchema(in: builder)
        var notes: [String] = []
        for constraint in slot.validator?.constraints ?? [] {
            guard let constraint else {
                notes.append("a rule that no schema can express is checked when loading")
                continue
            }
            guard case .object(var object) = schema, constraint.apply(to: &object) else {
                notes.append("a rule that this schema cannot express is checked when loading")
                continue
            }
            schema = .object(object)
        }
        var text = slot.description ?? ""
        if !builder.isStrict, !notes.isEmpty {
            let unique = notes.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            let said = unique.joined(separator: "; ")
            text = text.isEmpty ? said.prefix(1).uppercased() + said.dropFirst() + "." : "\(text) (\(said))"
        }
        guard !text.isEmpty, case .object(var object) = schema else { return schema }
        if builder.isStrict, object["$ref"] != nil { return schema }
        object["description"] = .string(text)
        return .object(object)
    }
}
