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
///
/// Undoing it expects the inserted elements at `offset` (the very
/// elements: their bytes, as the shadow compares them), redoing it the
/// removed ones; it never removes or overwrites other elements.
protocol ElementsChange {
    var storedCount: Int { get }
    /// Whether `array` (an array of the change's type) holds, at the
    /// change's offset, the elements that undoing (or redoing) replaces.
    func holds(_ array: Any, undoing: Bool) -> Bool
    /// `array` with the change undone (or redone), when it ``holds(_:undoing:)``.
    func applied(to array: inout Any, undoing: Bool)
    /// Undoes (or redoes) the change in the model's array, in place, if
    /// the array holds what ``holds(_:undoing:)`` expects (checked under
    /// the model's lock).
    /// - Returns: whether it did; otherwise nothing changed.
    func apply(to object: ModelObject, slot: Int, undoing: Bool) -> Bool
    /// What `array` holds where undoing (or redoing) expects other
    /// elements, for a message.
    func mismatch(in array: Any, undoing: Bool) -> String
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

    /// The elements that undoing (or redoing) replaces, and those it puts there.
    private func sides(undoing: Bool) -> (present: [Element], replacement: [Element]) {
        undoing ? (inserted, removed) : (removed, inserted)
    }

    func holds(_ array: Any, undoing: Bool) -> Bool {
        guard let array = array as? [Element] else { return false }
        return holds(elements: array, undoing: undoing)
    }

    /// Whether `array[offset...]` starts with exactly the elements undoing
    /// (or redoing) replaces, compared by their bytes.
    private func holds(elements array: [Element], undoing: Bool) -> Bool {
        let present = sides(undoing: undoing).present
        guard offset >= 0, offset <= array.count, present.count <= array.count - offset else { return false }
        let stride = MemoryLayout<Element>.stride
        guard stride > 0, !present.isEmpty else { return true }
        return array.withUnsafeBytes { current in
            present.withUnsafeBytes { recorded in
                guard let current = current.baseAddress, let recorded = recorded.baseAddress else { return false }
                return memcmp(current + offset * stride, recorded, present.count * stride) == 0
            }
        }
    }

    func applied(to array: inout Any, undoing: Bool) {
        guard var elements = array as? [Element] else { return }
        array = ()  // `elements` is then the only reference to its buffer
        let (present, replacement) = sides(undoing: undoing)
        elements.replaceSubrange(offset..<offset + present.count, with: replacement)
        array = elements
    }

    func apply(to object: ModelObject, slot: Int, undoing: Bool) -> Bool {
        let (present, replacement) = sides(undoing: undoing)
        // One hold of the lock for the check and the change, so no other
        // thread changes the array between them.
        return object.withLock { () -> Bool in
            let fits = object.withState { state -> Bool in
                holds(elements: SlotCell.pointer(state.cells + slot * SlotCell.size, as: [Element].self).pointee,
                    undoing: undoing)
            }
            guard fits else { return false }
            object.mutateSlotForHistory(slot, as: [Element].self) { array in
                array.replaceSubrange(offset..<offset + present.count, with: replacement)
            }
            return true
        }
    }

    func mismatch(in array: Any, undoing: Bool) -> String {
        let present = sides(undoing: undoing).present
        let what = undoing ? "inserted" : "removed"
        let expected = "the \(present.count == 1 ? "element" : "\(present.count) elements") the step \(what) at index \(offset)"
        guard let array = array as? [Element] else { return "it no longer holds \(expected)" }
        guard offset <= array.count, present.count <= array.count - offset else {
            return "it has \(array.count) element\(array.count == 1 ? "" : "s"), too few to hold \(expected)"
        }
        if Element.self is ModelObject.Type || Element.self is ModelObject?.Type {
            return "it no longer holds \(expected): other models are there"
        }
        let found = Array(array[offset..<offset + present.count])
        return "it no longer holds \(expected) (\(Self.describe(present))), but \(Self.describe(found))"
    }

    /// Elements for a message, cut short.
    private static func describe(_ elements: [Element]) -> String {
        let text = String(describing: elements)
        return text.count <= 60 ? text : text.prefix(57) + "…"
    }
}
