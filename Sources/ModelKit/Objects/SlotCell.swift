/// One saved property's value in an object's storage: 32 bytes of memory
/// that hold the value itself, typed, with no existential box and no type
/// metadata.
///
/// A value that fits (at most 32 bytes, alignment at most 8: every standard
/// library and Foundation type ModelKit saves) lives in the cell; a larger
/// one lives in an allocation of its own whose pointer the cell holds. Code
/// that knows the type (the `@Saved` accessors, which are specialised for it)
/// reaches the value through `pointer(_:as:)` with no cast; code that has
/// only a key goes through the slot's `SlotCodec`, which knows the type.
///
/// Cells sit in a row: in an object's `ModelStorage`, and on the
/// construction stack before the object exists. Moving a row moves its
/// values bitwise, as Swift moves values; on platforms with Objective-C
/// interoperability, where a value holding a `weak` reference is not
/// bitwise movable, rows are moved value by value through the codecs.
@usableFromInline
struct SlotCell {
    @usableFromInline var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    /// Bytes per cell.
    @inlinable @inline(__always) static var size: Int { 32 }

    /// Whether values of type `Value` live in the cell itself.
    @inlinable @inline(__always)
    static func holdsInline<Value>(_: Value.Type) -> Bool {
        MemoryLayout<Value>.size <= 32 && MemoryLayout<Value>.alignment <= 8
    }

    /// Starts the life of `value` in the uninitialised cell at `cell`.
    @inlinable @inline(__always)
    static func initialize<Value>(_ cell: UnsafeMutableRawPointer, to value: consuming Value) {
        if holdsInline(Value.self) {
            cell.initializeMemory(as: Value.self, to: value)
        } else {
            let box = UnsafeMutablePointer<Value>.allocate(capacity: 1)
            box.initialize(to: value)
            cell.initializeMemory(as: UnsafeMutablePointer<Value>.self, to: box)
        }
    }

    /// The value in the initialised cell at `cell`.
    @inlinable @inline(__always)
    static func pointer<Value>(_ cell: UnsafeMutableRawPointer, as _: Value.Type) -> UnsafeMutablePointer<Value> {
        if holdsInline(Value.self) {
            return cell.assumingMemoryBound(to: Value.self)
        }
        return cell.load(as: UnsafeMutablePointer<Value>.self)
    }

    /// Ends the life of the value in the cell at `cell`, leaving it uninitialised.
    @inlinable
    static func destroy<Value>(_ cell: UnsafeMutableRawPointer, as _: Value.Type) {
        if holdsInline(Value.self) {
            cell.assumingMemoryBound(to: Value.self).deinitialize(count: 1)
        } else {
            let box = cell.load(as: UnsafeMutablePointer<Value>.self)
            box.deinitialize(count: 1)
            box.deallocate()
        }
    }

    /// Moves the value from the cell at `source` to the uninitialised cell at `target`.
    @inlinable
    static func move<Value>(from source: UnsafeMutableRawPointer, to target: UnsafeMutableRawPointer, as _: Value.Type)
    {
        if holdsInline(Value.self) {
            target.initializeMemory(as: Value.self, to: source.assumingMemoryBound(to: Value.self).move())
        } else {
            target.initializeMemory(as: UnsafeMutablePointer<Value>.self, to: source.load(as: UnsafeMutablePointer<Value>.self))
        }
    }

    /// Moves `count` values from the cells at `source` to the uninitialised
    /// cells at `target`, whose types `codecs` knows.
    static func moveRow(
        from source: UnsafeMutableRawPointer, to target: UnsafeMutableRawPointer, count: Int, codecs: [any SlotCodec]
    ) {
        guard count > 0 else { return }
        if Platform.movesCellsBitwise {
            target.copyMemory(from: source, byteCount: count * size)
        } else {
            for index in 0..<count {
                codecs[index].moveCell(from: source + index * size, to: target + index * size)
            }
        }
    }
}
