extension XMLPropertyListReader {
    /// The elements a property list is made of.
    enum Element {
        case plist, array, dict, key, string, integer, real, date, data, `true`, `false`, other
    }

    /// A start, end or empty-element tag.
    struct Tag {
        var element: Element
        /// Whether this is a start or empty-element tag rather than an end tag.
        var isOpen: Bool
        /// Whether this is an empty-element tag, `<name/>`.
        var isEmpty: Bool
        /// The offset of its `<`.
        var start: Int
    }

    /// Reads the tag at the current position; attributes are checked and ignored.
    mutating func readTag(expecting expected: String) throws -> Tag {
        let start = position
        guard position < bytes.count, bytes[position] == UInt8(ascii: "<") else {
            throw unexpected(expected, at: start)
        }
        position += 1
        let isOpen = !(position < bytes.count && bytes[position] == UInt8(ascii: "/"))
        if !isOpen { position += 1 }
        let nameStart = position
        while position < bytes.count, Self.isNameByte(bytes[position]) { position += 1 }
        guard position > nameStart else { throw unexpected(expected, at: start) }
        let element = Self.element(named: UnsafeBufferPointer(rebasing: bytes[nameStart..<position]))
        var isEmpty = false
        while true {
            skipWhitespace()
            guard position < bytes.count else { throw unexpected("'>' closing the tag", at: position) }
            let byte = bytes[position]
            if byte == UInt8(ascii: ">") {
                position += 1
                break
            }
            if byte == UInt8(ascii: "/"), isOpen, position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: ">") {
                position += 2
                isEmpty = true
                break
            }
            guard isOpen, Self.isNameByte(byte) else { throw unexpected("'>' closing the tag", at: position) }
            try skipAttribute()
        }
        return Tag(element: element, isOpen: isOpen, isEmpty: isEmpty, start: start)
    }

    /// Skips `name="value"` or `name='value'`.
    private mutating func skipAttribute() throws {
        while position < bytes.count, Self.isNameByte(bytes[position]) { position += 1 }
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "=") else {
            throw unexpected("'=' after the attribute name", at: position)
        }
        position += 1
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'")
        else { throw unexpected("a quoted attribute value", at: position) }
        let quote = bytes[position]
        let start = position
        position += 1
        while position < bytes.count, bytes[position] != quote {
            guard bytes[position] != UInt8(ascii: "<") else { throw unexpected("the attribute value's closing quote", at: position) }
            try skipCharacter()
        }
        guard position < bytes.count else { throw unexpected("the attribute value's closing quote", at: start) }
        position += 1
    }

    /// Skips whitespace, comments and processing instructions, and the DOCTYPE when allowed.
    mutating func skipMisc(allowingDoctype: Bool) throws {
        while true {
            skipWhitespace()
            if starts(with: "<?") {
                let start = position
                position += 2
                try skipCharacters(through: "?>", from: start, what: "'?>' closing the processing instruction")
            } else if starts(with: "<!--") {
                let start = position
                position += 4
                try skipCharacters(through: "-->", from: start, what: "'-->' closing the comment")
            } else if allowingDoctype, starts(with: "<!DOCTYPE") {
                try skipDoctype()
            } else {
                return
            }
        }
    }

    /// Skips `<!DOCTYPE …>`; an internal subset in brackets is refused.
    private mutating func skipDoctype() throws {
        let start = position
        position += 9
        var quote: UInt8?
        while position < bytes.count {
            let byte = bytes[position]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                // An internal subset could declare entities: Foundation refuses it, and so does ModelKit.
                throw fail(
                    "expected '>' closing the DOCTYPE, found '[', an internal DTD subset, which property lists may not have",
                    at: position)
            } else if byte == UInt8(ascii: ">") {
                position += 1
                return
            }
            try skipCharacter()
        }
        throw unexpected("'>' closing the DOCTYPE", at: start)
    }

    /// Moves past `terminator`, checking every character before it.
    /// - Returns: the range between the current position and the terminator.
    @discardableResult
    mutating func skipCharacters(through terminator: StaticString, from start: Int, what: String) throws -> Range<Int> {
        let contentStart = position
        while position < bytes.count {
            if starts(with: terminator) {
                let content = contentStart..<position
                position += terminator.utf8CodeUnitCount
                return content
            }
            try skipCharacter()
        }
        throw fail("expected \(what), found the end of the document", at: start)
    }

    /// Moves past one character that XML allows, or throws.
    mutating func skipCharacter() throws {
        let byte = bytes[position]
        if byte >= 0x20, byte < 0x80 {
            position += 1
        } else if byte < 0x20 {
            guard byte == 0x09 || byte == 0x0A || byte == 0x0D else {
                throw fail("expected text, found the control character \(Self.scalarName(UInt32(byte))), "
                    + "which XML does not allow", at: position)
            }
            position += 1
        } else {
            guard let length = scalarLength(at: position) else { throw invalidUTF8(at: position) }
            if length == 3, bytes[position] == 0xEF, bytes[position + 1] == 0xBF, bytes[position + 2] >= 0xBE {
                throw fail("expected text, found \(Self.scalarName(bytes[position + 2] == 0xBE ? 0xFFFE : 0xFFFF)), "
                    + "which XML does not allow", at: position)
            }
            position += length
        }
    }

    /// The length of the well-formed UTF-8 sequence at `offset`, or `nil`.
    func scalarLength(at offset: Int) -> Int? {
        let lead = bytes[offset]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0x00..<0x80: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE, 0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return nil
        }
        guard offset + length <= bytes.count, (low...high).contains(bytes[offset + 1]) else { return nil }
        for index in offset + 2..<offset + length where bytes[index] & 0xC0 != 0x80 { return nil }
        return length
    }

    func invalidUTF8(at offset: Int) -> ModelError {
        let hex = String(bytes[offset], radix: 16, uppercase: true)
        return fail("expected UTF-8 text, found the invalid byte 0x\(hex.count == 1 ? "0" : "")\(hex)", at: offset,
            code: .invalidUTF8)
    }

    /// A short description of what is at `offset`: `<string>`, `text "abc"`, `the end of the document`.
    func found(at offset: Int) -> String {
        guard offset < bytes.count else { return "the end of the document" }
        var end = offset
        let isTag = bytes[offset] == UInt8(ascii: "<")
        while end < bytes.count, end - offset < 40, bytes[end] != UInt8(ascii: "\n") {
            if isTag, bytes[end] == UInt8(ascii: ">") {
                end += 1
                break
            }
            if !isTag, bytes[end] == UInt8(ascii: "<") { break }
            end += 1
        }
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }  // finish a character
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self)
        let truncated = end < bytes.count && bytes[end - 1] != UInt8(ascii: ">") && bytes[end] != UInt8(ascii: "<")
            && bytes[end] != UInt8(ascii: "\n")
        return isTag ? text + (truncated ? "…" : "") : "text " + ModelValue.quoted(text + (truncated ? "…" : ""))
    }

    static func scalarName(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    mutating func skipWhitespace() {
        while position < bytes.count, Self.isWhitespace(bytes[position]) { position += 1 }
    }

    func starts(with text: StaticString) -> Bool {
        let length = text.utf8CodeUnitCount
        guard position + length <= bytes.count else { return false }
        for offset in 0..<length where bytes[position + offset] != text.utf8Start[offset] { return false }
        return true
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "."),
            UInt8(ascii: "-"):
            true
        default: false
        }
    }

    private static func element(named name: UnsafeBufferPointer<UInt8>) -> Element {
        func equals(_ text: StaticString) -> Bool {
            name.elementsEqual(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }
        switch name.first {
        case UInt8(ascii: "k"): return equals("key") ? .key : .other
        case UInt8(ascii: "s"): return equals("string") ? .string : .other
        case UInt8(ascii: "i"): return equals("integer") ? .integer : .other
        case UInt8(ascii: "r"): return equals("real") ? .real : .other
        case UInt8(ascii: "a"): return equals("array") ? .array : .other
        case UInt8(ascii: "t"): return equals("true") ? .true : .other
        case UInt8(ascii: "f"): return equals("false") ? .false : .other
        case UInt8(ascii: "p"): return equals("plist") ? .plist : .other
        case UInt8(ascii: "d"):
            if equals("dict") { return .dict }
            if equals("date") { return .date }
            return equals("data") ? .data : .other
        default: return .other
        }
    }
}
