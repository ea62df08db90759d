import Foundation

/// Arrays of values that encode themselves, written by the streaming
/// encoder without `Array.encode(to:)`: the elements are written with
/// direct calls instead of through an `UnkeyedEncodingContainer`
/// existential; and once the first element is written, room is made for
/// the others at its size, so that a long array does not grow the buffer
/// by copying it again and again.
///
/// The output, errors and coding paths are those of `Array.encode(to:)`,
/// which asks for one unkeyed container and encodes the elements in order.
protocol JSONStreamArray {
    /// Writes the elements into the array frame of `encoder`, a record's pending frame.
    func encodeElements(with encoder: JSONStreamEncoder) throws
}

extension Array: JSONStreamArray where Element: Encodable {
    func encodeElements(with encoder: JSONStreamEncoder) throws {
        let state = encoder.state
        state.open(.array)
        let depth = state.top.pointee.depth &+ 1
        let start = state.writerPointer.pointee.count
        try withUnsafeBufferPointer { elements in
            for index in elements.indices {
                guard state.core.pointee.topSerial == encoder.step.pointee.frameSerial || encoder.claim() else {
                    return
                }
                state.startMember()
                // Through `inout`: passing `elements[index]` would copy the element first.
                let element = UnsafeMutablePointer(mutating: elements.baseAddress.unsafelyUnwrapped + index)
                try state.encodeElement(&element.pointee, depth: depth, parent: encoder, index: index)
                if index == 0, elements.count >= 16 { state.reserve(forMore: elements.count &- 1, like: start) }
            }
        }
    }
}

extension JSONStreamState {
    /// Writes the array element `value` (see ``encodeValue(_:depth:parent:key:index:)``),
    /// which is only read: taken `inout` so that it is encoded where it lies.
    @inline(__always)
    func encodeElement<Value: Encodable>(_ value: inout Value, depth: Int32, parent: StreamPathNode, index: Int) throws {
        try encodeValue(value, depth: depth, parent: parent, key: nil, index: index)
    }

    /// Whether values of `type` are arrays that ``JSONStreamArray`` writes;
    /// remembered for the last types met, so that the cast is tried once per type.
    @inline(__always)
    func isArray<Value>(_ type: Value.Type) -> Bool {
        let identifier = ObjectIdentifier(type)
        let slot = Int(truncatingIfNeeded: UInt(bitPattern: identifier) >> 5) & 15
        if core.pointee.types[slot].type == identifier { return core.pointee.types[slot].isArray }
        let isArray = type is any JSONStreamArray.Type
        core.pointee.types[slot] = (identifier, isArray)
        return isArray
    }

    /// Makes room for `count` more values the size of the text written since `start`.
    func reserve(forMore count: Int, like start: Int) {
        let size = writerPointer.pointee.count &- start
        let (estimate, overflow) = size.multipliedReportingOverflow(by: count)
        guard !overflow else { return }
        writerPointer.pointee.reserve(exactly: min(estimate + estimate / 8, 1 << 28))
    }
}
