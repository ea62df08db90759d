import Foundation

/// Reads an XML property list straight into a ``ModelValue``.
///
/// The reader walks the document once, without recursion: open arrays and
/// dictionaries wait on a stack, limited to 512 levels, so no document can
/// exhaust the call stack. Every failure is a ``ModelError`` naming the line
/// and column, what was expected and what was found, and the key path the
/// reader had reached.
///
/// ```swift
/// let text = "<plist><dict><key>n</key><integer>x</integer></dict></plist>"
/// _ = try XMLPropertyListReader.value(from: Data(text.utf8))
/// // property list at line 1, column 35 (byte 34), in n: expected an integer (decimal digits,
/// // or hexadecimal after 0x), found "x"
/// ```
///
/// What it accepts, and where it parts from Foundation's reader:
/// - The document is UTF-8, with or without a byte-order mark, or UTF-16
///   or UTF-32 (either byte order, told by a byte-order mark or by the zero
///   bytes beside `<`), as Foundation reads them; errors then count bytes in
///   the document's UTF-8 form. The XML declaration, DOCTYPE, comments,
///   processing instructions and whitespace between elements are skipped;
///   a DOCTYPE with an internal subset (`<!DOCTYPE plist [ … ]>`) is
///   refused, as Foundation refuses it, so no entity is ever declared. The `<plist>` root is optional, as it is
///   for Foundation; after the value only comments and whitespace may follow.
/// - Text may hold `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, decimal and
///   hexadecimal character references, CDATA sections and comments. Control
///   characters that XML 1.0 forbids are rejected, raw or as references.
///   Line ends are kept as they are, as Foundation keeps them.
/// - A `<dict>` with the same key twice is rejected: Foundation would keep
///   the last value silently.
/// - `<integer>` is decimal or `0x` hexadecimal with an optional sign;
///   whitespace may come before the sign and between it and the digits, as
///   Foundation allows (`<integer> -\t42</integer>`); integers beyond `Int`
///   read as ``ModelValue/bigInteger(_:)`` of any size, in time linear in
///   their decimal digits.
/// - `<real>` is a decimal number, after optional whitespace, or `nan`,
///   `inf`, `infinity` with an optional sign. `<date>` is ISO 8601 with whole
///   or fractional seconds; a field past its range carries into the next, as
///   Foundation reads it (`2024-01-32T20:43:14Z` is 1 February).
/// - `<data>` is base64; whitespace is ignored and padding may be omitted.
/// - `<string>$null</string>` reads as ``ModelValue/null``, reversing the
///   writer's convention (see ``PropertyListBridge``).
/// - Empty `<string/>`, `<key/>`, `<data/>`, `<array/>` and `<dict/>` are
///   accepted; an empty `<integer/>`, `<real/>` or `<date/>` is not.
struct XMLPropertyListReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    /// The arrays and dictionaries open around the reader, outermost first.
    var stack: [Container] = []
    /// Decoded text, when entities or CDATA stop it from being a slice of the document.
    var scratch: [UInt8] = []
    /// Whether strings are kept as written, `"$null"` included: a keyed
    /// archive is being read (its UIDs are `{"CF$UID": n}` dictionaries).
    var keepsMarkerStrings = false

    enum Container {
        case array([ModelValue])
        /// A dictionary, and the key whose value is being read, once its `<key>` is read.
        case dictionary(ModelValue.Object, key: String?)
    }

    /// The value of the XML property list in `data`.
    /// - Throws: ``ModelError`` with code `.malformedDocument`, `.invalidUTF8`
    ///   or `.nestingTooDeep`, with its location and key path.
    /// - Parameter keepingMarkerStrings: whether strings stay as written
    ///   (`"$null"` is a string, not null), as a keyed archive needs.
    static func value(from data: Data, keepingMarkerStrings: Bool = false) throws -> ModelValue {
        if let encoding = TextEncodingGuess(data) {
            // UTF-16 or UTF-32, as Foundation and plistlib read them: read as
            // its UTF-8 form (lines and columns are the same; bytes count in it).
            let text = try encoding.utf8(of: data, format: "property list")
            return try text.withUnsafeBufferPointer { buffer in
                var reader = XMLPropertyListReader(bytes: buffer, keepsMarkerStrings: keepingMarkerStrings)
                return try reader.readDocument()
            }
        }
        return try data.withUnsafeBytes { raw in
            var reader = XMLPropertyListReader(
                bytes: raw.bindMemory(to: UInt8.self), keepsMarkerStrings: keepingMarkerStrings)
            return try reader.readDocument()
        }
    }

    private mutating func readDocument() throws -> ModelValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        try skipMisc(allowingDoctype: true)
        let start = position
        var tag = try readTag(expecting: "<plist> or a value")
        let isWrapped = tag.element == .plist
        if isWrapped {
            guard tag.isOpen, !tag.isEmpty else { throw unexpected("<plist> with a value inside", at: start) }
            try skipMisc(allowingDoctype: false)
            let valueStart = position
            if position < bytes.count, bytes[position] == UInt8(ascii: "<") {
                tag = try readTag(expecting: "a value inside <plist>")
            }
            guard position > valueStart else { throw unexpected("a value inside <plist>", at: valueStart) }
            if !tag.isOpen { throw unexpected("a value inside <plist>", at: valueStart) }
        }
        let value = try readValue(startingWith: tag)
        try skipMisc(allowingDoctype: false)
        if isWrapped {
            let closeStart = position
            let close = try readTag(expecting: "</plist>")
            guard !close.isOpen, close.element == .plist else { throw unexpected("</plist>", at: closeStart) }
            try skipMisc(allowingDoctype: false)
        }
        guard position == bytes.count else { throw unexpected("the end of the document", at: position) }
        return value
    }

    /// Reads the value that `first` opens, and everything nested in it.
    private mutating func readValue(startingWith first: Tag) throws -> ModelValue {
        var tag = first
        while true {
            var value: ModelValue
            if !tag.isOpen {
                value = try close(tag)
            } else if case .dictionary(let members, key: nil)? = stack.last {
                guard tag.element == .key else {
                    throw unexpected("<key> or </dict>", at: tag.start)
                }
                let key = try readString(of: tag)
                guard members.index(forKey: key) == nil else {
                    throw fail("expected a key not already in this <dict>, found \(ModelValue.quoted(key)) again",
                        at: tag.start)
                }
                stack[stack.count - 1] = .dictionary(members, key: key)
                tag = try nextTag(expecting: "a value for key \(ModelValue.quoted(key))")
                continue
            } else {
                switch tag.element {
                case .array where !tag.isEmpty:
                    try push(.array([]), at: tag.start)
                    tag = try nextTag(expecting: "a value or </array>")
                    continue
                case .dict where !tag.isEmpty:
                    try push(.dictionary(ModelValue.Object(), key: nil), at: tag.start)
                    tag = try nextTag(expecting: "<key> or </dict>")
                    continue
                case .array, .dict:
                    // An empty container is a level too, as in every format.
                    try push(.array([]), at: tag.start)
                    stack.removeLast()
                    value = tag.element == .array ? .array([]) : .object(ModelValue.Object())
                case .string:
                    let string = try readString(of: tag)
                    value = keepsMarkerStrings ? .string(string) : PropertyListBridge.unescaped(string)
                case .true, .false: value = .bool(try readFlag(tag))
                case .integer, .real, .date, .data: value = try readScalar(tag)
                case .key, .plist, .other:
                    throw unexpected(stack.isEmpty ? "a value" : "a value or </array>", at: tag.start)
                }
            }
            switch stack.popLast() {
            case nil:
                return value
            case .array(var elements)?:
                elements.append(value)
                stack.append(.array(elements))
                tag = try nextTag(expecting: "a value or </array>")
            case .dictionary(var members, let key?)?:
                members.appendNew(key: key, value: value)
                stack.append(.dictionary(members, key: nil))
                tag = try nextTag(expecting: "<key> or </dict>")
            case .dictionary(_, key: nil)?:
                preconditionFailure("a dictionary member without a key")
            }
        }
    }

    /// The container that the close tag `tag` ends, as a value.
    private mutating func close(_ tag: Tag) throws -> ModelValue {
        switch stack.last {
        case .array(let elements)? where tag.element == .array:
            stack.removeLast()
            return .array(elements)
        case .dictionary(let members, key: nil)? where tag.element == .dict:
            stack.removeLast()
            return .object(members)
        case .dictionary(_, let key?)?:
            throw unexpected("a value for key \(ModelValue.quoted(key))", at: tag.start)
        case .dictionary?:
            throw unexpected("<key> or </dict>", at: tag.start)
        case .array?:
            throw unexpected("a value or </array>", at: tag.start)
        case nil:
            throw unexpected("a value", at: tag.start)
        }
    }

    private mutating func push(_ container: Container, at offset: Int) throws {
        guard stack.count < PropertyListBridge.maximumDepth else {
            throw fail(
                "nesting is deeper than the limit of \(PropertyListBridge.maximumDepth) levels", at: offset,
                code: .nestingTooDeep)
        }
        stack.append(container)
    }

    /// Skips whitespace and comments, then reads the tag that must come next.
    private mutating func nextTag(expecting expected: String) throws -> Tag {
        try skipMisc(allowingDoctype: false)
        return try readTag(expecting: expected)
    }

    /// `<true/>`, `<false/>`, or either with an immediate close tag.
    private mutating func readFlag(_ tag: Tag) throws -> Bool {
        if !tag.isEmpty {
            let closeStart = position
            let expected = tag.element == .true ? "</true>" : "</false>"
            let close = try readTag(expecting: expected)
            guard !close.isOpen, close.element == tag.element else { throw unexpected(expected, at: closeStart) }
        }
        return tag.element == .true
    }

    // MARK: - Errors

    /// The key path of the value being read.
    var keyPath: ModelKeyPath {
        var components: [ModelKeyPath.Component] = []
        for container in stack {
            switch container {
            case .array(let elements): components.append(.index(elements.count))
            case .dictionary(_, let key?): components.append(.key(key))
            case .dictionary(_, key: nil): break
            }
        }
        return ModelKeyPath(components)
    }

    func fail(_ message: String, at offset: Int, code: ModelError.Code = .malformedDocument) -> ModelError {
        ModelError(
            code: code, message: message, keyPath: keyPath,
            location: ModelError.Location(byteOffset: offset, in: bytes), format: "property list")
    }

    /// `expected …, found …`, describing what is at `offset`; invalid UTF-8
    /// there is reported as such.
    func unexpected(_ expected: String, at offset: Int) -> ModelError {
        if offset < bytes.count, bytes[offset] >= 0x80, scalarLength(at: offset) == nil {
            return invalidUTF8(at: offset)
        }
        return fail("expected \(expected), found \(found(at: offset))", at: offset)
    }
}
