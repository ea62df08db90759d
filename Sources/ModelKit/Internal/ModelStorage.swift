#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One allocation per object holding its ``ModelState`` and the re-entrant
/// lock that guards it.
///
/// The lock is a POSIX mutex of the recursive kind, in the buffer's single
/// element, where its address stays fixed for the object's life. Recursive,
/// because a thread that holds an object's lock (inside
/// `ModelObject.withLock(_:)`, or while a saved property is mutated in place)
/// may read and write the object's other saved properties. A pthread mutex,
/// rather than `Synchronization.Mutex`, because ThreadSanitizer on Linux
/// cannot see `Mutex`'s futex-based locking and would report correct code as
/// racy.
///
/// The state is only reached through `withState` (in `ModelObject`), which
/// takes the lock; bodies given to it never run code that could take it again
/// while they hold `inout` access to the state.
@usableFromInline
final class ModelStorage: ManagedBuffer<ModelState, pthread_mutex_t> {
    /// A storage holding `values`, its lock ready.
    static func make(values: ContiguousArray<Any>) -> ModelStorage {
        let buffer = create(minimumCapacity: 1) { _ in ModelState(values: values) }
        let storage = unsafeDowncast(buffer, to: ModelStorage.self)
        storage.withUnsafeMutablePointerToElements { mutex in
            var attributes = pthread_mutexattr_t()
            pthread_mutexattr_init(&attributes)
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
            let status = pthread_mutex_init(mutex, &attributes)
            pthread_mutexattr_destroy(&attributes)
            precondition(status == 0, "ModelKit: pthread_mutex_init failed (\(status))")
        }
        return storage
    }

    deinit {
        // ManagedBuffer destroys the header (the state) itself.
        _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
    }

    /// Takes the lock, waiting for another thread to release it; a thread
    /// that holds it already takes it once more.
    @usableFromInline
    func lock() {
        let status = withUnsafeMutablePointerToElements { pthread_mutex_lock($0) }
        precondition(status == 0, "ModelKit: pthread_mutex_lock failed (\(status))")
    }

    /// Releases the lock once.
    @usableFromInline
    func unlock() {
        let status = withUnsafeMutablePointerToElements { pthread_mutex_unlock($0) }
        precondition(status == 0, "ModelKit: pthread_mutex_unlock failed (\(status))")
    }
}
