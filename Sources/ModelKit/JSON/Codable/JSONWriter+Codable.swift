import Foundation

/// The scalars of `Codable` values that ``JSONWriter`` has no writer of its own for.
extension JSONWriter {
    @inline(__always)
    mutating func writeBool(_ flag: Bool) {
        flag ? append("true") : append("false")
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
