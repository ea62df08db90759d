import Foundation

/// Reads a binary property list (`bplist00`) into a ``ModelValue``, straight
/// from the bytes: no `PropertyListSerialization`, no `[String: Any]`.
///
/// - The header is `bplist0` and any eighth byte, as Foundation reads it.
/// - Dictionaries keep their keys' exact text and their order in the file;
///   a key that repeats in one dictionary is an error, as in JSON.
/// - Every offset, size and object reference is checked before it is
///   followed; the walk never recurses; a reference back to an object that
///   contains it (a loop) and nesting deeper than
///   ``PropertyListBridge/maximumDepth`` are errors. An object referred to
///   from several places is read once, and a file whose shared objects would
///   expand to an enormous value is refused.
/// - The string `"$null"` reads as null and `"$integer:…"` as that integer
///   (see ``PropertyListBridge``); 16-byte integers read exactly.
/// - Keyed-archive UIDs are refused; sets read as arrays; the fill byte
///   (`0x0F`), which no writer emits as an object, is an unknown marker.
///   Reading a keyed archive (`readingUIDs`), a UID reads as the object
///   `{"CF$UID": n}`, the form XML archives write it in, and strings are
///   kept exactly as written (no `"$null"` marker: see ``KeyedArchive``).
/// - Every count and offset is compared with the file's size before any
///   arithmetic on it, so a count of 2^62 or 2^64 - 1 is an error, not a trap.
///
/// Errors name the key path of the object that failed and, as `byte N`, its
/// offset in the file.
struct BinaryPropertyListReader {
    /// What a binary property list starts with; the eighth byte is a version
    /// digit that Foundation does not check, nor does ModelKit.
    static let magic = Array("bplist0".utf8)
    /// The header and the trailer: the smallest file.
    static let headerSize = 8

    /// Whether `data` starts like a binary property list (any version).
    static func isBinary(_ data: Data) -> Bool { data.starts(with: magic.prefix(6)) }

    let bytes: UnsafeBufferPointer<UInt8>
    let offsetSize: Int
    let referenceSize: Int
    let objectCount: Int
    let topObject: Int
    let tableOffset: Int
    /// Where objects may lie: after the header, before the offset table.
    let objectsEnd: Int
    /// Whether UIDs are read (as `{"CF$UID": n}`) and strings kept as
    /// written: a keyed archive is being read.
    let readsUIDs: Bool

    /// The value the binary property list `data` holds.
    /// - Throws: ``ModelError`` for a damaged or hostile file.
    /// - Parameter readingUIDs: whether a keyed archive is being read: UIDs
    ///   read as `{"CF$UID": n}` and strings stay as written.
    static func value(from data: Data, readingUIDs: Bool = false) throws -> ModelValue {
        try data.withUnsafeBytes { raw in
            let reader = try BinaryPropertyListReader(raw.bindMemory(to: UInt8.self), readingUIDs: readingUIDs)
            return try reader.readTop()
        }
    }

    init(_ bytes: UnsafeBufferPointer<UInt8>, readingUIDs: Bool = false) throws {
        self.bytes = bytes
        self.readsUIDs = readingUIDs
        guard bytes.count >= Self.headerSize + 32 else {
            throw Self.failure("the binary property list is truncated (\(bytes.count) bytes)")
        }
        guard bytes.starts(with: Self.magic) else {
            throw Self.failure("not a bplist0x binary property list")
        }
        let trailer = bytes.count - 32
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        let objectCount = Self.readInteger(bytes, at: trailer + 8, size: 8)
        let topObject = Self.readInteger(bytes, at: trailer + 16, size: 8)
        let tableOffset = Self.readInteger(bytes, at: trailer + 24, size: 8)
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw Self.failure(
                "the trailer is damaged: it gives offset size \(offsetSize) and reference size \(referenceSize)")
        }
        guard let objectCount, objectCount >= 1, objectCount <= bytes.count,
            let topObject, topObject < objectCount,
            let tableOffset, tableOffset >= Self.headerSize, tableOffset <= trailer,
            objectCount <= (trailer - tableOffset) / offsetSize
        else {
            throw Self.failure("the trailer is damaged: its object count, top object or offset table lies outside the file")
        }
        self.objectCount = objectCount
        self.topObject = topObject
        self.tableOffset = tableOffset
        self.objectsEnd = tableOffset
    }

    // MARK: - Objects

    /// A container being read: its object, members (keys then values for a
    /// dictionary) and the next member to read.
    private struct Frame {
        let object: Int
        let isDictionary: Bool
        let members: [Int]
        var next = 0
    }

    /// Reads the top object and everything it holds, depth-first with an explicit stack.
    func readTop() throws -> ModelValue {
        var values = [ModelValue?](repeating: nil, count: objectCount)
        // 0: not read; 1: open on the stack; 2: read.
        var states = [UInt8](repeating: 0, count: objectCount)
        // How deeply each read container nests, and how many values it expands to.
        var heights = [Int32](repeating: 0, count: objectCount)
        var sizes = [Int](repeating: 1, count: objectCount)
        let sizeLimit = max(1 << 20, 64 * objectCount)
        var stack: [Frame] = []

        /// Reads `object` if it is a scalar, or opens it; returns whether it is ready.
        func visit(_ object: Int) throws -> Bool {
            switch states[object] {
            case 2:
                guard stack.count + Int(heights[object]) <= PropertyListBridge.maximumDepth else {
                    throw nestingError(stack, values: values)
                }
                return true
            case 1:
                throw failure("object \(object) contains itself (a reference loop)", stack: stack, values: values)
            default:
                break
            }
            let offset = try self.offset(of: object, stack: stack, values: values)
            if let members = try containerMembers(at: offset, stack: stack, values: values) {
                guard stack.count < PropertyListBridge.maximumDepth else { throw nestingError(stack, values: values) }
                states[object] = 1
                stack.append(Frame(object: object, isDictionary: members.isDictionary, members: members.references))
                return false
            }
            values[object] = try scalar(at: offset, stack: stack, values: values)
            states[object] = 2
            return true
        }

        if try visit(topObject) { return asValue(values[topObject]!) }
        while let top = stack.indices.last {
            if stack[top].next < stack[top].members.count {
                // A read member moves the cursor on; an opened one is read first.
                if try visit(stack[top].members[stack[top].next]) { stack[top].next += 1 }
                continue
            }
            // Every member is read: build the container (its frame stays on
            // the stack until then, for the key path of any error).
            let frame = stack[top]
            var height: Int32 = 0
            var size = 1
            for member in frame.members {
                height = max(height, heights[member])
                size += sizes[member]
            }
            guard size <= sizeLimit else {
                throw failure(
                    "the property list's shared objects expand to more than \(sizeLimit) values", stack: stack,
                    values: values)
            }
            let value: ModelValue
            if frame.isDictionary {
                let count = frame.members.count / 2
                var object = ModelValue.Object(minimumCapacity: count)
                for index in 0..<count {
                    stack[top].next = count + index  // for the key path
                    guard case .string(let key) = values[frame.members[index]]! else {
                        stack[top].next = index
                        throw failure(
                            "a dictionary key is \(values[frame.members[index]]!.kindDescription), not a string",
                            stack: stack, values: values)
                    }
                    let member = asValue(values[frame.members[count + index]]!)
                    guard object.appendIfAbsent(key: key, value: member) == nil else {
                        stack[top].next = index
                        throw failure(
                            "the key \(ModelValue.quoted(key)) repeats in a dictionary", stack: stack, values: values)
                    }
                }
                value = .object(object)
            } else {
                value = .array(frame.members.map { asValue(values[$0]!) })
            }
            stack.removeLast()
            values[frame.object] = value
            states[frame.object] = 2
            heights[frame.object] = height + 1
            sizes[frame.object] = size
            if let parent = stack.indices.last { stack[parent].next += 1 }
        }
        return asValue(values[topObject]!)
    }

    /// A string object as a value: `"$null"` is null, and so on (see
    /// ``PropertyListBridge``). Strings are kept as written until they are
    /// used, because one string object may be both a key and a value.
    private func asValue(_ object: ModelValue) -> ModelValue {
        guard !readsUIDs, case .string(let string) = object else { return object }
        return PropertyListBridge.unescaped(string)
    }

    /// The offset of `object`, checked.
    private func offset(of object: Int, stack: [Frame], values: [ModelValue?]) throws -> Int {
        guard let offset = Self.readInteger(bytes, at: tableOffset + object * offsetSize, size: offsetSize),
            offset >= Self.headerSize, offset < objectsEnd
        else {
            throw failure("object \(object) has an offset outside the file's objects", stack: stack, values: values)
        }
        return offset
    }

    /// The references of the array, set or dictionary at `offset`, or `nil` for a scalar.
    private func containerMembers(at offset: Int, stack: [Frame], values: [ModelValue?]) throws
        -> (isDictionary: Bool, references: [Int])?
    {
        let marker = bytes[offset]
        let kind = marker >> 4
        guard kind == 0xA || kind == 0xC || kind == 0xD else { return nil }
        let (count, start) = try length(at: offset, stack: stack, values: values)
        // Compared by division before any multiplication: a count may be as
        // large as 2^63 - 1, and `count * 2` or `count * referenceSize` would overflow.
        let perMember = kind == 0xD ? 2 : 1
        guard count <= (objectsEnd - start) / referenceSize / perMember else {
            throw failure(
                "a container at byte \(offset) claims \(count) members, more than the file can hold",
                stack: stack, values: values)
        }
        let references = count * perMember
        var members: [Int] = []
        members.reserveCapacity(references)
        for index in 0..<references {
            let at = start + index * referenceSize
            guard let reference = Self.readInteger(bytes, at: at, size: referenceSize), reference < objectCount else {
                let written = Self.bigEndian(UnsafeBufferPointer(rebasing: bytes[at..<(at + referenceSize)]))
                throw failure(
                    "a container at byte \(offset) refers to object \(written), beyond the \(objectCount) objects",
                    stack: stack, values: values)
            }
            members.append(reference)
        }
        return (kind == 0xD, members)
    }

    /// The count in the low nibble of the marker at `offset` (or the integer
    /// after it), and where the payload starts.
    private func length(at offset: Int, stack: [Frame], values: [ModelValue?]) throws -> (count: Int, start: Int) {
        let nibble = Int(bytes[offset] & 0x0F)
        guard nibble == 0x0F else { return (nibble, offset + 1) }
        guard offset + 1 < objectsEnd, bytes[offset + 1] >> 4 == 0x1 else {
            throw failure("the object at byte \(offset) has a damaged length", stack: stack, values: values)
        }
        let size = 1 << Int(bytes[offset + 1] & 0x0F)
        guard size <= 8, let count = Self.readInteger(bytes, at: offset + 2, size: size), count >= 0,
            offset + 2 + size <= objectsEnd
        else {
            throw failure("the object at byte \(offset) has a damaged length", stack: stack, values: values)
        }
        return (count, offset + 2 + size)
    }

    /// The scalar at `offset`.
    private func scalar(at offset: Int, stack: [Frame], values: [ModelValue?]) throws -> ModelValue {
        let marker = bytes[offset]
        func payload(_ size: Int, from start: Int) throws -> UnsafeBufferPointer<UInt8> {
            guard size >= 0, size <= objectsEnd - start else {
                throw failure("the object at byte \(offset) runs past the end of the objects", stack: stack, values: values)
            }
            return UnsafeBufferPointer(rebasing: bytes[start..<(start + size)])
        }
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x00: return .null
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            default: break
            }
        case 0x1:
            let size = 1 << Int(marker & 0x0F)
            guard size <= 16 else { break }
            let digits = try payload(size, from: offset + 1)
            return Self.integer(digits)
        case 0x2:
            switch marker & 0x0F {
            case 2:
                let raw = try payload(4, from: offset + 1)
                return .double(Double(Float(bitPattern: UInt32(Self.bigEndian(raw)))))
            case 3:
                return .double(Double(bitPattern: Self.bigEndian(try payload(8, from: offset + 1))))
            default: break
            }
        case 0x3 where marker == 0x33:
            let seconds = Double(bitPattern: Self.bigEndian(try payload(8, from: offset + 1)))
            guard seconds.isFinite else {
                throw failure("the date at byte \(offset) is not a finite number of seconds", stack: stack, values: values)
            }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case 0x4:
            let (count, start) = try length(at: offset, stack: stack, values: values)
            return .data(Data(try payload(count, from: start)))
        case 0x5:
            let (count, start) = try length(at: offset, stack: stack, values: values)
            let text = try payload(count, from: start)
            guard !text.contains(where: { $0 >= 0x80 }) else {
                throw failure("the ASCII string at byte \(offset) holds a byte above 127", stack: stack, values: values)
            }
            return .string(String(decoding: text, as: UTF8.self))
        case 0x6:
            let (count, start) = try length(at: offset, stack: stack, values: values)
            guard count <= (objectsEnd - start) / 2 else {
                throw failure("the object at byte \(offset) runs past the end of the objects", stack: stack, values: values)
            }
            let text = try payload(count * 2, from: start)
            guard let string = Self.utf16String(text) else {
                throw failure(
                    "the UTF-16 string at byte \(offset) holds an unpaired surrogate", stack: stack, values: values)
            }
            return .string(string)
        case 0x8 where readsUIDs:
            let digits = try payload(Int(marker & 0x0F) + 1, from: offset + 1)
            guard digits.count <= 8, let uid = Int(exactly: Self.bigEndian(digits)) else {
                throw failure("the UID at byte \(offset) is too large", stack: stack, values: values)
            }
            return .object([KeyedArchive.uidKey: .int(uid)])
        case 0x8:
            throw failure(
                "the object at byte \(offset) is a keyed archiver's UID, which ModelKit does not read",
                stack: stack, values: values)
        default:
            break
        }
        throw failure(
            "the object at byte \(offset) has the unknown marker 0x\(String(marker, radix: 16, uppercase: true))",
            stack: stack, values: values)
    }

    // MARK: - Helpers

    /// An integer of 1, 2 or 4 bytes (unsigned), 8 (signed) or 16 (signed, 128 bits).
    private static func integer(_ digits: UnsafeBufferPointer<UInt8>) -> ModelValue {
        switch digits.count {
        case 16:
            let high = bigEndian(UnsafeBufferPointer(rebasing: digits[0..<8]))
            let low = bigEndian(UnsafeBufferPointer(rebasing: digits[8..<16]))
            let value = Int128(bitPattern: UInt128(high) << 64 | UInt128(low))
            if let small = Int(exactly: value) { return .int(small) }
            return .bigInteger(String(value))
        case 8:
            return .int(Int(Int64(bitPattern: bigEndian(digits))))
        default:
            return .int(Int(bigEndian(digits)))
        }
    }

    /// The big-endian number in `digits` (at most eight bytes).
    private static func bigEndian(_ digits: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var value: UInt64 = 0
        for byte in digits { value = value << 8 | UInt64(byte) }
        return value
    }

    /// The big-endian unsigned integer of `size` bytes at `offset`, or `nil`
    /// when it lies outside `bytes` or does not fit `Int`.
    private static func readInteger(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, size: Int) -> Int? {
        guard offset >= 0, size >= 1, size <= 8, offset <= bytes.count - size else { return nil }
        let value = bigEndian(UnsafeBufferPointer(rebasing: bytes[offset..<(offset + size)]))
        return Int(exactly: value)
    }

    /// The string of the big-endian UTF-16 code units in `bytes`, or `nil`
    /// when a surrogate is unpaired.
    private static func utf16String(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = 0
        while index + 1 < bytes.count {
            units.append(UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]))
            index += 2
        }
        var position = 0
        while position < units.count {
            switch units[position] {
            case 0xD800...0xDBFF:
                guard position + 1 < units.count, (0xDC00...0xDFFF).contains(units[position + 1]) else { return nil }
                position += 2
            case 0xDC00...0xDFFF:
                return nil
            default:
                position += 1
            }
        }
        return String(decoding: units, as: UTF16.self)
    }

    // MARK: - Errors

    private static func failure(_ message: String) -> ModelError {
        ModelError.malformed("binary property list", message, at: nil)
    }

    private func failure(_ message: String, stack: [Frame], values: [ModelValue?]) -> ModelError {
        ModelError.malformed("binary property list", message, at: nil, keyPath: keyPath(stack, values: values))
    }

    private func nestingError(_ stack: [Frame], values: [ModelValue?]) -> ModelError {
        var error = failure(
            "nesting is deeper than the limit of \(PropertyListBridge.maximumDepth) levels", stack: stack,
            values: values)
        error.code = .nestingTooDeep
        return error
    }

    /// The key path of the member being read: one component per open container.
    private func keyPath(_ stack: [Frame], values: [ModelValue?]) -> ModelKeyPath {
        var components: [ModelKeyPath.Component] = []
        for frame in stack {
            if frame.isDictionary {
                let count = frame.members.count / 2
                guard frame.next >= count, frame.next < frame.members.count,
                    case .string(let key)? = values[frame.members[frame.next - count]]
                else { continue }
                components.append(.key(key))
            } else {
                components.append(.index(frame.next))
            }
        }
        return ModelKeyPath(components)
    }
}
