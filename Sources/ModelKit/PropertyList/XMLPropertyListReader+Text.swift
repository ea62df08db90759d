import Foundation

extension XMLPropertyListReader {
    /// Where an element's text is: a slice of the document, or the scratch
    /// buffer when entities, CDATA or comments had to be decoded.
    enum TextRun {
        case document(Range<Int>)
        case scratch
    }

    /// The text of `<string>` or `<key>` element `tag`, up to its end tag.
    mutating func readString(of tag: Tag) throws -> String {
        let run = try readContent(of: tag)
        return withText(run) { String(decoding: $0, as: UTF8.self) }
    }

    /// The value of an `<integer>`, `<real>`, `<date>` or `<data>` element.
    mutating func readScalar(_ tag: Tag) throws -> ModelValue {
        let contentStart = position
        let run = try readContent(of: tag)
        let isSlice = if case .document = run { true } else { false }
        return try withText(run) { text in
            func mismatch(_ expected: String, at offset: Int? = nil) -> ModelError {
                let found = text.isEmpty ? "nothing" : ModelValue.quoted(String(decoding: text.prefix(40), as: UTF8.self))
                return fail("expected \(expected), found \(found)", at: isSlice ? contentStart + (offset ?? 0) : contentStart)
            }
            switch tag.element {
            case .integer:
                guard let value = PropertyListScalars.integer(text) else {
                    throw mismatch("an integer (decimal digits, or hexadecimal after 0x)")
                }
                return value
            case .real:
                guard let value = PropertyListScalars.real(text) else {
                    throw mismatch("a real number (such as 1.5, -2e-7, nan or +infinity)")
                }
                return .double(value)
            case .date:
                guard let date = ISO8601DateText.date(from: text, style: .propertyList) else {
                    throw mismatch("a date (such as 2025-11-16T15:33:20Z or 2025-11-16T15:33:20.25Z)")
                }
                return .date(date)
            default:
                switch PropertyListScalars.base64(text) {
                case .success(let data): return .data(data)
                case .failure(let failure): throw mismatch("base64 data", at: failure.offset)
                }
            }
        }
    }

    func withText<Result>(_ run: TextRun, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        switch run {
        case .document(let range): try body(UnsafeBufferPointer(rebasing: bytes[range]))
        case .scratch: try scratch.withUnsafeBufferPointer(body)
        }
    }

    /// Reads character data up to the end tag matching `tag`, checking every
    /// character and decoding entities, CDATA sections and comments.
    mutating func readContent(of tag: Tag) throws -> TextRun {
        let start = position
        guard !tag.isEmpty else { return .document(start..<start) }
        var runStart = start
        var isCopying = false
        func flush(_ reader: inout XMLPropertyListReader) {
            if !isCopying {
                reader.scratch.removeAll(keepingCapacity: true)
                isCopying = true
            }
            reader.scratch.append(contentsOf: UnsafeBufferPointer(rebasing: reader.bytes[runStart..<reader.position]))
        }
        let closing = Self.endTag(of: tag.element)
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "<") {
                if starts(with: "</") {
                    let end = position
                    let close = try readTag(expecting: closing)
                    guard close.element == tag.element else { throw unexpected(closing, at: end) }
                    if isCopying {
                        let stop = position
                        position = end
                        flush(&self)
                        position = stop
                        return .scratch
                    }
                    return .document(start..<end)
                } else if starts(with: "<![CDATA[") {
                    flush(&self)
                    let open = position
                    position += 9
                    let content = try skipCharacters(through: "]]>", from: open, what: "']]>' closing the CDATA section")
                    scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[content]))
                } else if starts(with: "<!--") {
                    flush(&self)
                    let open = position
                    position += 4
                    try skipCharacters(through: "-->", from: open, what: "'-->' closing the comment")
                } else {
                    throw unexpected("text or \(closing)", at: position)
                }
                runStart = position
            } else if byte == UInt8(ascii: "&") {
                flush(&self)
                try decodeReference()
                runStart = position
            } else {
                try skipCharacter()
            }
        }
        throw fail("expected \(closing), found the end of the document", at: start)
    }

    /// Decodes the entity or character reference at the current position into the scratch buffer.
    private mutating func decodeReference() throws {
        let start = position
        var end = position + 1
        while end < bytes.count, end - start < 12, bytes[end] != UInt8(ascii: ";") { end += 1 }
        func reject() -> ModelError {
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<min(end + 1, bytes.count)]), as: UTF8.self)
            return fail(
                "expected an entity (&amp;, &lt;, &gt;, &quot;, &apos;, &#…; or &#x…;), found \(ModelValue.quoted(text))",
                at: start)
        }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else { throw reject() }
        let name = UnsafeBufferPointer(rebasing: bytes[start + 1..<end])
        let scalar: UInt32
        if name.elementsEqual("amp".utf8) {
            scalar = 0x26
        } else if name.elementsEqual("lt".utf8) {
            scalar = 0x3C
        } else if name.elementsEqual("gt".utf8) {
            scalar = 0x3E
        } else if name.elementsEqual("quot".utf8) {
            scalar = 0x22
        } else if name.elementsEqual("apos".utf8) {
            scalar = 0x27
        } else if name.first == UInt8(ascii: "#"), let value = PropertyListScalars.characterReference(name.dropFirst()) {
            guard Self.isXMLCharacter(value), let unicode = Unicode.Scalar(value) else {
                throw fail("expected a reference to a character XML allows, found one to \(Self.scalarName(value))",
                    at: start)
            }
            scratch.append(contentsOf: String(Character(unicode)).utf8)
            position = end + 1
            return
        } else {
            throw reject()
        }
        scratch.append(UInt8(scalar))
        position = end + 1
    }

    static func isXMLCharacter(_ value: UInt32) -> Bool {
        switch value {
        case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    static func endTag(of element: Element) -> String {
        switch element {
        case .key: "</key>"
        case .string: "</string>"
        case .integer: "</integer>"
        case .real: "</real>"
        case .date: "</date>"
        case .data: "</data>"
        default: "the end tag"
        }
    }
}
