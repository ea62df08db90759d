import Foundation

/// Writes a ``ModelValue`` as JSON text into a growing byte buffer.
///
/// The writer walks the tree with an explicit stack rather than recursion,
/// so a value nested as deeply as memory allows is written without
/// exhausting the thread's stack, and a value that JSON cannot hold (an
/// infinite or NaN double) is reported with the key path that leads to it.
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
    private enum Container {
        case array([ModelValue])
        /// An object and, for sorted output, the positions of its keys in sorted order.
        case object(ModelValue.Object, order: [Int]?)
    }

    private struct Frame {
        let container: Container
        /// The position of the next element or member to write.
        var next: Int
        let count: Int
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

    init(options: JSONWritingOptions, initialCapacity: Int = 4096) {
        self.options = options
        self.indent = max(0, options.indent)
        self.capacity = max(16, initialCapacity)
        guard let memory = malloc(capacity) else { fatalError("JSONWriter: out of memory") }
        self.buffer = memory.assumingMemoryBound(to: UInt8.self)
    }

    /// Frees the buffer unless ``takeData()`` or ``takeString()`` took it.
    mutating func deallocate() {
        guard capacity > 0 else { return }
        free(buffer)
        capacity = 0
        count = 0
    }

    /// The bytes written, as `Data` that now owns the buffer.
    mutating func takeData() -> Data {
        let shrunk = realloc(buffer, max(count, 1))?.assumingMemoryBound(to: UInt8.self) ?? buffer
        let data = Data(bytesNoCopy: shrunk, count: count, deallocator: .free)
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
    mutating func write(_ root: ModelValue) throws(ModelError) {
        var stack: [Frame] = []
        var current = root
        nextValue: while true {
            switch current {
            case .array(let elements):
                if elements.isEmpty {
                    appendASCII(JSONByte.openBracket, JSONByte.closeBracket)
                } else {
                    append(JSONByte.openBracket)
                    stack.append(Frame(container: .array(elements), next: 1, count: elements.count))
                    startLine(depth: stack.count)
                    current = elements[0]
                    continue nextValue
                }
            case .object(let object):
                if object.isEmpty {
                    appendASCII(JSONByte.openBrace, JSONByte.closeBrace)
                } else {
                    append(JSONByte.openBrace)
                    let order = options.sortedKeys ? JSONWriter.sortedOrder(of: object.keys) : nil
                    stack.append(Frame(container: .object(object, order: order), next: 1, count: object.count))
                    startLine(depth: stack.count)
                    let first = order?[0] ?? 0
                    writeKey(object.keys[first])
                    current = object.values[first]
                    continue nextValue
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

            // Move to the next element or member, closing finished containers.
            while !stack.isEmpty {
                let top = stack.count - 1
                let position = stack[top].next
                if position < stack[top].count {
                    stack[top].next = position + 1
                    append(JSONByte.comma)
                    startLine(depth: stack.count)
                    switch stack[top].container {
                    case .array(let elements):
                        current = elements[position]
                    case .object(let object, let order):
                        let member = order?[position] ?? position
                        writeKey(object.keys[member])
                        current = object.values[member]
                    }
                    continue nextValue
                }
                let isArray: Bool
                if case .array = stack[top].container { isArray = true } else { isArray = false }
                stack.removeLast()
                startLine(depth: stack.count)
                append(isArray ? JSONByte.closeBracket : JSONByte.closeBrace)
            }
            return
        }
    }

    /// The key path of the value being written: one component per open container.
    private static func keyPath(of stack: [Frame]) -> ModelKeyPath {
        ModelKeyPath(
            stack.map { frame in
                switch frame.container {
                case .array: .index(frame.next - 1)
                case .object(let object, let order): .key(object.keys[order?[frame.next - 1] ?? frame.next - 1])
                }
            })
    }

    /// Positions of `keys` in ascending order of their UTF-8 bytes.
    private static func sortedOrder(of keys: [String]) -> [Int] {
        keys.indices.sorted { keys[$0].utf8.lexicographicallyPrecedes(keys[$1].utf8) }
    }

    mutating func writeKey(_ key: String) {
        writeString(key)
        if options.prettyPrinted {
            appendASCII(JSONByte.colon, JSONByte.space)
        } else {
            append(JSONByte.colon)
        }
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
        reserve(bytes.count)
        (buffer + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Appends the bytes of `literal`, which must be ASCII.
    @inline(__always)
    mutating func append(_ literal: StaticString) {
        append(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }
}
