/// Keys: each object key with its quotes, escapes and colon, remembered
/// once written.
///
/// A document repeats a few keys many times (citm_catalog writes 25,869 keys,
/// 321 of them different), and a key's text never changes, so after the
/// first few dozen keys the writer keeps the text of those it writes in a
/// small table indexed by the key's two words, two entries to a slot: a key
/// held in storage is indexed by its address, so with one entry a slot's
/// two keys evicted each other, or not, as the heap happened to be laid
/// out (twitter.json's write took 5 to 16% more instructions from one
/// executable path to another). A `String` is two words, and
/// two strings with the same words are the same string: the same bytes held
/// inline (up to 15 bytes of UTF-8), or the same storage, which the entry
/// keeps alive so that its address cannot be reused by another string. A
/// hit copies the text in three 16-byte stores instead of searching the key
/// for escapes; a key whose text does not fit an entry is written as before.
extension JSONWriter {
    /// One remembered key.
    struct KeyText {
        /// The key's two words; (0, 0), which no string has, in an empty entry.
        var first: UInt64 = 0
        var second: UInt64 = 0
        /// The bytes of `text` in use.
        var length = 0
        /// `"key":` (`"key": ` in pretty output), escaped as the writer's options say.
        var text: (SIMD16<UInt8>, SIMD16<UInt8>, SIMD16<UInt8>) = (.zero, .zero, .zero)
        /// Keeps the storage of a key that has some alive while the entry names it.
        var key = ""
    }

    /// Entries in the table (a power of two).
    static let keyTextCount = 256
    /// Keys a writer writes before it makes the table: a small object is
    /// written without paying for it.
    static let keysBeforeTable = 64
    /// The longest key text an entry holds.
    static let keyTextCapacity = 48

    /// Writes `key` in quotes, escaped, and the colon after it (and a space
    /// in pretty output).
    @inline(__always)
    mutating func writeKey(_ key: String) {
        guard let table = keyTexts, MemoryLayout<String>.size == 16 else {
            writeUncachedKey(key)
            return
        }
        let words = unsafeBitCast(key, to: (UInt64, UInt64).self)
        if !writeKnownKey(words, in: table) { rememberKey(key, words: words, in: table) }
    }

    /// ``writeKey(_:)`` for `keys[index]`: a key the table knows is found
    /// from the words in the array's storage, without copying the string out.
    @inline(__always)
    mutating func writeKey(_ keys: [String], at index: Int) {
        guard let table = keyTexts, MemoryLayout<String>.size == 16 else {
            writeUncachedKey(keys[index])
            return
        }
        let words = keys.withUnsafeBytes { storage in
            storage.loadUnaligned(fromByteOffset: index &* MemoryLayout<String>.stride, as: (UInt64, UInt64).self)
        }
        if !writeKnownKey(words, in: table) { rememberKey(keys[index], words: words, in: table) }
    }

    /// ``writeKey(_:at:)`` for keys in an array's storage.
    @inline(__always)
    mutating func writeKey(_ keys: UnsafeBufferPointer<String>, at index: Int) {
        guard let table = keyTexts, MemoryLayout<String>.size == 16, let base = keys.baseAddress else {
            writeUncachedKey(keys[index])
            return
        }
        let words = UnsafeRawPointer(base + index).loadUnaligned(as: (UInt64, UInt64).self)
        if !writeKnownKey(words, in: table) { rememberKey(keys[index], words: words, in: table) }
    }

    /// The first of the two entries of the slot for a key of `words`.
    @inline(__always)
    private static func entry(for words: (UInt64, UInt64), in table: UnsafeMutablePointer<KeyText>)
        -> UnsafeMutablePointer<KeyText>
    {
        let slot = Int(truncatingIfNeeded: ((words.0 &+ words.1 &* 0x9E37_79B9_7F4A_7C15) &* 0xBF58_476D_1CE4_E5B9) >> 56)
        return table + (slot & (JSONWriter.keyTextCount - 2))
    }

    /// Writes the remembered text of the key of `words`, if the table has it.
    @inline(__always)
    private mutating func writeKnownKey(_ words: (UInt64, UInt64), in table: UnsafeMutablePointer<KeyText>) -> Bool {
        var entry = JSONWriter.entry(for: words, in: table)
        if entry.pointee.first != words.0 || entry.pointee.second != words.1 {
            entry += 1
            guard entry.pointee.first == words.0, entry.pointee.second == words.1 else { return false }
        }
        reserve(JSONWriter.keyTextCapacity)
        UnsafeMutableRawPointer(buffer + count).storeBytes(
            of: entry.pointee.text, as: (SIMD16<UInt8>, SIMD16<UInt8>, SIMD16<UInt8>).self)
        count &+= entry.pointee.length
        return true
    }

    /// Writes `key`, whose words are `words`, and remembers its text if it fits an entry.
    @inline(never)
    private mutating func rememberKey(_ key: String, words: (UInt64, UInt64), in table: UnsafeMutablePointer<KeyText>) {
        let start = count
        writeKeyText(key)
        let length = count - start
        guard length <= JSONWriter.keyTextCapacity else { return }
        // The slot's first entry if it is free, else its second (which a
        // third key takes over).
        var entry = JSONWriter.entry(for: words, in: table)
        if entry.pointee.first != 0 || entry.pointee.second != 0 { entry += 1 }
        entry.pointee.key = key
        entry.pointee.first = words.0
        entry.pointee.second = words.1
        entry.pointee.length = length
        withUnsafeMutableBytes(of: &entry.pointee.text) { text in
            text.baseAddress!.copyMemory(from: buffer + start, byteCount: length)
        }
    }

    /// Writes `key` without the table, making the table once enough keys have been written.
    @inline(never)
    private mutating func writeUncachedKey(_ key: String) {
        writeKeyText(key)
        uncachedKeys &+= 1
        if uncachedKeys == JSONWriter.keysBeforeTable {
            let table = UnsafeMutablePointer<KeyText>.allocate(capacity: JSONWriter.keyTextCount)
            table.initialize(repeating: KeyText(), count: JSONWriter.keyTextCount)
            keyTexts = table
        }
    }

    /// Writes `key` in quotes, escaped, and the colon (and space) after it.
    private mutating func writeKeyText(_ key: String) {
        writeString(key)
        if options.prettyPrinted {
            appendASCII(JSONByte.colon, JSONByte.space)
        } else {
            append(JSONByte.colon)
        }
    }

    /// Frees the table of key texts, if the writer made one.
    mutating func freeKeyTexts() {
        guard let table = keyTexts else { return }
        table.deinitialize(count: JSONWriter.keyTextCount)
        table.deallocate()
        keyTexts = nil
        uncachedKeys = 0
    }
}
