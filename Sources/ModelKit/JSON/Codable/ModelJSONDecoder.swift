import Foundation

/// Decodes any `Decodable` value from JSON bytes with ModelKit's own reader,
/// configured like Foundation's `JSONDecoder`.
///
/// ```swift
/// struct Status: Decodable { var id: Int; var createdAt: String; var user: User? }
/// var decoder = ModelJSONDecoder()
/// decoder.keyDecodingStrategy = .convertFromSnakeCase
/// let status = try decoder.decode(Status.self, from: data)
/// ```
///
/// The strategies are Foundation's own types, with the same meanings, so a
/// configuration carries over from a `JSONDecoder` unchanged. The document is
/// read once into a flat index of where each value is (a tape); strings and
/// numbers are made only when a type asks for them, and members that no
/// type asks for are validated but never built.
///
/// Values are those `JSONDecoder` gives, with these differences:
/// - The grammar is RFC 8259's, strictly: no trailing commas (Foundation on
///   Linux accepts `{"a":1,}`), nesting past 512 levels refused.
/// - Text must be UTF-8 (an optional byte order mark is skipped);
///   Foundation also detects UTF-16 and UTF-32.
///
/// As in Foundation, the whole document's structure is checked before
/// anything is decoded, but a string's contents (escapes, control
/// characters, UTF-8) and a number's range only when a type reads that
/// value (or, for keys, opens that object): a member no type asks for is
/// checked for JSON's grammar alone.
///
/// Errors are Swift's `DecodingError`, as `Decodable` callers expect, with
/// the coding path of the value that failed. The debug description names
/// the key path the ModelKit way: `statuses[3].user.id: expected Int, found
/// a string ("12")`; ``ModelError/init(_:)`` turns one into a ``ModelError``.
/// A malformed document is `DecodingError.dataCorrupted` whose underlying
/// error is the reader's ``ModelError``, with line and column.
public struct ModelJSONDecoder: Sendable {
    /// How JSON keys are matched with coding keys; `.useDefaultKeys` by default.
    /// As in Foundation, the keys of `[String: …]` dictionaries are never converted.
    public var keyDecodingStrategy: JSONDecoder.KeyDecodingStrategy = .useDefaultKeys
    /// How `Date` values are read; `.deferredToDate` (seconds since 2001 as a number) by default.
    public var dateDecodingStrategy: JSONDecoder.DateDecodingStrategy = .deferredToDate
    /// How `Data` values are read; `.base64` by default.
    public var dataDecodingStrategy: JSONDecoder.DataDecodingStrategy = .base64
    /// Whether strings stand for infinities and NaN; `.throw` by default.
    public var nonConformingFloatDecodingStrategy: JSONDecoder.NonConformingFloatDecodingStrategy = .throw
    /// Values handed to every `init(from:)` through `Decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// A decoder with Foundation's defaults; set its properties to configure it.
    public init() {}

    /// The value of `type` that the JSON text `data` holds.
    /// - Throws: `DecodingError` with the coding path of the value that failed;
    ///   `.dataCorrupted` for a malformed document.
    public func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        try data.withUnsafeBytes { raw in
            try decode(type, from: raw.bindMemory(to: UInt8.self))
        }
    }

    /// The value of `type` that the JSON text in `bytes` holds.
    func decode<Value: Decodable>(_ type: Value.Type, from bytes: UnsafeBufferPointer<UInt8>) throws -> Value {
        guard bytes.count <= JSONTape.maximumBytes else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: [], debugDescription: "JSON documents larger than 4 GiB are not supported"))
        }
        let reader = JSONReader(bytes, options: JSONReadingOptions(duplicateKeys: .lastWins))
        let tape = JSONTape(capacity: bytes.count / 16)
        guard reader.buildTape(tape) else {
            var strict = JSONReader(bytes, options: JSONReadingOptions(duplicateKeys: .lastWins))
            let failure: ModelError
            do {
                _ = try strict.readDocument()
                failure = ModelError(code: .malformedDocument, message: "the document is not valid JSON", format: "JSON")
            } catch {
                failure = error
            }
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: [], debugDescription: "The given data was not valid JSON: \(failure)",
                    underlyingError: failure))
        }
        // A null that a missing "super" member decodes from.
        tape.write { $0.append(JSONTape.Entry(start: 0, end: 0, count: 0, kind: .null, flags: 0)) }
        var state = JSONDecodingState(bytes: bytes, tape: tape, options: self)
        defer { JSONDecodingState.close(&state) }
        return try state.decodeValue(type, at: 0, parent: nil, key: nil)
    }
}
