/// Shapes: the keys of an object predicted from where it stands, and
/// checked against the document's bytes.
///
/// Records repeat their keys, in the same order, at the same place in a
/// document (each status's `user`, each element of `hashtags`). So when an
/// object opens, the reader looks up the shape of the last object closed in
/// the same context (a hash of the keys and array levels that lead to it)
/// and, while the document's keys are byte for byte that shape's, reads
/// each key by comparing its bytes with the shape's, without making a
/// string, hashing it or pushing it on the key stacks. An object that ends
/// with exactly the shape's keys takes the shape's keys array and index.
/// The first key that differs, or an end before the shape's last key, puts
/// the keys matched so far on the stacks as if read one by one, and the
/// object goes on the usual way.
///
/// Each key of a shape also keeps where its member's text began in the
/// object that made the shape: from just after the `{` or `,` before the
/// key to the start of its value (`\n      "id": ` in an indented
/// document). An object in the same place is usually written the same way,
/// so the reader first compares the bytes after a `{` or `,` with that
/// text: when they are the same, the whitespace, the key and the colon are
/// all read at once. When they are not, the key is read as above.
///
/// Only shapes whose keys hold no quote, backslash or control character are
/// predicted: for them, equal raw bytes mean an equal key (the document's
/// bytes hold no escape), and the shape's keys are distinct, so a match
/// needs no test for repeated keys.
extension JSONReader {
    /// One key of a predictable shape: its bytes in `shapeText` and its
    /// `KeyHash`, and its member's text up to the value in the document
    /// (`segmentLength` 0 when there is none to compare with).
    struct ShapeKey {
        var offset: Int
        var length: Int
        var hash: UInt64
        var segmentStart = 0
        var segmentLength = 0
        /// The whitespace before the key's quote in that text.
        var segmentLead = 0
    }

    /// The shape last closed in one context, held here so that its leaving
    /// the shape cache does not end the prediction.
    struct Prediction {
        var context: UInt64 = 0
        var shape: ModelValue.Object.Shape?
        /// Its keys on `shapeKeys`; a count of 0 when it is not predicted.
        var keyStart = 0
        var keyCount = 0
        /// The shape closed in this context before `shape`, when that was
        /// another: records often alternate between two shapes (a status
        /// with or without `retweeted_status`, a user with or without a
        /// banner), and an object that leaves one may be the other.
        var otherShape: ModelValue.Object.Shape?
        var otherKeyStart = 0
        var otherKeyCount = 0
        /// How many first keys the two shapes have in common.
        var commonKeys = 0
        /// Where the shape-cache entry's keys start, when `keyStart` is a
        /// copy of them made for this context (with its member texts);
        /// likewise for the other shape.
        var sourceStart = 0
        var otherSourceStart = 0
    }

    /// Entries of `predictions`: sets of two, found by the context's low
    /// bits, so that two contexts sharing those bits both keep theirs.
    static let predictionCount = 256
    /// The longest member text (whitespace, key and colon) compared at once.
    static let segmentLimit = 128
    /// Key bytes kept for predictions in one read, at most; past it new
    /// shapes are not predicted (the document's own keys bound it anyway).
    static let shapeTextLimit = 1 << 22

    /// The context of a container opening inside the top frame: the top
    /// frame's context mixed with the key of the member being read, or
    /// with a mark for an array element.
    @inline(__always)
    func contextForNewContainer() -> UInt64 {
        guard let parent = frames.last else { return 0x2545_F491_4F6C_DD1D }
        let step: UInt64
        if !parent.isObject {
            step = 0x5851_F42D_4C95_7F2D
        } else if parent.predictedCount > 0 {
            step = shapeKeys[parent.predictedStart &+ parent.matched &- 1].hash
        } else {
            step = keyHashes[keyHashes.count &- 1]
        }
        let mixed = (parent.context ^ step) &* 0x9E37_79B9_7F4A_7C15
        return mixed ^ (mixed >> 29)
    }

    /// Sets the top frame, an object just opened, to follow the shape last
    /// closed in its context, if any is known.
    @inline(__always)
    mutating func predictShape() {
        guard !predictions.isEmpty else { return }
        let top = frames.count &- 1
        let context = frames[top].context
        var index = Int(truncatingIfNeeded: context) & (JSONReader.predictionCount &- 2)
        if predictions[index].context != context { index &+= 1 }
        guard predictions[index].context == context, predictions[index].keyCount > 0 else { return }
        frames[top].predictedStart = predictions[index].keyStart
        frames[top].predictedCount = predictions[index].keyCount
        frames[top].predictedSlot = index
    }

    /// Reads the key at `position` (a quote is there) as the next key of
    /// the top frame's predicted shape, and the `:` after it; `false`, with
    /// nothing read, when it is another key.
    @inline(__always)
    mutating func readPredictedKey(top: Int) throws(ModelError) -> Bool {
        let matched = frames[top].matched
        guard matched < frames[top].predictedCount else { return false }
        let key = shapeKeys[frames[top].predictedStart &+ matched]
        let end = position &+ 1 &+ key.length
        guard end < count, base[end] == JSONByte.quote else { return false }
        let same = shapeText.withUnsafeBufferPointer { text in
            JSONReader.sameBytes(base + (position &+ 1), text.baseAddress! + key.offset, count: key.length)
        }
        guard same else { return false }
        frames[top].matched = matched &+ 1
        position = end &+ 1
        skipWhitespace()
        guard position < count, base[position] == JSONByte.colon else {
            throw error("expected ':' after object key", at: position)
        }
        position &+= 1
        return true
    }

    /// Reads the whitespace, key and colon of the top frame's next member
    /// at once, when the bytes at `position` (just after a `{` or `,`) are
    /// the text they had in the object that made the predicted shape, or
    /// are after the whitespace (the same record indented deeper or less);
    /// `false` when they are not, with at most the whitespace read.
    @inline(__always)
    mutating func readPredictedSegment(top: Int) -> Bool {
        let matched = frames[top].matched
        guard matched < frames[top].predictedCount else { return false }
        let key = shapeKeys[frames[top].predictedStart &+ matched]
        let length = key.segmentLength
        guard length > 0 else { return false }
        if position &+ length <= count, JSONReader.sameText(base + position, base + key.segmentStart, count: length) {
            frames[top].matched = matched &+ 1
            position &+= length
            return true
        }
        return readPredictedKeyText(top: top, key: key)
    }

    /// ``readPredictedSegment(top:)`` once the whole text did not match:
    /// the whitespace, then the text from the key's quote.
    @inline(never)
    mutating func readPredictedKeyText(top: Int, key: ShapeKey) -> Bool {
        let length = key.segmentLength
        position = whitespaceEnd(from: position)
        let keyLength = length &- key.segmentLead
        guard position &+ keyLength <= count,
            JSONReader.sameText(base + position, base + (key.segmentStart &+ key.segmentLead), count: keyLength)
        else { return false }
        frames[top].matched &+= 1
        position &+= keyLength
        return true
    }

    /// Whether the `count` bytes (at least one) at `first` and `second`
    /// are equal, compared sixteen bytes at a time; the last comparison
    /// overlaps the one before rather than going past the end.
    @inline(__always)
    static func sameText(_ first: UnsafePointer<UInt8>, _ second: UnsafePointer<UInt8>, count: Int) -> Bool {
        guard count >= 16 else { return sameBytes(first, second, count: count) }
        @inline(__always) func differs(_ offset: Int) -> Bool {
            let left = UnsafeRawPointer(first + offset)
            let right = UnsafeRawPointer(second + offset)
            return (left.loadUnaligned(as: UInt64.self) ^ right.loadUnaligned(as: UInt64.self))
                | (left.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                    ^ right.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) != 0
        }
        var offset = 0
        while offset &+ 16 < count {
            if differs(offset) { return false }
            offset &+= 16
        }
        return !differs(count &- 16)
    }

    /// The member text for a key whose entry on `keyOffsets` is
    /// `keyOffset`: from the document where the key's quote is, or for a
    /// key matched with a prediction (-1 - its index on `shapeKeys`), that
    /// shape key's.
    func memberSegment(forKeyOffset keyOffset: Int) -> (start: Int, length: Int, lead: Int)? {
        if keyOffset >= 0 { return memberSegment(keyAt: keyOffset) }
        let matched = shapeKeys[-(keyOffset &+ 1)]
        return (matched.segmentStart, matched.segmentLength, matched.segmentLead)
    }

    /// Where the text of the member whose key's quote is at `quote` starts
    /// (just after the `{` or `,` before it) and how long it is up to the
    /// value; `nil` when the key holds an escape or the text is longer than
    /// `segmentLimit`. The member was read, so its text is well-formed.
    func memberSegment(keyAt quote: Int) -> (start: Int, length: Int, lead: Int)? {
        var start = quote
        while start > 0, base[start &- 1] <= JSONByte.space { start &-= 1 }
        var highBits: UInt8 = 0
        let keyEnd = JSONReader.skipPlainText(base, count: count, from: quote &+ 1, highBits: &highBits)
        guard keyEnd < count, base[keyEnd] == JSONByte.quote else { return nil }
        let colon = whitespaceEnd(from: keyEnd &+ 1)
        guard colon < count, base[colon] == JSONByte.colon else { return nil }
        let end = whitespaceEnd(from: colon &+ 1)
        guard end &- start <= JSONReader.segmentLimit else { return nil }
        return (start, end &- start, quote &- start)
    }

    /// Puts the keys the top frame matched with its prediction on the key
    /// stacks, as if read one by one, and stops predicting for it.
    @inline(never)
    mutating func abandonPrediction(top: Int) {
        let start = frames[top].predictedStart
        // The shape's own strings while its prediction is still there; else made again from its bytes.
        let shapeKeysArray = predictedShape(of: frames[top])?.keys
        for index in 0..<frames[top].matched {
            let key = shapeKeys[start &+ index]
            keys.append(shapeKeysArray?[index] ?? string(of: key))
            keyHashes.append(key.hash)
            // Not an offset but where the shape's key is, for the member
            // text of a shape made from this object. (Only a later repeat
            // of a key is reported, with its own offset, and the matched
            // keys are distinct.)
            keyOffsets.append(-(start &+ index) &- 1)
        }
        frames[top].predictedCount = 0
        frames[top].matched = 0
    }

    /// The object of the top frame when it matched its whole prediction and
    /// the prediction was not replaced meanwhile (by an object inside it in
    /// a context with the same low bits); `nil` otherwise.
    @inline(__always)
    mutating func predictedObject(_ frame: Frame) -> ModelValue.Object? {
        guard frame.matched == frame.predictedCount, let shape = predictedShape(of: frame) else { return nil }
        let object = ModelValue.Object(shape: shape, values: takeValues(from: frame.valueStart))
        frames.removeLast()
        return object
    }

    /// The shape `frame` follows, while its prediction is still there (as
    /// the context's last shape or the one before).
    @inline(__always)
    func predictedShape(of frame: Frame) -> ModelValue.Object.Shape? {
        // Read in place: copying the entry out retains and releases its shapes.
        predictions.withUnsafeBufferPointer { entries -> ModelValue.Object.Shape? in
            let entry = entries.baseAddress! + frame.predictedSlot
            switch JSONReader.followsLastShape(frame, entry) {
            case true?: return entry.pointee.shape
            case false?: return entry.pointee.otherShape
            case nil: return nil
            }
        }
    }

    /// Whether `frame` follows the last shape closed in its context
    /// (`entry`, its prediction) or the one before (`false`); `nil` when
    /// the entry holds neither any more.
    @inline(__always)
    static func followsLastShape(_ frame: Frame, _ entry: UnsafePointer<Prediction>) -> Bool? {
        guard entry.pointee.context == frame.context else { return nil }
        if entry.pointee.keyStart == frame.predictedStart, entry.pointee.keyCount == frame.predictedCount { return true }
        if entry.pointee.otherKeyStart == frame.predictedStart, entry.pointee.otherKeyCount == frame.predictedCount {
            return false
        }
        return nil
    }

    /// Makes the top frame follow the other shape of its context, when that
    /// begins with the keys matched so far, and has more keys than those
    /// (`closing`: has no more); `false`, changing nothing, otherwise.
    @inline(never)
    mutating func followOtherShape(top: Int, closing: Bool) -> Bool {
        let frame = frames[top]
        let other = predictions.withUnsafeBufferPointer { entries -> (start: Int, count: Int, common: Int)? in
            let entry = entries.baseAddress! + frame.predictedSlot
            switch JSONReader.followsLastShape(frame, entry) {
            case true?: return (entry.pointee.otherKeyStart, entry.pointee.otherKeyCount, entry.pointee.commonKeys)
            case false?: return (entry.pointee.keyStart, entry.pointee.keyCount, entry.pointee.commonKeys)
            case nil: return nil
            }
        }
        guard let other, other.count > 0, closing ? other.count == frame.matched : other.count > frame.matched,
            frame.matched <= other.common
        else { return false }
        frames[top].predictedStart = other.start
        frames[top].predictedCount = other.count
        return true
    }

    /// How many first keys the two predictable shapes whose keys are at
    /// `first` and `second` on `shapeKeys` have in common (byte for byte).
    func commonKeyCount(_ first: Int, _ firstCount: Int, _ second: Int, _ secondCount: Int) -> Int {
        shapeText.withUnsafeBufferPointer { text in
            var common = 0
            while common < min(firstCount, secondCount) {
                let key = shapeKeys[first &+ common]
                let other = shapeKeys[second &+ common]
                guard key.length == other.length,
                    JSONReader.sameBytes(text.baseAddress! + key.offset, text.baseAddress! + other.offset, count: key.length)
                else { break }
                common &+= 1
            }
            return common
        }
    }

    /// Remembers that the shape in `slot` of `shapeCache` was closed in
    /// `context`. When the shape's keys were kept from an object in another
    /// context (`user` inside a status and inside its retweet, indented
    /// deeper), this context gets its own copy of them, with the member
    /// texts of the object just closed, whose key offsets are `offsets`.
    @inline(__always)
    mutating func recordShape(slot: Int, context: UInt64, offsets: UnsafeBufferPointer<Int>?) {
        if predictions.isEmpty { predictions = Array(repeating: Prediction(), count: JSONReader.predictionCount) }
        // The set's first entry is the one last recorded; a context new to
        // the set moves the first entry to the second.
        let index = Int(truncatingIfNeeded: context) & (JSONReader.predictionCount &- 2)
        if predictions[index].context != context, predictions[index &+ 1].context != context {
            predictions.swapAt(index, index &+ 1)
        } else if predictions[index &+ 1].context == context {
            predictions.swapAt(index, index &+ 1)
        }
        let source = shapeCache[slot].keyStart
        let count = shapeCache[slot].keyCount
        var keyStart = source
        if count > 0, shapeCache[slot].context != context, let offsets {
            if predictions[index].context == context, predictions[index].sourceStart == source,
                predictions[index].keyCount == count
            {
                keyStart = predictions[index].keyStart
            } else if predictions[index].context == context, predictions[index].otherSourceStart == source,
                predictions[index].otherKeyCount == count
            {
                keyStart = predictions[index].otherKeyStart
            } else if shapeKeys.count < JSONReader.shapeTextLimit / 8,
                !hasMemberText(of: shapeKeys[source], forKeyOffset: offsets[0])
            {
                // Written otherwise (indented deeper or less): a copy. The
                // same (compact text, or one indentation for every record
                // in a map of records): the keys as they are.
                keyStart = copyShapeKeys(from: source, count: count, offsets: offsets)
            }
        }
        var entry = Prediction(
            context: context, shape: shapeCache[slot].shape, keyStart: keyStart, keyCount: count, sourceStart: source)
        if predictions[index].context == context {
            let previous = predictions[index]
            if previous.keyStart == entry.keyStart, previous.keyCount == entry.keyCount {
                entry.otherShape = previous.otherShape
                entry.otherKeyStart = previous.otherKeyStart
                entry.otherKeyCount = previous.otherKeyCount
                entry.otherSourceStart = previous.otherSourceStart
                entry.commonKeys = previous.commonKeys
            } else {
                entry.otherShape = previous.shape
                entry.otherKeyStart = previous.keyStart
                entry.otherKeyCount = previous.keyCount
                entry.otherSourceStart = previous.sourceStart
                entry.commonKeys = commonKeyCount(entry.keyStart, entry.keyCount, previous.keyStart, previous.keyCount)
            }
        }
        predictions[index] = entry
    }

    /// Whether the member text of the key whose entry on `keyOffsets` is
    /// `keyOffset` is `key`'s, byte for byte.
    func hasMemberText(of key: ShapeKey, forKeyOffset keyOffset: Int) -> Bool {
        guard let segment = memberSegment(forKeyOffset: keyOffset), segment.length == key.segmentLength else {
            return false
        }
        return segment.length == 0
            || JSONReader.sameText(base + segment.start, base + key.segmentStart, count: segment.length)
    }

    /// Copies the `count` shape keys at `source` on `shapeKeys` (sharing
    /// their bytes in `shapeText`), with the member texts of the object
    /// whose key offsets are `offsets`; returns where the copy starts.
    mutating func copyShapeKeys(from source: Int, count: Int, offsets: UnsafeBufferPointer<Int>) -> Int {
        let start = shapeKeys.count
        for index in 0..<count {
            var key = shapeKeys[source &+ index]
            if let segment = memberSegment(forKeyOffset: offsets[index]) {
                key.segmentStart = segment.start
                key.segmentLength = segment.length
                key.segmentLead = segment.lead
            }
            shapeKeys.append(key)
        }
        return start
    }

    /// Keeps the bytes of `memberKeys` for predicting their shape; returns
    /// where they start on `shapeKeys` and how many, or a count of 0 when the
    /// shape is not predictable. `hashes` are the keys' `KeyHash`es and
    /// `offsets` their entries on `keyOffsets`: where each key's quote is,
    /// or for a key matched with a prediction, -1 - its index on `shapeKeys`.
    mutating func keepShapeText(
        _ memberKeys: [String], hashes: UnsafeBufferPointer<UInt64>, offsets: UnsafeBufferPointer<Int>
    ) -> (start: Int, count: Int) {
        guard shapeText.count < JSONReader.shapeTextLimit else { return (0, 0) }
        let start = shapeKeys.count
        let textStart = shapeText.count
        for index in 0..<memberKeys.count {
            let offset = shapeText.count
            var key = memberKeys[index]
            // From the string's own storage (read through `utf8`, each key took a generic append).
            let plain = key.withUTF8 { bytes in
                shapeText.append(contentsOf: bytes)
                for byte in bytes where byte < 0x20 || byte == JSONByte.quote || byte == JSONByte.backslash {
                    return false
                }
                return true
            }
            guard plain else {
                shapeText.removeLast(shapeText.count - textStart)
                shapeKeys.removeLast(shapeKeys.count - start)
                return (0, 0)
            }
            var shapeKey = ShapeKey(offset: offset, length: shapeText.count - offset, hash: hashes[index])
            if let segment = memberSegment(forKeyOffset: offsets[index]) {
                shapeKey.segmentStart = segment.start
                shapeKey.segmentLength = segment.length
                shapeKey.segmentLead = segment.lead
            }
            shapeKeys.append(shapeKey)
        }
        return (start, memberKeys.count)
    }

    /// The key of the member being read in `frame`, an object following a
    /// prediction, for error key paths.
    func predictedKey(of frame: Frame) -> String {
        string(of: shapeKeys[frame.predictedStart + frame.matched - 1])
    }

    /// The text of a predictable shape's key, made from its bytes.
    private func string(of key: ShapeKey) -> String {
        shapeText.withUnsafeBufferPointer { text in
            String(decoding: UnsafeBufferPointer(rebasing: text[key.offset..<(key.offset + key.length)]), as: UTF8.self)
        }
    }
}
