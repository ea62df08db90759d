import Foundation

/// What a ``StreamPathNode`` holds: its step of the path and, for an
/// encoder, its slot. Reached through a pointer, so that reusing an encoder
/// needs no exclusivity checks.
struct StreamStep {
    /// The step before this one. Not retained: a node that is made holds
    /// its parent in `parentKeeper` too; a reused encoder's parent is alive
    /// while its record runs, and kept by `parentKeeper` when the code
    /// still holds the encoder after that (see `JSONStreamState.recycle`).
    unowned(unsafe) var parent: StreamPathNode?
    /// `parent`, retained, whenever this step may be asked for its path after its parent's record ended.
    var parentKeeper: StreamPathNode?
    var key: (any CodingKey)?
    /// The key of a record's encoder while the record runs (see ``BorrowedKey``).
    var borrowedKey: BorrowedKey?
    /// The element's index when `key` is `nil`; -1 for no step (a single value's nested value).
    var index: Int
    /// Whether keys are written as they are, whatever the key strategy (a `[String: …]` dictionary).
    var keepsKeys = false
    var frameIndex: Int32 = 0
    var frameSerial: UInt32 = JSONStreamState.deadSerial
    var record: Int32 = 0
    var recordSerial: UInt32 = 0
    /// The entry of `JSONStreamState`'s cache of keyed containers last handed
    /// out by this encoder (by a record's encoder: while the record runs); -1 for none.
    var cachedContainer = -1
    /// Whether this is the encoder of records, reused from record to record (see `JSONStreamState.recycle`).
    var isLevelEncoder = false
}

/// A step of a streaming encode's coding path: a key, or an index made into
/// a key only when a path is asked for.
class StreamPathNode {
    final let step: UnsafeMutablePointer<StreamStep>

    @inline(__always)
    init(parent: StreamPathNode?, key: (any CodingKey)?, index: Int) {
        step = .allocate(capacity: 1)
        step.initialize(to: StreamStep(parent: parent, parentKeeper: parent, key: key, index: index))
    }

    deinit {
        step.deinitialize(count: 1)
        step.deallocate()
    }

    /// This step's key, if it has one.
    final var ownKey: (any CodingKey)? {
        step.pointee.key ?? step.pointee.borrowedKey?.key ?? (step.pointee.index >= 0 ? JSONIndexKey(step.pointee.index) : nil)
    }

    /// The path from the root to here.
    final var keys: [any CodingKey] {
        var keys: [any CodingKey] = []
        var node: StreamPathNode? = self
        while let current = node {
            if let key = current.ownKey { keys.append(key) }
            node = current.step.pointee.parent
        }
        return keys.reversed()
    }

    /// The path of `parent` followed by `key` or `index`.
    static func keys(_ parent: StreamPathNode?, _ key: BorrowedKey?, _ index: Int) -> [any CodingKey] {
        var path = parent?.keys ?? []
        if let key = key?.key ?? (index >= 0 ? JSONIndexKey(index) : nil) { path.append(key) }
        return path
    }

    /// The same path as the tree encoder's nodes.
    static func codingPathNode(_ node: StreamPathNode?) -> CodingPathNode? {
        var result: CodingPathNode?
        for key in node?.keys ?? [] { result = CodingPathNode(parent: result, key: key) }
        return result
    }
}

/// The key a record's value is encoded under, while its container's
/// `encode(_:forKey:)` runs: the key's address there and its type, so that
/// handing it to the record's encoder stores two words instead of copying
/// an existential through its value witnesses. ``key`` boxes it when a
/// coding path is asked for; an encoder still held when its record ends
/// boxes it then (see `JSONStreamState.recycle`).
struct BorrowedKey {
    let type: any CodingKey.Type
    let address: UnsafeRawPointer

    var key: any CodingKey { type.borrowedKey(at: address) }
}

extension CodingKey {
    /// The key of this type at `address` (see ``BorrowedKey``).
    fileprivate static func borrowedKey(at address: UnsafeRawPointer) -> any CodingKey {
        address.assumingMemoryBound(to: Self.self).pointee
    }
}

/// An array index as a coding key, its text made only when asked.
struct JSONIndexKey: CodingKey {
    let index: Int
    init(_ index: Int) { self.index = index }
    /// `"Index 3"`, or the digits alone.
    init?(stringValue: String) {
        let digits = stringValue.hasPrefix("Index ") ? stringValue.dropFirst(6) : Substring(stringValue)
        guard let index = Int(digits) else { return nil }
        self.index = index
    }
    init?(intValue: Int) { index = intValue }
    /// `"Index 3"`, as in `JSONEncoder`'s coding paths.
    var stringValue: String { "Index \(index)" }
    var intValue: Int? { index }
}

/// The `Encoder` that the streaming ``ModelJSONEncoder`` hands to
/// `encode(to:)`: it stands for one value slot, its frame (see
/// ``JSONStreamState``), and is its own step of the coding path. Reused for
/// the next value once its `encode(to:)` has returned, when nothing kept it.
final class JSONStreamEncoder: StreamPathNode, Encoder {
    let state: JSONStreamState

    init(state: JSONStreamState, parent: StreamPathNode?, key: (any CodingKey)?, index: Int, keepsKeys: Bool) {
        self.state = state
        super.init(parent: parent, key: key, index: index)
        step.pointee.keepsKeys = keepsKeys
    }

    var codingPath: [any CodingKey] { keys }
    var userInfo: [CodingUserInfoKey: Any] { state.options.userInfo }

    /// Claims this encoder's frame for writing (see ``JSONStreamState/claim(_:_:record:recordSerial:)``).
    @inline(__always)
    func claim() -> Bool {
        state.core.pointee.topSerial == step.pointee.frameSerial
            || state.claim(
                step.pointee.frameIndex, step.pointee.frameSerial, record: step.pointee.record,
                recordSerial: step.pointee.recordSerial)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if claim() {
            switch state.top.pointee.kind {
            case .pending: state.open(.object)
            case .object: break
            case .array, .scalar: state.failRunning()
            }
        }
        return state.keyedContainer(Key.self, for: self)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if claim() {
            switch state.top.pointee.kind {
            case .pending: state.open(.array)
            case .array: break
            case .object, .scalar: state.failRunning()
            }
        }
        return JSONStreamUnkeyedContainer(
            state: state, path: self, frameIndex: step.pointee.frameIndex, frameSerial: step.pointee.frameSerial,
            record: step.pointee.record, recordSerial: step.pointee.recordSerial)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { JSONStreamSingleValue(encoder: self) }
}

/// A single-value container: one value in its encoder's frame, only while that frame waits for it.
struct JSONStreamSingleValue: SingleValueEncodingContainer {
    let encoder: JSONStreamEncoder

    var codingPath: [any CodingKey] { encoder.keys }

    /// Claims the frame for its one value; `false` (the record failed) when it is taken or not writable.
    @inline(__always)
    private func claim() -> Bool {
        guard encoder.claim() else { return false }
        let frame = encoder.state.top
        guard frame.pointee.kind == .pending else {
            encoder.state.failRunning()
            return false
        }
        frame.pointee.kind = .scalar
        return true
    }

    private var writer: UnsafeMutablePointer<JSONWriter> { encoder.state.writerPointer }

    mutating func encodeNil() throws { if claim() { writer.pointee.append("null") } }
    mutating func encode(_ value: Bool) throws { if claim() { writer.pointee.writeBool(value) } }
    mutating func encode(_ value: String) throws { if claim() { writer.pointee.writeString(value) } }
    mutating func encode(_ value: Int) throws { if claim() { writer.pointee.writeInteger(value) } }
    mutating func encode(_ value: Int8) throws { try encode(Int(value)) }
    mutating func encode(_ value: Int16) throws { try encode(Int(value)) }
    mutating func encode(_ value: Int32) throws { try encode(Int(value)) }
    mutating func encode(_ value: Int64) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt8) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt16) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt32) throws { try encode(Int(value)) }
    mutating func encode(_ value: UInt) throws { try encode(UInt64(value)) }
    mutating func encode(_ value: UInt64) throws { if claim() { writer.pointee.writeUnsigned(value) } }
    mutating func encode(_ value: Int128) throws { if claim() { writer.pointee.writeWideInteger(value) } }
    mutating func encode(_ value: UInt128) throws { if claim() { writer.pointee.writeWideInteger(value) } }

    mutating func encode(_ value: Double) throws {
        guard value.isFinite else { return try encode(nonConforming: Double(value), "\(value)", "Double") }
        if claim() { writer.pointee.writeFiniteDouble(value) }
    }

    mutating func encode(_ value: Float) throws {
        guard value.isFinite else { return try encode(nonConforming: Double(value), "\(value)", "Float") }
        if claim() { writer.pointee.writeFloat(value) }
    }

    /// An infinity or NaN: its text under the strategy, or the error, before anything is claimed.
    private mutating func encode(nonConforming value: Double, _ description: String, _ type: String) throws {
        guard encoder.claim() else { return }
        let text = try encoder.state.options.nonConformingText(
            value, description: description, type: type, path: encoder.keys)
        if claim() { writer.pointee.writeString(text) }
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        guard claim() else { return }
        let state = encoder.state
        let mark = state.mark()
        do {
            try state.encodeValue(value, depth: state.top.pointee.depth, parent: encoder, key: nil, index: -1)
        } catch {
            state.rollBack(to: mark)
            if state.core.pointee.frameCount == Int(encoder.step.pointee.frameIndex) &+ 1 {
                state.top.pointee.kind = .pending
            }
            throw error
        }
    }
}
