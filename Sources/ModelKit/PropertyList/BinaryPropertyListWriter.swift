import Foundation

/// Writes a ``ModelValue`` as a binary property list (`bplist00`), the format
/// Apple documents in CoreFoundation's `CFBinaryPList.c`, straight from the
/// value: no `PropertyListSerialization`, no `[String: Any]` in between.
///
/// - Keys keep their exact text and the object's order (a Swift dictionary
///   would merge `"é"` and `"e\u{301}"` and lose the order).
/// - The same value gives the same bytes on every run: objects are numbered
///   in breadth-first order from the root.
/// - Equal scalars (strings, keys, numbers, dates, data) are written once
///   and referred to wherever they appear, as CoreFoundation does.
/// - Dates are the `Double` seconds since 2001 that `Date` holds: exact.
/// - Null is written as the string `"$null"` and integers outside `Int64`
///   and `UInt64` as the string `"$integer:"` and their digits, both as in
///   XML (see ``PropertyListBridge``); integers above `Int64.max` that fit
///   `UInt64` are 16-byte integers, as CoreFoundation and Python write them.
/// - Nesting deeper than ``PropertyListBridge/maximumDepth`` is refused, as
///   the readers refuse it; the walk never recurses.
struct BinaryPropertyListWriter {
    /// One object of the file: a scalar's bytes are written as they come;
    /// an array's or dictionary's references are in `references`.
    private enum Object {
        case scalar(ModelValue)
        case array(start: Int, count: Int)
        case dictionary(start: Int, count: Int)
    }

    private var objects: [Object] = []
    /// Keys then values for dictionaries, elements for arrays, as object numbers.
    private var references: [Int] = []
    /// Object numbers of scalars already written, for uniquing.
    private var uniqued: [ScalarKey: Int] = [:]

    /// The binary property list of `value`.
    /// - Throws: ``ModelError`` with code `.nestingTooDeep` and the key path
    ///   for nesting past ``PropertyListBridge/maximumDepth``, or
    ///   `.notRepresentable` for a big integer that is not made of digits.
    static func data(from value: ModelValue) throws -> Data {
        var writer = BinaryPropertyListWriter()
        try writer.number(value)
        return writer.encoded()
    }

    /// A container waiting for its members to be numbered, with the way to
    /// its place for error messages.
    private struct Pending {
        let object: Int
        let value: ModelValue
        let depth: Int
        let parent: Int  // index into `pending`, or -1
        let component: ModelKeyPath.Component?
    }

    /// Numbers every object breadth-first from the root, without recursion.
    private mutating func number(_ root: ModelValue) throws {
        var pending: [Pending] = []
        _ = try add(root, depth: 0, parent: -1, component: nil, pending: &pending)
        var next = 0
        while next < pending.count {
            let item = pending[next]
            switch item.value {
            case .array(let elements):
                var members: [Int] = []
                members.reserveCapacity(elements.count)
                for (index, element) in elements.enumerated() {
                    members.append(
                        try add(element, depth: item.depth, parent: next, component: .index(index), pending: &pending))
                }
                objects[item.object] = .array(start: references.count, count: members.count)
                references.append(contentsOf: members)
            case .object(let object):
                var keys: [Int] = []
                var values: [Int] = []
                keys.reserveCapacity(object.count)
                values.reserveCapacity(object.count)
                for (key, value) in object {
                    keys.append(
                        try add(.string(key), depth: item.depth, parent: next, component: nil, isKey: true, pending: &pending))
                    values.append(
                        try add(value, depth: item.depth, parent: next, component: .key(key), pending: &pending))
                }
                objects[item.object] = .dictionary(start: references.count, count: keys.count)
                references.append(contentsOf: keys)
                references.append(contentsOf: values)
            default:
                break
            }
            next += 1
        }
    }

    /// The object number for `value`: a uniqued scalar's existing number, or
    /// a new one (containers wait on `pending` for their members).
    private mutating func add(
        _ value: ModelValue, depth: Int, parent: Int, component: ModelKeyPath.Component?, isKey: Bool = false,
        pending: inout [Pending]
    ) throws -> Int {
        switch value {
        case .array, .object:
            guard depth < PropertyListBridge.maximumDepth else {
                var path = component.map { [$0] } ?? []
                var cursor = parent
                while cursor >= 0 {
                    if let step = pending[cursor].component { path.insert(step, at: 0) }
                    cursor = pending[cursor].parent
                }
                throw ModelError(
                    code: .nestingTooDeep,
                    message: "nesting is deeper than the limit of \(PropertyListBridge.maximumDepth) levels",
                    keyPath: ModelKeyPath(path))
            }
            let number = objects.count
            objects.append(.array(start: 0, count: 0))
            pending.append(Pending(object: number, value: value, depth: depth + 1, parent: parent, component: component))
            return number
        default:
            // Keys are always strings, written as they are; values may need a marker.
            let scalar = isKey ? value : try Self.written(value)
            let key = ScalarKey(scalar)
            if let existing = uniqued[key] { return existing }
            let number = objects.count
            objects.append(.scalar(scalar))
            uniqued[key] = number
            return number
        }
    }

    /// The scalar as it is written: null and big integers as their marker strings.
    private static func written(_ value: ModelValue) throws -> ModelValue {
        switch value {
        case .null: return .string(PropertyListBridge.nullMarker)
        case .string(let string): return .string(PropertyListBridge.escaped(string))
        case .bigInteger(let digits):
            guard PropertyListBridge.isIntegerText(digits) else {
                throw ModelError(
                    code: .notRepresentable,
                    message: "a property list cannot represent the integer \(ModelValue.quoted(digits)), "
                        + "which is not made of digits")
            }
            if UInt64(digits) != nil || Int64(digits) != nil { return value }
            return .string(PropertyListBridge.bigIntegerMarker + digits)
        default: return value
        }
    }

    // MARK: - Bytes

    /// The file: header, objects, offset table, trailer.
    private func encoded() -> Data {
        var bytes: [UInt8] = Array("bplist00".utf8)
        let referenceSize = Self.byteCount(for: UInt64(max(objects.count - 1, 0)))
        var offsets: [Int] = []
        offsets.reserveCapacity(objects.count)
        for object in objects {
            offsets.append(bytes.count)
            switch object {
            case .scalar(let value):
                Self.appendScalar(value, to: &bytes)
            case .array(let start, let count):
                Self.appendMarker(0xA0, count: count, to: &bytes)
                for reference in references[start..<(start + count)] {
                    Self.append(UInt64(reference), size: referenceSize, to: &bytes)
                }
            case .dictionary(let start, let count):
                Self.appendMarker(0xD0, count: count, to: &bytes)
                for reference in references[start..<(start + 2 * count)] {
                    Self.append(UInt64(reference), size: referenceSize, to: &bytes)
                }
            }
        }
        let tableOffset = bytes.count
        let offsetSize = Self.byteCount(for: UInt64(max(tableOffset, 1)))
        for offset in offsets { Self.append(UInt64(offset), size: offsetSize, to: &bytes) }
        // Trailer: six unused bytes, the two sizes, then three 64-bit numbers.
        bytes.append(contentsOf: [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)])
        Self.append(UInt64(objects.count), size: 8, to: &bytes)
        Self.append(0, size: 8, to: &bytes)  // the root is object 0
        Self.append(UInt64(tableOffset), size: 8, to: &bytes)
        return Data(bytes)
    }

    private static func appendScalar(_ value: ModelValue, to bytes: inout [UInt8]) {
        switch value {
        case .bool(let flag):
            bytes.append(flag ? 0x09 : 0x08)
        case .int(let integer):
            appendInteger(Int64(integer), to: &bytes)
        case .bigInteger(let digits):
            if let signed = Int64(digits) {
                appendInteger(signed, to: &bytes)
            } else if let unsigned = UInt64(digits) {
                // Above Int64.max: a 16-byte integer, high half zero.
                bytes.append(0x14)
                append(0, size: 8, to: &bytes)
                append(unsigned, size: 8, to: &bytes)
            }
        case .double(let number):
            bytes.append(0x23)
            append(number.bitPattern, size: 8, to: &bytes)
        case .date(let date):
            bytes.append(0x33)
            append(date.timeIntervalSinceReferenceDate.bitPattern, size: 8, to: &bytes)
        case .data(let data):
            appendMarker(0x40, count: data.count, to: &bytes)
            bytes.append(contentsOf: data)
        case .string(let string):
            let utf8 = string.utf8
            if utf8.allSatisfy({ $0 < 0x80 }) {
                appendMarker(0x50, count: utf8.count, to: &bytes)
                bytes.append(contentsOf: utf8)
            } else {
                let units = Array(string.utf16)
                appendMarker(0x60, count: units.count, to: &bytes)
                for unit in units {
                    bytes.append(UInt8(unit >> 8))
                    bytes.append(UInt8(unit & 0xFF))
                }
            }
        case .null, .array, .object:
            preconditionFailure("written as a marker string or a container")
        }
    }

    /// An integer in the fewest bytes CoreFoundation uses: 1, 2 or 4 bytes
    /// unsigned, or 8 bytes signed (negative numbers always take 8).
    private static func appendInteger(_ value: Int64, to bytes: inout [UInt8]) {
        switch value {
        case 0...0xFF:
            bytes.append(0x10)
            append(UInt64(value), size: 1, to: &bytes)
        case 0x100...0xFFFF:
            bytes.append(0x11)
            append(UInt64(value), size: 2, to: &bytes)
        case 0x1_0000...0xFFFF_FFFF:
            bytes.append(0x12)
            append(UInt64(value), size: 4, to: &bytes)
        default:
            bytes.append(0x13)
            append(UInt64(bitPattern: value), size: 8, to: &bytes)
        }
    }

    /// A marker byte with `count` in its low nibble, or `0xF` and then
    /// `count` as an integer object.
    private static func appendMarker(_ marker: UInt8, count: Int, to bytes: inout [UInt8]) {
        if count < 15 {
            bytes.append(marker | UInt8(count))
        } else {
            bytes.append(marker | 0x0F)
            appendInteger(Int64(count), to: &bytes)
        }
    }

    /// `value` big-endian in `size` bytes.
    private static func append(_ value: UInt64, size: Int, to bytes: inout [UInt8]) {
        var shift = (size - 1) * 8
        while shift >= 0 {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            shift -= 8
        }
    }

    /// The bytes needed for `value`: 1, 2, 4 or 8.
    private static func byteCount(for value: UInt64) -> Int {
        switch value {
        case 0...0xFF: 1
        case 0x100...0xFFFF: 2
        case 0x1_0000...0xFFFF_FFFF: 4
        default: 8
        }
    }
}

/// A scalar as a dictionary key for uniquing: strings compare by their
/// exact UTF-8 bytes, numbers by kind and bits, so `1`, `1.0` and `true`
/// stay three objects and `"é"` and `"e\u{301}"` two.
private enum ScalarKey: Hashable {
    case string([UInt8])
    case int(Int)
    case bigInteger(String)
    case double(UInt64)
    case date(UInt64)
    case data(Data)
    case bool(Bool)

    init(_ value: ModelValue) {
        switch value {
        case .string(let string): self = .string(Array(string.utf8))
        case .int(let integer): self = .int(integer)
        case .bigInteger(let digits): self = .bigInteger(digits)
        case .double(let number): self = .double(number.bitPattern)
        case .date(let date): self = .date(date.timeIntervalSinceReferenceDate.bitPattern)
        case .data(let data): self = .data(data)
        case .bool(let flag): self = .bool(flag)
        case .null, .array, .object: self = .bool(false)  // never asked: see `written(_:)`
        }
    }
}
