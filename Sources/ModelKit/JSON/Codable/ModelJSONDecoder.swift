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
/// Values are those `JSONDecoder` gives, with the differences that README
/// lists under "Differences from Foundation's coders", each with its reason.
/// In short:
/// - The grammar is RFC 8259's, strictly, over the whole document: no
///   trailing commas (Foundation on Linux accepts `{"a":1,}`), no number
///   outside the grammar (`1.5e+`, `01`) even in a member no type reads,
///   nesting past 512 levels refused; JSON5 with ``allowsJSON5``. `0e1`
///   is zero, as RFC 8259 allows (Foundation refuses it as a `Double`).
/// - Text must be UTF-8 (an optional byte order mark is skipped);
///   Foundation also detects UTF-16 and UTF-32.
/// - An integer is read from the number's digits, whatever its spelling:
///   exact when the value is integral and fits (`1.338910060664305e+19` as
///   `UInt64` is 13389100606643050000, `1e2` as `Int` is 100), and
///   `dataCorrupted` otherwise (`1.5`, `1.5e2` as `Int8`); never through a
///   rounded `Double`.
/// - A value that cannot be read (a number that does not fit, a string
///   with a bad escape, a control character or ill-formed UTF-8, a bad
///   date) is `dataCorrupted` at that value's coding path, where
///   Foundation reports `[]` or, for a date, its parent; a bad key fails
///   its object, at the object's path. `null` for a non-optional value is
///   always `valueNotFound`.
///
/// As in Foundation, a string's contents (escapes, control characters,
/// UTF-8) and a number's range are checked only when a type reads that
/// value (or, for keys, opens that object): a member no type asks for is
/// checked for JSON's grammar alone.
///
/// As in Foundation, the metatype given is the one decoded (a subclass's,
/// passed as its superclass's type), `Int128` and `UInt128` are read in full,
/// a number too small for a `Double` to tell from zero is an error, array
/// positions are `"Index 0"` in coding paths, and a decoder or container
/// kept past `decode` goes on reading (the document's bytes are then
/// copied).
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
    /// Whether a document that does not start with `{` is read as the
    /// members of an object without its braces; `false` by default.
    ///
    /// As in Foundation, a document that starts with `{` is read as it is,
    /// and an empty one is an empty object:
    ///
    /// ```swift
    /// var decoder = ModelJSONDecoder()
    /// decoder.assumesTopLevelDictionary = true
    /// let settings = try decoder.decode([String: Int].self, from: Data(#""width": 3, "height": 4"#.utf8))
    /// print(settings["width"]!)   // 3
    /// ```
    ///
    /// Errors give lines and columns in the document as it is.
    public var assumesTopLevelDictionary = false
    /// Whether the document may be JSON5 rather than JSON; `false` by default.
    ///
    /// JSON5, as Foundation's `JSONDecoder` reads it, adds `//` and `/* */`
    /// comments, trailing commas, strings in single quotes (with `\x41` and
    /// escaped line breaks), keys that are identifiers, hexadecimal numbers,
    /// a leading `+` or decimal point, a trailing decimal point, and
    /// `Infinity` and `NaN`. These are numbers: `Double` and `Float` read
    /// them whatever ``nonConformingFloatDecodingStrategy`` says, `Decimal`
    /// reads NaN, an integer does not fit, and any other type finds a
    /// number. Strings hold what JSON5's specification allows: control
    /// characters other than line breaks, `\v`, `\0`, `\u0000` and any
    /// character escaped to itself (`\a` is `a`), which Foundation refuses
    /// once a type reads the string:
    ///
    /// ```swift
    /// var decoder = ModelJSONDecoder()
    /// decoder.allowsJSON5 = true
    /// let text = "{width: 0x10, 'ratio': .5, /* comment */ depth: Infinity,}"
    /// let box = try decoder.decode([String: Double].self, from: Data(text.utf8))
    /// print(box["width"]!, box["ratio"]!, box["depth"]!)   // 16.0 0.5 inf
    /// ```
    ///
    /// A malformed document is `DecodingError.dataCorrupted` whose
    /// underlying ``ModelError`` names the line and column in the JSON5
    /// text. The text is checked and rewritten as JSON before it is read,
    /// so a decoder without this option reads exactly as before.
    public var allowsJSON5 = false

    /// A decoder with Foundation's defaults; set its properties to configure it.
    public init() {}

    /// The value of `type` that the JSON text `data` holds.
    /// - Throws: `DecodingError` with the coding path of the value that failed;
    ///   `.dataCorrupted` for a malformed document.
    public func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        try withDocument(data) { state in try state.decodeValue(type, at: 0, parent: nil, key: nil) }
    }

    /// What `read` makes of the document `data`, indexed (see ``decode(_:from:)``).
    func withDocument<Result>(_ data: Data, read: (JSONDecodingState) throws -> Result) throws -> Result {
        if allowsJSON5 {
            let translation: JSON5Translator.Translation
            do {
                translation = try data.withUnsafeBytes { raw in
                    try JSON5Translator.translate(raw.bindMemory(to: UInt8.self), topLevelDictionary: assumesTopLevelDictionary)
                }
            } catch let error as ModelError {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: [], debugDescription: "The given data was not valid JSON5: \(error)", underlyingError: error))
            }
            return try translation.text.withUnsafeBufferPointer {
                try withDocument($0, specialNumbers: translation.specialNumbers, read: read)
            }
        }
        if assumesTopLevelDictionary, let members = Self.membersWithoutBraces(data) {
            // Read as "{\n" + members + "\n}": one line more, columns as they are.
            var wrapped = Data("{\n".utf8)
            wrapped.append(members)
            wrapped.append(contentsOf: "\n}".utf8)
            return try wrapped.withUnsafeBytes { raw in
                try withDocument(raw.bindMemory(to: UInt8.self), addedLines: 1, originalCount: members.count, read: read)
            }
        }
        return try data.withUnsafeBytes { raw in
            try withDocument(raw.bindMemory(to: UInt8.self), read: read)
        }
    }

    /// The text of `data` after its byte order mark, when its first other
    /// than white space is not `{`; `nil` when it is.
    private static func membersWithoutBraces(_ data: Data) -> Data? {
        var start = data.startIndex
        if data.count >= 3, data[start] == 0xEF, data[start + 1] == 0xBB, data[start + 2] == 0xBF { start += 3 }
        for byte in data[start...] {
            switch byte {
            case JSONByte.space, JSONByte.tab, JSONByte.lineFeed, JSONByte.carriageReturn: continue
            case JSONByte.openBrace: return nil
            default: return data[start...]
            }
        }
        return data[start...]
    }

    /// The value of `type` that the JSON text in `bytes` holds; for a
    /// document read inside added braces (``assumesTopLevelDictionary``),
    /// `addedLines` and `originalCount` put error locations back in it.
    func decode<Value: Decodable>(_ type: Value.Type, from bytes: UnsafeBufferPointer<UInt8>) throws -> Value {
        try withDocument(bytes) { state in try state.decodeValue(type, at: 0, parent: nil, key: nil) }
    }

    /// What `read` makes of the document in `bytes`, indexed.
    func withDocument<Result>(
        _ bytes: UnsafeBufferPointer<UInt8>, addedLines: Int = 0, originalCount: Int = 0, specialNumbers: [Int] = [],
        read: (JSONDecodingState) throws -> Result
    ) throws -> Result {
        guard bytes.count <= JSONTape.maximumBytes else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: [], debugDescription: "JSON documents larger than 4 GiB are not supported"))
        }
        let reader = JSONReader(bytes, options: JSONReadingOptions(duplicateKeys: .lastWins))
        let tape = JSONTape(capacity: bytes.count / 16)
        guard reader.buildTape(tape) else {
            var strict = JSONReader(bytes, options: JSONReadingOptions(duplicateKeys: .lastWins))
            var failure: ModelError
            do {
                _ = try strict.readDocument()
                failure = ModelError(code: .malformedDocument, message: "the document is not valid JSON", format: "JSON")
            } catch {
                failure = error
            }
            if addedLines > 0, var location = failure.location {
                location.line = max(1, location.line - addedLines)
                location.byteOffset = min(max(0, location.byteOffset - 2), originalCount)
                failure.location = location
            }
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: [], debugDescription: "The given data was not valid JSON: \(failure)",
                    underlyingError: failure))
        }
        if !specialNumbers.isEmpty { tape.markSpecialNumbers(at: specialNumbers) }
        // A null that a missing "super" member decodes from.
        tape.write { $0.append(JSONTape.Entry(start: 0, end: 0, count: 0, kind: .null, flags: 0)) }
        var state = JSONDecodingState(bytes: bytes, tape: tape, options: self)
        defer { JSONDecodingState.close(&state) }
        return try read(state)
    }
}
