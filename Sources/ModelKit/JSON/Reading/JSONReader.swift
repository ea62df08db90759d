/// Reads one JSON text (RFC 8259) from UTF-8 bytes into a ``ModelValue``.
///
/// The reader walks the bytes once with a cursor and never recurses: open
/// arrays and objects are kept on an explicit stack of frames, so nesting is
/// limited only by ``JSONReadingOptions/maximumDepth`` and never by the
/// thread's stack. Elements and members are gathered on one shared value
/// stack and copied into an exactly sized array or object when their
/// container closes, which keeps both allocations and memory low.
///
/// ```swift
/// let value = try bytes.withUnsafeBytes { raw in
///     var reader = JSONReader(raw.bindMemory(to: UInt8.self), options: JSONReadingOptions())
///     return try reader.readDocument()
/// }
/// ```
///
/// Choices where RFC 8259 leaves room, all documented on ``ModelValue/init(json:options:)``:
/// a leading UTF-8 byte order mark is skipped; `\u` escapes that leave a
/// surrogate unpaired are refused; `-0` reads as the integer 0; integers
/// outside `Int` keep their digits as ``ModelValue/bigInteger(_:)``; numbers
/// too large for `Double` are refused.
struct JSONReader {
    /// One array or object that is open.
    struct Frame {
        /// Whether this is an object (otherwise an array).
        var isObject: Bool
        /// Whether this array's elements go straight into the last of
        /// `largeArrays` rather than onto `values` (see `beginLargeArray()`).
        var isLarge = false
        /// Where this container's elements, or member values, start on `values`.
        var valueStart: Int
        /// Where this object's keys start on `keys`.
        var keyStart: Int
        /// A hash of the keys and array levels leading here (see `JSONReader+Shapes.swift`).
        var context: UInt64 = 0
        /// While this object's keys are those of a predicted shape: where the
        /// shape's keys start on `shapeKeys`, and how many; 0 when not predicting.
        var predictedStart = 0
        var predictedCount = 0
        /// The keys read so far as the predicted shape's (none on the key stacks).
        var matched = 0
        /// The prediction's entry in `predictions`.
        var predictedSlot = 0
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let base: UnsafePointer<UInt8>
    let count: Int
    var position = 0
    let options: JSONReadingOptions

    var frames = Stack<Frame>(header: JSONReader.emptyStackHeader)
    /// Completed elements and member values of every open container.
    var values = Stack<ModelValue>(header: JSONReader.emptyStackHeader)
    /// Keys of the open objects, one per member read so far (including the
    /// member whose value is being read).
    var keys = Stack<String>(header: JSONReader.emptyStackHeader)
    /// The `KeyHash` of each key on `keys`.
    var keyHashes = Stack<UInt64>(header: JSONReader.emptyStackHeader)
    /// Byte offset of each key on `keys`, for duplicate-key errors.
    var keyOffsets = Stack<Int>(header: JSONReader.emptyStackHeader)
    /// The memory of the stacks above, once the reader has opened a
    /// container (see `JSONReader+Stacks.swift`).
    var stackStorage: StackStorage?
    /// Arrays that grew long while open, built in place at their final size;
    /// one per open frame whose `isLarge` is set, innermost last.
    var largeArrays: [[ModelValue]] = []
    /// Reused buffer for strings that contain escapes.
    var scratch: [UInt8] = []
    /// Keys read so far, by the low bits of their hash; see `readKey()`.
    var keyCache: [KeyCacheEntry] = []
    /// Scratch open-addressing table for telling apart the keys of a large
    /// object in a skipping scan (see `skipValue()`).
    var scanKeyTable: [UInt64] = []
    let keySeed = KeyHash.seed

    /// One key in the key cache: where its bytes are in the input, and its string.
    struct KeyCacheEntry {
        var offset = 0
        var length = -1
        var hash: UInt64 = 0
        var key = ""
    }

    static let keyCacheSize = 256

    /// The shapes (keys and key index) of objects read so far, by the low
    /// bits of a hash of their key hashes; see `closeObject(_:)`.
    var shapeCache: [ShapeCacheEntry] = []

    struct ShapeCacheEntry {
        var hash: UInt64 = 0
        var shape: ModelValue.Object.Shape?
        /// The shape's keys on `shapeKeys`; a count of 0 when it is not predicted.
        var keyStart = 0
        var keyCount = 0
        /// The context of the object those keys (and their member texts) come from.
        var context: UInt64 = 0
    }

    /// The shape last closed in each context, by the context's low bits.
    var predictions: [Prediction] = []
    /// The key bytes of predictable shapes, and where each key is.
    var shapeText: [UInt8] = []
    var shapeKeys: [ShapeKey] = []

    static let shapeCacheSize = 64

    init(_ bytes: UnsafeBufferPointer<UInt8>, options: JSONReadingOptions) {
        self.bytes = bytes
        // An empty buffer may have no address; give the cursor one it never reads.
        self.base = bytes.baseAddress ?? JSONReader.emptyBase
        self.count = bytes.count
        self.options = options
    }

    // Never written after initialisation, and never read: every read checks `count` first.
    nonisolated(unsafe) private static let emptyBase: UnsafePointer<UInt8> = {
        let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        pointer.initialize(to: 0)
        return UnsafePointer(pointer)
    }()

    /// Containers already open around the value being read, counted against
    /// ``JSONReadingOptions/maximumDepth``: set by a caller that reads the
    /// containers outside it itself (the direct model decoder).
    var outerDepth = 0

    /// Reads the whole input as one JSON text followed only by whitespace.
    mutating func readDocument() throws(ModelError) -> ModelValue {
        // RFC 8259 §8.1: a parser MAY ignore a leading byte order mark.
        if count >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF { position = 3 }
        let value = try readValue()
        skipWhitespace()
        guard position == count else {
            throw error("expected end of input after the top-level value", at: position)
        }
        return value
    }

    /// Reads one value (after any whitespace) and stops right after it.
    mutating func readValue() throws(ModelError) -> ModelValue {
        var value: ModelValue
        readValue: while true {
            skipWhitespace()
            guard position < count else { throw error("expected a value", at: position, includingCurrentMember: true) }
            switch base[position] {
            case JSONByte.openBracket:
                try openContainer(isObject: false)
                position += 1
                skipWhitespace()
                if position < count, base[position] == JSONByte.closeBracket {
                    position += 1
                    frames.removeLast()
                    value = .array([])
                } else {
                    continue readValue
                }
            case JSONByte.openBrace:
                try openContainer(isObject: true)
                position += 1
                predictShape()
                if frames[frames.count &- 1].predictedCount > 0, readPredictedSegment(top: frames.count &- 1) {
                    continue readValue
                }
                skipWhitespace()
                if position < count, base[position] == JSONByte.closeBrace {
                    position += 1
                    frames.removeLast()
                    value = .object(ModelValue.Object())
                } else {
                    try readMemberKey()
                    continue readValue
                }
            case JSONByte.quote:
                value = .string(try readString())
            // Literals are compared a word at a time; `readLiteral(_:)` finds the fault.
            case JSONByte.t:
                if hasLiteral(0x6575_7274, length: 4, at: position) {
                    position &+= 4
                } else {
                    try readLiteral("true")
                }
                value = .bool(true)
            case JSONByte.f:
                if position &+ 5 <= count, base[position &+ 4] == UInt8(ascii: "e"),
                    hasLiteral(0x736C_6166, length: 4, at: position)
                {
                    position &+= 5
                } else {
                    try readLiteral("false")
                }
                value = .bool(false)
            case JSONByte.n:
                if hasLiteral(0x6C6C_756E, length: 4, at: position) {
                    position &+= 4
                } else {
                    try readLiteral("null")
                }
                value = .null
            case JSONByte.minus, JSONByte.zero...JSONByte.nine:
                value = try readNumber()
            default:
                throw error("expected a value", at: position, includingCurrentMember: true)
            }

            // A value is complete: hand it to the container it belongs to,
            // closing containers as long as their closing bracket follows.
            while let frame = frames.last {
                skipWhitespace()
                let next = position < count ? base[position] : 0
                if frame.isObject {
                    if next == JSONByte.comma {
                        values.append(value)
                        position += 1
                        if frame.predictedCount > 0, readPredictedSegment(top: frames.count &- 1) { continue readValue }
                        skipWhitespace()
                        try readMemberKey()
                        continue readValue
                    } else if next == JSONByte.closeBrace {
                        values.append(value)
                        value = .object(try closeObject(frame))
                        position += 1
                    } else {
                        throw error("expected ',' or '}' after object member", at: position)
                    }
                } else {
                    if next == JSONByte.comma {
                        if frame.isLarge {
                            largeArrays[largeArrays.count - 1].append(value)
                        } else {
                            values.append(value)
                            if values.count - frame.valueStart >= JSONReader.largeArrayThreshold { beginLargeArray() }
                        }
                        position += 1
                        continue readValue
                    } else if next == JSONByte.closeBracket {
                        if frame.isLarge {
                            largeArrays[largeArrays.count - 1].append(value)
                            value = .array(largeArrays.removeLast())
                        } else {
                            values.append(value)
                            value = .array(takeValues(from: frame.valueStart))
                        }
                        frames.removeLast()
                        position += 1
                    } else {
                        throw error("expected ',' or ']' after array element", at: position)
                    }
                }
            }
            return value
        }
    }

    /// Pushes a frame for the array or object whose bracket is at `position`.
    private mutating func openContainer(isObject: Bool) throws(ModelError) {
        guard frames.count + outerDepth < options.maximumDepth else {
            var failure = error(
                "arrays and objects nested deeper than \(options.maximumDepth) levels",
                at: position, includingCurrentMember: true)
            failure.code = .nestingTooDeep
            throw failure
        }
        if stackStorage == nil { makeStacks() }
        let context = contextForNewContainer()
        frames.append(Frame(isObject: isObject, valueStart: values.count, keyStart: keys.count, context: context))
    }

    /// Reads `"key"` and the `:` after it; `position` is at the key's quote, or
    /// at whatever stands where a key should be.
    private mutating func readMemberKey() throws(ModelError) {
        guard position < count, base[position] == JSONByte.quote else {
            throw error("expected a string key", at: position)
        }
        let top = frames.count &- 1
        if frames[top].predictedCount > 0 {
            if try readPredictedKey(top: top) { return }
            if followOtherShape(top: top, closing: false), try readPredictedKey(top: top) { return }
            abandonPrediction(top: top)
        }
        let offset = position
        let (key, hash) = try readKey()
        keys.append(key)
        keyHashes.append(hash)
        keyOffsets.append(offset)
        skipWhitespace()
        guard position < count, base[position] == JSONByte.colon else {
            throw error("expected ':' after object key", at: position)
        }
        position += 1
    }

    /// Builds the object of the top frame from its keys and values and pops the frame.
    private mutating func closeObject(_ frame: Frame) throws(ModelError) -> ModelValue.Object {
        if frame.predictedCount > 0 {
            if let object = predictedObject(frame) { return object }
            if frame.matched < frame.predictedCount, followOtherShape(top: frames.count &- 1, closing: true),
                let object = predictedObject(frames[frames.count &- 1])
            {
                return object
            }
            abandonPrediction(top: frames.count &- 1)
        }
        let memberCount = keys.count - frame.keyStart
        // Records repeat their keys: an object whose keys (same strings,
        // same order) are those of an object read before shares its keys
        // array and key index, which were checked for repeats then.
        var combined = UInt64(truncatingIfNeeded: memberCount)
        for hash in keyHashes.buffer(from: frame.keyStart) {
            combined = (combined ^ hash) &* 0x9E37_79B9_7F4A_7C15
        }
        let shapeHash = combined ^ (combined >> 29)
        if shapeCache.isEmpty {
            shapeCache = Array(repeating: ShapeCacheEntry(), count: JSONReader.shapeCacheSize)
        }
        // Sets of two entries, found by the hash's low bits: two busy
        // shapes whose hashes share those bits both stay (with one entry
        // each, some seeds of the key hash made a document read slower).
        let set = Int(truncatingIfNeeded: shapeHash) & (JSONReader.shapeCacheSize - 2)
        let slot = shapeCache[set].hash == shapeHash ? set : set + 1
        if shapeCache[slot].hash == shapeHash, let shape = shapeCache[slot].shape,
            hasKeys(of: shape, from: frame.keyStart)
        {
            keys.removeLast(memberCount)
            let object = ModelValue.Object(shape: shape, values: takeValues(from: frame.valueStart))
            keyHashes.removeLast(memberCount)
            recordShape(slot: slot, context: frame.context, offsets: UnsafeBufferPointer(keyOffsets.buffer(from: frame.keyStart)))
            keyOffsets.removeLast(memberCount)
            frames.removeLast()
            return object
        }
        let memberKeys = takeKeys(memberCount)
        let memberValues = takeValues(from: frame.valueStart)
        let object = ModelValue.Object(
            readKeys: memberKeys, values: memberValues, hashes: UnsafeBufferPointer(keyHashes.buffer(from: frame.keyStart)))
        guard let object else {
            return try objectWithRepeatedKeys(memberKeys, values: memberValues, keyStart: frame.keyStart)
        }
        let kept = keepShapeText(
            memberKeys, hashes: UnsafeBufferPointer(keyHashes.buffer(from: frame.keyStart)),
            offsets: UnsafeBufferPointer(keyOffsets.buffer(from: frame.keyStart)))
        // The new shape takes the set's first entry; the first moves to the second.
        shapeCache.swapAt(set, set + 1)
        shapeCache[set] = ShapeCacheEntry(
            hash: shapeHash, shape: object.shape, keyStart: kept.start, keyCount: kept.count, context: frame.context)
        recordShape(slot: set, context: frame.context, offsets: nil)
        keyHashes.removeLast(memberCount)
        keyOffsets.removeLast(memberCount)
        frames.removeLast()
        return object
    }

    /// The object of the top frame when a key repeats: an error, or under
    /// ``JSONReadingOptions/DuplicateKeyPolicy/lastWins`` the object with each
    /// key at its first position and with its last value.
    private mutating func objectWithRepeatedKeys(_ memberKeys: [String], values memberValues: [ModelValue], keyStart: Int)
        throws(ModelError) -> ModelValue.Object
    {
        var object = ModelValue.Object(minimumCapacity: memberKeys.count)
        for (member, key) in memberKeys.enumerated() {
            if let existing = object.appendIfAbsent(key: key, value: memberValues[member]) {
                guard options.duplicateKeys == .lastWins else {
                    throw duplicateKeyError(key, at: keyOffsets[keyStart + member])
                }
                object.replaceValue(at: existing, with: memberValues[member])
            }
        }
        keyHashes.removeLast(memberKeys.count)
        keyOffsets.removeLast(memberKeys.count)
        frames.removeLast()
        return object
    }

    /// Whether the keys on the stack from `start` are `shape`'s, in order,
    /// byte for byte (keys are not compared as Unicode text).
    private func hasKeys(of shape: ModelValue.Object.Shape, from start: Int) -> Bool {
        guard keys.count - start == shape.keys.count else { return false }
        for offset in 0..<shape.keys.count {
            let key = keys[start &+ offset]
            let other = shape.keys[offset]
            if !(Self.isSameString(key, other) || KeyHash.sameBytes(key, other)) { return false }
        }
        return true
    }

    /// Whether `first` and `second` are one string: the same bits, so the
    /// same bytes (the key cache hands out one string per key, and a short
    /// key's bits are its bytes). A quick test; `false` proves nothing.
    @inline(__always)
    static func isSameString(_ first: String, _ second: String) -> Bool {
        guard MemoryLayout<String>.size == 16 else { return false }
        let left = unsafeBitCast(first, to: (UInt64, UInt64).self)
        let right = unsafeBitCast(second, to: (UInt64, UInt64).self)
        return left.0 == right.0 && left.1 == right.1
    }

    /// Moves the last `count` keys into an exactly sized array.
    private mutating func takeKeys(_ count: Int) -> [String] {
        keys.take(from: keys.count - count)
    }

    /// Elements an array gathers on the value stack before it is sized and
    /// built in place; small enough that the stack stays small too.
    static let largeArrayThreshold = 512

    /// Moves the elements of the top frame, an array at a comma after
    /// `largeArrayThreshold` elements, into an array sized for all of its
    /// elements, counted ahead, where the rest then go directly.
    ///
    /// Gathering every element on the stack and copying them once the array
    /// closes would hold a long array twice at that moment, and keep a stack
    /// as large as the longest array for the rest of the document. The count
    /// is only a capacity: on malformed input it may be wrong, and the read
    /// still finds the fault where it is.
    private mutating func beginLargeArray() {
        let start = frames[frames.count - 1].valueStart
        let gathered = values.count - start
        largeArrays.append(takeValues(from: start, capacity: gathered + remainingElements(from: position + 1)))
        frames[frames.count - 1].isLarge = true
    }

    /// Moves the values from `start` to the end of the value stack into an
    /// array of `capacity` (exactly sized unless more is asked for).
    @inline(__always)
    mutating func takeValues(from start: Int, capacity: Int = 0) -> [ModelValue] {
        values.take(from: start, capacity: capacity)
    }

    /// Reads `literal` (true, false or null) at `position`.
    private mutating func readLiteral(_ literal: StaticString) throws(ModelError) {
        let length = literal.utf8CodeUnitCount
        let expected = literal.utf8Start
        var index = 0
        while index < length {
            guard position + index < count, base[position + index] == expected[index] else {
                throw error("expected a value (did you mean '\(literal)'?)", at: position, includingCurrentMember: true)
            }
            index += 1
        }
        position += length
    }

    /// Moves past spaces, tabs, line feeds and carriage returns: RFC 8259's only whitespace.
    @inline(__always)
    mutating func skipWhitespace() {
        position = whitespaceEnd(from: position)
    }
}

/// The ASCII bytes that JSON's grammar is made of.
enum JSONByte {
    /// Lanes 0 to 7 (`half` 0) or 8 to 15 (`half` 1) of `mask` as a word
    /// whose byte `n` is 0x80 when lane `n` of the half is set, else 0.
    @inline(__always)
    static func lanes(of mask: SIMDMask<SIMD16<Int8>>, half: Int) -> UInt64 {
        let flags = unsafeBitCast(
            SIMD16<UInt8>(repeating: 0).replacing(with: 0x80, where: mask), to: SIMD2<UInt64>.self)
        return UInt64(littleEndian: flags[half])
    }

    static let tab = UInt8(ascii: "\t")
    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let space = UInt8(ascii: " ")
    static let quote = UInt8(ascii: "\"")
    static let plus = UInt8(ascii: "+")
    static let comma = UInt8(ascii: ",")
    static let minus = UInt8(ascii: "-")
    static let period = UInt8(ascii: ".")
    static let slash = UInt8(ascii: "/")
    static let zero = UInt8(ascii: "0")
    static let nine = UInt8(ascii: "9")
    static let colon = UInt8(ascii: ":")
    static let upperE = UInt8(ascii: "E")
    static let openBracket = UInt8(ascii: "[")
    static let backslash = UInt8(ascii: "\\")
    static let closeBracket = UInt8(ascii: "]")
    static let lowerE = UInt8(ascii: "e")
    static let f = UInt8(ascii: "f")
    static let n = UInt8(ascii: "n")
    static let t = UInt8(ascii: "t")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")

    /// The high bit of every byte of `word` (eight bytes of text, the first
    /// in the lowest byte) that a string cannot hold as it is: a control
    /// character, `"` or `\`, and `/` too with `slashes`; scanning for the
    /// lowest set bit finds the first of them.
    ///
    /// (x - 0x01…) & ~x flags the bytes of x that are zero, so XOR with a
    /// byte pattern first flags the bytes equal to it; (x - 0x20…) & ~x flags
    /// the bytes below 0x20. The high bit of ~x keeps bytes at or above 0x80
    /// out, and borrows only ever flag bytes above a genuine hit, so the
    /// lowest flag is exact.
    @inline(__always)
    static func specialBytes(in word: UInt64, slashes: Bool) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quotes = word ^ (ones &* 0x22)
        let backslashes = word ^ (ones &* 0x5C)
        var special = (quotes &- ones) & ~quotes | (backslashes &- ones) & ~backslashes | (word &- ones &* 0x20) & ~word
        if slashes {
            let slashBytes = word ^ (ones &* 0x2F)
            special |= (slashBytes &- ones) & ~slashBytes
        }
        return special & 0x8080_8080_8080_8080
    }
}
