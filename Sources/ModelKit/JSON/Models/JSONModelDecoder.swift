import Foundation

/// Reads JSON straight into model objects, without building a ``ModelValue``
/// for the objects it decodes.
///
/// For each member of a model object it finds the slot from the key's bytes
/// (`JSONDecodingPlan`), reads common scalars straight from the bytes, reads
/// nested models (alone, optional or in arrays) the same way, reads values
/// of types that convert through the `Codable` default with their own
/// `init(from:)` (`readCodable`), and reads
/// anything else, and the keys the class does not save, as a `ModelValue`
/// with the `JSONReader` and converts it with the slot's codec, exactly as
/// ``ModelObject/decodePending(_:)`` does.
///
/// Members a class does not save are kept as their text, or, for a class
/// whose `unknownKeys` is `.ignore`, skipped (validated, never built); a
/// class that rejects them goes to the `ModelValue` path, which names them.
///
/// It is a fast path, not a second definition of loading:
/// - Where it cannot honour a case cheaply (an upgrade to run, a type key
///   naming a subclass, a repeated key), it reads that object as a
///   `ModelValue` and decodes it through the existing path.
/// - It reports no errors of its own: any failure makes the caller read the
///   whole document again through `ModelValue`, which throws the error with
///   its key path, line and column, exactly as before. So it may refuse more
///   than the existing path, never less.
///
/// It recurses once per container it reads itself, and only
/// `directDepth` containers deep: deeper models go through the `ModelValue`
/// path, whose reader never recurses, so a document nested past
/// ``JSONReadingOptions/maximumDepth`` meets the nesting error with little
/// stack used, even on a thread with a small stack.
struct JSONModelDecoder: ~Copyable {
    /// The deepest container read directly.
    static let directDepth = 32

    /// What one object's members gave besides its slot values (which go
    /// typed into cells as they are read: a `PendingCells` row for the
    /// root, applied later all at once, the cells of the new object itself
    /// for a nested model).
    struct Members {
        /// The root's row of decoded values; `nil` for a nested model, filled in place.
        var values: PendingCells?
        var bag = ExtensibleBag()
        var newerVersion: Int?
    }

    /// Makes the caller fall back to the `ModelValue` path, which reports the real error.
    struct Failure: Error {}

    var reader: JSONReader
    /// Containers open around the current position.
    private var depth = 0
    private let maximumDepth: Int
    /// The document `reader` reads, when unknown members are kept as their
    /// text (slices of it); `nil` keeps them as values.
    private let document: Data?
    /// Whether `document` is set (cheaper to test than the optional).
    private let keepsText: Bool
    /// The tape of `Codable` slot values, reused from one to the next.
    private var codableTape: JSONTape?
    /// `Codable` slot values read straight from the bytes (for tests).
    private(set) var codableValuesRead = 0
    /// The members kept as text of the objects being read, innermost last,
    /// with their key hashes: each object's bag gets its members at once when
    /// the object closes, in one array of their number, rather than growing
    /// two arrays member by member.
    ///
    /// Plain memory, allocated with the first member set aside and freed
    /// with the decoder: two arrays, checked for uniqueness and capacity on
    /// each append, cost more than the rest of a skipped member's bookkeeping.
    private var pendingMembers: UnsafeMutablePointer<ExtensibleBag.CompactMember>?
    private var pendingHashes: UnsafeMutablePointer<UInt64>?
    private var pendingCount = 0
    private var pendingCapacity = 0
    /// Scratch for finding a repeated key among many members.
    private var keyTable: [UInt32] = []
    /// The models this decoder made and filled, each after the models it
    /// holds, in the order of their slots and elements: the order in which
    /// `ModelObject.forEachModelChildrenFirst` visits the new graph, so that
    /// the load's `didLoad()` calls need no walk to find them (the walk cost
    /// about 2,300 instructions a model, a sixth of typed decoding). `nil`
    /// once the decoder makes or keeps a model it cannot place in that
    /// order: one read through the `ModelValue` path, a container of models
    /// other than a model, an optional model or an array of them, a member
    /// that holds models read before one of an earlier slot, or a default
    /// model left in a slot that no member sets.
    private(set) var madeModels: [ModelObject]? = []
    /// The slots that the members of the object read last set (kept here,
    /// not in `Members`, which is copied as it is returned).
    private(set) var lastSeenSlots = SlotSet()

    /// - Parameter document: the `Data` whose bytes `bytes` are, to keep
    ///   members the class does not save as their exact text; `nil` reads
    ///   them into values.
    deinit {
        // Both element types are trivial: nothing to deinitialize.
        pendingMembers?.deallocate()
        pendingHashes?.deallocate()
    }

    init(_ bytes: UnsafeBufferPointer<UInt8>, options: JSONReadingOptions, document: Data? = nil) {
        reader = JSONReader(bytes, options: options)
        maximumDepth = options.maximumDepth
        // Text is kept only where reading it again later, alone and with the
        // default options, gives the same value: no merged repeated keys, no
        // nesting past the default limit.
        let keepsText = options.duplicateKeys == .reject && options.maximumDepth <= JSONReadingOptions().maximumDepth
        self.document = keepsText ? document : nil
        self.keepsText = keepsText && document != nil
    }

    /// Decodes the whole document as the members of `object`, without changing it.
    /// - Returns: the members, or `nil` when the object must go through the `ModelValue` path.
    mutating func decodeRoot(of object: ModelObject) throws -> Members? {
        let bytes = reader.base
        if reader.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { reader.position = 3 }
        reader.skipWhitespace()
        guard current == JSONByte.openBrace else { throw Failure() }
        let row = PendingCells.make(layout: object.layout)
        var members = Members()
        guard try decodeMembers(layout: object.layout, into: row, members: &members) else { return nil }
        members.values = row
        reader.skipWhitespace()
        guard reader.position == reader.count else { throw Failure() }
        return members
    }

    /// The byte at the cursor, or 0 at the end.
    @inline(__always)
    private var current: UInt8 {
        reader.position < reader.count ? reader.base[reader.position] : 0
    }

    /// Moves past the bracket at the cursor and whitespace, counting a container.
    @inline(__always)
    private mutating func enterContainer() throws {
        guard depth < maximumDepth else { throw Failure() }
        depth += 1
        reader.position += 1
        reader.skipWhitespace()
    }

    /// Reads a value with the `JSONReader`, counting the containers open around it.
    private mutating func readSubtree() throws -> ModelValue {
        reader.outerDepth = depth
        return try reader.readValue()
    }

    /// The value at the cursor, as `readSubtree()` reads it, with the texts
    /// of its members where the document keeps texts: models read by the
    /// `ModelValue` path (an upgrade, rules, references) keep their unknown
    /// members' spelling nested as at the root (`1.10` stays `1.10`).
    private mutating func readSubtreeKeepingTexts() throws -> ModelValue {
        let start = reader.position
        var value = try readSubtree()
        if keepsText, let document {
            let end = reader.position
            reader.position = start
            _ = reader.attachMemberTexts(to: &value, document: document, depth: depth)
            reader.position = end
        }
        return value
    }

    /// A model of `type` decoded from the value at the cursor, read whole as
    /// a `ModelValue`; that value, which past the direct depth may be
    /// thousands of levels deep, is then freed without recursion.
    private mutating func decodedFromSubtree(_ type: ModelObject.Type) throws -> ModelObject {
        madeModels = nil
        var value = try readSubtreeKeepingTexts()
        defer { value.releaseWithoutRecursion() }
        return try type.decoded(from: value)
    }

    // MARK: - Objects

    /// Decodes the object at the cursor as the members of a `layout` object,
    /// the values into `slots` and the rest into `members` (filled in
    /// place: returned, the struct was copied, retaining each of its bag's
    /// arrays, once per model).
    /// - Returns: `false` when the object must go through the `ModelValue` path.
    ///
    /// The values go typed into `slots` as they are read: a failure leaves
    /// them there, for the caller to drop (a new object, a row).
    private mutating func decodeMembers<Slots: DecodedSlots>(
        layout: ClassLayout, into slots: Slots, members: inout Members
    ) throws -> Bool {
        if let error = layout.declarationError { throw error }
        // Rules are checked on the ModelValue path only.
        guard !layout.hasRules else { return false }
        let plan = layout.jsonPlan
        let codableReaders = plan.codableSlots?.readers
        // Unknown members: kept (as text when it can), or dropped unbuilt;
        // a class that rejects them is read by the ModelValue path, which
        // reports them all.
        let ignoresUnknown = layout.unknownKeys == .ignore
        let rejectsUnknown = layout.unknownKeys == .reject
        let pendingStart = pendingCount
        defer { dropPendingMembers(from: pendingStart) }
        try enterContainer()
        if current == JSONByte.closeBrace {
            reader.position += 1
            depth -= 1
            lastSeenSlots = SlotSet()
            return true
        }
        var seenSlots = SlotSet()
        // The last slot read that may hold models (see `madeModels`).
        var lastModelSlot = -1
        var seenVersion = false
        var seenType = false
        var predicted = 0
        while true {
            guard current == JSONByte.quote else { throw Failure() }
            // The key: its entry when it names one, else its text for the bag.
            var target: Int?
            var bagKey = ""
            // A plain ASCII key kept as its bytes (with its hash) rather than a string.
            var bagKeyRange: Range<Int>?
            let keyStart = reader.position + 1
            var highBits: UInt8 = 0
            let keyEnd =
                JSONReader.shortPlainKeyEnd(reader.base, count: reader.count, at: keyStart - 1)
                ?? JSONReader.skipPlainText(reader.base, count: reader.count, from: keyStart, highBits: &highBits)
            if keyEnd < reader.count, reader.base[keyEnd] == JSONByte.quote,
                let entry = plan.entry(
                    matching: reader.base + keyStart, count: keyEnd - keyStart, predicted: predicted)
            {
                target = plan.targets[entry]
                predicted = entry + 1
                reader.position = keyEnd + 1
            } else if keyEnd < reader.count, reader.base[keyEnd] == JSONByte.quote, highBits & 0x80 == 0,
                plan.keysAreASCII
            {
                // References between models are read by the ModelValue path.
                if reader.base[keyStart] == UInt8(ascii: "$"),
                    ReferenceKeys.kind(of: UnsafeBufferPointer(start: reader.base + keyStart, count: keyEnd - keyStart))
                        != .plain
                {
                    throw Failure()
                }
                if keepsText || ignoresUnknown {
                    bagKeyRange = keyStart..<keyEnd
                } else {
                    bagKey = String(
                        decoding: UnsafeBufferPointer(start: reader.base + keyStart, count: keyEnd - keyStart),
                        as: UTF8.self)
                }
                reader.position = keyEnd + 1
            } else {
                // Escapes, text outside ASCII or a bad key: the reader's string
                // rules, and Swift's string comparison, as the existing path.
                let key = try reader.readString()
                if let offset = layout.offset(forKey: key) {
                    target = offset
                } else if key == layout.versionKey {
                    target = JSONDecodingPlan.versionTarget
                } else if key == layout.typeKey {
                    target = JSONDecodingPlan.typeTarget
                } else if KeyHash.sameBytes(key, DejalObjectForm.classNameKey) {
                    target = JSONDecodingPlan.dejalClassTarget
                } else {
                    guard !ReferenceKeys.isReserved(key) else { throw Failure() }
                    bagKey = key
                }
            }
            reader.skipWhitespace()
            guard current == JSONByte.colon else { throw Failure() }
            reader.position += 1
            reader.skipWhitespace()

            // The value.
            switch target {
            case .some(let offset) where offset >= 0:
                guard !seenSlots.contains(offset) else { return false }
                seenSlots.insert(offset)
                if layout.slotMayHoldModels[offset], madeModels != nil {
                    if offset < lastModelSlot || layout.shapes[offset] == nil || codableReaders?[offset] != nil {
                        madeModels = nil
                    }
                    lastModelSlot = offset
                }
                if let codable = codableReaders?[offset] {
                    slots.set(try readCodable(offset, codable, layout: layout), slot: offset)
                } else {
                    try readSlot(offset, plan: plan, layout: layout, into: slots)
                }
            case .some(JSONDecodingPlan.dejalClassTarget):
                // DejalObject's form: the ModelValue path resolves the class.
                return false
            case .some(JSONDecodingPlan.versionTarget):
                guard !seenVersion, case .int(let version) = try readSubtree(), version >= layout.version
                else { return false }
                seenVersion = true
                if version > layout.version { members.newerVersion = version }
            case .some:
                guard !seenType, case .string(let name) = try readSubtree(), name == layout.typeName
                else { return false }
                seenType = true
            case .none where ignoresUnknown:
                // Validated as strictly as reading it, and dropped; its key is
                // remembered only to find a repeat, which the ModelValue path reports.
                reader.outerDepth = depth
                let range = try reader.skipValue()
                guard let key = bagKeyRange else { return false }
                setAside(key: key, value: range)
            case .none:
                guard !rejectsUnknown else { throw Failure() }
                if keepsText {
                    // Validated as strictly as reading it, and kept as its text.
                    reader.outerDepth = depth
                    let range = try reader.skipValue()
                    if let key = bagKeyRange, members.bag.acceptsCompactMembers {
                        setAside(key: key, value: range)
                    } else {
                        // The members so far go first, in the compact form that this one expands.
                        movePendingMembers(from: pendingStart, into: &members.bag)
                        let document = document!
                        if let key = bagKeyRange {
                            bagKey = String(
                                decoding: UnsafeBufferPointer(start: reader.base + key.lowerBound, count: key.count),
                                as: UTF8.self)
                        }
                        let start = document.startIndex
                        let text = RawJSON(validated: document[(start + range.lowerBound)..<(start + range.upperBound)])
                        guard members.bag.appendIfAbsent(key: bagKey, text: text) else { return false }
                    }
                } else {
                    let value = try readSubtree()
                    guard members.bag.appendIfAbsent(key: bagKey, value: value) else { return false }
                }
            }

            reader.skipWhitespace()
            let next = current
            reader.position += 1
            if next == JSONByte.comma {
                reader.skipWhitespace()
            } else if next == JSONByte.closeBrace {
                depth -= 1
                // A repeated key: the ModelValue path reports it.
                if pendingCount > pendingStart {
                    guard !pendingMembersRepeatKey(from: pendingStart) else { return false }
                    if !ignoresUnknown { movePendingMembers(from: pendingStart, into: &members.bag) }
                }
                guard !members.bag.hasRepeatedKeys() else { return false }
                lastSeenSlots = seenSlots
                return true
            } else {
                throw Failure()
            }
        }
    }

    /// Sets the member of `key` and `value` (ranges in the document) aside
    /// with its key's hash, for its object's bag or only to find a repeat.
    @inline(__always)
    private mutating func setAside(key: Range<Int>, value: Range<Int>) {
        if pendingCount == pendingCapacity { growPending() }
        (pendingMembers.unsafelyUnwrapped + pendingCount).initialize(
            to: ExtensibleBag.CompactMember(key: key, value: value))
        (pendingHashes.unsafelyUnwrapped + pendingCount).initialize(
            to: JSONReader.scanHash(
                reader.base, count: reader.count, from: key.lowerBound, length: key.count, seed: reader.keySeed))
        pendingCount &+= 1
    }

    @inline(never)
    private mutating func growPending() {
        let capacity = max(64, pendingCapacity * 2)
        if let pendingMembers, let pendingHashes {
            self.pendingMembers = pendingMembers.moved(count: pendingCount, toCapacity: capacity)
            self.pendingHashes = pendingHashes.moved(count: pendingCount, toCapacity: capacity)
        } else {
            pendingMembers = .allocate(capacity: capacity)
            pendingHashes = .allocate(capacity: capacity)
        }
        pendingCapacity = capacity
    }

    /// The pending members from `start` on, and their key hashes.
    private func pending(from start: Int) -> (UnsafeBufferPointer<ExtensibleBag.CompactMember>, UnsafeBufferPointer<UInt64>) {
        (
            UnsafeBufferPointer(start: pendingMembers.map { $0 + start }, count: pendingCount - start),
            UnsafeBufferPointer(start: pendingHashes.map { $0 + start }, count: pendingCount - start)
        )
    }

    /// Hands the pending members from `start` on to `bag`, which must be
    /// empty, as its compact form.
    private mutating func movePendingMembers(from start: Int, into bag: inout ExtensibleBag) {
        guard pendingCount > start, let document else { return }
        bag.setCompact(document, members: Array(pending(from: start).0))
        dropPendingMembers(from: start)
    }

    /// Forgets the pending members from `start` on.
    @inline(__always)
    private mutating func dropPendingMembers(from start: Int) {
        if pendingCount > start { pendingCount = start }
    }

    /// Whether two of the pending members from `start` on have the same key.
    private mutating func pendingMembersRepeatKey(from start: Int) -> Bool {
        var table: [UInt32] = []
        swap(&table, &keyTable)
        defer { swap(&table, &keyTable) }
        let (members, hashes) = pending(from: start)
        return ExtensibleBag.repeatsKey(members, hashes: hashes, in: reader.base, table: &table)
    }

    /// Reads a model of `type` at the cursor, member by member, or through the
    /// `ModelValue` path when it needs what only that path does.
    private mutating func decodeModel(_ type: ModelObject.Type, into existing: ModelObject? = nil) throws -> ModelObject {
        guard depth < Self.directDepth else { return try decodedFromSubtree(type) }
        let start = reader.position
        let startDepth = depth
        // A new object, or a pristine default one (see `UnsharedCells.pristineModel`).
        let object = existing ?? type.init()
        // Nothing else holds the new object yet: its values go straight into
        // its cells, and a failure drops it for one made by the ModelValue path.
        let cells = object.unsharedCells
        var members = Members()
        let decoded =
            depth < 2 * StackGuard.uncheckedLevels
            ? try decodeMembers(layout: object.layout, into: cells, members: &members)
            : try StackGuard.continuingOnLargeStack {
                try decodeMembers(layout: object.layout, into: cells, members: &members)
            }
        if decoded {
            // The closure captures the parts it needs, not the members (a
            // copy of them retained and released the bag's storage), and an
            // empty bag is not copied into the state: it only clears a bag
            // that the object's defaults filled.
            if madeModels != nil {
                if object.holdsModels(outside: lastSeenSlots, inCells: cells.cells) {
                    madeModels = nil
                } else {
                    madeModels?.append(object)
                }
            }
            let newer = members.newerVersion
            // Unshared (see above): its state is set without the lock.
            if members.bag.isEmpty {
                object.withUnsharedState { state in
                    if !state.bagIsEmpty { state.bag = ExtensibleBag() }
                    if let newer { state.loadedNewerVersion = newer }
                }
            } else {
                let bag = members.bag
                object.withUnsharedState { state in
                    state.bag = bag
                    if let newer { state.loadedNewerVersion = newer }
                }
            }
            return object
        }
        reader.position = start
        depth = startDepth
        return try decodedFromSubtree(type)
    }

    /// The models of `type` that the elements of `array` decode to.
    private static func models(of type: ModelObject.Type, in array: ModelValue) throws -> [ModelObject] {
        guard case .array(let elements) = array else { throw Failure() }
        return try elements.map { try type.decoded(from: $0) }
    }

    /// Reads an array of models of `type` at the cursor.
    private mutating func decodeModels(_ type: ModelObject.Type) throws -> [ModelObject] {
        guard depth < Self.directDepth else {
            madeModels = nil
            var value = try readSubtreeKeepingTexts()
            defer { value.releaseWithoutRecursion() }
            return try Self.models(of: type, in: value)
        }
        try enterContainer()
        var models: [ModelObject] = []
        if current == JSONByte.closeBracket {
            reader.position += 1
            depth -= 1
            return models
        }
        while true {
            if current == JSONByte.openBrace {
                models.append(try decodeModel(type))
            } else {
                models.append(try decodedFromSubtree(type))
            }
            reader.skipWhitespace()
            let next = current
            reader.position += 1
            if next == JSONByte.comma {
                reader.skipWhitespace()
            } else if next == JSONByte.closeBracket {
                depth -= 1
                return models
            } else {
                throw Failure()
            }
        }
    }

    // MARK: - Slots

    /// Reads the value of the slot at `offset` and puts it in `slots`, typed
    /// as the slot's type (common scalars with no box, as the slot holds them).
    private mutating func readSlot<Slots: DecodedSlots>(
        _ offset: Int, plan: JSONDecodingPlan, layout: ClassLayout, into slots: Slots
    ) throws {
        let byte = current
        // The plain code first: only a slot of models copies its kind (and
        // with it the kind's closures).
        let code = plan.compactMembers[offset].code
        switch code {
        case .string where byte == JSONByte.quote:
            return slots.put(try reader.readString(), slot: offset)
        case .optionalString where byte == JSONByte.quote:
            return slots.put(String?.some(try reader.readString()), slot: offset)
        case .other, .model:
            switch plan.kinds[offset] {
            case .model(let type) where byte == JSONByte.openBrace:
                // The default model a new object's `init()` made is filled
                // in place when that gives the same result as a new one.
                if let existing = slots.pristineModel(slot: offset, of: type) {
                    let model = try decodeModel(type, into: existing)
                    if model !== existing { slots.put(model, slot: offset) }
                    return
                }
                // A model of exactly the slot's class (`decodeModel` makes
                // one with `type.init()`), put as the reference it is: the
                // cell's type is that class, so no cast through `Any`.
                return slots.put(try decodeModel(type), slot: offset)
            case .optionalModel(let type, let wrap, _) where byte == JSONByte.openBrace:
                return slots.set(wrap(try decodeModel(type)), slot: offset)
            case .modelArray(let type, let wrap, _) where byte == JSONByte.openBracket:
                let models = try decodeModels(type)
                if let shape = layout.shapes[offset] { return slots.put(models, shape: shape, slot: offset) }
                return slots.set(wrap(models), slot: offset)
            default:
                break
            }
        default:
            break
        }
        let isNumber = byte == JSONByte.minus || byte &- JSONByte.zero < 10
        if isNumber, code == .int || code == .optionalInt, let number = reader.readSmallInteger() {
            if code == .int { return slots.put(number, slot: offset) }
            return slots.put(Int?.some(number), slot: offset)
        }
        let value = isNumber ? try reader.readNumber() : try readSubtree()
        switch (code, value) {
        case (.int, .int(let number)): slots.put(number, slot: offset)
        case (.optionalInt, .int(let number)): slots.put(Int?.some(number), slot: offset)
        case (.double, .double(let number)): slots.put(number, slot: offset)
        case (.optionalDouble, .double(let number)): slots.put(Double?.some(number), slot: offset)
        case (.bool, .bool(let flag)): slots.put(flag, slot: offset)
        case (.optionalBool, .bool(let flag)): slots.put(Bool?.some(flag), slot: offset)
        case (.optionalInt, .null): slots.put(Int?.none, slot: offset)
        case (.optionalDouble, .null): slots.put(Double?.none, slot: offset)
        case (.optionalBool, .null): slots.put(Bool?.none, slot: offset)
        case (.optionalString, .null): slots.put(String?.none, slot: offset)
        default:
            if case .null = value {
            } else if layout.slotMayHoldModels[offset] {
                madeModels = nil
            }
            slots.set(try convert(value, offset: offset, layout: layout), slot: offset)
        }
    }

    /// Reads the value of the slot at `offset`, whose type converts through
    /// the `Codable` default, with its own `init(from:)` over a tape of the
    /// value, read as `ModelValueDecoder` would read the `ModelValue` (see
    /// `JSONDecodingState+ModelValueSemantics.swift`). The value is first
    /// validated as a read would validate it, so the document is accepted or
    /// refused as before; a value that reading this way leaves to the
    /// `ModelValue` path is read again as before.
    private mutating func readCodable(_ offset: Int, _ codable: CodableSlotReader, layout: ClassLayout) throws -> Any {
        let options = reader.options
        // Merged repeated keys are the ModelValue path's alone.
        guard options.duplicateKeys == .reject else { return try convert(readSubtree(), offset: offset, layout: layout) }
        reader.outerDepth = depth
        let range = try reader.skipValue()
        let tape = codableTape ?? JSONTape(capacity: 64)
        codableTape = tape
        if reader.buildTape(tape, value: range, depthLimit: options.maximumDepth) {
            // The null that a missing "super" member decodes from.
            tape.write { $0.append(JSONTape.Entry(start: 0, end: 0, count: 0, kind: .null, flags: 0)) }
            var state = JSONDecodingState(
                bytes: reader.bytes, tape: tape, options: Self.codableOptions, reading: options,
                readsLikeModelValues: true)
            defer { JSONDecodingState.close(&state) }
            let slot = layout.slots[offset]
            do {
                let value = try CodingContext.with(classStrategy: slot.dateStrategy ?? layout.dateStrategy) { _ in
                    try codable.read(state)
                }
                codableValuesRead += 1
                return value
            } catch is JSONDecodingState.ReadDocumentThroughModelValue {
                throw Failure()
            } catch {
                // Read again below, as before.
            }
        }
        let end = reader.position
        reader.position = range.lowerBound
        let value = try readSubtree()
        assert(reader.position == end)
        return try convert(value, offset: offset, layout: layout)
    }

    /// The options of `ModelJSONDecoder` that `ModelValueDecoder` matches: its defaults.
    private static let codableOptions = ModelJSONDecoder()

    /// Converts `value` with the slot's codec under the slot's date strategy,
    /// as ``ModelObject/decodePending(_:)`` does.
    private func convert(_ value: ModelValue, offset: Int, layout: ClassLayout) throws -> Any {
        let slot = layout.slots[offset]
        return try CodingContext.with(classStrategy: slot.dateStrategy ?? layout.dateStrategy) { _ in
            try slot.codec.decode(value)
        }
    }
}
