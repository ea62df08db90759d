import Foundation

/// Writes a ``ModelValue`` as a binary property list (`bplist00`), the format
/// Apple documents in CoreFoundation's `CFBinaryPList.c`, straight from the
/// value: no `PropertyListSerialization`, no `[String: Any]` in between.
///
/// - Keys keep their exact text and the object's order (a Swift dictionary
///   would merge `"é"` and `"e\u{301}"` and lose the order).
/// - The same value gives the same bytes on every run, and the bytes
///   CoreFoundation and Python's `plistlib` write for it: objects are
///   numbered depth-first from the root, a dictionary's keys before its
///   values; references and offsets take the fewest bytes that hold the
///   object count and the offset table's start.
/// - Equal scalars (strings, keys, numbers, dates, data) are written once
///   and referred to wherever they appear, as CoreFoundation does.
/// - Dates are the `Double` seconds since 2001 that `Date` holds: exact.
/// - Null is written as the string `"$null"` and integers outside `Int64`
///   and `UInt64` as the string `"$integer:"` and their digits, both as in
///   XML (see ``PropertyListBridge``); integers above `Int64.max` that fit
///   `UInt64` are 16-byte integers, as CoreFoundation and Python write them.
/// - Nesting deeper than ``PropertyListBridge/maximumDepth`` is refused, as
///   the readers refuse it; the walk never recurses.
/// - Writing a keyed archive (`writingUIDs`), an object `{"CF$UID": n}` is
///   written as the UID `n`, and strings as they are, without markers (see
///   ``KeyedArchive``); the value then holds no null.
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
    /// Whether `{"CF$UID": n}` objects are UIDs and strings are written as
    /// they are: a keyed archive is being written.
    private var writesUIDs = false

    /// The binary property list of `value`.
    /// - Throws: ``ModelError`` with code `.nestingTooDeep` and the key path
    ///   for nesting past ``PropertyListBridge/maximumDepth``, or
    ///   `.notRepresentable` for a big integer that is not made of digits.
    /// - Parameter writingUIDs: whether a keyed archive is being written:
    ///   `{"CF$UID": n}` objects are UIDs and strings have no markers.
    static func data(from value: ModelValue, writingUIDs: Bool = false) throws -> Data {
        var writer = BinaryPropertyListWriter()
        writer.writesUIDs = writingUIDs
        try writer.number(value)
        return writer.encoded()
    }

    /// A container whose members are being numbered: its object number, its
    /// keys (for a dictionary, numbered when it opens), its members, and the
    /// next member to number.
    private struct Frame {
        let object: Int
        let keys: [String]?
        let elements: [ModelValue]
        var keyNumbers: [Int] = []
        var members: [Int] = []
        var next = 0

        /// Where the member being numbered lies in this container.
        var component: ModelKeyPath.Component {
            if let keys { return .key(keys[next]) }
            return .index(next)
        }
    }

    /// Numbers every object depth-first from the root, as CoreFoundation and
    /// Python's `plistlib` do: a container, then (for a dictionary) all its
    /// keys, then each member and everything inside it in turn. The walk
    /// keeps its own stack, so it never recurses.
    private mutating func number(_ root: ModelValue) throws {
        var stack: [Frame] = []
        func open(_ value: ModelValue, as object: Int, stack: inout [Frame], writer: inout Self) {
            switch value {
            case .array(let elements):
                stack.append(Frame(object: object, keys: nil, elements: elements))
            case .object(let members):
                var frame = Frame(object: object, keys: members.keys, elements: members.values)
                frame.keyNumbers.reserveCapacity(members.count)
                for key in members.keys { frame.keyNumbers.append(writer.addScalar(.string(key))) }
                stack.append(frame)
            default:
                break
            }
        }
        if writesUIDs, KeyedArchive.uid(of: root) != nil {
            _ = addScalar(root)
            return
        }
        switch root {
        case .array, .object:
            objects.append(.array(start: 0, count: 0))
            open(root, as: 0, stack: &stack, writer: &self)
        default:
            _ = addScalar(writesUIDs ? root : try Self.written(root))
            return
        }
        while let top = stack.indices.last {
            let next = stack[top].next
            if next < stack[top].elements.count {
                let member = stack[top].elements[next]
                if writesUIDs, KeyedArchive.uid(of: member) != nil {
                    stack[top].members.append(addScalar(member))
                    stack[top].next += 1
                    continue
                }
                switch member {
                case .array, .object:
                    guard stack.count < PropertyListBridge.maximumDepth else {
                        throw ModelError(
                            code: .nestingTooDeep,
                            message: "nesting is deeper than the limit of \(PropertyListBridge.maximumDepth) levels",
                            keyPath: ModelKeyPath(stack.map(\.component)))
                    }
                    let number = objects.count
                    objects.append(.array(start: 0, count: 0))
                    stack[top].members.append(number)
                    stack[top].next += 1
                    open(member, as: number, stack: &stack, writer: &self)
                default:
                    let scalar: ModelValue
                    do {
                        scalar = writesUIDs ? member : try Self.written(member)
                    } catch var error as ModelError {
                        error.keyPath = ModelKeyPath(stack.map(\.component) + error.keyPath.components)
                        throw error
                    }
                    stack[top].members.append(addScalar(scalar))
                    stack[top].next += 1
                }
                continue
            }
            let frame = stack.removeLast()
            if frame.keys != nil {
                objects[frame.object] = .dictionary(start: references.count, count: frame.members.count)
                references.append(contentsOf: frame.keyNumbers)
            } else {
                objects[frame.object] = .array(start: references.count, count: frame.members.count)
            }
            references.append(contentsOf: frame.members)
        }
    }

    /// The object number of the scalar `scalar` (as written): the number of an
    /// equal scalar already numbered, or a new one.
    private mutating func addScalar(_ scalar: ModelValue) -> Int {
        let key = ScalarKey(scalar)
        if let existing = uniqued[key] { return existing }
        let number = objects.count
        objects.append(.scalar(scalar))
        uniqued[key] = number
        return number
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
        // Sized for the object count, as CoreFoundation sizes it (not the largest number).
        let referenceSize = Self.byteCount(for: UInt64(objects.count))
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
            } else if let wide = Int128(digits) {
                // A 16-byte integer as the reader reads one: signed, two's
                // complement. (Only keyed archives get here: `written(_:)`
                // turns these into marker strings in plain property lists.)
                let bits = UInt128(bitPattern: wide)
                bytes.append(0x14)
                append(UInt64(truncatingIfNeeded: bits >> 64), size: 8, to: &bytes)
                append(UInt64(truncatingIfNeeded: bits), size: 8, to: &bytes)
            } else {
                preconditionFailure("ModelKit: a property list integer past 128 bits reached the writer")
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
        case .object(let members):
            // A UID (only in keyed archives): 0x8 and its byte count less one.
            let uid = UInt64(KeyedArchive.uid(of: .object(members)) ?? 0)
            let size = byteCount(for: uid)
            bytes.append(0x80 | UInt8(size - 1))
            append(uid, size: size, to: &bytes)
        case .null, .array:
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
    case uid(Int)

    init(_ value: ModelValue) {
        switch value {
        case .string(let string): self = .string(Array(string.utf8))
        case .int(let integer): self = .int(integer)
        case .bigInteger(let digits): self = .bigInteger(digits)
        case .double(let number): self = .double(number.bitPattern)
        case .date(let date): self = .date(date.timeIntervalSinceReferenceDate.bitPattern)
        case .data(let data): self = .data(data)
        case .bool(let flag): self = .bool(flag)
        case .object: self = .uid(KeyedArchive.uid(of: value) ?? 0)  // only UIDs are scalars
        case .null, .array: self = .bool(false)  // never asked: see `written(_:)`
        }
    }
}
