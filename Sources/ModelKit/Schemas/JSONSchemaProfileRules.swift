import Foundation

/// What a language model's profile accepts, applied to a finished schema:
/// keywords it does not accept are moved into `description` as words
/// (`at most 150`), and its limits are checked.
///
/// The providers' documentation is the specification, read in November 2026:
/// - OpenAI, "Structured model outputs", section "Supported schemas"
///   (platform.openai.com/docs/guides/structured-outputs): the root is an
///   object, not `anyOf`; every object has `additionalProperties: false`
///   and lists every property in `required`; optional values are unions
///   with `"null"`; supported keywords are `type`, `properties`,
///   `required`, `additionalProperties`, `items`, `enum`, `const`, `anyOf`,
///   `$ref`/`$defs` (recursion with `#` allowed), `description`, and for
///   strings `pattern` and `format` (`date-time`, `time`, `date`,
///   `duration`, `email`, `hostname`, `ipv4`, `ipv6`, `uuid`), for numbers
///   `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`,
///   `multipleOf`, for arrays `minItems`, `maxItems`; `allOf`, `not`,
///   `if`/`then`/`else` and the dependent keywords are not. Limits: at most
///   5,000 object properties in all, 10 levels of nesting, 1,000 enum
///   values, 120,000 characters of property names, definition names, enum
///   and const values, and 15,000 characters for a string enum of more
///   than 250 values.
/// - Anthropic, "Structured outputs", section "JSON Schema limitations"
///   (docs.claude.com/en/docs/build-with-claude/structured-outputs):
///   supported are the basic types, `enum`, `const`, `anyOf`, `allOf`,
///   local `$ref`/`$defs`, `required`, `additionalProperties: false`
///   (required on every object), `format` (`date-time`, `time`, `date`,
///   `duration`, `email`, `hostname`, `uri`, `ipv4`, `ipv6`, `uuid`),
///   simple `pattern`s and `minItems` of 0 or 1; not supported are
///   recursive schemas, `minimum`/`maximum`/`multipleOf`,
///   `minLength`/`maxLength`, other array bounds. Its SDKs move
///   unsupported constraints into descriptions, as this does. Limits: at
///   most 24 optional properties and 16 properties using `anyOf` or type
///   unions per request (checked per schema here).
struct JSONSchemaProfileRules {
    let profile: JSONSchemaProfile

    /// Keywords kept as they are (others are described in words or dropped).
    private var keptKeywords: Set<String> {
        var kept: Set<String> = [
            "type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf", "$ref",
            "$defs", "description", "pattern", "format",
        ]
        switch profile {
        case .openAI: kept.formUnion(["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minItems", "maxItems"])
        case .anthropic: kept.formUnion(["allOf"])
        case .standard: break
        }
        return kept
    }

    private var formats: Set<String> {
        var formats: Set<String> = ["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]
        if profile == .anthropic { formats.insert("uri") }
        return formats
    }

    /// Adapts `schema` in place; returns the limits it breaks.
    func adapt(_ schema: inout ModelValue) -> [String] {
        var counts = Counts()
        schema = adapted(schema, counts: &counts, isSchemaMap: false)
        var problems: [String] = []
        switch profile {
        case .openAI:
            if counts.properties > 5_000 {
                problems.append("the schema has \(counts.properties) object properties; OpenAI allows 5,000")
            }
            let depth = nesting(of: schema, root: schema, visiting: ["#"])
            if depth > 10 {
                problems.append("objects are nested \(depth) levels deep; OpenAI allows 10")
            }
            if counts.enumValues > 1_000 {
                problems.append("the schema has \(counts.enumValues) enum values; OpenAI allows 1,000")
            }
            if counts.characters > 120_000 {
                problems.append(
                    "property names, definition names, enum and const values add up to \(counts.characters) "
                        + "characters; OpenAI allows 120,000")
            }
            if counts.largeEnumCharacters > 15_000 {
                problems.append(
                    "a string enum of more than 250 values has \(counts.largeEnumCharacters) characters; "
                        + "OpenAI allows 15,000")
            }
        case .anthropic:
            if counts.unions > 16 {
                problems.append(
                    "\(counts.unions) properties use anyOf or a type union (optionals among them); Anthropic allows 16")
            }
        case .standard: break
        }
        return problems
    }

    private struct Counts {
        var properties = 0
        var enumValues = 0
        var characters = 0
        var largeEnumCharacters = 0
        var unions = 0
    }

    /// `value` (a schema, or a map of schemas when `isSchemaMap`) adapted.
    private func adapted(_ value: ModelValue, counts: inout Counts, isSchemaMap: Bool) -> ModelValue {
        guard case .object(let object) = value else { return value }
        if isSchemaMap {
            var result = ModelValue.Object()
            for (name, schema) in object {
                counts.characters += name.count
                result[name] = adapted(schema, counts: &counts, isSchemaMap: false)
            }
            return .object(result)
        }
        var result = ModelValue.Object()
        var words: [String] = []
        for (keyword, member) in object {
            switch keyword {
            case "properties":
                if case .object(let properties) = member {
                    counts.properties += properties.count
                    for (_, property) in properties {
                        if case .object(let schema) = property,
                            schema["anyOf"] != nil || (schema["type"]?.arrayValue?.count ?? 0) > 1
                        {
                            counts.unions += 1
                        }
                    }
                }
                result[keyword] = adapted(member, counts: &counts, isSchemaMap: true)
            case "$defs":
                result[keyword] = adapted(member, counts: &counts, isSchemaMap: true)
            case "items", "additionalProperties":
                result[keyword] = adapted(member, counts: &counts, isSchemaMap: false)
            case "anyOf", "allOf":
                result[keyword] = .array((member.arrayValue ?? []).map { adapted($0, counts: &counts, isSchemaMap: false) })
            case "oneOf":
                // Branches that exclude each other: anyOf says the same here.
                result["anyOf"] = .array((member.arrayValue ?? []).map { adapted($0, counts: &counts, isSchemaMap: false) })
            case "enum":
                let cases = member.arrayValue ?? []
                counts.enumValues += cases.count
                let length = cases.reduce(0) { $0 + ($1.stringValue?.count ?? 0) }
                counts.characters += length
                if cases.count > 250 { counts.largeEnumCharacters = max(counts.largeEnumCharacters, length) }
                result[keyword] = member
            case "const":
                counts.characters += member.stringValue?.count ?? 0
                result[keyword] = member
            case "format":
                if let format = member.stringValue, formats.contains(format) {
                    result[keyword] = member
                } else if let format = member.stringValue {
                    words.append("format: \(format)")
                }
            case "minItems" where profile == .anthropic:
                if let count = member.intValue, count <= 1 { result[keyword] = member } else { words.append(phrase(keyword, member)) }
            case "description":
                result[keyword] = member
            case "contentEncoding":
                words.append("\(member.stringValue ?? "")-encoded")
            default:
                if keptKeywords.contains(keyword) {
                    result[keyword] = member
                } else {
                    words.append(phrase(keyword, member))
                }
            }
        }
        if !words.isEmpty {
            let said = words.joined(separator: "; ")
            if let text = result["description"]?.stringValue {
                result["description"] = .string("\(text) (\(said))")
            } else {
                result["description"] = .string(said.prefix(1).uppercased() + said.dropFirst() + ".")
            }
        }
        return .object(result)
    }

    /// A keyword that the profile does not accept, in words.
    private func phrase(_ keyword: String, _ value: ModelValue) -> String {
        let number = value.numberText
        switch keyword {
        case "minimum": return "at least \(number)"
        case "maximum": return "at most \(number)"
        case "minLength": return "at least \(number) character\(number == "1" ? "" : "s")"
        case "maxLength": return "at most \(number) character\(number == "1" ? "" : "s")"
        case "minItems": return "at least \(number) item\(number == "1" ? "" : "s")"
        case "maxItems": return "at most \(number) item\(number == "1" ? "" : "s")"
        case "minProperties": return "at least \(number) member\(number == "1" ? "" : "s")"
        case "maxProperties": return "at most \(number) member\(number == "1" ? "" : "s")"
        default: return "\(keyword): \(value.description)"
        }
    }

    /// The deepest nesting of objects in `schema`, following references
    /// into `$defs` but not around a cycle.
    private func nesting(of schema: ModelValue, root: ModelValue, visiting: Set<String> = []) -> Int {
        guard case .object(let object) = schema else { return 0 }
        var deepest = 0
        if let reference = object["$ref"]?.stringValue, !visiting.contains(reference) {
            let target: ModelValue?
            if reference == "#" {
                target = root
            } else {
                let name = String(reference.dropFirst("#/$defs/".count))
                    .replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
                target = root["$defs"]?[name] ?? nil
            }
            if let target { deepest = nesting(of: target, root: root, visiting: visiting.union([reference])) }
        }
        var children: [ModelValue] = []
        if case .object(let properties)? = object["properties"] { children += properties.values }
        if let items = object["items"] { children.append(items) }
        for keyword in ["anyOf", "allOf"] { children += object[keyword]?.arrayValue ?? [] }
        let isObject = object["properties"] != nil
        for child in children {
            deepest = max(deepest, nesting(of: child, root: root, visiting: visiting))
        }
        return deepest + (isObject ? 1 : 0)
    }
}
