import Foundation

/// Builds the JSON Schema of a model class: what a saved type's
/// ``ModelValueConvertible/jsonSchema(in:)`` is handed, to describe the
/// values it holds and to reach the schemas of the types inside them.
///
/// A type with a conversion of its own describes its saved form here:
///
/// ```swift
/// extension Point {
///     static func jsonSchema(in builder: JSONSchemaBuilder) -> ModelValue {
///         ["type": "array", "items": builder.schema(for: Double.self), "minItems": 2, "maxItems": 2]
///     }
/// }
/// ```
///
/// Models get one definition each (under `$defs`), referred to with `$ref`,
/// so recursive classes are described once. Not `Sendable`: one builder
/// serves one call of ``ModelObject/jsonSchema(_:)``, on one thread.
public final class JSONSchemaBuilder {
    /// The schema being written: the standard one, or a language model's subset.
    public let profile: JSONSchemaProfile
    /// The date strategy in force for the property being described (its
    /// own, or its class's).
    public private(set) var dateStrategy: DateStrategy = .iso8601

    /// Whether the profile is a language model's: every object closed,
    /// every property required, one form per type (the form ModelKit
    /// writes) rather than every form it reads.
    public var isStrict: Bool { profile != .standard }

    /// The definitions made so far, by name, in the order first referred to.
    private(set) var definitions = ModelValue.Object()
    private var names: [ObjectIdentifier: String] = [:]
    private var usedNames: Set<String> = []
    /// For each definition, the definitions its schema refers to.
    private(set) var references: [String: [String]] = [:]
    /// The definitions being built, innermost last.
    private var building: [String] = []
    /// Where the builder is (`Note.children`), for messages.
    private var path: [String] = []
    /// Why the profile cannot describe the class, in the order found.
    private(set) var problems: [String] = []
    /// The `Codable` types whose shape is being probed, so that a recursive
    /// type stops instead of probing itself forever.
    var probing: Set<ObjectIdentifier> = []
    /// The class the schema is of: in strict profiles its definition is the
    /// root, referred to as `#`.
    private let root: ModelObject.Type

    init(profile: JSONSchemaProfile, root: ModelObject.Type) {
        self.profile = profile
        self.root = root
    }

    /// The schema of `type`'s saved form, as described by its
    /// ``ModelValueConvertible/jsonSchema(in:)``.
    public func schema<Value: ModelValueConvertible>(for type: Value.Type) -> ModelValue {
        Value.jsonSchema(in: self)
    }

    /// Records that the profile cannot describe what is being described,
    /// and why: ``ModelObject/jsonSchema(_:)`` then throws, naming the
    /// property.
    public func refuse(_ reason: String) {
        let place = path.isEmpty ? "" : path.joined(separator: ".") + ": "
        // One problem per place: the outermost, which says enough.
        guard place.isEmpty || !problems.contains(where: { $0.hasPrefix(place) }) else { return }
        problems.append(place + reason)
    }

    /// `schema` made to accept `null` too: a union with `"null"` in `type`
    /// (and `enum`) where the schema has a single type, otherwise `anyOf`
    /// with `{"type": "null"}`.
    public func nullable(_ schema: ModelValue) -> ModelValue {
        guard case .object(var object) = schema, !object.isEmpty else { return schema }
        let combined = object["anyOf"] != nil || object["oneOf"] != nil || object["$ref"] != nil
        if !combined, let type = object["type"] {
            switch type {
            case .string(let name): object["type"] = [.string(name), "null"]
            case .array(let names) where !names.contains("null"): object["type"] = .array(names + ["null"])
            default: break
            }
            if case .array(let cases) = object["enum"], !cases.contains(.null) {
                object["enum"] = .array(cases + [.null])
            }
            if let constant = object["const"] {
                object["const"] = nil
                object["enum"] = [constant, .null]
            }
            return .object(object)
        }
        if !combined, object["enum"] == nil, object["const"] == nil { return schema }
        if case .array(let branches) = object["anyOf"], object.count == 1 {
            if branches.contains(["type": "null"]) { return schema }
            return ["anyOf": .array(branches + [["type": "null"]])]
        }
        return ["anyOf": [schema, ["type": "null"]]]
    }

    /// The schema of an object with these properties: in the standard
    /// profile, `required` lists `required` and other keys are allowed
    /// unless `closed`; in strict profiles every property is required (the
    /// others made nullable) and no other key is allowed.
    func objectSchema(
        _ properties: [(key: String, schema: ModelValue, isRequired: Bool)], closed: Bool,
        description: String? = nil
    ) -> ModelValue {
        var members = ModelValue.Object()
        var required: [ModelValue] = []
        for property in properties {
            var schema = property.schema
            if isStrict, !property.isRequired { schema = nullable(schema) }
            members[property.key] = schema
            if isStrict || property.isRequired { required.append(.string(property.key)) }
        }
        var object: ModelValue.Object = ["type": "object"]
        if let description { object["description"] = .string(description) }
        object["properties"] = .object(members)
        if !required.isEmpty { object["required"] = .array(required) }
        if isStrict || closed { object["additionalProperties"] = false }
        return .object(object)
    }

    // MARK: - Dates and places

    /// Runs `body` with `strategy` in force (`nil`: the one in force).
    func with<Result>(dateStrategy strategy: DateStrategy?, _ body: () -> Result) -> Result {
        guard let strategy else { return body() }
        let saved = dateStrategy
        dateStrategy = strategy
        defer { dateStrategy = saved }
        return body()
    }

    /// Runs `body` with `step` added to the place named in messages.
    func at<Result>(_ step: String, _ body: () -> Result) -> Result {
        path.append(step)
        defer { path.removeLast() }
        return body()
    }

    // MARK: - Models

    /// The schema of a value declared as `type`: a reference to its
    /// definition, or, when registered subclasses of it may be loaded in its
    /// place, `oneOf` (`anyOf` in strict profiles) over the class and each
    /// of them, told apart by their `type` value. In the standard profile,
    /// also ``modelReference``: `{"$ref": id}` standing for a model written
    /// elsewhere in the document.
    func reference(to type: ModelObject.Type) -> ModelValue {
        let model = models(of: type)
        guard !isStrict else { return model }
        return ["anyOf": [model, Self.modelReference]]
    }

    /// `{"$ref": id}` in a saved form: a model written in full elsewhere in
    /// the same document, with that `"$id"` (see ``ReferencePolicy``).
    static let modelReference: ModelValue = {
        var properties = ModelValue.Object()
        properties[ReferenceKeys.ref] = ["type": "string"]
        return [
            "description": "A model written elsewhere in the same document: the \"$id\" it carries there.",
            "type": "object", "properties": .object(properties), "required": [.string(ReferenceKeys.ref)],
            "additionalProperties": false,
        ]
    }()

    /// The definition of `type`, or `oneOf` over it and its registered subclasses.
    private func models(of type: ModelObject.Type) -> ModelValue {
        let target = reference(toDefinitionOf: type)
        let descendants = Self.registeredDescendants(of: type)
        guard !descendants.isEmpty, let typeKey = ClassLayout.of(type).typeKey else { return target }
        var branches: [ModelValue] = [target]
        for descendant in descendants {
            let branch = reference(toDefinitionOf: descendant)
            if isStrict {
                branches.append(branch)
            } else if case .object(var object) = branch {
                object["required"] = [.string(typeKey)]
                branches.append(.object(object))
            }
        }
        return [isStrict ? "anyOf" : "oneOf": .array(branches)]
    }

    /// `{"$ref": …}` to the definition of `type`, which is made on first use.
    private func reference(toDefinitionOf type: ModelObject.Type) -> ModelValue {
        let name = definitionName(of: type)
        if let current = building.last, !(references[current]?.contains(name) ?? false) {
            references[current, default: []].append(name)
        }
        if isStrict, type == root { return ["$ref": "#"] }
        return ["$ref": .string("#/$defs/\(Self.escapedPointer(name))")]
    }

    /// The name of `type`'s definition, making the definition on first use.
    func definitionName(of type: ModelObject.Type) -> String {
        if let name = names[ObjectIdentifier(type)] { return name }
        let layout = ClassLayout.of(type)
        var name = layout.typeName
        var number = 2
        while usedNames.contains(name) {
            name = "\(layout.typeName)\(number)"
            number += 1
        }
        names[ObjectIdentifier(type)] = name
        usedNames.insert(name)
        definitions[name] = [:]  // keeps the order of first use; replaced below
        building.append(name)
        let definition = with(dateStrategy: layout.dateStrategy) {
            at(String(describing: type)) { ModelObject.definition(of: type, layout: layout, in: self) }
        }
        building.removeLast()
        definitions[name] = definition
        return name
    }

    /// Registered classes that loaded data may name in place of `type`:
    /// its registered subclasses, by type name.
    static func registeredDescendants(of type: ModelObject.Type) -> [ModelObject.Type] {
        ModelObject.registeredTypes.sorted { $0.key < $1.key }.map(\.value)
            .filter { $0 != type && type.isAncestor(of: $0) }
    }

    /// Whether `type` takes part in polymorphic loading: it has registered
    /// subclasses, or it is a registered subclass of another model class (a
    /// branch where that class is declared). Strict profiles then require
    /// its `type` key, which tells the alternatives apart; a registered
    /// class with no model class above or below it has no alternatives.
    static func isPolymorphic(_ type: ModelObject.Type) -> Bool {
        ModelObject.registeredTypes.values.contains { other in
            other != type && type.isAncestor(of: other)
                || other == type && ClassLayout.hasModelSuperclass(type)
        }
    }

    /// `name` escaped for a JSON Pointer (RFC 6901).
    static func escapedPointer(_ name: String) -> String {
        name.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// Which definitions take part in a cycle of references (a recursive class).
    var recursiveDefinitions: [String] {
        var result: [String] = []
        for start in definitions.keys {
            var seen: Set<String> = []
            var stack = references[start] ?? []
            while let next = stack.popLast() {
                if next == start {
                    result.append(start)
                    break
                }
                if seen.insert(next).inserted { stack.append(contentsOf: references[next] ?? []) }
            }
        }
        return result
    }

    // MARK: - Kinds

    /// The kind of value a schema describes, where it describes one kind
    /// (or one kind or `null`).
    enum Kind { case number, string, array, object, other }

    static func kind(of schema: ModelValue.Object) -> Kind {
        var names: [String] = []
        switch schema["type"] {
        case .string(let name)?: names = [name]
        case .array(let list)?: names = list.compactMap(\.stringValue).filter { $0 != "null" }
        default: return .other
        }
        guard names.count == 1 else { return .other }
        switch names[0] {
        case "integer", "number": return .number
        case "string": return .string
        case "array": return .array
        case "object": return .object
        default: return .other
        }
    }
}

extension ModelObject {
    /// Whether `other` is this class or a subclass of it.
    fileprivate static func isAncestor(of other: ModelObject.Type) -> Bool { other is Self.Type }
}
