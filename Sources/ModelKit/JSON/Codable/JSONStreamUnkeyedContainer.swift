import Foundation

/// An unkeyed container writing the elements of one array frame as they
/// come (see ``JSONStreamState``).
struct JSONStreamUnkeyedContainer: UnkeyedEncodingContainer {
    let state: JSONStreamState
    let path: StreamPathNode
    let frameIndex: Int32
    let frameSerial: UInt32
    let record: Int32
    let recordSerial: UInt32
    /// Elements written through this copy, for `count` once the frame is closed.
    private var written = 0

    init(
        state: JSONStreamState, path: StreamPathNode, frameIndex: Int32, frameSerial: UInt32, record: Int32,
        recordSerial: UInt32
    ) {
        self.state = state
        self.path = path
        self.frameIndex = frameIndex
        self.frameSerial = frameSerial
        self.record = record
        self.recordSerial = recordSerial
        if Int(frameIndex) < state.core.pointee.frameCount, state.frame(frameIndex).pointee.serial == frameSerial {
            written = Int(state.frame(frameIndex).pointee.members)
        }
    }

    var codingPath: [any CodingKey] { path.keys }

    var count: Int {
        guard Int(frameIndex) < state.core.pointee.frameCount, state.frame(frameIndex).pointee.serial == frameSerial
        else { return written }
        return Int(state.frame(frameIndex).pointee.members)
    }

    private var writer: UnsafeMutablePointer<JSONWriter> { state.writerPointer }

    /// Starts the next element: claims the frame, writes the comma and line;
    /// `false` when the stream must leave it (the record failed).
    @inline(__always)
    private mutating func begin() -> Bool {
        guard state.core.pointee.topSerial == frameSerial
            || state.claim(frameIndex, frameSerial, record: record, recordSerial: recordSerial)
        else { return false }
        state.startMember()
        written = Int(state.top.pointee.members)
        return true
    }

    mutating func encodeNil() throws { if begin() { writer.pointee.append("null") } }
    mutating func encode(_ value: Bool) throws { if begin() { writer.pointee.writeBool(value) } }
    mutating func encode(_ value: String) throws { if begin() { writer.pointee.writeString(value) } }
    mutating func encode(_ value: Int) throws { if begin() { writer.pointee.writeInteger(value) } }
    mutating func encode(_ value: Int8) throws { try encode(Int(value)) }
    mutating func encode(_ value: Int16) throws { try encode(Int(value)) }
    mutating func encode(_ value: Int32) throws { try encode(Int(value)) }
    mutating func encode(_ value: Int64) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt8) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt16) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt32) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt) throws { try encode(UInt64(value)) }
    mutating func encode(_ value: UInt64) throws { if begin() { writer.pointee.writeUnsigned(value) } }
    mutating func encode(_ value: Int128) throws { if begin() { writer.pointee.writeWideInteger(value) } }
    mutating func encode(_ value: UInt128) throws { if begin() { writer.pointee.writeWideInteger(value) } }

    mutating func encode(_ value: Double) throws {
        guard value.isFinite else { return try encode(nonConforming: value, "\(value)", "Double") }
        if begin() { writer.pointee.writeFiniteDouble(value) }
    }

    mutating func encode(_ value: Float) throws {
        guard value.isFinite else { return try encode(nonConforming: Double(value), "\(value)", "Float") }
        if begin() { writer.pointee.writeFloat(value) }
    }

    /// An infinity or NaN: its text under the strategy, or the error before anything is written.
    private mutating func encode(nonConforming value: Double, _ description: String, _ type: String) throws {
        let text = try state.options.nonConformingText(
            value, description: description, type: type, path: path.keys + [JSONIndexKey(count)])
        if begin() { writer.pointee.writeString(text) }
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        switch ObjectIdentifier(T.self) {
        case ObjectIdentifier(String.self): return try encode(unsafeBitCast(value, to: String.self))
        case ObjectIdentifier(Int.self): return try encode(unsafeBitCast(value, to: Int.self))
        case ObjectIdentifier(Bool.self): return try encode(unsafeBitCast(value, to: Bool.self))
        case ObjectIdentifier(Double.self): return try encode(unsafeBitCast(value, to: Double.self))
        default: break
        }
        guard state.core.pointee.topSerial == frameSerial
            || state.claim(frameIndex, frameSerial, record: record, recordSerial: recordSerial)
        else { return }
        let mark = state.mark()
        let index = Int(mark.frame.members)
        state.startMember()
        written = index &+ 1
        do {
            try state.encodeOther(value, depth: mark.frame.depth &+ 1, parent: path, key: nil, index: index)
        } catch {
            state.rollBack(to: mark)
            written = index
            throw error
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let index = count
        let frame = openNested(.object)
        return KeyedEncodingContainer(
            JSONStreamKeyedContainer<NestedKey>(
                state: state, path: StreamPathNode(parent: path, key: nil, index: index), frameIndex: frame.index,
                frameSerial: frame.serial, record: record, recordSerial: recordSerial,
                convertsKeys: state.convertsKeys))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let index = count
        let frame = openNested(.array)
        return JSONStreamUnkeyedContainer(
            state: state, path: StreamPathNode(parent: path, key: nil, index: index), frameIndex: frame.index,
            frameSerial: frame.serial, record: record, recordSerial: recordSerial)
    }

    /// Writes the next element and opens it as a frame of `kind` (`.pending` for a super encoder's slot).
    private mutating func openNested(_ kind: JSONStreamState.Frame.Kind) -> (index: Int32, serial: UInt32) {
        guard begin() else { return (0, JSONStreamState.deadSerial) }
        let frame = state.push(.pending, depth: state.top.pointee.depth &+ 1)
        if kind != .pending { state.open(kind) }
        return frame
    }

    mutating func superEncoder() -> any Encoder {
        let encoder = JSONStreamEncoder(state: state, parent: path, key: nil, index: count, keepsKeys: false)
        let frame = openNested(.pending)
        encoder.step.pointee.frameIndex = frame.index
        encoder.step.pointee.frameSerial = frame.serial
        encoder.step.pointee.record = record
        encoder.step.pointee.recordSerial = recordSerial
        return encoder
    }
}
