/// Locating: where a key named by a key path stands in a document, for errors
/// found after the document was read (an unknown key that a class rejects).
extension JSONReader {
    /// The offset of the opening quote of the key at the end of `path` in
    /// `bytes`, a document that reads without error with `options`; `nil`
    /// when the path does not lead to such a key (one an upgrade added, say).
    ///
    /// It walks the document with the skipping scanner, building only the
    /// keys it passes; of repeated keys it follows the first. A key escaped
    /// with one more `$` (see `ReferenceKeys`) matches its unescaped form.
    static func offset(
        ofKeyAt path: ModelKeyPath, in bytes: UnsafeBufferPointer<UInt8>, options: JSONReadingOptions
    ) -> Int? {
        guard let base = bytes.baseAddress, case .key? = path.components.last else { return nil }
        var reader = JSONReader(bytes, options: options)
        if bytes.count >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF { reader.position = 3 }
        let last = path.components.count - 1
        for (step, component) in path.components.enumerated() {
            reader.skipWhitespace()
            switch component {
            case .key(let key):
                guard reader.consume(JSONByte.openBrace) else { return nil }
                while true {
                    reader.skipWhitespace()
                    let keyStart = reader.position
                    guard reader.byte == JSONByte.quote, let text = try? reader.readString() else { return nil }
                    reader.skipWhitespace()
                    guard reader.consume(JSONByte.colon) else { return nil }
                    let name = ReferenceKeys.kind(of: text) == .escaped ? ReferenceKeys.unescaped(text) : text
                    if name.utf8.elementsEqual(key.utf8) {
                        if step == last { return keyStart }
                        break
                    }
                    guard (try? reader.skipValue()) != nil else { return nil }
                    reader.skipWhitespace()
                    guard reader.consume(JSONByte.comma) else { return nil }
                }
            case .index(let index):
                guard reader.consume(JSONByte.openBracket) else { return nil }
                for _ in 0..<index {
                    guard (try? reader.skipValue()) != nil else { return nil }
                    reader.skipWhitespace()
                    guard reader.consume(JSONByte.comma) else { return nil }
                }
            }
        }
        return nil
    }

    /// The byte at the cursor, or 0 at the end.
    private var byte: UInt8 { position < count ? base[position] : 0 }

    /// Moves past `expected` when it is the byte at the cursor.
    private mutating func consume(_ expected: UInt8) -> Bool {
        guard byte == expected else { return false }
        position += 1
        return true
    }
}
