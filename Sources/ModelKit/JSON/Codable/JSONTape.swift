/// A flat index of one JSON document: one entry per value and per key, in
/// document order, built by one validating pass over the bytes and holding
/// no strings or numbers, only where they are.
///
/// An array's or object's entry says how many elements or members it has and
/// where its last descendant's entries end, so a reader can step over a
/// whole value in one move; an object's members follow it as key entry,
/// value entries, key entry, value entries, and so on. ``ModelJSONDecoder``
/// decodes from it, reading a string or a number only when a `Decodable`
/// type asks for it.
///
/// ```swift
/// // {"a":[1,"x"]}
/// // 0: object, 1 member, entries end at 5
/// // 1: string (key) "a"
/// // 2: array, 2 elements, entries end at 5
/// // 3: number 1
/// // 4: string "x"
/// ```
final class JSONTape {
    enum Kind: UInt8 {
        case null, falseValue, trueValue, number, string, array, object
    }

    /// 16 bytes: offsets are 32 bits, so documents are limited to 4 GiB.
    struct Entry {
        /// A scalar's first byte (a string's first byte after its quote);
        /// a container's opening bracket.
        var start: UInt32
        /// A scalar's end (a string's closing quote); for a container, the
        /// index of the entry after its last descendant.
        var end: UInt32
        /// A container's elements or members.
        var count: UInt32
        var kind: Kind
        /// For a string, ``JSONTape/hasEscapes`` (escapes or control
        /// characters: the reader's rules apply) and ``JSONTape/hasNonASCII``;
        /// for an object, ``JSONTape/hasEscapedKeys``; 0 for a number.
        var flags: UInt8

        @inline(__always)
        init(start: Int, end: Int, count: Int, kind: Kind, flags: UInt8) {
            self.start = UInt32(truncatingIfNeeded: start)
            self.end = UInt32(truncatingIfNeeded: end)
            self.count = UInt32(truncatingIfNeeded: count)
            self.kind = kind
            self.flags = flags
        }
    }

    static let hasEscapes: UInt8 = 1
    static let hasNonASCII: UInt8 = 2
    /// For an object: some key has escapes, control characters or bytes
    /// past ASCII, and is checked when the object is opened.
    static let hasEscapedKeys: UInt8 = 1
    /// The largest document a tape can index.
    static let maximumBytes = Int(UInt32.max)

    private(set) var entries: UnsafeMutablePointer<Entry>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        entries = .allocate(capacity: self.capacity)
    }

    deinit { entries.deallocate() }

    /// Where the builder writes: the buffer, taken out of the tape while it is built.
    struct Writer {
        var entries: UnsafeMutablePointer<Entry>
        var count: Int
        var capacity: Int

        @inline(__always)
        mutating func append(_ entry: Entry) {
            if count == capacity { grow() }
            entries[count] = entry
            count += 1
        }

        @inline(never)
        private mutating func grow() {
            entries = entries.moved(count: count, toCapacity: capacity * 2)
            capacity *= 2
        }
    }

    /// Forgets every entry, keeping the buffer for the next tape.
    func removeAll() { count = 0 }

    /// Runs `body` with a writer over this tape's buffer, then keeps what it wrote.
    func write<Result>(_ body: (inout Writer) -> Result) -> Result {
        var writer = Writer(entries: entries, count: count, capacity: capacity)
        let result = body(&writer)
        entries = writer.entries
        count = writer.count
        capacity = writer.capacity
        return result
    }
}

extension JSONReader {
    /// Builds the tape of the whole input, which must be one JSON text (after
    /// an optional byte order mark) followed only by whitespace, validated as
    /// strictly as ``readDocument()`` does, except that a repeated key is
    /// allowed and that the contents of strings (escapes, control
    /// characters, UTF-8) and the range of numbers are left to whoever reads
    /// them, as `JSONDecoder` does.
    /// - Returns: `false` when the input is not such a text (or the fast scan
    ///   is unsure); ``readDocument()`` then tells what is wrong.
    func buildTape(_ tape: JSONTape) -> Bool {
        guard count <= JSONTape.maximumBytes else { return false }
        return tape.write { writer in buildTape(&writer) }
    }

    private func buildTape(_ tape: inout JSONTape.Writer) -> Bool {
        var index = 0
        if count >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF { index = 3 }
        guard let end = tapeValue(from: index, into: &tape, depthLimit: options.maximumDepth) else { return false }
        return whitespaceEnd(from: end) == count
    }

    /// Builds the tape of the one value at `range` of the input, which
    /// `skipValue()` has validated, in place of `tape`'s entries. The entries
    /// keep the input's offsets. Containers nest at most `depthLimit` deep.
    /// - Returns: `false` when the tape cannot index it (the input is larger
    ///   than a tape can index, or the fast scan is unsure).
    func buildTape(_ tape: JSONTape, value range: Range<Int>, depthLimit: Int) -> Bool {
        guard count <= JSONTape.maximumBytes else { return false }
        tape.removeAll()
        return tape.write { writer in tapeValue(from: range.lowerBound, into: &writer, depthLimit: depthLimit) }
            == range.upperBound
    }

    /// Adds the entries of the value at `start` (after any whitespace) and
    /// returns the index right after it, or `nil`.
    private func tapeValue(from start: Int, into tape: inout JSONTape.Writer, depthLimit: Int) -> Int? {
        var index = start
        var open: [Int] = []
        open.reserveCapacity(16)

        value: while true {
            index = whitespaceEnd(from: index)
            guard index < count else { return nil }
            let byte = base[index]
            switch byte {
            case JSONByte.openBracket, JSONByte.openBrace:
                guard open.count < depthLimit else { return nil }
                let isObject = byte == JSONByte.openBrace
                open.append(tape.count)
                tape.append(
                    JSONTape.Entry(start: index, end: 0, count: 0, kind: isObject ? .object : .array, flags: 0))
                index = whitespaceEnd(from: index + 1)
                guard index < count else { return nil }
                if base[index] == (isObject ? JSONByte.closeBrace : JSONByte.closeBracket) {
                    index += 1
                    tape.entries[open.removeLast()].end = UInt32(truncatingIfNeeded: tape.count)
                } else if isObject {
                    guard let next = tapeKey(at: index, into: &tape, object: open[open.count - 1]) else { return nil }
                    index = next
                    continue value
                } else {
                    continue value
                }
            case JSONByte.quote:
                guard let next = tapeString(at: index, into: &tape) else { return nil }
                index = next
            case JSONByte.t:
                guard hasLiteral(0x6575_7274, length: 4, at: index) else { return nil }
                tape.append(JSONTape.Entry(start: index, end: index + 4, count: 0, kind: .trueValue, flags: 0))
                index += 4
            case JSONByte.f:
                guard index + 5 <= count, base[index + 4] == UInt8(ascii: "e"),
                    hasLiteral(0x736C_6166, length: 4, at: index)
                else { return nil }
                tape.append(JSONTape.Entry(start: index, end: index + 5, count: 0, kind: .falseValue, flags: 0))
                index += 5
            case JSONByte.n:
                guard hasLiteral(0x6C6C_756E, length: 4, at: index) else { return nil }
                tape.append(JSONTape.Entry(start: index, end: index + 4, count: 0, kind: .null, flags: 0))
                index += 4
            case JSONByte.minus, JSONByte.zero...JSONByte.nine:
                // The fast scan is unsure of large exponents: the grammar
                // alone decides here, the range when the number is read.
                guard let end = scanNumber(at: index) ?? numberEnd(at: index) else { return nil }
                // Whether it is written as an integer is seen when it is read.
                tape.append(JSONTape.Entry(start: index, end: end, count: 0, kind: .number, flags: 0))
                index = end
            default:
                return nil
            }

            // A value is complete: count it in its container, and close
            // containers as long as their closing bracket follows.
            while let top = open.last {
                tape.entries[top].count += 1
                index = whitespaceEnd(from: index)
                guard index < count else { return nil }
                let next = base[index]
                let isObject = tape.entries[top].kind == .object
                if next == JSONByte.comma {
                    index = whitespaceEnd(from: index + 1)
                    if isObject {
                        guard let afterKey = tapeKey(at: index, into: &tape, object: top) else { return nil }
                        index = afterKey
                    }
                    continue value
                }
                guard next == (isObject ? JSONByte.closeBrace : JSONByte.closeBracket) else { return nil }
                index += 1
                tape.entries[top].end = UInt32(truncatingIfNeeded: tape.count)
                open.removeLast()
            }
            return index
        }
    }

    /// The end of the number at `index` by RFC 8259's grammar alone, or `nil`.
    private func numberEnd(at index: Int) -> Int? {
        var cursor = index
        if base[cursor] == JSONByte.minus { cursor += 1 }
        guard cursor < count, isDigit(base[cursor]) else { return nil }
        if base[cursor] == JSONByte.zero {
            cursor += 1
            if cursor < count, isDigit(base[cursor]) { return nil }
        } else {
            cursor = skipDigits(from: cursor + 1)
        }
        if cursor < count, base[cursor] == JSONByte.period {
            cursor += 1
            guard cursor < count, isDigit(base[cursor]) else { return nil }
            cursor = skipDigits(from: cursor + 1)
        }
        if cursor < count, base[cursor] | 0x20 == JSONByte.lowerE {
            cursor += 1
            if cursor < count, base[cursor] == JSONByte.minus || base[cursor] == JSONByte.plus { cursor += 1 }
            guard cursor < count, isDigit(base[cursor]) else { return nil }
            cursor = skipDigits(from: cursor)
        }
        return cursor
    }

    /// Adds the key whose quote should be at `index`, of the object whose
    /// entry is `object`; returns the index after the colon that follows.
    @inline(__always)
    private func tapeKey(at index: Int, into tape: inout JSONTape.Writer, object: Int) -> Int? {
        if let end = JSONReader.shortPlainKeyEnd(base, count: count, at: index) {
            tape.append(JSONTape.Entry(start: index + 1, end: end, count: 0, kind: .string, flags: 0))
            // One space after the colon, as pretty printers write it.
            if end + 3 < count, base[end + 2] == JSONByte.space, base[end + 3] > JSONByte.space { return end + 3 }
            return end + 2
        }
        guard index < count, base[index] == JSONByte.quote, let end = tapeString(at: index, into: &tape) else {
            return nil
        }
        // A key with escapes, or with bytes past ASCII (which may be
        // ill-formed UTF-8), is checked when the object is opened.
        if tape.entries[tape.count - 1].flags != 0 {
            tape.entries[object].flags |= JSONTape.hasEscapedKeys
        }
        let colon = whitespaceEnd(from: end)
        guard colon < count, base[colon] == JSONByte.colon else { return nil }
        return colon + 1
    }

    /// Adds the string whose quote is at `index`; returns the index after its closing quote.
    ///
    /// Only the end of the string is found here: escapes, control characters
    /// and UTF-8 are checked when the string is read (``JSONTape/hasEscapes``
    /// marks strings that need the reader's full rules).
    @inline(__always)
    private func tapeString(at index: Int, into tape: inout JSONTape.Writer) -> Int? {
        let start = index + 1
        var cursor = start
        var highBits: UInt8 = 0
        var flags: UInt8 = 0
        while true {
            cursor = skipPlainText(from: cursor, highBits: &highBits)
            guard cursor < count else { return nil }
            let byte = base[cursor]
            if byte == JSONByte.quote {
                if highBits & 0x80 != 0 { flags |= JSONTape.hasNonASCII }
                tape.append(JSONTape.Entry(start: start, end: cursor, count: 0, kind: .string, flags: flags))
                return cursor + 1
            }
            flags |= JSONTape.hasEscapes
            // A control character; or a backslash and the byte it escapes,
            // and for `\u` the four bytes after it, as JSONDecoder steps over them.
            if byte != JSONByte.backslash {
                cursor += 1
            } else {
                cursor += cursor + 1 < count && base[cursor + 1] == UInt8(ascii: "u") ? 6 : 2
            }
        }
    }
}
