import Foundation

/// A keyed container writing the members of one object frame as they come
/// (see ``JSONStreamState``): the comma, the key's text and the value's,
/// straight into the writer.
///
/// What it writes to (its frame, record and path) is in a
/// ``KeyedContainerCell``, so that ``JSONStreamState`` can hand the same
/// `KeyedEncodingContainer` out again for the next object of its key type
/// (see `JSONStreamState.keyedContainer`).
struct JSONStreamKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let state: JSONStreamState
    let cell: KeyedContainerCell

    init(state: JSONStreamState, cell: KeyedContainerCell) {
        self.state = state
        self.cell = cell
    }

    init(
        state: JSONStreamState, path: StreamPathNode, frameIndex: Int32, frameSerial: UInt32, record: Int32,
        recordSerial: UInt32, convertsKeys: Bool
    ) {
        self.state = state
        cell = KeyedContainerCell(
            KeyedContainerCell.Info(
                path: path, keeper: path, frameIndex: frameIndex, frameSerial: frameSerial, record: record,
                recordSerial: recordSerial, convertsKeys: convertsKeys))
    }

    private var path: StreamPathNode { cell.info.pointee.path ?? StreamPathNode(parent: nil, key: nil, index: -1) }
    private var frameIndex: Int32 { cell.info.pointee.frameIndex }
    private var frameSerial: UInt32 { cell.info.pointee.frameSerial }
    private var record: Int32 { cell.info.pointee.record }
    private var recordSerial: UInt32 { cell.info.pointee.recordSerial }
    private var convertsKeys: Bool { cell.info.pointee.convertsKeys }

    var codingPath: [any CodingKey] { path.keys }

    private var writer: UnsafeMutablePointer<JSONWriter> { state.writerPointer }

    /// Starts the member `key`: claims the frame, writes the comma, line
    /// and key; `false` when the stream must leave it (the record failed).
    @inline(__always)
    private func begin(_ key: Key) -> Bool {
        let info = cell.info
        return claim(info) && startMember(key, info)
    }

    /// Claims the container's frame for writing; `false` when the stream must leave it.
    @inline(__always)
    private func claim(_ info: UnsafeMutablePointer<KeyedContainerCell.Info>) -> Bool {
        state.core.pointee.topSerial == info.pointee.frameSerial
            || state.claim(
                info.pointee.frameIndex, info.pointee.frameSerial, record: info.pointee.record,
                recordSerial: info.pointee.recordSerial)
    }

    /// Writes the comma, line and `key` in the claimed frame; `false`, with the record failed, when it may repeat a key.
    @inline(__always)
    private func startMember(_ key: Key, _ info: UnsafeMutablePointer<KeyedContainerCell.Info>) -> Bool {
        if let texts = info.pointee.keyTexts {
            // A key of at most one byte (see ``KeyedContainerCell/keyTexts``): its text by that byte.
            let tag = MemoryLayout<Key>.size == 0 ? 0 : Int(unsafeBitCast(key, to: UInt8.self))
            if tag < texts.count, texts[tag].length != 0 { return state.writeMember(texts.baseAddress.unsafelyUnwrapped + tag) }
            return beginRemembering(key, tag: tag)
        }
        state.startMember()
        return state.writeKey(key.stringValue, converting: info.pointee.convertsKeys)
    }

    /// ``begin(_:)`` for a key whose text the cell does not have yet: writes it, and remembers it.
    @inline(never)
    private func beginRemembering(_ key: Key, tag: Int) -> Bool {
        state.startMember()
        let start = state.writerPointer.pointee.count
        guard state.writeKey(key.stringValue, converting: false) else { return false }
        cell.remember(
            UnsafeBufferPointer(
                start: state.writerPointer.pointee.buffer + start, count: state.writerPointer.pointee.count - start),
            tag: tag)
        return true
    }

    mutating func encodeNil(forKey key: Key) throws { if begin(key) { writer.pointee.append("null") } }
    mutating func encode(_ value: Bool, forKey key: Key) throws { if begin(key) { writer.pointee.writeBool(value) } }
    mutating func encode(_ value: String, forKey key: Key) throws { if begin(key) { writer.pointee.writeString(value) } }
    mutating func encode(_ value: Int, forKey key: Key) throws { if begin(key) { writer.pointee.writeInteger(value) } }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try encode(Int(value), forKey: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try encode(UInt64(value), forKey: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { if begin(key) { writer.pointee.writeUnsigned(value) } }
    mutating func encode(_ value: Int128, forKey key: Key) throws { if begin(key) { writer.pointee.writeWideInteger(value) } }
    mutating func encode(_ value: UInt128, forKey key: Key) throws { if begin(key) { writer.pointee.writeWideInteger(value) } }

    mutating func encode(_ value: Double, forKey key: Key) throws {
        guard value.isFinite else { return try encode(nonConforming: value, "\(value)", "Double", forKey: key) }
        if begin(key) { writer.pointee.writeFiniteDouble(value) }
    }

    mutating func encode(_ value: Float, forKey key: Key) throws {
        guard value.isFinite else { return try encode(nonConforming: Double(value), "\(value)", "Float", forKey: key) }
        if begin(key) { writer.pointee.writeFloat(value) }
    }

    /// An infinity or NaN: its text under the strategy, or the error before anything is written.
    private mutating func encode(nonConforming value: Double, _ description: String, _ type: String, forKey key: Key)
        throws
    {
        let text = try state.options.nonConformingText(
            value, description: description, type: type, path: path.keys + [key])
        if begin(key) { writer.pointee.writeString(text) }
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        switch ObjectIdentifier(T.self) {
        case ObjectIdentifier(String.self): return try encode(unsafeBitCast(value, to: String.self), forKey: key)
        case ObjectIdentifier(Int.self): return try encode(unsafeBitCast(value, to: Int.self), forKey: key)
        case ObjectIdentifier(Bool.self): return try encode(unsafeBitCast(value, to: Bool.self), forKey: key)
        case ObjectIdentifier(Double.self): return try encode(unsafeBitCast(value, to: Double.self), forKey: key)
        default: break
        }
        let info = cell.info
        guard claim(info) else { return }
        let mark = state.mark()
        guard startMember(key, info) else { return }
        do {
            try withUnsafePointer(to: key) { address in
                try state.encodeOther(
                    value, depth: mark.frame.depth &+ 1, parent: info.pointee.path ?? path,
                    key: BorrowedKey(type: Key.self, address: UnsafeRawPointer(address)), index: -1)
            }
        } catch {
            state.rollBack(to: mark)
            throw error
        }
    }

    // Optionals: `nil` writes nothing, as in JSONEncoder.
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let frame = openNested(.object, key)
        return KeyedEncodingContainer(
            JSONStreamKeyedContainer<NestedKey>(
                state: state, path: StreamPathNode(parent: path, key: key, index: -1), frameIndex: frame.index,
                frameSerial: frame.serial, record: record, recordSerial: recordSerial, convertsKeys: convertsKeys))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let frame = openNested(.array, key)
        return JSONStreamUnkeyedContainer(
            state: state, path: StreamPathNode(parent: path, key: key, index: -1), frameIndex: frame.index,
            frameSerial: frame.serial, record: record, recordSerial: recordSerial)
    }

    /// Writes the member `key` and opens its value as a frame of `kind`; a
    /// frame nobody has (``JSONStreamState/deadSerial``) when the stream must leave it.
    private func openNested(_ kind: JSONStreamState.Frame.Kind, _ key: Key) -> (index: Int32, serial: UInt32) {
        guard begin(key) else { return (0, JSONStreamState.deadSerial) }
        let frame = state.push(.pending, depth: state.top.pointee.depth &+ 1)
        if kind != .pending { state.open(kind) }
        return frame
    }

    mutating func superEncoder() -> any Encoder {
        // The default key goes through the key strategy as any key does, as in JSONEncoder.
        superEncoder(key: AnyCodingKey.super) { state.writeKey(AnyCodingKey.super.stringValue, converting: convertsKeys) }
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder(key: key) { state.writeKey(key.stringValue, converting: convertsKeys) }
    }

    /// An encoder for the member `key`, written by `writeKey`: `{}` unless it encodes something before the
    /// container goes on.
    private func superEncoder(key: any CodingKey, writeKey: () -> Bool) -> any Encoder {
        let encoder = JSONStreamEncoder(state: state, parent: path, key: key, index: -1, keepsKeys: false)
        guard state.core.pointee.topSerial == frameSerial
            || state.claim(frameIndex, frameSerial, record: record, recordSerial: recordSerial)
        else { return encoder }
        state.startMember()
        guard writeKey() else { return encoder }
        let frame = state.push(.pending, depth: state.top.pointee.depth &+ 1)
        encoder.step.pointee.frameIndex = frame.index
        encoder.step.pointee.frameSerial = frame.serial
        encoder.step.pointee.record = record
        encoder.step.pointee.recordSerial = recordSerial
        return encoder
    }
}

/// Where a ``JSONStreamKeyedContainer`` writes, in memory its cell owns.
final class KeyedContainerCell {
    /// The text of a key (quoted, with its colon) and what the repeat check needs (see `JSONStreamState+Keys.swift`).
    struct KeyText {
        /// 0 for a key not met yet.
        var length = 0
        var text: (SIMD16<UInt8>, SIMD16<UInt8>, SIMD16<UInt8>) = (.zero, .zero, .zero)
        var seenBit: UInt64 = 0
        var isASCII = true
    }

    struct Info {
        /// The container's coding path. Not retained: a cached container's
        /// is its encoder, alive while its record runs, and kept by `keeper`
        /// when the code still holds the container after that (see
        /// `JSONStreamState.recycle`); any other container's is in `keeper` too.
        unowned(unsafe) var path: StreamPathNode?
        /// `path`, retained, whenever the container may be used after its encoder's record ended.
        var keeper: StreamPathNode?
        var frameIndex: Int32
        var frameSerial: UInt32
        var record: Int32
        var recordSerial: UInt32
        var convertsKeys: Bool
        /// `ownKeyTexts` while the container writes compact text with the
        /// keys as they are; `nil` otherwise.
        var keyTexts: UnsafeMutableBufferPointer<KeyText>? = nil
        /// For a cached container whose key type is at most one byte (a
        /// synthesized `CodingKeys`, an enum without payloads), the compact
        /// text of each key met, by that byte, in memory the cell owns: the
        /// same key is written again by copying its text, without asking the
        /// key for its `stringValue` (of a value of one byte, taken to be the
        /// same throughout one encode).
        var ownKeyTexts: UnsafeMutableBufferPointer<KeyText>? = nil
    }

    let info: UnsafeMutablePointer<Info>

    init(_ info: Info) {
        self.info = .allocate(capacity: 1)
        self.info.initialize(to: info)
    }

    deinit {
        info.pointee.ownKeyTexts?.deallocate()
        info.deinitialize(count: 1)
        info.deallocate()
    }

    /// Gives this cell its table of key texts.
    func makeKeyTexts() {
        let texts = UnsafeMutableBufferPointer<KeyText>.allocate(capacity: 16)
        texts.initialize(repeating: KeyText())
        info.pointee.ownKeyTexts = texts
    }

    /// Remembers `text`, a key's text just written, for the key whose byte is `tag`.
    func remember(_ text: UnsafeBufferPointer<UInt8>, tag: Int) {
        guard var texts = info.pointee.ownKeyTexts, text.count <= JSONStreamState.keyTextCapacity else { return }
        if tag >= texts.count {
            let grown = UnsafeMutableBufferPointer<KeyText>.allocate(capacity: 256)
            grown.initialize(repeating: KeyText())
            _ = grown.update(fromContentsOf: texts)
            texts.deallocate()
            texts = grown
            info.pointee.ownKeyTexts = grown
            info.pointee.keyTexts = grown
        }
        let (bit, isASCII) = JSONStreamState.keyBit(of: text)
        texts[tag].seenBit = bit
        texts[tag].isASCII = isASCII
        withUnsafeMutableBytes(of: &texts[tag].text) { bytes in
            bytes.baseAddress.unsafelyUnwrapped.copyMemory(from: text.baseAddress.unsafelyUnwrapped, byteCount: text.count)
        }
        texts[tag].length = text.count
    }
}
