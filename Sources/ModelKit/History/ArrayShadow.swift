#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An array type whose changes a history keeps as replaced ranges.
protocol HistoryArray {
    /// A tracker's copy of the array in `cell`.
    static func makeShadow(cell: UnsafeMutableRawPointer) -> any ElementsShadow
}

extension Array: HistoryArray {
    static func makeShadow(cell: UnsafeMutableRawPointer) -> any ElementsShadow {
        ArrayShadow(copying: SlotCell.pointer(cell, as: [Element].self).pointee)
    }
}

/// A tracker's copy of an array property.
protocol ElementsShadow: AnyObject {
    /// Compares `array` (an array of the copy's type) with the copy, brings
    /// the copy up to date, and returns what changed, or `nil` when nothing did.
    func update(to array: Any) -> (any ElementsChange)?
}

/// What an in-place mutation of an array did: the elements at `offset`
/// that it replaced, and those it put there.
protocol ElementsChange {
    var storedCount: Int { get }
    func apply(to object: ModelObject, slot: Int, undoing: Bool)
}

/// The elements of an array property as a history last saw them, in a
/// buffer of their own.
///
/// The copy holds every element, so an element that has storage of its own
/// (a string, a nested array) never has it uniquely referenced by the
/// model: mutating it in place makes new storage, and new bytes. Equal
/// bytes therefore mean the same element, and the part of the array that
/// changed is found by comparing bytes from both ends (`memcmp`, no call
/// per element). Elements that are equal but not bytewise equal (padding)
/// only make the recorded range longer, never wrong.
final class ArrayShadow<Element>: ElementsShadow {
    private var elements: [Element]

    init(copying array: [Element]) {
        // A buffer of its own, not a second reference to the model's.
        elements = []
        elements.reserveCapacity(array.count)
        elements.append(contentsOf: array)
    }

    func update(to array: Any) -> (any ElementsChange)? {
        guard let current = array as? [Element] else { return nil }
        let (prefix, suffix) = elements.withUnsafeBytes { old in
            current.withUnsafeBytes { new in Self.commonEnds(old, new) }
        }
        let oldEnd = elements.count - suffix
        let newEnd = current.count - suffix
        guard prefix < oldEnd || prefix < newEnd else { return nil }
        let removed = Array(elements[prefix..<oldEnd])
        let inserted = Array(current[prefix..<newEnd])
        elements.replaceSubrange(prefix..<oldEnd, with: inserted)
        return ArrayChange(offset: prefix, removed: removed, inserted: inserted)
    }

    /// How many elements the two arrays' bytes share at the start, and then
    /// at the end (never overlapping the start).
    private static func commonEnds(_ old: UnsafeRawBufferPointer, _ new: UnsafeRawBufferPointer) -> (Int, Int) {
        let stride = MemoryLayout<Element>.stride
        let oldCount = stride == 0 ? 0 : old.count / stride
        let newCount = stride == 0 ? 0 : new.count / stride
        let shorter = Swift.min(oldCount, newCount)
        guard stride > 0, shorter > 0, let a = old.baseAddress, let b = new.baseAddress else { return (shorter, 0) }
        func same(_ i: Int, _ j: Int, _ n: Int) -> Bool { memcmp(a + i * stride, b + j * stride, n * stride) == 0 }
        // The whole shorter array first: an append or a removal at the end.
        var prefix = 0
        if same(0, 0, shorter) {
            prefix = shorter
        } else {
            while prefix < shorter, same(prefix, prefix, Swift.min(64, shorter - prefix)) { prefix += 64 }
            while prefix < shorter, same(prefix, prefix, 1) { prefix += 1 }
        }
        var suffix = 0
        let limit = shorter - prefix
        while suffix + 64 <= limit, same(oldCount - suffix - 64, newCount - suffix - 64, 64) { suffix += 64 }
        while suffix < limit, same(oldCount - suffix - 1, newCount - suffix - 1, 1) { suffix += 1 }
        return (prefix, suffix)
    }
}

/// One range of an array replaced by other elements.
struct ArrayChange<Element>: ElementsChange {
    let offset: Int
    let removed: [Element]
    let inserted: [Element]

    var storedCount: Int { removed.count + inserted.count }

    func apply(to object: ModelObject, slot: Int, undoing: Bool) {
        let (present, replacement) = undoing ? (inserted, removed) : (removed, inserted)
        object.mutateSlotForHistory(slot, as: [Element].self) { array in
            // Another thread may have changed the array since: then leave it.
            guard offset + present.count <= array.count else { return }
            array.replaceSubrange(offset..<offset + present.count, with: replacement)
        }
    }
}
