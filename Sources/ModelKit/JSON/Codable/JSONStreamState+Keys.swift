import Foundation

/// Keys of the streaming encoder: each key's text (quoted, escaped, with its
/// colon), remembered by the words of the coding key's `stringValue` (a
/// synthesized key's is a literal, the same two words every time), with
/// what the repeat check needs: a bit of its hash and whether it is ASCII.
///
/// A key written twice into one object must keep its first place and take
/// the last value, as the tree does; the stream cannot move bytes already
/// written, so a repeat fails the record (see ``JSONStreamState``). A repeat
/// is found by comparing the new key's text with the texts of the object's
/// earlier keys, which are in the buffer, but only when its bit is already
/// set. `String` equality is canonical equivalence, which bytes do not
/// decide outside ASCII, so an object with a key outside ASCII fails as
/// soon as it has two keys.
extension JSONStreamState {
    /// One remembered key.
    struct KeyEntry {
        /// The source key's two words; (0, 0), which no string has, in an empty entry.
        var first: UInt64 = 0
        var second: UInt64 = 0
        var length = 0
        var text: (SIMD16<UInt8>, SIMD16<UInt8>, SIMD16<UInt8>) = (.zero, .zero, .zero)
        var seenBit: UInt64 = 0
        var isASCII = true
        /// Keeps the storage of the source key alive while the entry names it.
        var key = ""
    }

    static let keyTableSize = 256
    static let keysBeforeTable = 64
    static let keyTextCapacity = 48

    /// Writes `key` (snake-cased when `converting`) after the comma and line
    /// of the top frame's next member, and checks that the object does not
    /// have it already; `false`, with the running record failed, when it might.
    @inline(__always)
    func writeKey(_ key: String, converting: Bool) -> Bool {
        let start = writerPointer.pointee.count
        guard let table = converting ? snakeKeyTable : keyTable, MemoryLayout<String>.size == 16 else {
            let (bit, isASCII) = writeNewKey(key, converting: converting)
            return noteKey(start: start, bit: bit, isASCII: isASCII)
        }
        let words = unsafeBitCast(key, to: (UInt64, UInt64).self)
        let slot = Int(truncatingIfNeeded: ((words.0 &+ words.1 &* 0x9E37_79B9_7F4A_7C15) &* 0xBF58_476D_1CE4_E5B9) >> 56)
        let entry = table + (slot & (JSONStreamState.keyTableSize - 1))
        guard entry.pointee.first == words.0, entry.pointee.second == words.1 else {
            let (bit, isASCII) = writeNewKey(key, converting: converting)
            return noteKey(start: start, bit: bit, isASCII: isASCII)
        }
        writerPointer.pointee.reserve(JSONStreamState.keyTextCapacity)
        UnsafeMutableRawPointer(writerPointer.pointee.buffer + start).storeBytes(
            of: entry.pointee.text, as: (SIMD16<UInt8>, SIMD16<UInt8>, SIMD16<UInt8>).self)
        writerPointer.pointee.count = start &+ entry.pointee.length
        return noteKey(start: start, bit: entry.pointee.seenBit, isASCII: entry.pointee.isASCII)
    }

    /// The bit of a key's text (quoted, with its colon) in a frame's
    /// `seenKeys`, by a hash of its bytes, and whether it is ASCII.
    static func keyBit(of text: UnsafeBufferPointer<UInt8>) -> (bit: UInt64, isASCII: Bool) {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        var high: UInt8 = 0
        for byte in text {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
            high |= byte
        }
        return (1 << (hash >> 58), high < 0x80)
    }

    /// Starts the top frame's next member, in compact output, with the
    /// remembered key `entry`: the comma and the key's text in one copy,
    /// then the repeat check; `false`, with the running record failed, when it may repeat a key.
    @inline(__always)
    func writeMember(_ entry: UnsafeMutablePointer<KeyedContainerCell.KeyText>) -> Bool {
        let frame = top
        let writer = writerPointer
        if writer.pointee.count &+ (JSONStreamState.keyTextCapacity &+ 1) > writer.pointee.capacity {
            writer.pointee.reserve(JSONStreamState.keyTextCapacity &+ 1)
        }
        let start = writer.pointee.count
        let target = writer.pointee.buffer + start
        target.pointee = JSONByte.comma
        let comma = frame.pointee.members > 0 ? 1 : 0
        frame.pointee.members &+= 1
        UnsafeMutableRawPointer(target + comma).storeBytes(
            of: entry.pointee.text, as: (SIMD16<UInt8>, SIMD16<UInt8>, SIMD16<UInt8>).self)
        writer.pointee.count = start &+ comma &+ entry.pointee.length
        return noteKey(start: start &+ comma, bit: entry.pointee.seenBit, isASCII: entry.pointee.isASCII, in: frame)
    }

    /// Records the key just written from `start` in the top frame; `false` when it may repeat one.
    @inline(__always)
    private func noteKey(start: Int, bit: UInt64, isASCII: Bool) -> Bool {
        noteKey(start: start, bit: bit, isASCII: isASCII, in: top)
    }

    /// ``noteKey(start:bit:isASCII:)`` with the top frame already at hand.
    @inline(__always)
    private func noteKey(start: Int, bit: UInt64, isASCII: Bool, in frame: UnsafeMutablePointer<Frame>) -> Bool {
        let base = Int(frame.pointee.keyBase)
        if !isASCII || frame.pointee.hasNonASCIIKey {
            guard core.pointee.keyCount == base else {
                failRunning()
                return false
            }
            frame.pointee.hasNonASCIIKey = true
        }
        if frame.pointee.seenKeys & bit != 0, isRepeat(start: start, base: base) {
            failRunning()
            return false
        }
        frame.pointee.seenKeys |= bit
        if core.pointee.keyCount == core.pointee.keyCapacity { growKeyOffsets() }
        core.pointee.keyOffsets[core.pointee.keyCount] = start
        core.pointee.keyCount &+= 1
        return true
    }

    /// Whether the key text from `start` to the end equals the text of a key from `base` on.
    @inline(never)
    private func isRepeat(start: Int, base: Int) -> Bool {
        let buffer = writerPointer.pointee.buffer
        let length = writerPointer.pointee.count - start
        for position in base..<core.pointee.keyCount {
            let offset = core.pointee.keyOffsets[position]
            if offset + length <= start, memcmp(buffer + offset, buffer + start, length) == 0 { return true }
        }
        return false
    }

    @inline(never)
    private func growKeyOffsets() {
        let capacity = core.pointee.keyCapacity * 2
        core.pointee.keyOffsets = core.pointee.keyOffsets.moved(count: core.pointee.keyCount, toCapacity: capacity)
        core.pointee.keyCapacity = capacity
    }

    /// Writes a key the table does not have, and remembers it once the table is made.
    @inline(never)
    private func writeNewKey(_ key: String, converting: Bool) -> (bit: UInt64, isASCII: Bool) {
        let start = writerPointer.pointee.count
        writerPointer.pointee.writeString(converting ? SnakeCase.snakeCased(key) : key)
        if writerPointer.pointee.options.prettyPrinted {
            writerPointer.pointee.appendASCII(JSONByte.colon, JSONByte.space)
        } else {
            writerPointer.pointee.append(JSONByte.colon)
        }
        let text = UnsafeBufferPointer(start: writerPointer.pointee.buffer + start, count: writerPointer.pointee.count - start)
        let (bit, isASCII) = JSONStreamState.keyBit(of: text)
        guard MemoryLayout<String>.size == 16 else { return (bit, isASCII) }
        var table = converting ? snakeKeyTable : keyTable
        if table == nil {
            uncachedKeys &+= 1
            guard uncachedKeys >= JSONStreamState.keysBeforeTable else { return (bit, isASCII) }
            let made = UnsafeMutablePointer<KeyEntry>.allocate(capacity: JSONStreamState.keyTableSize)
            made.initialize(repeating: KeyEntry(), count: JSONStreamState.keyTableSize)
            if converting { snakeKeyTable = made } else { keyTable = made }
            table = made
        }
        guard let table, text.count <= JSONStreamState.keyTextCapacity else { return (bit, isASCII) }
        let words = unsafeBitCast(key, to: (UInt64, UInt64).self)
        let slot = Int(truncatingIfNeeded: ((words.0 &+ words.1 &* 0x9E37_79B9_7F4A_7C15) &* 0xBF58_476D_1CE4_E5B9) >> 56)
        let entry = table + (slot & (JSONStreamState.keyTableSize - 1))
        entry.pointee.key = key
        entry.pointee.first = words.0
        entry.pointee.second = words.1
        entry.pointee.length = text.count
        entry.pointee.seenBit = bit
        entry.pointee.isASCII = isASCII
        withUnsafeMutableBytes(of: &entry.pointee.text) { bytes in
            bytes.baseAddress!.copyMemory(from: text.baseAddress!, byteCount: text.count)
        }
        return (bit, isASCII)
    }
}
