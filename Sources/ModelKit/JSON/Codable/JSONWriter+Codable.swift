import Foundation

/// The scalars of `Codable` values that ``JSONWriter`` has no writer of its own for.
extension JSONWriter {
    @inline(__always)
    mutating func writeBool(_ flag: Bool) {
        flag ? append("true") : append("false")
    }

    /// Writes an empty object or array (`open` and `close`, its brackets)
    /// whose value is at `depth`: `{}` compact; pretty, an empty line
    /// between them (`{\n\n}`, the closing bracket indented), as `JSONEncoder` writes one.
    mutating func writeEmptyContainer(_ open: UInt8, _ close: UInt8, depth: Int) {
        guard options.prettyPrinted else {
            appendASCII(open, close)
            return
        }
        append(open)
        append(JSONByte.lineFeed)
        startLine(depth: depth)
        append(close)
    }

    /// Writes an unsigned integer in decimal.
    @inline(__always)
    mutating func writeUnsigned(_ value: UInt64) {
        reserve(28)
        count &+= writeDigits(value, at: count)
    }

    /// Writes an `Int128` or `UInt128` in decimal, every digit, as `JSONEncoder` does.
    mutating func writeWideInteger(_ value: some BinaryInteger) {
        var text = String(value)
        text.withUTF8 { append($0) }
    }

    /// Writes a finite `Double` (``writeDouble(_:)`` throws only for the others).
    @inline(__always)
    mutating func writeFiniteDouble(_ value: Double) {
        do {
            try writeDouble(value)
        } catch {
            preconditionFailure("a finite Double is always written")
        }
    }

    /// Writes a finite `Float` with its own shortest digits.
    mutating func writeFloat(_ value: Float) {
        var digits = JSONWriter.ShortText()
        value.write(to: &digits)
        digits.withBytes { append($0) }
    }
}
