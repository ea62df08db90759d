#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One allocation per object holding its ``ModelState``, the re-entrant lock
/// that guards it, and the values of its saved properties.
///
/// The memory starts with the state; then come the lock, a POSIX mutex of
/// the recursive kind, where its address stays fixed for the object's life,
/// in the first `lockCells` cells; then the saved values, one `SlotCell` per
/// slot, typed (see `SlotCell`). Recursive, because a thread that holds an
/// object's lock (inside `ModelObject.withLock(_:)`, or while a saved
/// property is mutated in place) may read and write the object's other
/// saved properties. A pthread mutex, rather than `Synchronization.Mutex`,
/// because ThreadSanitizer on Linux cannot see `Mutex`'s futex-based locking
/// and would report correct code as racy.
///
/// Plain memory, not a reference-counted object: its one owner (the model
/// object, or an observation token using it as a lock) makes it in its
/// initialiser and calls `destroy()` in its `deinit`, so a new object costs
/// one allocation of the runtime's and one `malloc`, and no reference count
/// is touched to reach its state.
///
/// The state and the values are only reached through `withState` (in
/// `ModelObject`) and the accessors beside it, which take the lock; bodies
/// given to them never run code that could take it again while they hold
/// `inout` access to the state.
@usableFromInline
struct ModelStorage {
    /// The start of the allocation: the state.
    @usableFromInline let base: UnsafeMutableRawPointer

    /// Bytes before the lock: the state, rounded up to sixteen.
    @inlinable @inline(__always)
    static var headerSize: Int { (MemoryLayout<ModelState>.stride + 15) & ~15 }

    /// Cells taken by the mutex, before the first value.
    @inlinable @inline(__always)
    static var lockCells: Int { (MemoryLayout<pthread_mutex_t>.size + SlotCell.size - 1) / SlotCell.size }

    /// Bytes before the first value.
    @inlinable @inline(__always)
    static var cellsOffset: Int { headerSize &+ lockCells &* SlotCell.size }

    @inlinable
    init(base: UnsafeMutableRawPointer) {
        self.base = base
    }

    /// A storage for the values of `layout`'s slots, its lock ready; `fill`
    /// initialises the cells of the values (`layout.slotCount` of them).
    static func make(layout: ClassLayout, fill: (UnsafeMutableRawPointer) -> Void) -> ModelStorage {
        // malloc's alignment (16 bytes) is more than the state, the lock and
        // the cells need. (`UnsafeMutableRawPointer.allocate` would take the
        // runtime's aligned-allocation path, `posix_memalign` on Linux,
        // whatever the alignment asked for.)
        guard let base = malloc(cellsOffset + layout.slotCount * SlotCell.size) else {
            fatalError("ModelKit: out of memory for an object's storage")
        }
        let cells = base + cellsOffset
        base.initializeMemory(as: ModelState.self, to: ModelState(layout: layout, cells: cells))
        let mutex = (base + headerSize).bindMemory(to: pthread_mutex_t.self, capacity: 1)
        Platform.initializeRecursiveMutex(mutex)
        fill(cells)
        return ModelStorage(base: base)
    }


    /// Destroys the values (by their types), the state and the lock, and
    /// frees the memory: the owner's `deinit` calls it, once.
    ///
    /// Releasing a value may release the last reference to another model,
    /// whose `deinit` runs inside this one: a chain of models linked by
    /// `next` would recurse once per model and overflow the stack. So a
    /// storage destroyed while another is being destroyed on the same
    /// thread is not destroyed there: it waits on the thread's
    /// ``ReleaseQueue``, which the outermost destruction empties in a loop.
    /// Any graph is freed at a constant depth of stack; a storage with no
    /// values to destroy never looks at the queue.
    func destroy() {
        let header = base.assumingMemoryBound(to: ModelState.self)
        if header.pointee.layout.slotsToDestroy.isEmpty {
            destroyContents()
            return
        }
        let key = ReleaseQueue.key
        if let marker = pthread_getspecific(key) {
            // Inside another destruction on this thread: wait in its queue.
            ReleaseQueue.enqueue(base, marker: marker)
            return
        }
        pthread_setspecific(key, ReleaseQueue.draining)
        destroyContents()
        if let marker = pthread_getspecific(key), marker != ReleaseQueue.draining {
            ReleaseQueue.drain(marker)
        }
        pthread_setspecific(key, nil)
    }

    /// Destroys the values, the state and the lock, and frees the memory.
    fileprivate func destroyContents() {
        let header = base.assumingMemoryBound(to: ModelState.self)
        // Borrowed, not retained: layouts live as long as the process.
        let layout = Unmanaged.passUnretained(header.pointee.layout)
        let cells = base + Self.cellsOffset
        layout._withUnsafeGuaranteedRef { layout in
            layout.slotsToDestroy.withUnsafeBufferPointer { slots in
                layout.typesToDestroy.withUnsafeBufferPointer { types in
                    for index in slots.indices {
                        types[index]._destroyStoredValue(at: cells + slots[index] &* SlotCell.size)
                    }
                }
            }
        }
        if header.pointee.holdsReferences { header.deinitialize(count: 1) }
        pthread_mutex_destroy(mutex)
        free(base)
    }

    /// Runs `body` on the state (the caller holds the lock, or the object is
    /// not shared yet).
    @inlinable @inline(__always)
    func withUnsafeMutablePointerToHeader<Result>(
        _ body: (UnsafeMutablePointer<ModelState>) throws -> Result
    ) rethrows -> Result {
        try body(base.assumingMemoryBound(to: ModelState.self))
    }

    /// The first value cell.
    @inlinable @inline(__always)
    var cells: UnsafeMutableRawPointer { base + Self.cellsOffset }

    /// The cell of `slot`.
    @inlinable @inline(__always)
    func cell(_ slot: Int) -> UnsafeMutableRawPointer {
        base + (Self.cellsOffset &+ slot &* SlotCell.size)
    }

    @inlinable @inline(__always)
    var mutex: UnsafeMutablePointer<pthread_mutex_t> {
        (base + Self.headerSize).assumingMemoryBound(to: pthread_mutex_t.self)
    }

    /// Takes the lock, waiting for another thread to release it; a thread
    /// that holds it already takes it once more.
    @inlinable @inline(__always)
    func lock() {
        let status = pthread_mutex_lock(mutex)
        if status != 0 { Self.lockFailed("pthread_mutex_lock", status) }
    }

    /// Releases the lock once.
    @inlinable @inline(__always)
    func unlock() {
        let status = pthread_mutex_unlock(mutex)
        if status != 0 { Self.lockFailed("pthread_mutex_unlock", status) }
    }

    @usableFromInline
    static func lockFailed(_ call: String, _ status: Int32) -> Never {
        preconditionFailure("ModelKit: \(call) failed (\(status))")
    }
}

/// The storages of models released while another model's storage is being
/// destroyed on this thread, waiting for the outermost destruction to
/// destroy them one after another (see ``ModelStorage/destroy()``).
///
/// The thread's slot (POSIX thread-specific data) is `nil` when no
/// destruction runs, ``draining`` while one runs with nothing waiting, and
/// the queue once something waits: the common case, an object freed with no
/// model inside freed with it, costs two reads and two writes of the slot
/// and no allocation.
final class ReleaseQueue {
    /// The storages waiting, as their bases.
    /// Only its own thread reaches a queue (through the thread-specific
    /// key), so its accesses need no dynamic exclusivity checks.
    @exclusivity(unchecked) var pending: [UnsafeMutableRawPointer] = []

    static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "ModelKit: pthread_key_create failed (\(status))")
        return key
    }()

    /// The slot's value while a destruction runs with nothing waiting.
    static var draining: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: 1).unsafelyUnwrapped }

    /// Puts `base` in the queue that the slot's `marker` stands for, making
    /// the queue when it is the first to wait.
    static func enqueue(_ base: UnsafeMutableRawPointer, marker: UnsafeMutableRawPointer) {
        if marker == draining {
            let queue = ReleaseQueue()
            queue.pending.append(base)
            pthread_setspecific(key, Unmanaged.passRetained(queue).toOpaque())
        } else {
            Unmanaged<ReleaseQueue>.fromOpaque(marker)._withUnsafeGuaranteedRef { $0.pending.append(base) }
        }
    }

    /// Destroys the waiting storages, and those that wait while it does, then
    /// lets the queue go.
    static func drain(_ marker: UnsafeMutableRawPointer) {
        let queue = Unmanaged<ReleaseQueue>.fromOpaque(marker)
        while let next = queue._withUnsafeGuaranteedRef({ $0.pending.popLast() }) {
            ModelStorage(base: next).destroyContents()
        }
        queue.release()
    }
}
