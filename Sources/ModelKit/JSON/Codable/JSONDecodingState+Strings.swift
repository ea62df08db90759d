import Foundation

/// Strings with escapes, decoded straight from the tape's bytes into a
/// buffer the state keeps, for the common case only: well-formed escapes
/// (`\u` surrogates in pairs) and no control characters. Anything else is
/// left to the reader (`readString()`), which gives the same text or the
/// error, as before; so is a result that is not valid UTF-8, for the
/// reader to say where.
extension JSONDecodingState {
    /// The text of the string entry `entry` with its escapes decoded, or
    /// `nil` when the reader should read it.
    func unescapedString(_ entry: JSONTape.Entry) -> String? {
        let start = Int(entry.start)
        let end = Int(entry.end)
        // Decoding never lengthens the text: an escape of n bytes decodes to fewer.
        let output = scratchBuffer(capacity: end - start)
        guard let (written, highBits) = JSONReader.unescape(base, from: start, to: end, into: output) else { return nil }
        return JSONReader.unescapedText(UnsafeBufferPointer(start: output, count: written), highBits: highBits)
    }
}
