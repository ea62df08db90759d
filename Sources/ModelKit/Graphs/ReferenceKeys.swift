/// The member keys that make references between models in a saved form:
/// `"$id"` names a model written in full, `{"$ref": "<id>"}` stands for it
/// elsewhere in the same document.
///
/// A model's own key that has this shape (one or more `$` then `id` or `ref`)
/// is escaped with one more `$` when written and loses it when read, the way
/// strings that look like the `"$null"` marker are escaped in property lists,
/// so a bag key `"$id"` survives every format as `"$$id"`. Saved keys of that
/// shape are a declaration error.
enum ReferenceKeys {
    static let id = "$id"
    static let ref = "$ref"

    /// What a member key of a model means.
    enum Kind {
        /// Any key that is not of the reserved shape.
        case plain
        /// `"$id"`.
        case id
        /// `"$ref"`.
        case ref
        /// A real key written with one more `$`: `"$$id"` for `"$id"`.
        case escaped
    }

    /// What `key` means as a member of a model.
    @inline(__always)
    static func kind(of key: String) -> Kind {
        var utf8 = key.utf8[...]
        guard utf8.first == UInt8(ascii: "$") else { return .plain }
        return kind(ofBytes: &utf8)
    }

    /// What the key with these bytes means as a member of a model.
    @inline(__always)
    static func kind(of bytes: UnsafeBufferPointer<UInt8>) -> Kind {
        guard bytes.first == UInt8(ascii: "$") else { return .plain }
        var slice = bytes[...]
        return kind(ofBytes: &slice)
    }

    private static func kind<Bytes: Collection<UInt8>>(ofBytes bytes: inout Bytes) -> Kind
    where Bytes.SubSequence == Bytes {
        var dollars = 0
        while bytes.first == UInt8(ascii: "$") {
            dollars += 1
            bytes = bytes.dropFirst()
        }
        guard bytes.elementsEqual("id".utf8) || bytes.elementsEqual("ref".utf8) else { return .plain }
        if dollars > 1 { return .escaped }
        return bytes.count == 2 ? .id : .ref
    }

    /// Whether `key` has the reserved shape: `$id`, `$ref` or an escaped form.
    @inline(__always)
    static func isReserved(_ key: String) -> Bool {
        if case .plain = kind(of: key) { return false }
        return true
    }

    /// `key` as written among a model's members.
    @inline(__always)
    static func escaped(_ key: String) -> String {
        isReserved(key) ? "$" + key : key
    }

    /// A key read among a model's members, with its escape removed.
    static func unescaped(_ key: String) -> String {
        String(key.dropFirst())
    }
}
