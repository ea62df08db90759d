import Foundation

/// One streaming run of ``ModelJSONEncoder``: containers write straight into
/// one ``JSONWriter`` as `encode(to:)` calls them, in the order it calls them.
///
/// **Frames.** Every open container, and every value slot still waiting for
/// its value (a member or element whose `encode(to:)` is running, the slot
/// of a `superEncoder()`), is a frame on a stack. A container or encoder
/// names its frame by index and serial (serials are never reused), and may
/// write only while its frame is the top one. Using a container whose frame
/// is lower first closes the frames above it (a nested container the code
/// has left), as the tree would show them.
///
/// **Records.** Each value whose `encode(to:)` this encoder calls (the
/// root, members, elements) is a record on a chain; frames belong to the
/// record whose code opened them. Whatever the stream cannot write in order
/// (a container used after its frame closed, a container of an outer value
/// used from inside an inner one, a second container of another kind, a
/// second single value, a key written twice, keys outside ASCII that could
/// be canonically equal) marks the nearest record still running that owns
/// it as failed: the stream ignores everything until that record's
/// `encode(to:)` returns, then drops its bytes and encodes the value again
/// through the ``EncodedJSON`` tree, which defines the output; a container
/// of a finished record fails the root. So a value whose encoding uses
/// containers out of order has its `encode(to:)` called twice.
///
/// **Errors.** A value that throws is rolled back (its key too), as the tree
/// leaves it out; nesting past the limit is remembered and reported at the
/// end, after any error encoding throws, as the tree reports it when writing.
///
/// The bookkeeping and the writer live in memory the state owns, reached
/// through pointers, so that the many small updates need no exclusivity
/// checks. Not `Sendable`: it lives for one `encode` call, on its thread.
final class JSONStreamState {
    let options: JSONEncodingState
    let writerPointer: UnsafeMutablePointer<JSONWriter>
    let core: UnsafeMutablePointer<StreamCore>
    let convertsKeys: Bool
    /// Whether cached containers of small key types remember their keys' texts: for compact output.
    let usesKeyTexts: Bool

    /// One open container or value slot.
    struct Frame {
        var kind: Kind
        /// Whether the object has a key outside ASCII (see `noteKey`).
        var hasNonASCIIKey = false
        var serial: UInt32
        /// The chain level of the record that opened it.
        var record: Int32
        /// Containers around it (for indentation and the nesting limit).
        var depth: Int32
        /// Members or elements written.
        var members: Int32 = 0
        /// For an object: where its members' key offsets start in `keyOffsets`.
        var keyBase: Int32 = 0
        /// One bit per key written (by a hash of its text): only a key whose bit is set can be a repeat.
        var seenKeys: UInt64 = 0
        /// Where the value starts in the buffer.
        var start: Int

        enum Kind: UInt8 { case pending, object, array, scalar }
    }

    /// The serial of no frame, for a container or encoder handed out while the stream is failed.
    static let deadSerial = UInt32.max

    struct Record {
        var serial: UInt32
        var frame: Int32
    }

    /// The mutable bookkeeping, in one place.
    struct StreamCore {
        var frames: UnsafeMutablePointer<Frame>
        var frameCapacity: Int
        var frameCount = 0
        var records: UnsafeMutablePointer<Record>
        var recordCapacity: Int
        var recordCount = 0
        /// Buffer offsets of the keys of open objects' members.
        var keyOffsets: UnsafeMutablePointer<Int>
        var keyCapacity: Int
        var keyCount = 0
        /// The serial of the top frame while the stream is live; 0 while a record has failed or one is encoded again.
        var topSerial: UInt32 = 0
        var nextSerial: UInt32 = 1
        /// The chain level of the outermost failed record; `Int.max` when none has.
        var failedLevel = Int.max
        /// Records being encoded again through the tree.
        var redoing = 0
        /// Whether a container is past the nesting limit, reported at the end.
        var isTooDeep = false
        /// For each record level, the encoder its last record used, kept for
        /// the next when nobody else held it (see ``recycle(level:)``); `nil` for none.
        /// Made for the first record below the root, with `recordCapacity` slots.
        var levelEncoders: UnsafeMutablePointer<JSONStreamEncoder?>?
        /// The levels below which `levelEncoders` may hold an encoder.
        var levelEncoderCount = 0
        /// Keyed containers handed out by encoders, for reuse (see ``keyedContainer(_:for:)``);
        /// in memory of its own, so that the uniqueness of each box is checked in place.
        var keyedContainers: UnsafeMutablePointer<CachedKeyedContainer>
        var keyedContainerCount = 0
        /// Types met, by `ObjectIdentifier`, with whether each is an array (see ``isArray(_:)``).
        var types: [(type: ObjectIdentifier, isArray: Bool)] = Array(repeating: (ObjectIdentifier(Never.self), false), count: 16)
    }

    init(_ options: JSONEncodingState, writer: JSONWriter) {
        self.options = options
        convertsKeys = !options.usesDefaultKeys
        usesKeyTexts = !writer.options.prettyPrinted
        writerPointer = .allocate(capacity: 1)
        writerPointer.initialize(to: writer)
        core = .allocate(capacity: 1)
        core.initialize(
            to: StreamCore(
                frames: .allocate(capacity: 64), frameCapacity: 64, records: .allocate(capacity: 32),
                recordCapacity: 32, keyOffsets: .allocate(capacity: 256), keyCapacity: 256,
                keyedContainers: .allocate(capacity: JSONStreamState.keyedContainerCapacity)))
    }

    deinit {
        writerPointer.pointee.deallocate()
        writerPointer.deinitialize(count: 1)
        writerPointer.deallocate()
        keyTable?.deinitialize(count: JSONStreamState.keyTableSize)
        keyTable?.deallocate()
        snakeKeyTable?.deinitialize(count: JSONStreamState.keyTableSize)
        snakeKeyTable?.deallocate()
        core.pointee.frames.deallocate()
        core.pointee.records.deallocate()
        releaseEncoders()
        core.pointee.levelEncoders?.deallocate()
        core.pointee.keyOffsets.deallocate()
        releaseKeyedContainers()
        core.pointee.keyedContainers.deallocate()
        core.deinitialize(count: 1)
        core.deallocate()
    }

    /// Key texts (see `JSONStreamState+Keys.swift`).
    var keyTable: UnsafeMutablePointer<KeyEntry>?
    var snakeKeyTable: UnsafeMutablePointer<KeyEntry>?
    var uncachedKeys = 0

    // MARK: - Frames

    @inline(__always)
    var top: UnsafeMutablePointer<Frame> { core.pointee.frames + (core.pointee.frameCount &- 1) }

    @inline(__always)
    func frame(_ index: Int32) -> UnsafeMutablePointer<Frame> { core.pointee.frames + Int(index) }

    /// Pushes a frame of `kind` for a value at `depth`, belonging to the running record.
    @inline(__always)
    func push(_ kind: Frame.Kind, depth: Int32) -> (index: Int32, serial: UInt32) {
        if core.pointee.frameCount == core.pointee.frameCapacity { growFrames() }
        let serial = core.pointee.nextSerial
        core.pointee.nextSerial &+= 1
        let index = core.pointee.frameCount
        (core.pointee.frames + index).initialize(
            to: Frame(
                kind: kind, serial: serial, record: Int32(truncatingIfNeeded: core.pointee.recordCount &- 1),
                depth: depth, start: writerPointer.pointee.count))
        core.pointee.frameCount = index &+ 1
        if core.pointee.topSerial != 0 { core.pointee.topSerial = serial }
        return (Int32(truncatingIfNeeded: index), serial)
    }

    @inline(never)
    private func growFrames() {
        let capacity = core.pointee.frameCapacity * 2
        core.pointee.frames = core.pointee.frames.moved(count: core.pointee.frameCount, toCapacity: capacity)
        core.pointee.frameCapacity = capacity
    }

    /// Sets `topSerial` after the frames or the failure state changed.
    @inline(__always)
    func refreshTop() {
        let live = core.pointee.failedLevel == Int.max && core.pointee.redoing == 0 && core.pointee.frameCount > 0
        core.pointee.topSerial = live ? top.pointee.serial : 0
    }

    /// Opens an object or array in the top frame, a pending slot.
    @inline(__always)
    func open(_ kind: Frame.Kind) {
        let frame = top
        frame.pointee.kind = kind
        frame.pointee.keyBase = Int32(truncatingIfNeeded: core.pointee.keyCount)
        if frame.pointee.depth >= Int32(JSONWriter.maximumDepth) { core.pointee.isTooDeep = true }
        writerPointer.pointee.append(kind == .object ? JSONByte.openBrace : JSONByte.openBracket)
    }

    /// Closes the top frame, writing what ends it.
    @inline(__always)
    func closeTop() {
        let frame = top
        switch frame.pointee.kind {
        case .pending:
            writerPointer.pointee.writeEmptyContainer(JSONByte.openBrace, JSONByte.closeBrace, depth: Int(frame.pointee.depth))
        case .object:
            closeContainer(frame, JSONByte.closeBrace)
            core.pointee.keyCount = Int(frame.pointee.keyBase)
        case .array:
            closeContainer(frame, JSONByte.closeBracket)
        case .scalar:
            break
        }
        core.pointee.frameCount &-= 1
    }

    /// Ends the container of `frame` with `close`: on a line of its own,
    /// pretty, after an empty line when it has no member (`{\n\n}`, as JSONEncoder writes it).
    @inline(__always)
    private func closeContainer(_ frame: UnsafeMutablePointer<Frame>, _ close: UInt8) {
        if frame.pointee.members > 0 {
            writerPointer.pointee.startLine(depth: Int(frame.pointee.depth))
        } else if writerPointer.pointee.options.prettyPrinted {
            writerPointer.pointee.append(JSONByte.lineFeed)
            writerPointer.pointee.startLine(depth: Int(frame.pointee.depth))
        }
        writerPointer.pointee.append(close)
    }

    /// Starts the next member or element of the top frame, a container: the comma and the line.
    @inline(__always)
    func startMember() {
        let frame = top
        if frame.pointee.members > 0 { writerPointer.pointee.append(JSONByte.comma) }
        frame.pointee.members &+= 1
        writerPointer.pointee.startLine(depth: Int(frame.pointee.depth) &+ 1)
    }

    // MARK: - Ownership checks

    /// Whether a container or encoder of frame `index`/`serial`, opened by
    /// the record `record`/`recordSerial`, may write now; closes the frames
    /// its code has left. When it may not, marks the record to encode
    /// again through the tree and returns `false`: the caller then does nothing.
    @inline(never)
    func claim(_ index: Int32, _ serial: UInt32, record: Int32, recordSerial: UInt32) -> Bool {
        let level = Int(record)
        let isRunning = level < core.pointee.recordCount && core.pointee.records[level].serial == recordSerial
        guard core.pointee.failedLevel == Int.max, core.pointee.redoing == 0,
            isRunning, level == core.pointee.recordCount &- 1,
            Int(index) < core.pointee.frameCount, frame(index).pointee.serial == serial
        else {
            fail(level: isRunning ? level : 0)
            return false
        }
        while core.pointee.frameCount > Int(index) &+ 1 { closeTop() }
        refreshTop()
        return true
    }

    /// Marks the record at chain `level` (and so everything inside it) to be encoded again through the tree.
    func fail(level: Int) {
        if level < core.pointee.failedLevel { core.pointee.failedLevel = level }
        core.pointee.topSerial = 0
    }

    /// Marks the running record to be encoded again through the tree.
    func failRunning() { fail(level: core.pointee.recordCount &- 1) }

    // MARK: - Values

    /// What a member or element restores when its value throws.
    struct Mark {
        let count: Int
        let frame: Frame
        let keyCount: Int
        let frameCount: Int
        let isTooDeep: Bool
    }

    @inline(__always)
    func mark() -> Mark {
        Mark(
            count: writerPointer.pointee.count, frame: top.pointee, keyCount: core.pointee.keyCount,
            frameCount: core.pointee.frameCount, isTooDeep: core.pointee.isTooDeep)
    }

    /// Takes back a member or element whose value threw, as the tree leaves it out.
    func rollBack(to mark: Mark) {
        guard core.pointee.frameCount >= mark.frameCount,
            frame(Int32(mark.frameCount - 1)).pointee.serial == mark.frame.serial
        else { return }
        writerPointer.pointee.count = mark.count
        core.pointee.frameCount = mark.frameCount
        top.pointee = mark.frame
        core.pointee.keyCount = mark.keyCount
        core.pointee.isTooDeep = mark.isTooDeep
        refreshTop()
    }

    /// Writes `value`, whose slot is open at `depth` (after its key, or in a
    /// single-value frame), its coding path `parent` and `key` or `index`.
    @inline(__always)
    func encodeValue<Value: Encodable>(
        _ value: Value, depth: Int32, parent: StreamPathNode?, key: BorrowedKey?, index: Int
    ) throws {
        switch ObjectIdentifier(Value.self) {
        case ObjectIdentifier(String.self): writerPointer.pointee.writeString(unsafeBitCast(value, to: String.self))
        case ObjectIdentifier(Int.self): writerPointer.pointee.writeInteger(unsafeBitCast(value, to: Int.self))
        case ObjectIdentifier(Bool.self): writerPointer.pointee.writeBool(unsafeBitCast(value, to: Bool.self))
        default: try encodeOther(value, depth: depth, parent: parent, key: key, index: index)
        }
    }

    /// ``encodeValue(_:depth:parent:key:index:)`` for all but the commonest scalars.
    func encodeOther<Value: Encodable>(
        _ value: Value, depth: Int32, parent: StreamPathNode?, key: BorrowedKey?, index: Int
    ) throws {
        switch ObjectIdentifier(Value.self) {
        case ObjectIdentifier(Double.self):
            try writeDouble(unsafeBitCast(value, to: Double.self)) { StreamPathNode.keys(parent, key, index) }
            return
        case ObjectIdentifier(Float.self):
            try writeFloat(unsafeBitCast(value, to: Float.self)) { StreamPathNode.keys(parent, key, index) }
            return
        case ObjectIdentifier(URL.self):
            writerPointer.pointee.writeString(unsafeBitCast(value, to: URL.self).absoluteString)
            return
        case ObjectIdentifier([Int].self):
            let numbers = unsafeBitCast(value, to: [Int].self)
            writeArray(count: numbers.count, depth: depth) { writerPointer.pointee.writeInteger(numbers[$0]) }
            return
        case ObjectIdentifier([String].self):
            let strings = unsafeBitCast(value, to: [String].self)
            writeArray(count: strings.count, depth: depth) { writerPointer.pointee.writeString(strings[$0]) }
            return
        case ObjectIdentifier([Double].self):
            let numbers = unsafeBitCast(value, to: [Double].self)
            if numbers.allSatisfy(\.isFinite) {
                writeArray(count: numbers.count, depth: depth) { writerPointer.pointee.writeFiniteDouble(numbers[$0]) }
                return
            }
        case ObjectIdentifier(Date.self), ObjectIdentifier(Data.self), ObjectIdentifier(Decimal.self):
            // Their strategies, through the tree.
            let path = StreamPathNode.codingPathNode(parent)
            let tree = try options.box(value, parent: path, key: key?.key ?? (index >= 0 ? JSONIndexKey(index) : nil))
            writeTree(tree ?? .object(EncodedObject()), depth: depth)
            return
        default:
            break
        }
        try encodeRecord(value, depth: depth, parent: parent, key: key, index: index)
    }

    /// Writes an array of `count` scalars, each by `element`.
    @inline(__always)
    private func writeArray(count: Int, depth: Int32, element: (Int) -> Void) {
        if depth >= Int32(JSONWriter.maximumDepth) { core.pointee.isTooDeep = true }
        if count == 0 {
            writerPointer.pointee.writeEmptyContainer(JSONByte.openBracket, JSONByte.closeBracket, depth: Int(depth))
            return
        }
        writerPointer.pointee.append(JSONByte.openBracket)
        for position in 0..<count {
            if position > 0 { writerPointer.pointee.append(JSONByte.comma) }
            writerPointer.pointee.startLine(depth: Int(depth) &+ 1)
            element(position)
        }
        writerPointer.pointee.startLine(depth: Int(depth))
        writerPointer.pointee.append(JSONByte.closeBracket)
    }

    /// Writes a tree made for a value whose slot is at `depth`.
    func writeTree(_ tree: EncodedJSON, depth: Int32) {
        do {
            try tree.write(into: &writerPointer.pointee, depth: Int(depth))
        } catch {
            // Only nesting fails.
            core.pointee.isTooDeep = true
        }
    }

    /// Writes `value` by its own `encode(to:)`, as a new record.
    func encodeRecord<Value: Encodable>(
        _ value: Value, depth: Int32, parent: StreamPathNode?, key: BorrowedKey?, index: Int
    ) throws {
        let keepsKeys = convertsKeys && value is any StringKeyedDictionaryMarker
        let level = core.pointee.recordCount
        if level == core.pointee.recordCapacity { growRecords() }
        let frame = push(.pending, depth: depth)
        core.pointee.records[level] = Record(serial: frame.serial, frame: frame.index)
        core.pointee.recordCount = level &+ 1
        // The frame was pushed under the outer record: it is this one's.
        self.frame(frame.index).pointee.record = Int32(truncatingIfNeeded: level)
        // The encoder of this level's last record, when nothing kept it; taken
        // out of its slot while the record runs, so that the uniqueness checks see only the code's references.
        // The encoder of this level's last record, when nothing kept it. It
        // stays in its slot, which holds the one reference the stream needs,
        // so that the uniqueness check at the end sees only the code's others.
        let slot = (core.pointee.levelEncoders ?? makeLevelEncoders()) + level
        if slot.pointee == nil { slot.pointee = makeLevelEncoder(level: level) }
        unowned(unsafe) let encoder = slot.pointee.unsafelyUnwrapped
        let step = encoder.step
        step.pointee.parent = parent
        step.pointee.borrowedKey = key
        step.pointee.index = index
        step.pointee.keepsKeys = keepsKeys
        step.pointee.frameIndex = frame.index
        step.pointee.frameSerial = frame.serial
        step.pointee.record = Int32(truncatingIfNeeded: level)
        step.pointee.recordSerial = frame.serial
        do {
            if isArray(Value.self), let array = value as? any JSONStreamArray {
                try array.encodeElements(with: encoder)
            } else {
                try value.encode(to: encoder)
            }
        } catch {
            core.pointee.recordCount = level
            guard core.pointee.failedLevel <= level else {
                recycle(level: level)
                throw error
            }
            let key = encoder.ownKey
            recycle(level: level)
            // A failed record's outcome is the tree's, error or not.
            if try finishFailed(value, frame: frame.index, level: level, depth: depth, parent: parent, key: key, index: index)
            {
                return
            }
            throw error
        }
        core.pointee.recordCount = level
        if core.pointee.failedLevel <= level {
            let key = encoder.ownKey
            recycle(level: level)
            try finishFailed(value, frame: frame.index, level: level, depth: depth, parent: parent, key: key, index: index)
            return
        }
        recycle(level: level)
        while core.pointee.frameCount > Int(frame.index) { closeTop() }
        refreshTop()
    }

    /// Keeps the encoder of `level`, whose record has ended, for the level's
    /// next record when nothing else holds it. What the code still holds
    /// (the encoder, or the cached container it handed out) may be asked
    /// for its coding path later, so it keeps its path from then on, and the
    /// encoder leaves the slot.
    @inline(__always)
    private func recycle(level: Int) {
        // Found again: deeper records may have moved the slots (`growRecords`).
        let slot = core.pointee.levelEncoders.unsafelyUnwrapped + level
        unowned(unsafe) let encoder = slot.pointee.unsafelyUnwrapped
        let cached = encoder.step.pointee.cachedContainer
        if cached >= 0 {
            encoder.step.pointee.cachedContainer = -1
            if !isKnownUniquelyReferenced(&core.pointee.keyedContainers[cached].box) {
                core.pointee.keyedContainers[cached].info.pointee.keeper = encoder
            }
        }
        if isKnownUniquelyReferenced(&slot.pointee) { return }
        // Kept by the code: box its key while its address is good, and keep its parent.
        let kept = slot.pointee.unsafelyUnwrapped
        if let key = kept.step.pointee.borrowedKey {
            kept.step.pointee.key = key.key
            kept.step.pointee.borrowedKey = nil
        }
        kept.step.pointee.parentKeeper = kept.step.pointee.parent
        slot.pointee = nil
    }

    @inline(never)
    private func makeLevelEncoder(level: Int) -> JSONStreamEncoder {
        let encoder = JSONStreamEncoder(state: self, parent: nil, key: nil, index: -1, keepsKeys: false)
        encoder.step.pointee.isLevelEncoder = true
        if level >= core.pointee.levelEncoderCount { core.pointee.levelEncoderCount = level &+ 1 }
        return encoder
    }

    /// Lets the encoders kept for reuse go (they hold the state).
    func releaseEncoders() {
        guard let encoders = core.pointee.levelEncoders else { return }
        var level = 0
        while level < core.pointee.levelEncoderCount {
            encoders[level] = nil
            level &+= 1
        }
        core.pointee.levelEncoderCount = 0
    }

    @inline(never)
    private func makeLevelEncoders() -> UnsafeMutablePointer<JSONStreamEncoder?> {
        let encoders = JSONStreamState.makeLevelEncoders(capacity: core.pointee.recordCapacity)
        core.pointee.levelEncoders = encoders
        return encoders
    }

    static func makeLevelEncoders(capacity: Int) -> UnsafeMutablePointer<JSONStreamEncoder?> {
        let encoders = UnsafeMutablePointer<JSONStreamEncoder?>.allocate(capacity: capacity)
        encoders.initialize(repeating: nil, count: capacity)
        return encoders
    }

    /// A `KeyedEncodingContainer` kept for reuse: its box (the standard
    /// library's class, which wraps a ``JSONStreamKeyedContainer``) and the
    /// cell it writes through.
    ///
    /// The box is held as a ``NativeObjectReference``: its class cannot be
    /// named, and `isKnownUniquelyReferenced` of an `AnyObject` answers
    /// `false` on Linux even for a unique object. Retaining, releasing and
    /// the uniqueness check read only the object's header, the same for
    /// every native Swift object.
    struct CachedKeyedContainer {
        var type: ObjectIdentifier
        var box: NativeObjectReference
        var cell: KeyedContainerCell
        /// `cell.info`.
        var info: UnsafeMutablePointer<KeyedContainerCell.Info>
        /// Gives `box` as the `KeyedEncodingContainer` it is: a
        /// ``TypedKeyedContainerLoader`` of the entry's container type.
        /// Made when the entry is first handed out again (a value encoded
        /// once per run does not pay for it), with the cell's key texts.
        var loader: KeyedContainerLoader?
    }

    /// The base of ``TypedKeyedContainerLoader``, under which cache entries of any key type hold theirs.
    class KeyedContainerLoader {}

    /// Turns the box of a cache entry back into the `KeyedEncodingContainer`
    /// it is, a `Container`, with no look-up of that type's metadata (see
    /// ``keyedContainer(_:for:)``): a method of a class generic over the
    /// container type takes that type's metadata from the object.
    final class TypedKeyedContainerLoader<Container>: KeyedContainerLoader {
        @inline(never)
        func container(in entry: UnsafeMutablePointer<CachedKeyedContainer>) -> Container {
            unsafeBitCast(entry.pointee.box, to: Container.self)
        }
    }

    /// The static type under which a box of unnameable class is held; never made.
    final class NativeObjectReference {
        private init() {}
    }

    /// The keyed container of `encoder`'s frame. Making a
    /// `KeyedEncodingContainer` looks up the metadata of two generic types
    /// and allocates a box; a box of the same key type that nothing holds
    /// any more (the object it wrote is finished) is handed out again
    /// instead, pointed at the new frame.
    ///
    /// Handing a cached box out needs no metadata either: even copying a
    /// `KeyedEncodingContainer<Key>` here, where `Key` is not known, would
    /// look its metadata up in the runtime's tables (about 500 instructions,
    /// as much as the rest of an object's bookkeeping). The entry's `load`
    /// function, made for this `Key` with that metadata captured, returns
    /// the box straight into this function's result.
    func keyedContainer<Key: CodingKey>(_: Key.Type, for encoder: JSONStreamEncoder) -> KeyedEncodingContainer<Key> {
        let step = encoder.step
        let cache = core.pointee.keyedContainers
        let count = core.pointee.keyedContainerCount
        // The encoder of a record keeps the path of its one cached container at
        // its end if need be (see `recycle`); any other container keeps it from the start.
        let keepsPath = !step.pointee.isLevelEncoder || step.pointee.cachedContainer >= 0
        if step.pointee.isLevelEncoder, step.pointee.cachedContainer >= 0 {
            // A second container of the record: the first may be held.
            cache[step.pointee.cachedContainer].info.pointee.keeper = encoder
        }
        let converts = convertsKeys && !step.pointee.keepsKeys
        let type = ObjectIdentifier(Key.self)
        var index = 0
        while index < count {
            let entry = cache + index
            if entry.pointee.type == type, isKnownUniquelyReferenced(&entry.pointee.box) {
                // Field by field: no copy of the whole, which would retain and release.
                let info = entry.pointee.info
                info.pointee.path = encoder
                if keepsPath {
                    info.pointee.keeper = encoder
                } else if info.pointee.keeper != nil {
                    info.pointee.keeper = nil
                }
                info.pointee.frameIndex = step.pointee.frameIndex
                info.pointee.frameSerial = step.pointee.frameSerial
                info.pointee.record = step.pointee.record
                info.pointee.recordSerial = step.pointee.recordSerial
                info.pointee.convertsKeys = converts
                info.pointee.keyTexts = converts ? nil : info.pointee.ownKeyTexts
                step.pointee.cachedContainer = index
                // The entry was made for `Key`; only the reference is cast, with no check in release builds.
                guard let loader = entry.pointee.loader else { return firstReuse(of: entry, Key.self) }
                return unsafeDowncast(loader, to: TypedKeyedContainerLoader<KeyedEncodingContainer<Key>>.self)
                    .container(in: entry)
            }
            index &+= 1
        }
        let info = KeyedContainerCell.Info(
            path: encoder, keeper: encoder, frameIndex: step.pointee.frameIndex,
            frameSerial: step.pointee.frameSerial, record: step.pointee.record,
            recordSerial: step.pointee.recordSerial, convertsKeys: converts)
        let cell = KeyedContainerCell(info)
        let container = KeyedEncodingContainer(JSONStreamKeyedContainer<Key>(state: self, cell: cell))
        if count < JSONStreamState.keyedContainerCapacity,
            MemoryLayout<KeyedEncodingContainer<Key>>.size == MemoryLayout<NativeObjectReference>.size
        {
            (cache + count).initialize(
                to: CachedKeyedContainer(
                    type: type, box: unsafeBitCast(container, to: NativeObjectReference.self), cell: cell,
                    info: cell.info, loader: nil))
            core.pointee.keyedContainerCount = count &+ 1
            step.pointee.cachedContainer = count
            cell.info.pointee.keeper = keepsPath ? encoder : nil
        }
        return container
    }

    /// The container of `entry`, handed out again for the first time: makes
    /// its loader and, for a key type of at most one byte in compact output, its key texts.
    @inline(never)
    private func firstReuse<Key: CodingKey>(of entry: UnsafeMutablePointer<CachedKeyedContainer>, _: Key.Type)
        -> KeyedEncodingContainer<Key>
    {
        let loader = TypedKeyedContainerLoader<KeyedEncodingContainer<Key>>()
        entry.pointee.loader = loader
        if usesKeyTexts, MemoryLayout<Key>.size <= 1 {
            entry.pointee.cell.makeKeyTexts()
            if !entry.pointee.info.pointee.convertsKeys {
                entry.pointee.info.pointee.keyTexts = entry.pointee.info.pointee.ownKeyTexts
            }
        }
        return loader.container(in: entry)
    }

    static let keyedContainerCapacity = 32

    /// Lets the cached containers go (they hold the state).
    func releaseKeyedContainers() {
        // One by one: `deinitialize(count:)` of many goes through the type's value witnesses.
        let entries = core.pointee.keyedContainers
        var index = 0
        while index < core.pointee.keyedContainerCount {
            (entries + index).deinitialize(count: 1)
            index &+= 1
        }
        core.pointee.keyedContainerCount = 0
    }

    /// The end of a record that failed or is inside one that failed. When
    /// it is the failed one, encodes `value` again through the tree, in
    /// place of whatever it wrote, and returns `true`; otherwise drops its
    /// frames if a record around it failed and returns `false` (the caller
    /// throws what the record threw, if anything).
    @inline(never)
    @discardableResult
    private func finishFailed<Value: Encodable>(
        _ value: Value, frame: Int32, level: Int, depth: Int32, parent: StreamPathNode?, key: (any CodingKey)?,
        index: Int
    ) throws -> Bool {
        guard core.pointee.failedLevel == level else {
            if core.pointee.failedLevel < level { core.pointee.frameCount = min(core.pointee.frameCount, Int(frame)) }
            return false
        }
        core.pointee.failedLevel = Int.max
        writerPointer.pointee.count = self.frame(frame).pointee.start
        core.pointee.frameCount = Int(frame)
        core.pointee.redoing &+= 1
        defer {
            core.pointee.redoing &-= 1
            refreshTop()
        }
        let tree = try options.box(
            value, parent: StreamPathNode.codingPathNode(parent), key: key ?? (index >= 0 ? JSONIndexKey(index) : nil))
        if core.pointee.failedLevel == Int.max { writeTree(tree ?? .object(EncodedObject()), depth: depth) }
        return true
    }

    @inline(never)
    private func growRecords() {
        let capacity = core.pointee.recordCapacity * 2
        core.pointee.records = core.pointee.records.moved(count: core.pointee.recordCount, toCapacity: capacity)
        if let old = core.pointee.levelEncoders {
            let encoders = JSONStreamState.makeLevelEncoders(capacity: capacity)
            encoders.moveUpdate(from: old, count: core.pointee.recordCapacity)
            old.deallocate()
            core.pointee.levelEncoders = encoders
        }
        core.pointee.recordCapacity = capacity
    }

    /// Starts the root record; its frame is the first.
    func beginRoot<Value>(_ value: Value) -> JSONStreamEncoder {
        core.pointee.records[0] = Record(serial: 1, frame: 0)
        core.pointee.recordCount = 1
        let frame = push(.pending, depth: 0)
        core.pointee.topSerial = frame.serial
        // As for any value: a `[String: …]` root keeps its keys.
        let keepsKeys = convertsKeys && value is any StringKeyedDictionaryMarker
        let encoder = JSONStreamEncoder(state: self, parent: nil, key: nil, index: -1, keepsKeys: keepsKeys)
        encoder.step.pointee.frameIndex = frame.index
        encoder.step.pointee.frameSerial = frame.serial
        encoder.step.pointee.record = 0
        encoder.step.pointee.recordSerial = 1
        return encoder
    }

    // MARK: - Numbers

    @inline(__always)
    func writeDouble(_ value: Double, path: () -> [any CodingKey]) throws {
        if value.isFinite {
            writerPointer.pointee.writeFiniteDouble(value)
        } else {
            writerPointer.pointee.writeString(
                try options.nonConformingText(value, description: "\(value)", type: "Double", path: path()))
        }
    }

    @inline(__always)
    func writeFloat(_ value: Float, path: () -> [any CodingKey]) throws {
        if value.isFinite {
            writerPointer.pointee.writeFloat(value)
        } else {
            writerPointer.pointee.writeString(
                try options.nonConformingText(Double(value), description: "\(value)", type: "Float", path: path()))
        }
    }
}
