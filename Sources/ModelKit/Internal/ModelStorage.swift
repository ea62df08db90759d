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
/// The header is the state. The elements are `SlotCell`s: the first
/// `lockCells` hold the lock, a POSIX mutex of the recursive kind, where its
/// address stays fixed for the object's life; the rest hold the saved values,
/// one cell per slot, typed (see `SlotCell`). Recursive, because a thread
/// that holds an object's lock (inside `ModelObject.withLock(_:)`, or while a
/// saved property is mutated in place) may read and write the object's other
/// saved properties. A pthread mutex, rather than `Synchronization.Mutex`,
/// because ThreadSanitizer on Linux cannot see `Mutex`'s futex-based locking
/// and would report correct code as racy.
///
/// The state and the values are only reached through `withState` (in
/// `ModelObject`) and the accessors beside it, which take the lock; bodies
/// given to them never run code that could take it again while they hold
/// `inout` access to the state.
@usableFromInline
final class ModelStorage: ManagedBuffer<ModelState, SlotCell> {
    /// Cells taken by the mutex, before the first value.
    @inlinable @inline(__always)
    static var lockCells: Int { (MemoryLayout<pthread_mutex_t>.size + SlotCell.size - 1) / SlotCell.size }

    /// A storage for the values of `layout`'s slots, its lock ready; `fill`
    /// initialises the cells of the values (`layout.slotCount` of them).
    static func make(layout: ClassLayout, fill: (UnsafeMutableRawPointer) -> Void) -> ModelStorage {
        let buffer = create(minimumCapacity: lockCells + layout.slotCount) { buffer in
            let cells = buffer.withUnsafeMutablePointerToElements { UnsafeMutableRawPointer($0) + lockCells * SlotCell.size }
            return ModelState(layout: layout, cells: cells)
        }
        let storage = unsafeDowncast(buffer, to: ModelStorage.self)
        storage.withUnsafeMutablePointerToElements { elements in
            let raw = UnsafeMutableRawPointer(elements)
            let mutex = raw.bindMemory(to: pthread_mutex_t.self, capacity: 1)
            #if canImport(Glibc)
                // glibc's mutex is plain data until first locked: a fresh
                // recursive one is what PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP
                // (a macro Swift cannot import) gives, so it is copied from a
                // template made once, instead of setting up attributes and
                // calling pthread_mutex_init for every object.
                mutex.initialize(to: Self.recursiveMutexTemplate.value)
            #else
                var attributes = pthread_mutexattr_t()
                pthread_mutexattr_init(&attributes)
                pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
                let status = pthread_mutex_init(mutex, &attributes)
                pthread_mutexattr_destroy(&attributes)
                precondition(status == 0, "ModelKit: pthread_mutex_init failed (\(status))")
            #endif
            fill(raw + lockCells * SlotCell.size)
        }
        return storage
    }

    #if canImport(Glibc)
        /// A recursive mutex, initialised and never locked: the bytes every
        /// new storage's lock starts as.
        private static let recursiveMutexTemplate: UncheckedSendable<pthread_mutex_t> = {
            var mutex = pthread_mutex_t()
            var attributes = pthread_mutexattr_t()
            pthread_mutexattr_init(&attributes)
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
            let status = pthread_mutex_init(&mutex, &attributes)
            pthread_mutexattr_destroy(&attributes)
            precondition(status == 0, "ModelKit: pthread_mutex_init failed (\(status))")
            return UncheckedSendable(mutex)
        }()
    #endif

    deinit {
        // ManagedBuffer destroys the header (the state) itself; the values
        // are this class's to destroy, by their types.
        // Borrowed, not retained: layouts live as long as the process.
        let layout = withUnsafeMutablePointerToHeader { Unmanaged.passUnretained($0.pointee.layout) }
        withUnsafeMutablePointerToElements { elements in
            let raw = UnsafeMutableRawPointer(elements)
            let cells = raw + Self.lockCells * SlotCell.size
            layout._withUnsafeGuaranteedRef { layout in
                layout.slotsToDestroy.withUnsafeBufferPointer { slots in
                    layout.typesToDestroy.withUnsafeBufferPointer { types in
                        for index in slots.indices {
                            types[index]._destroyStoredValue(at: cells + slots[index] &* SlotCell.size)
                        }
                    }
                }
            }
            pthread_mutex_destroy(raw.assumingMemoryBound(to: pthread_mutex_t.self))
        }
    }

    /// The first value cell.
    @inlinable @inline(__always)
    var cells: UnsafeMutableRawPointer {
        withUnsafeMutablePointerToElements { UnsafeMutableRawPointer($0) + Self.lockCells &* SlotCell.size }
    }

    /// The cell of `slot`.
    @inlinable @inline(__always)
    func cell(_ slot: Int) -> UnsafeMutableRawPointer {
        withUnsafeMutablePointerToElements {
            UnsafeMutableRawPointer($0) + (Self.lockCells &+ slot) &* SlotCell.size
        }
    }

    @inlinable @inline(__always)
    var mutex: UnsafeMutablePointer<pthread_mutex_t> {
        withUnsafeMutablePointerToElements { UnsafeMutableRawPointer($0).assumingMemoryBound(to: pthread_mutex_t.self) }
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
