/// Stacks: the frames, values and keys of the open containers, in memory
/// the reader manages itself.
///
/// Every element of a document goes on a stack and off it again, so these
/// are the reader's busiest operations. An `Array` checks that its buffer
/// is uniquely referenced before each push and pop (a call into the
/// runtime), and moving a container's elements out took one append and one
/// `removeLast()` per element. A `Stack` pushes with one store, pops by
/// lowering its count, and hands a container's elements over with one move.
///
/// The stacks' headers (base, count, capacity) sit in memory that a
/// `StackStorage` owns, so a copy of the reader shares its stacks (as it
/// would share a class), and an error thrown anywhere leaves nothing to
/// clean up: the storage destroys whatever is still on the stacks when the
/// last reader holding it goes. A reader makes its storage when it opens
/// its first container; until then every stack reads an empty header
/// shared by all readers, which is never written (every write comes after
/// `makeStacks()`).
extension JSONReader {
    /// Where one stack's elements are, how many, and room for how many.
    struct StackHeader {
        var base: UnsafeMutableRawPointer
        var count = 0
        var capacity = 0
    }

    /// A stack of `Element`s whose header is at `header`.
    struct Stack<Element> {
        let header: UnsafeMutablePointer<StackHeader>

        var count: Int {
            @inline(__always) get { header.pointee.count }
        }

        var isEmpty: Bool {
            @inline(__always) get { header.pointee.count == 0 }
        }

        /// The first element's address.
        var elements: UnsafeMutablePointer<Element> {
            @inline(__always) get { header.pointee.base.assumingMemoryBound(to: Element.self) }
        }

        /// The elements from `start` to the top.
        @inline(__always)
        func buffer(from start: Int = 0) -> UnsafeMutableBufferPointer<Element> {
            UnsafeMutableBufferPointer(start: elements + start, count: header.pointee.count &- start)
        }

        var last: Element? {
            @inline(__always) get {
                let count = header.pointee.count
                return count > 0 ? elements[count &- 1] : nil
            }
        }

        subscript(index: Int) -> Element {
            @inline(__always) unsafeAddress { UnsafePointer(elements + index) }
            @inline(__always) nonmutating unsafeMutableAddress { elements + index }
        }

        @inline(__always)
        func append(_ element: consuming Element) {
            let count = header.pointee.count
            if count == header.pointee.capacity { grow() }
            (elements + count).initialize(to: element)
            header.pointee.count = count &+ 1
        }

        @inline(__always)
        func removeLast() {
            let count = header.pointee.count &- 1
            (elements + count).deinitialize(count: 1)
            header.pointee.count = count
        }

        /// Removes the top `count` elements (none: nothing is written).
        @inline(__always)
        func removeLast(_ removed: Int) {
            guard removed > 0 else { return }
            let count = header.pointee.count &- removed
            (elements + count).deinitialize(count: removed)
            header.pointee.count = count
        }

        /// Moves the elements from `start` to the top into an array of
        /// `capacity` (exactly sized unless more is asked for).
        ///
        /// (Element by element: `Array(unsafeUninitializedCapacity:)` is not
        /// specialised here and looks up the array's type metadata each time.)
        @inline(__always)
        func take(from start: Int, capacity: Int = 0) -> [Element] {
            let moved = header.pointee.count &- start
            let source = elements + start
            var taken: [Element] = []
            taken.reserveCapacity(Swift.max(moved, capacity))
            for offset in 0..<moved { taken.append((source + offset).move()) }
            header.pointee.count = start
            return taken
        }

        /// Doubles the capacity (at least 16 elements).
        @inline(never)
        func grow() {
            let count = header.pointee.count
            let capacity = Swift.max(16, header.pointee.capacity &* 2)
            let new = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
            if header.pointee.capacity > 0 {
                new.moveInitialize(from: elements, count: count)
                elements.deallocate()
            }
            header.pointee.base = UnsafeMutableRawPointer(new)
            header.pointee.capacity = capacity
        }

        /// Destroys the elements and frees the memory.
        func release() {
            guard header.pointee.capacity > 0 else { return }
            elements.deinitialize(count: header.pointee.count)
            elements.deallocate()
            header.pointee = StackHeader(base: JSONReader.emptyStackHeader.pointee.base)
        }
    }

    /// The headers of one reader's stacks, and the owner of their memory.
    final class StackStorage {
        static let stackCount = 5
        let headers: UnsafeMutablePointer<StackHeader>

        init() {
            headers = .allocate(capacity: StackStorage.stackCount)
            headers.initialize(
                repeating: StackHeader(base: JSONReader.emptyStackHeader.pointee.base), count: StackStorage.stackCount)
        }

        deinit {
            Stack<Frame>(header: headers).release()
            Stack<ModelValue>(header: headers + 1).release()
            Stack<String>(header: headers + 2).release()
            Stack<UInt64>(header: headers + 3).release()
            Stack<Int>(header: headers + 4).release()
            headers.deallocate()
        }
    }

    /// The header every stack reads before its reader opens a container:
    /// empty, with an address that is never read. Never written.
    nonisolated(unsafe) static let emptyStackHeader: UnsafeMutablePointer<StackHeader> = {
        let header = UnsafeMutablePointer<StackHeader>.allocate(capacity: 1)
        header.initialize(to: StackHeader(base: UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 16)))
        return header
    }()

    /// Gives the reader stacks of its own (on opening its first container).
    @inline(never)
    mutating func makeStacks() {
        let storage = StackStorage()
        stackStorage = storage
        frames = Stack(header: storage.headers)
        values = Stack(header: storage.headers + 1)
        keys = Stack(header: storage.headers + 2)
        keyHashes = Stack(header: storage.headers + 3)
        keyOffsets = Stack(header: storage.headers + 4)
    }
}
