import Foundation

/// Writes a ``ModelValue`` as an XML property list in Apple's layout.
///
/// The output is what Foundation writes, byte for byte (checked against
/// swift-corelibs-foundation in the tests), except in three places where
/// Foundation loses information: reals are
/// written with the shortest text that reads back as the same `Double`
/// (`0.1`, not `0.10000000000000001`), dates keep their fraction of a second
/// to the microsecond (`2025-11-16T15:33:20.25Z`; whole seconds are written
/// without one, so Foundation can read them), and dictionary keys keep the
/// object's insertion order instead of being sorted.
///
/// ```swift
/// let data = try XMLPropertyListWriter.data(from: ["name": "a < b", "tags": []])
/// // …<dict>\n\t<key>name</key>\n\t<string>a &lt; b</string>\n\t<key>tags</key>\n\t<array/>\n</dict>…
/// ```
///
/// Property lists have no null: `null` is written as the string `"$null"`,
/// and a real string of one or more `$` followed by `null` gets one more `$`
/// (see ``PropertyListBridge``). Integers outside `Int` are written as
/// `<integer>` with all their digits. `<data>` is base64, wrapped as Apple
/// wraps it: 76 columns less 8 for each level of indentation.
///
/// XML 1.0 cannot carry the control characters U+0000 to U+001F other than
/// tab, line feed and carriage return, nor U+FFFE and U+FFFF, not even as
/// character references; a string or key holding one is rejected with
/// ``ModelError/Code/notRepresentable`` naming its key path. A carriage
/// return is written as `&#13;`, so XML readers that normalise line ends
/// still read it back. Nesting deeper than 512 levels is rejected, because
/// the reader would reject it.
struct XMLPropertyListWriter {
    private var bytes: [UInt8] = []

    /// The property list of `value`, as UTF-8 bytes.
    /// - Throws: ``ModelError`` with code `.notRepresentable` for a string XML
    ///   cannot hold, or `.nestingTooDeep` past 512 levels.
    static func data(from value: ModelValue) throws -> Data {
        var writer = XMLPropertyListWriter()
        writer.bytes.reserveCapacity(256)
        writer.append(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">\n
            """)
        try writer.write(value)
        writer.append("</plist>\n")
        return Data(writer.bytes)
    }

    /// An array or dictionary being written, and the position of its next member.
    private enum Frame {
        case array([ModelValue], next: Int)
        case object(ModelValue.Object, next: Int)
    }

    /// Writes `root` without recursion: open containers wait on a stack.
    private mutating func write(_ root: ModelValue) throws {
        var stack: [Frame] = []
        var pending: ModelValue? = root
        while true {
            if let value = pending {
                pending = nil
                let indent = stack.count
                switch value {
                case .array(let elements) where !elements.isEmpty:
                    try checkDepth(stack)
                    line("<array>", indent: indent)
                    stack.append(.array(elements, next: 0))
                case .object(let members) where !members.isEmpty:
                    try checkDepth(stack)
                    line("<dict>", indent: indent)
                    stack.append(.object(members, next: 0))
                default:
                    try writeLeaf(value, indent: indent, stack: stack)
                }
                continue
            }
            guard let frame = stack.popLast() else { return }
            switch frame {
            case .array(let elements, let next):
                if next < elements.count {
                    stack.append(.array(elements, next: next + 1))
                    pending = elements[next]
                } else {
                    line("</array>", indent: stack.count)
                }
            case .object(let members, let next):
                if next < members.count {
                    stack.append(.object(members, next: next + 1))
                    tabs(stack.count)
                    append("<key>")
                    try appendEscaped(members.keys[next], stack: stack)
                    append("</key>\n")
                    pending = members.values[next]
                } else {
                    line("</dict>", indent: stack.count)
                }
            }
        }
    }

    private mutating func writeLeaf(_ value: ModelValue, indent: Int, stack: [Frame]) throws {
        tabs(indent)
        switch value {
        case .null:
            append("<string>$null</string>\n")
        case .bool(let flag):
            append(flag ? "<true/>\n" : "<false/>\n")
        case .int(let number):
            element("integer", String(number))
        case .bigInteger(let digits):
            guard PropertyListBridge.isIntegerText(digits) else {
                throw ModelError(
                    code: .notRepresentable,
                    message: "a property list cannot represent the integer \(ModelValue.quoted(digits)), "
                        + "which is not made of digits",
                    keyPath: Self.keyPath(of: stack))
            }
            if UInt64(digits) != nil || Int64(digits) != nil {
                element("integer", digits)
            } else {
                // Beyond 64 bits, which plutil and Foundation refuse: the marker string.
                element("string", PropertyListBridge.bigIntegerMarker + digits)
            }
        case .double(let number):
            element("real", Self.realText(number))
        case .string(let text):
            append("<string>")
            if PropertyListBridge.isMarkerLike(text) { append("$") }
            try appendEscaped(text, stack: stack)
            append("</string>\n")
        case .date(let date):
            // Whole seconds, the form every other reader accepts (plutil and
            // Python refuse a fraction); binary property lists and JSON keep it.
            // Written as Foundation writes it, Julian before 1582 (see ISO8601DateText).
            guard let text = ISO8601DateText.propertyListString(from: date) else {
                throw ModelError(
                    code: .notRepresentable,
                    message: "a property list cannot represent the date \(date.timeIntervalSince1970) "
                        + "(seconds since 1970), more than 285 million years from 2001",
                    keyPath: Self.keyPath(of: stack))
            }
            element("date", text)
        case .data(let data):
            append("<data>\n")
            appendBase64(data, indent: indent)
            append("</data>\n")
        case .array:
            try checkDepth(stack)  // an empty container is a level too
            append("<array/>\n")
        case .object:
            try checkDepth(stack)
            append("<dict/>\n")
        }
    }

    /// Throws when one more container would pass the reader's limit.
    private func checkDepth(_ stack: [Frame]) throws {
        guard stack.count >= PropertyListBridge.maximumDepth else { return }
        throw ModelError(
            code: .nestingTooDeep,
            message: "nesting is deeper than the limit of \(PropertyListBridge.maximumDepth) levels",
            keyPath: Self.keyPath(of: stack))
    }

    /// Apple's text for a real: shortest round-trip digits, without a
    /// trailing `.0`, and `nan`, `+infinity`, `-infinity`.
    static func realText(_ number: Double) -> String {
        if number.isNaN { return "nan" }
        if number.isInfinite { return number < 0 ? "-infinity" : "+infinity" }
        let text = number.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// The key path of the member being written: the innermost frame's
    /// member is the one before its `next`.
    private static func keyPath(of stack: [Frame]) -> ModelKeyPath {
        ModelKeyPath(
            stack.map { frame in
                switch frame {
                case .array(_, let next): .index(next - 1)
                case .object(let members, let next): .key(members.keys[next - 1])
                }
            })
    }

    // MARK: - Bytes

    private mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Indents by `count` tabs, at most `maximumIndent`: deeper levels share
    /// the deepest indentation, so the text stays linear in the size of a
    /// document however deep it nests (a chain of 500 models would
    /// otherwise be mostly tabs).
    private mutating func tabs(_ count: Int) {
        for _ in 0..<min(count, Self.maximumIndent) { bytes.append(UInt8(ascii: "\t")) }
    }

    static let maximumIndent = 32

    private mutating func line(_ text: StaticString, indent: Int) {
        tabs(indent)
        append(text)
        bytes.append(UInt8(ascii: "\n"))
    }

    /// `<name>text</name>` and a line end, for text that needs no escaping.
    private mutating func element(_ name: StaticString, _ text: String) {
        bytes.append(UInt8(ascii: "<"))
        append(name)
        bytes.append(UInt8(ascii: ">"))
        append(text)
        append("</")
        append(name)
        append(">\n")
    }

    /// Appends `text` with `&`, `<`, `>` and carriage returns escaped.
    private mutating func appendEscaped(_ text: String, stack: [Frame]) throws {
        let utf8 = text.utf8
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            switch byte {
            case UInt8(ascii: "&"): append("&amp;")
            case UInt8(ascii: "<"): append("&lt;")
            case UInt8(ascii: ">"): append("&gt;")
            case UInt8(ascii: "\r"): append("&#13;")
            case UInt8(ascii: "\t"), UInt8(ascii: "\n"): bytes.append(byte)
            case 0..<0x20:
                throw unrepresentable(UInt32(byte), stack: stack)
            case 0xEF:
                // U+FFFE and U+FFFF are EF BF BE and EF BF BF.
                let second = utf8.index(after: index)
                let third = utf8.index(after: second)
                if utf8[second] == 0xBF, utf8[third] >= 0xBE {
                    throw unrepresentable(utf8[third] == 0xBE ? 0xFFFE : 0xFFFF, stack: stack)
                }
                bytes.append(byte)
            default:
                bytes.append(byte)
            }
            index = utf8.index(after: index)
        }
    }

    private func unrepresentable(_ scalar: UInt32, stack: [Frame]) -> ModelError {
        let hex = String(scalar, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        return ModelError(
            code: .notRepresentable,
            message: "expected text that XML 1.0 can carry, found a string containing \(code)",
            keyPath: Self.keyPath(of: stack), format: "property list")
    }

    /// Appends base64 lines as Apple writes them, each followed by a line end
    /// and the indentation, so `</data>` lands indented after the last.
    private mutating func appendBase64(_ data: Data, indent: Int) {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        let lineLength = 76 - 8 * min(indent, 8)
        tabs(indent)
        var column = 0
        data.withUnsafeBytes { raw in
            let input = raw.bindMemory(to: UInt8.self)
            var index = 0
            while index < input.count {
                let first = input[index]
                let second = index + 1 < input.count ? input[index + 1] : 0
                let third = index + 2 < input.count ? input[index + 2] : 0
                bytes.append(alphabet[Int(first >> 2)])
                bytes.append(alphabet[Int((first & 0x03) << 4 | second >> 4)])
                bytes.append(index + 1 < input.count ? alphabet[Int((second & 0x0F) << 2 | third >> 6)] : 0x3D)
                bytes.append(index + 2 < input.count ? alphabet[Int(third & 0x3F)] : 0x3D)
                column += 4
                index += 3
                if column >= lineLength || index >= input.count {
                    bytes.append(UInt8(ascii: "\n"))
                    tabs(indent)
                    column = 0
                }
            }
        }
    }
}
