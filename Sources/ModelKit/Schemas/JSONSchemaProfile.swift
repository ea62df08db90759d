/// Which JSON Schema ``ModelObject/jsonSchema(_:)`` writes: the full draft
/// 2020-12 schema, or the subset a language model's structured outputs accept.
///
/// ```swift
/// let schema = try Note.jsonSchema()                          // .standard
/// let strict = try Note.jsonSchema(.openAI)                   // throws if Note cannot be said
/// ```
public enum JSONSchemaProfile: String, Sendable, Hashable, CaseIterable {
    /// JSON Schema draft 2020-12, with every form ModelKit reads and every
    /// rule it can express: a document passes it when ModelKit loads it and
    /// ``ModelObject/validate()`` passes (the article "Schemas for APIs and
    /// language models" lists where the two cannot agree).
    case standard
    /// What OpenAI's Structured Outputs accept with `strict: true`: every
    /// object closed (`additionalProperties: false`) with every property
    /// required, optionals as unions with `"null"`, only the keywords OpenAI
    /// lists, and its limits on size and nesting checked.
    case openAI
    /// What Anthropic's structured outputs accept: as ``openAI``, with numeric
    /// bounds and string lengths moved into `description`; recursive classes
    /// are refused.
    case anthropic
}
