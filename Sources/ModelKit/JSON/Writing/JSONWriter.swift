import Foundation

/// Writes a ``ModelValue`` as JSON text into a growing byte buffer.
///
/// The writer recurses only a few levels and walks anything deeper with an
/// explicit stack, so a value nested as deeply as the options allow is
/// written without exhausting the thread's stack, and a value that JSON
/// cannot hold (an infinite or NaN double) is reported with the key path
/// that leads to it.
/// The bytes go into one `malloc` buffer that ``takeData()`` hands to `Data`
/// without copying.
///
/// ```swift
/// var writer = JSONWriter(options: .pretty)
/// defer { writer.deallocate() }
/// try writer.write(["a": [1, 2.5]])
/// let data = writer.takeData()   // {\n  "a": [\n    1,\n    2.5\n  ]\n}
/// ```
struct JSONWriter {
    /// One open array or object. Elements (or member values) and keys sit
    /// in plain fields, so that reading the next one borrows them in place
    /// instead of copying the container, as an enum payload would.
    private struct Frame {
        let isObject: Bool
        /// An array's elements, or an object's values.
        let values: [ModelValue]
        /// An object's keys; empty for an array.
        let keys: [String]
        /// The texts an object's members keep (``ModelValue/Object``); empty when none does.
        let texts: [RawJSON?]
        /// For sorted output, the positions of an object's keys in sorted order.
        let order: [Int]?
        /// The position of the next element or member to write.
        var next: Int

        /// The position in `values` and `keys` of the member at `index` in writing order.
        @inline(__always)
        func member(_ index: Int) -> Int { order?[index] ?? index }
    }

    var buffer: UnsafeMutablePointer<UInt8>
    var capacity: Int
    var count = 0
    let options: JSONWritingOptions
    private let indent: Int
    /// Containers already open around the value being written, for the
    /// indentation of pretty output: set by a caller that writes the
    /// containers outside it itself (the direct model encoder).
    var baseDepth = 0
    /// The text of keys written before (see `JSONWriter+Keys.swift`); made
    /// once a writer has written enough keys to pay for it.
    var keyTexts: UnsafeMutablePointer<KeyText>?
    /// Keys written while `keyTexts` is not made yet.
    var uncachedKeys = 0

    init(options: JSONWritingOptions, initialCapacity: Int = 4096) {
        self.options = options
        self.indent = max(0, options.indent)
        self.capacity = max(16, initialCapacity)
        guard let memory = malloc(capacity) else { fatalError("JSONWriter: out of memory") }
        self.buffer = memory.assumingMemoryBound(to: UInt8.self)
    }

    /// Frees the buffer unless ``takeData()`` or ``takeString()`` took it.
    mutating func deallocate() {
        freeKeyTexts()
        guard capacity > 0 else { return }
        free(buffer)
        capacity = 0
        count = 0
    }

    /// The bytes written, as `Data` that now owns the buffer.
    ///
    /// The buffer is shrunk to the count only when more than half of it is
    /// unused (a room made for a longer document than was written); a
    /// buffer that grew by doubling is kept as it is, as an `Array`'s or
    /// `Data`'s own storage may be. Shrinking it made glibc's allocator
    /// lower its threshold for `mmap` to the shrunk size, so that the next
    /// write of the same document took fresh pages from the kernel, and
    /// their page faults, as its buffer doubled past that size
    /// (twitter.json's first writes took twice as long).
    mutating func takeData() -> Data {
        freeKeyTexts()
        if count < capacity / 2, let shrunk = realloc(buffer, max(count, 1)) {
            buffer = shrunk.assumingMemoryBound(to: UInt8.self)
        }
        let data = Data(bytesNoCopy: buffer, count: count, deallocator: .free)
        capacity = 0
        count = 0
        return data
    }

    /// The bytes written, as a `String`; the buffer is freed.
    mutating func takeString() -> String {
        let string = String(decoding: UnsafeBufferPointer(start: buffer, count: count), as: UTF8.self)
        deallocate()
        return string
    }

    /// Writes `root` and everything inside it.
    ///
    /// Containers are written by recursion, which borrows each one in place,
    /// down to `recursionDepth` levels; a container deeper than that is
    /// written by ``writeIteratively(_:)``, whose stack of frames lives on
    /// the heap, so any depth the options allow is written without
    /// exhausting the thread's stack.
    mutating func write(_ root: ModelValue) throws(ModelError) {
        switch root {
        case .array(let elements):
            try writeArray(JSONWriter.storage(of: elements), outer: 0)
        case .object(let object):
            let texts = object.memberTexts
            try writeObject(
                keys: JSONWriter.storage(of: object.keys), values: JSONWriter.storage(of: object.values),
                texts: JSONWriter.storage(of: texts), outer: 0)
            withExtendedLifetime(texts) {}
        default: try writeScalar(root)
        }
        withExtendedLifetime(root) {}
    }

    /// The elements of `array` where its storage holds them.
    ///
    /// The writer walks a value through pointers into its arrays' storage,
    /// which the value being written keeps alive and unchanged (it is a
    /// value, held by the caller for the whole write): taking an element or
    /// a member out by copy retained and released each container's storage,
    /// and those atomic counts were half the time of writing documents of
    /// many small objects (citm_catalog.json).
    @inline(__always)
    static func storage<Element>(of array: [Element]) -> UnsafeBufferPointer<Element> {
        array.withUnsafeBufferPointer { $0 }
    }

    /// Containers written by recursion before the rest goes to ``writeIteratively(_:)``.
    static let recursionDepth = 24

    /// Writes the array of `elements`, inside `outer` containers this call
    /// opened (besides ``baseDepth``); a failure's key path starts at the array.
    private mutating func writeArray(_ elements: UnsafeBufferPointer<ModelValue>, outer: Int) throws(ModelError) {
        try checkDepth(open: outer)
        guard let first = elements.baseAddress, elements.count > 0 else {
            appendASCII(JSONByte.openBracket, JSONByte.closeBracket)
            return
        }
        guard outer < JSONWriter.recursionDepth else {
            try writeIteratively(.array(Array(elements)), outer: outer)
            return
        }
        append(JSONByte.openBracket)
        let depth = outer &+ 1
        for index in 0..<elements.count {
            if index > 0 { append(JSONByte.comma) }
            startLine(depth: depth)
            do {
                try writeMember(first + index, outer: depth)
            } catch {
                var failure = error
                failure.keyPath = failure.keyPath.prepending(.index(index))
                throw failure
            }
        }
        startLine(depth: outer)
        append(JSONByte.closeBracket)
    }

    /// Writes the object of `keys` and `values`, inside `outer` containers
    /// this call opened; a failure's key path starts at the object. (Its
    /// arrays alone: a whole `Object` would be copied with its key index.)
    private mutating func writeObject(
        keys: UnsafeBufferPointer<String>, values: UnsafeBufferPointer<ModelValue>,
        texts: UnsafeBufferPointer<RawJSON?>, outer: Int
    ) throws(ModelError) {
        try checkDepth(open: outer)
        guard let firstValue = values.baseAddress, values.count > 0 else {
            appendASCII(JSONByte.openBrace, JSONByte.closeBrace)
            return
        }
        guard outer < JSONWriter.recursionDepth else {
            try writeIteratively(
                .object(ModelValue.Object(distinctKeys: Array(keys), values: Array(values), texts: Array(texts))),
                outer: outer)
            return
        }
        append(JSONByte.openBrace)
        let depth = outer &+ 1
        let order = options.sortedKeys ? JSONWriter.sortedOrder(of: Array(keys)) : nil
        for position in 0..<values.count {
            let member = order?[position] ?? position
            if position > 0 { append(JSONByte.comma) }
            startLine(depth: depth)
            writeKey(keys, at: member)
            if !texts.isEmpty, let text = texts[member] {
                writeText(text, depth: depth)
                continue
            }
            do {
                try writeMember(firstValue + member, outer: depth)
            } catch {
                var failure = error
                failure.keyPath = failure.keyPath.prepending(.key(keys[member]))
                throw failure
            }
        }
        startLine(depth: outer)
        append(JSONByte.closeBrace)
    }

    /// Writes an element or member value, inside `outer` open containers.
    @inline(__always)
    private mutating func writeMember(_ value: UnsafePointer<ModelValue>, outer: Int) throws(ModelError) {
        switch JSONWriter.container(at: value) {
        case .array(let elements): try writeArray(elements, outer: outer)
        case .object(let keys, let values, let texts): try writeObject(keys: keys, values: values, texts: texts, outer: outer)
        case .scalar:
            switch value.pointee {
            case .int(let integer): writeInteger(integer)
            case .string(let string): writeString(string)
            case .double(let number): try writeDouble(number)
            case .null: append("null")
            case .bool(let flag): flag ? append("true") : append("false")
            default: try writeScalar(value.pointee)
            }
        }
    }

    /// A value seen as a container's storage, or as a scalar.
    private enum Container {
        case array(UnsafeBufferPointer<ModelValue>)
        case object(keys: UnsafeBufferPointer<String>, values: UnsafeBufferPointer<ModelValue>, texts: UnsafeBufferPointer<RawJSON?>)
        case scalar
    }

    /// The storage of the container at `value`: taken in a function of its
    /// own, so that the copy of the container that the pattern binds ends
    /// here, before the container is written, and costs no retain.
    @inline(__always)
    private static func container(at value: UnsafePointer<ModelValue>) -> Container {
        switch value.pointee {
        case .array(let elements): return .array(storage(of: elements))
        case .object(let object):
            return .object(
                keys: storage(of: object.keys), values: storage(of: object.values), texts: storage(of: object.memberTexts))
        default: return .scalar
        }
    }

    /// Writes `root` with no recursion at all: for a caller that is itself
    /// deep in a recursion (the model encoder past its direct depth), whose
    /// stack may not have room for the writer's recursive levels.
    mutating func writeWithoutRecursion(_ root: ModelValue) throws(ModelError) {
        switch root {
        case .array, .object: try writeIteratively(root)
        default: try writeScalar(root)
        }
    }

    /// Writes `root`, a container inside `outer` containers opened by the
    /// recursion, with a stack of frames on the heap; a failure's key path
    /// starts at `root`.
    private mutating func writeIteratively(_ root: ModelValue, outer: Int) throws(ModelError) {
        baseDepth &+= outer
        defer { baseDepth &-= outer }
        try writeIteratively(root)
    }

    /// Writes `root` and everything inside it with a stack of frames on the heap.
    ///
    /// The innermost open container's members are written in one loop that
    /// borrows its values: scalars are written in place, and only a member
    /// that is itself a container leaves the loop, to be opened.
    private mutating func writeIteratively(_ root: ModelValue) throws(ModelError) {
        var stack: [Frame] = []
        var current = root
        nextValue: while true {
            switch current {
            case .array(let elements):
                try checkDepth(stack)
                if elements.isEmpty {
                    appendASCII(JSONByte.openBracket, JSONByte.closeBracket)
                } else {
                    append(JSONByte.openBracket)
                    stack.append(Frame(isObject: false, values: elements, keys: [], texts: [], order: nil, next: 0))
                }
            case .object(let object):
                try checkDepth(stack)
                if object.isEmpty {
                    appendASCII(JSONByte.openBrace, JSONByte.closeBrace)
                } else {
                    append(JSONByte.openBrace)
                    let order = options.sortedKeys ? JSONWriter.sortedOrder(of: object.keys) : nil
                    stack.append(
                        Frame(
                            isObject: true, values: object.values, keys: object.keys, texts: object.memberTexts,
                            order: order, next: 0))
                }
            default:
                do {
                    try writeScalar(current)
                } catch {
                    var failure = error
                    failure.keyPath = JSONWriter.keyPath(of: stack)
                    throw failure
                }
            }

            // Go on with the innermost open container, closing finished ones.
            while !stack.isEmpty {
                let top = stack.count &- 1
                let depth = stack.count
                let isObject = stack[top].isObject
                var position = stack[top].next
                let count = stack[top].values.count
                while position < count {
                    let member = stack[top].member(position)
                    if position > 0 { append(JSONByte.comma) }
                    startLine(depth: depth)
                    if isObject { writeKey(stack[top].keys[member]) }
                    position &+= 1
                    if isObject, !stack[top].texts.isEmpty, let text = stack[top].texts[member] {
                        writeText(text, depth: depth)
                        continue
                    }
                    switch stack[top].values[member] {
                    case .double(let number):
                        do {
                            try writeDouble(number)
                        } catch {
                            stack[top].next = position
                            var failure = error
                            failure.keyPath = JSONWriter.keyPath(of: stack)
                            throw failure
                        }
                    case .int(let integer):
                        writeInteger(integer)
                    case .string(let string):
                        writeString(string)
                    case .null:
                        append("null")
                    case .bool(let flag):
                        flag ? append("true") : append("false")
                    case let value:
                        // Containers, and scalars that can fail with more
                        // to say: written from the top.
                        stack[top].next = position
                        current = value
                        continue nextValue
                    }
                }
                let closing = isObject ? JSONByte.closeBrace : JSONByte.closeBracket
                stack.removeLast()
                startLine(depth: stack.count)
                append(closing)
            }
            return
        }
    }

    /// Writes a member's kept JSON text, spaced and ordered as the options
    /// say, as a member value inside `depth` open containers.
    private mutating func writeText(_ text: RawJSON, depth: Int) {
        text.bytes.withUnsafeBytes { raw in writeRaw(raw.bindMemory(to: UInt8.self), depth: depth) }
    }

    /// The default deepest nesting written, the readers' default limit.
    static let maximumDepth = JSONReadingOptions().maximumDepth

    /// Throws when one more container, empty or not, would pass the
    /// options' `maximumDepth` (by default the readers' default limit:
    /// ModelKit does not write what it would refuse to read).
    private func checkDepth(_ stack: [Frame]) throws(ModelError) {
        guard stack.count + baseDepth >= options.maximumDepth else { return }
        var failure = depthError()
        failure.keyPath = JSONWriter.keyPath(of: stack)
        throw failure
    }

    /// ``checkDepth(_:)`` for a container inside `open` containers opened by
    /// the recursion; the key path is left for them to fill in.
    @inline(__always)
    private func checkDepth(open: Int) throws(ModelError) {
        guard open + baseDepth >= options.maximumDepth else { return }
        throw depthError()
    }

    /// The error for one container more than the options' `maximumDepth`, without its key path.
    @inline(never)
    private func depthError() -> ModelError {
        let limit = options.maximumDepth
        return ModelError(
            code: .nestingTooDeep,
            message: "arrays and objects nested deeper than \(limit) levels, which no reader with "
                + (limit == JSONReadingOptions().maximumDepth ? "the default limit accepts" : "the same limit accepts"),
            format: "JSON")
    }

    /// The key path of the value being written: one component per open container.
    private static func keyPath(of stack: [Frame]) -> ModelKeyPath {
        ModelKeyPath(
            stack.map { frame in
                frame.isObject ? .key(frame.keys[frame.member(frame.next - 1)]) : .index(frame.next - 1)
            })
    }

    /// Positions of `keys` in ascending order of their UTF-8 bytes.
    private static func sortedOrder(of keys: [String]) -> [Int] {
        keys.indices.sorted { keys[$0].utf8.lexicographicallyPrecedes(keys[$1].utf8) }
    }

    /// For pretty output, a line feed and the indentation of `depth`.
    @inline(__always)
    mutating func startLine(depth: Int) {
        guard options.prettyPrinted else { return }
        let spaces = (depth + baseDepth) * indent
        reserve(spaces + 1)
        buffer[count] = JSONByte.lineFeed
        (buffer + count + 1).initialize(repeating: JSONByte.space, count: spaces)
        count += spaces + 1
    }

    // MARK: - Buffer

    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(toHold: count + extra) }
    }

    /// Makes room for `extra` more bytes, growing the buffer to exactly that
    /// much rather than to the next doubling: for a caller that has measured
    /// what is left to write (an array whose first element is written).
    ///
    /// A doubling past an estimate can double a large buffer (4 MB to 8
    /// MB), past what glibc's allocator keeps for reuse (its threshold for
    /// `mmap` rises to the size of the largest mapped block freed), so that
    /// every write of the same document takes fresh pages from the kernel
    /// and pays a page fault for each 4 KiB of them.
    mutating func reserve(exactly extra: Int) {
        let needed = count + extra
        guard needed > capacity else { return }
        guard let memory = realloc(buffer, needed) else { fatalError("JSONWriter: out of memory") }
        buffer = memory.assumingMemoryBound(to: UInt8.self)
        capacity = needed
    }

    @inline(never)
    private mutating func grow(toHold needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        guard let memory = realloc(buffer, newCapacity) else { fatalError("JSONWriter: out of memory") }
        buffer = memory.assumingMemoryBound(to: UInt8.self)
        capacity = newCapacity
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        buffer[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func appendASCII(_ first: UInt8, _ second: UInt8) {
        reserve(2)
        buffer[count] = first
        buffer[count + 1] = second
        count += 2
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        let length = bytes.count
        reserve(length)
        // Keys, numbers and short strings without a call to `memcpy`.
        JSONWriter.copy(source, to: buffer + count, count: length)
        count += length
    }

    /// Appends the first `length` (at most 32) of the 32 bytes at `source`,
    /// copying all 32 (two 16-byte moves, no branch on the length): the
    /// bytes past `length` land in room not yet written and are written over.
    @inline(__always)
    mutating func appendSlot(from source: UnsafePointer<UInt8>, count length: Int) {
        reserve(32)
        let from = UnsafeRawPointer(source)
        let to = UnsafeMutableRawPointer(buffer + count)
        to.storeBytes(of: from.loadUnaligned(as: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self)
        to.storeBytes(
            of: from.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self), toByteOffset: 16, as: SIMD16<UInt8>.self)
        count &+= length
    }

    /// Appends the bytes of `literal`, which must be ASCII.
    @inline(__always)
    mutating func append(_ literal: StaticString) {
        append(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }
}
