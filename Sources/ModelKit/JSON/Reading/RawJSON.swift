import Foundation

/// A JSON value kept as the exact text it was read from: validated, and read
/// into a ``ModelValue`` only when somebody asks for the value.
///
/// This is how a model keeps the members of a JSON document that its class
/// does not save: written back to JSON, the text comes out as it came in
/// (`1.10` stays `1.10`, `"caf\u00e9"` keeps its escape, a 30-digit decimal
/// keeps every digit), re-spaced only when the output options ask for it
/// (see `JSONWriter.writeRaw(_:depth:)`). Every other use sees the value:
/// two raw values are equal, and hash alike, when their values are, however
/// they are spelled.
///
/// The bytes are a slice of the document's `Data`, so keeping many members
/// of one document shares its storage instead of copying each one.
struct RawJSON: Sendable {
    /// The value's text, with no whitespace around it; a slice (its indices
    /// are the document's).
    let bytes: Data

    /// Keeps `bytes`, which the caller has validated as exactly one JSON
    /// value with no whitespace around it, as the JSON reader with the
    /// default options reads it.
    init(validated bytes: Data) {
        self.bytes = bytes
    }

    /// Validates `text` as one JSON value (whitespace around it is dropped),
    /// as strictly as ``ModelValue/init(json:options:)`` reads it.
    ///
    /// - Throws: the ``ModelError`` that reading `text` throws.
    init(validating text: Data) throws {
        let range = try text.withUnsafeBytes { raw throws(ModelError) -> Range<Int> in
            var reader = JSONReader(raw.bindMemory(to: UInt8.self), options: JSONReadingOptions())
            let range = try reader.skipValue()
            reader.skipWhitespace()
            guard reader.position == reader.count else {
                throw reader.error("expected end of input after the top-level value", at: reader.position)
            }
            return range
        }
        let start = text.startIndex
        bytes = text[(start + range.lowerBound)..<(start + range.upperBound)]
    }

    /// The value the text holds.
    var value: ModelValue {
        do {
            return try bytes.withUnsafeBytes { raw throws(ModelError) in
                var reader = JSONReader(raw.bindMemory(to: UInt8.self), options: JSONReadingOptions())
                return try reader.readDocument()
            }
        } catch {
            // Unreachable: the text was validated with the same reader and options.
            assertionFailure("RawJSON holds text that does not read: \(error)")
            return .null
        }
    }

    /// The text, as a string (it is valid UTF-8).
    var text: String { String(decoding: bytes, as: UTF8.self) }
}

extension RawJSON: Hashable {
    /// Equal when the values are: `1.10` equals `11e-1`, `"A"` equals `"\u0041"`.
    static func == (lhs: RawJSON, rhs: RawJSON) -> Bool {
        lhs.bytes == rhs.bytes || lhs.value == rhs.value
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(value)
    }
}
