import Foundation

/// What the direct JSON decoder (`JSONModelDecoder`) and encoder (`JSONModelEncoder`) need to know about one
/// class, worked out once with its `ClassLayout`: how to find a member's slot
/// from the bytes of its key, and how each slot reads its value.
final class JSONDecodingPlan: Sendable {
    /// What a key names: a slot (its offset, 0 or more) or a metadata key.
    static let versionTarget = -1
    static let typeTarget = -2
    /// DejalObject's `"representedClassName"`: the direct readers hand the
    /// object to the `ModelValue` path, which resolves it (see `DejalObjectForm`).
    /// Last in the table, so that it never displaces a prediction.
    static let dejalClassTarget = -5

    /// Every key's UTF-8 bytes, one after another.
    private let keyBytes: [UInt8]
    /// Per entry: where its key starts in `keyBytes`, its length, and its target.
    private let keyStarts: [Int]
    private let keyLengths: [Int]
    let targets: [Int]
    /// Open-addressing table of the entries' keys, a power of two long: each
    /// bucket has what a probe compares (so that it reads one place), or is empty.
    private let buckets: [Bucket]
    /// Bit `n` is set when some key is `n` bytes long (bit 63: 63 or
    /// longer): a key of another length names no entry, with no probe.
    private let keyLengthBits: UInt64
    /// Whether every key is ASCII. Only then does a key whose bytes match no
    /// entry surely name nothing: Swift compares strings by canonical
    /// equivalence, which can equate a non-ASCII key with other bytes.
    let keysAreASCII: Bool
    /// How each slot, by offset, reads its value.
    let kinds: [JSONSlotKind]
    /// Readers of the slots whose `Codable` values are decoded straight from
    /// the bytes; `nil` when no slot may be.
    let codableSlots: CodableSlotReaders?
    /// Writers of the slots whose `Codable` values may be written without a
    /// `ModelValue`, by offset; `nil` when no slot may be.
    let codableWriters: [CodableSlotWriter?]?
    /// Each slot's key (by offset), then the type key, the version key and
    /// the type name, as the writer writes a string with slashes unescaped
    /// (quotes and escapes included), one after another: the direct encoder
    /// copies them rather than escaping the same keys for every object.
    let writtenBytes: [UInt8]
    /// Where each slot's key is in `writtenBytes`, by offset.
    let writtenKeys: [Range<Int>]
    /// Where the metadata keys (when the class writes them) and the type name are in `writtenBytes`.
    let writtenTypeKey: Range<Int>?
    let writtenVersionKey: Range<Int>?
    let writtenTypeName: Range<Int>
    /// By slot offset: the slot's ``ScalarCode``, which the direct decoder
    /// reads its common scalars by, and, for the direct encoder's compact
    /// loop, its member's opening `,"key":` (the comma is skipped for the
    /// first member). Plain memory the plan owns, so that reading
    /// an entry copies no closure of `kinds` and retains nothing. Written
    /// only by `init`, so reading it from any thread is safe.
    nonisolated(unsafe) let compactMembers: UnsafeMutableBufferPointer<CompactMember>
    /// The bytes of the openings in `compactMembers`: each at the start of
    /// a slot of ``openingSlot`` bytes when every opening fits one (zeros
    /// after it, and one slot of zeros after the last), else one after another.
    nonisolated(unsafe) let compactOpenings: UnsafeMutableBufferPointer<UInt8>
    /// Whether each opening has a slot of its own in `compactOpenings`, so
    /// that the writer may copy a whole slot (two 16-byte moves, no branch
    /// on the length) and count only the opening's bytes.
    let openingsHaveSlots: Bool
    static let openingSlot = 32
    /// The layout's `savedOrder`, in plain memory the plan owns, so that the
    /// encoder reads it without retaining an array per object.
    nonisolated(unsafe) let savedOrder: UnsafeMutableBufferPointer<Int>

    /// One slot, for the direct encoder's compact loop.
    struct CompactMember {
        let code: ScalarCode
        /// `,"key":` in `compactOpenings`.
        let start: Int
        let count: Int
    }

    /// How the direct encoder's compact loop writes a slot: the common
    /// scalars straight from their cells; anything else leaves the loop.
    enum ScalarCode: UInt8, Sendable {
        case other, int, string, bool, double, optionalInt, optionalString, optionalBool, optionalDouble
        /// A model of the slot's class (`JSONSlotKind.model`): not a scalar,
        /// but read from its cell without a box.
        case model

        init(_ kind: JSONSlotKind) {
            switch kind {
            case .int: self = .int
            case .string: self = .string
            case .bool: self = .bool
            case .double: self = .double
            case .optionalInt: self = .optionalInt
            case .optionalString: self = .optionalString
            case .optionalBool: self = .optionalBool
            case .optionalDouble: self = .optionalDouble
            case .model: self = .model
            case .optionalModel, .modelArray, .generic: self = .other
            }
        }
    }

    init(slots: [ClassLayout.Slot], savedOrder: [Int], versionKey: String?, typeKey: String?, typeName: String) {
        var entries: [(key: String, target: Int)] = []
        if let typeKey { entries.append((typeKey, Self.typeTarget)) }
        if let versionKey { entries.append((versionKey, Self.versionTarget)) }
        var listed: Set<String> = []
        for offset in savedOrder where listed.insert(slots[offset].key).inserted {
            entries.append((slots[offset].key, offset))
        }
        if !listed.contains(DejalObjectForm.classNameKey), typeKey != DejalObjectForm.classNameKey,
            versionKey != DejalObjectForm.classNameKey
        {
            entries.append((DejalObjectForm.classNameKey, Self.dejalClassTarget))
        }
        var bytes: [UInt8] = []
        var starts: [Int] = []
        var lengths: [Int] = []
        var targets: [Int] = []
        var ascii = true
        for entry in entries {
            let utf8 = Array(entry.key.utf8)
            starts.append(bytes.count)
            lengths.append(utf8.count)
            targets.append(entry.target)
            bytes.append(contentsOf: utf8)
            if utf8.contains(where: { $0 >= 0x80 }) { ascii = false }
        }
        var size = 8
        while size < entries.count * 2 { size *= 2 }
        var table = [Bucket](repeating: Bucket(words: KeyWords(head: 0, tail: 0), length: -1, entry: -1), count: size)
        for index in entries.indices {
            let words = bytes.withUnsafeBufferPointer { buffer in
                Self.words(buffer.baseAddress! + starts[index], count: lengths[index])
            }
            var bucket = Self.hash(words, count: lengths[index]) & (size - 1)
            while table[bucket].entry >= 0 { bucket = (bucket + 1) & (size - 1) }
            table[bucket] = Bucket(words: words, length: lengths[index], entry: index)
        }
        keyBytes = bytes
        keyStarts = starts
        keyLengths = lengths
        keyLengthBits = lengths.reduce(0) { $0 | 1 << UInt64(min($1, 63)) }
        self.targets = targets
        buckets = table
        keysAreASCII = ascii
        kinds = slots.map { JSONSlotKind.of($0.codec.valueType) }
        codableSlots = CodableSlotReaders(slots: slots, kinds: kinds)
        let writers = slots.map { slot -> CodableSlotWriter? in
            guard case .generic = JSONSlotKind.of(slot.codec.valueType), slot.codec.valueType is any Encodable.Type
            else { return nil }
            return slot.codec.codableSlotWriter()
        }
        codableWriters = writers.contains { $0 != nil } ? writers : nil
        var written: [UInt8] = []
        func write(_ text: String) -> Range<Int> {
            var writer = JSONWriter(options: JSONWritingOptions(), initialCapacity: text.utf8.count + 16)
            writer.writeString(text)
            let start = written.count
            written.append(contentsOf: writer.takeData())
            return start..<written.count
        }
        writtenKeys = slots.map { write($0.key) }
        writtenTypeKey = typeKey.map(write)
        writtenVersionKey = versionKey.map(write)
        writtenTypeName = write(typeName)
        writtenBytes = written
        var openings: [UInt8] = []
        var members: [CompactMember] = []
        // `,"key":` is the key's written text and two bytes.
        let slotted = writtenKeys.allSatisfy { $0.count + 2 <= Self.openingSlot }
        for (kind, key) in zip(kinds, writtenKeys) {
            let start = openings.count
            openings.append(JSONByte.comma)
            openings.append(contentsOf: written[key])
            openings.append(JSONByte.colon)
            members.append(CompactMember(code: ScalarCode(kind), start: start, count: openings.count - start))
            if slotted { openings += repeatElement(0, count: start + Self.openingSlot - openings.count) }
        }
        if slotted { openings += repeatElement(0, count: Self.openingSlot) }
        openingsHaveSlots = slotted
        compactMembers = .allocate(capacity: members.count)
        _ = compactMembers.initialize(from: members)
        compactOpenings = .allocate(capacity: openings.count)
        _ = compactOpenings.initialize(from: openings)
        self.savedOrder = .allocate(capacity: savedOrder.count)
        _ = self.savedOrder.initialize(from: savedOrder)
    }

    deinit {
        compactMembers.deallocate()
        compactOpenings.deallocate()
        savedOrder.deallocate()
    }

    var entryCount: Int { targets.count }

    /// The entry whose key is exactly the `count` bytes at `key`, trying
    /// `predicted` (the entry after the previous member's) first.
    @inline(__always)
    func entry(matching key: UnsafePointer<UInt8>, count: Int, predicted: Int) -> Int? {
        // Most members of documents that carry more than a class declares
        // are not its keys: many of them are told by their length alone.
        guard keyLengthBits >> UInt64(min(count, 63)) & 1 != 0 else { return nil }
        if predicted < keyLengths.count, matches(predicted, key, count) { return predicted }
        return lookUp(key, count: count)
    }

    private func lookUp(_ key: UnsafePointer<UInt8>, count: Int) -> Int? {
        let words = Self.words(key, count: count)
        return buckets.withUnsafeBufferPointer { buckets in
            let mask = buckets.count &- 1
            var bucket = Self.hash(words, count: count) & mask
            while true {
                let candidate = buckets[bucket]
                if candidate.entry < 0 { return nil }
                if candidate.length == count, candidate.words == words, count <= 16 || matchesMiddle(candidate.entry, key, count) {
                    return candidate.entry
                }
                bucket = (bucket &+ 1) & mask
            }
        }
    }

    @inline(__always)
    private func matches(_ index: Int, _ key: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        guard keyLengths[index] == count else { return false }
        return keyBytes.withUnsafeBufferPointer { buffer in
            JSONReader.sameBytes(buffer.baseAddress! + keyStarts[index], key, count: count)
        }
    }

    /// Whether the bytes between the first and last eight of entry `index`'s
    /// key, longer than 16 bytes and as long as the key at `key`, match.
    private func matchesMiddle(_ index: Int, _ key: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        keyBytes.withUnsafeBufferPointer { buffer in
            memcmp(buffer.baseAddress! + keyStarts[index] + 8, key + 8, count - 16) == 0
        }
    }

    /// One bucket of the table: an entry's key words and length, and the entry (-1: empty).
    private struct Bucket {
        var words: KeyWords
        var length: Int
        var entry: Int
    }

    /// A key's first and last eight bytes as words (overlapping when it is
    /// shorter than 16 bytes; zero-padded when shorter than 8): together with
    /// the length, the whole key when it is at most 16 bytes long. Read with
    /// unaligned loads that never pass the key's end.
    struct KeyWords: Equatable {
        var head: UInt64
        var tail: UInt64
    }

    @inline(__always)
    static func words(_ key: UnsafePointer<UInt8>, count: Int) -> KeyWords {
        let raw = UnsafeRawPointer(key)
        if count >= 8 {
            return KeyWords(
                head: raw.loadUnaligned(as: UInt64.self), tail: raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
        }
        if count >= 4 {
            let low = UInt64(raw.loadUnaligned(as: UInt32.self))
            let high = UInt64(raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
            return KeyWords(head: low | high << 32, tail: 0)
        }
        var head: UInt64 = 0
        for index in 0..<count { head |= UInt64(key[index]) << UInt64(index &* 8) }
        return KeyWords(head: head, tail: 0)
    }

    /// Mixes a key's words and length; keys are short, so this is the whole key.
    @inline(__always)
    private static func hash(_ words: KeyWords, count: Int) -> Int {
        // The high half of a product depends on every bit of its operand.
        let mixed = ((words.head ^ UInt64(truncatingIfNeeded: count)) &* 0x9E37_79B9_7F4A_7C15 ^ words.tail)
            &* 0xC2B2_AE3D_27D4_EB4F
        return Int(truncatingIfNeeded: mixed >> 32)
    }
}

/// How the direct JSON decoder reads, and the encoder writes, one slot's value: common scalars
/// straight from the bytes, models and their common containers member by
/// member, anything else as a `ModelValue` through the slot's codec.
enum JSONSlotKind: Sendable {
    case int, string, bool, double
    case optionalInt, optionalString, optionalBool, optionalDouble
    /// A model of this class (or a registered subclass).
    case model(ModelObject.Type)
    /// An optional model; `wrap` makes the slot's `Optional` value, `unwrap` takes it apart.
    case optionalModel(
        ModelObject.Type, wrap: @Sendable (ModelObject?) -> Any, unwrap: @Sendable (Any) -> ModelObject?)
    /// An array of models; `wrap` makes the slot's `Array` value, `unwrap` takes it apart.
    case modelArray(ModelObject.Type, wrap: @Sendable ([ModelObject]) -> Any, unwrap: @Sendable (Any) -> [ModelObject])
    case generic

    static func of(_ type: Any.Type) -> JSONSlotKind {
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(Int.self): return .int
        case ObjectIdentifier(String.self): return .string
        case ObjectIdentifier(Bool.self): return .bool
        case ObjectIdentifier(Double.self): return .double
        case ObjectIdentifier(Int?.self): return .optionalInt
        case ObjectIdentifier(String?.self): return .optionalString
        case ObjectIdentifier(Bool?.self): return .optionalBool
        case ObjectIdentifier(Double?.self): return .optionalDouble
        default: return (type as? any JSONModelShape.Type)?.jsonSlotKind ?? .generic
        }
    }
}

/// A slot type holding models in a shape the direct JSON decoder builds
/// itself: a model, an optional model or an array of models.
protocol JSONModelShape: Sendable {
    static var jsonSlotKind: JSONSlotKind { get }
    /// The value of this type holding `models`, each of the model class.
    static func holding(_ models: [ModelObject]) -> Self
    /// Calls `body` with each model this value holds, with no cast per
    /// model: change tracking walks the model graph with it.
    func forEachShapedModel(_ body: (ModelObject) -> Void)
}

extension JSONModelShape {
    /// Calls `body` with each model in `value`, a value of this type.
    ///
    /// Called through an `any JSONModelShape.Type`, the metatype is opened,
    /// so the cast uses the type at hand rather than looking up its metadata.
    /// A slot whose value is being mutated in place holds a marker instead,
    /// which holds no models: a walk reaching it on the mutating thread (a
    /// cycle back to the object) passes over it.
    static func forEachModel(in value: Any, _ body: (ModelObject) -> Void) {
        (value as? Self)?.forEachShapedModel(body)
    }

    /// Calls `body` with each model that the value in the cell at `cell` (a
    /// value of this type, not being mutated in place) holds, read where it
    /// lies: no box, no cast.
    static func forEachModel(inCell cell: UnsafeMutableRawPointer, _ body: (ModelObject) -> Void) {
        SlotCell.pointer(cell, as: Self.self).pointee.forEachShapedModel(body)
    }

    /// Starts the life, in the uninitialised cell at `cell`, of the value of
    /// this type that holds `models` (one for a model, none or one for an
    /// optional, any number for an array), each of which is of the slot's
    /// model class: no box, no cast.
    static func initializeCell(_ cell: UnsafeMutableRawPointer, holding models: [ModelObject]) {
        SlotCell.initialize(cell, to: Self.holding(models))
    }

    /// The models held by the value in the cell at `cell` (a value of this
    /// type), read where it lies: no box, no cast.
    static func models(inCell cell: UnsafeMutableRawPointer) -> [ModelObject] {
        var models: [ModelObject] = []
        SlotCell.pointer(cell, as: Self.self).pointee.forEachShapedModel { models.append($0) }
        return models
    }
}

extension ModelObject: JSONModelShape {
    static var jsonSlotKind: JSONSlotKind { .model(self) }

    static func holding(_ models: [ModelObject]) -> Self { unsafeDowncast(models[0], to: self) }

    func forEachShapedModel(_ body: (ModelObject) -> Void) {
        body(self)
    }
}

extension Optional: JSONModelShape where Wrapped: ModelObject {
    static var jsonSlotKind: JSONSlotKind {
        .optionalModel(
            Wrapped.self, wrap: { model in model.map { unsafeDowncast($0, to: Wrapped.self) } as Any },
            unwrap: { value in value as! Wrapped? })
    }

    static func holding(_ models: [ModelObject]) -> Self {
        models.first.map { unsafeDowncast($0, to: Wrapped.self) }
    }

    func forEachShapedModel(_ body: (ModelObject) -> Void) {
        if let model = self { body(model) }
    }
}

extension Array: JSONModelShape where Element: ModelObject {
    static var jsonSlotKind: JSONSlotKind {
        // `map` upcasts each element for free; converting the array with
        // `as` would cast every element dynamically where Objective-C is absent.
        // Unwrapping needs no new array at all: an array of a class's
        // instances is laid out as an array of its superclass's.
        .modelArray(
            Element.self, wrap: { models in models.map { unsafeDowncast($0, to: Element.self) } as Any },
            unwrap: { value in unsafeBitCast(value as! [Element], to: [ModelObject].self) })
    }

    static func holding(_ models: [ModelObject]) -> Self {
        // An empty array needs no storage of its element type.
        if models.isEmpty { return [] }
        return models.map { unsafeDowncast($0, to: Element.self) }
    }

    func forEachShapedModel(_ body: (ModelObject) -> Void) {
        // By index: iterating would ask for the iterator type's metadata.
        var index = 0
        while index < count {
            body(self[index])
            index &+= 1
        }
    }
}
