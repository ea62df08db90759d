#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Platform {
    /// The calling thread's identity, never 0.
    ///
    /// `pthread_t` is an integer (`UInt`) in glibc and an opaque pointer in
    /// Darwin's and musl's headers (swift-nio's `ThreadPosix.swift` wraps
    /// both; Apple's `<sys/_pthread/_pthread_t.h>`: `struct _opaque_pthread_t *`).
    @inlinable @inline(__always)
    static func threadID() -> UInt {
        #if canImport(Glibc)
            UInt(pthread_self())
        #else
            UInt(bitPattern: pthread_self())
        #endif
    }

    /// The destructor of a thread-specific value: called with the value
    /// when a thread that set one ends.
    typealias ThreadValueDestructor = @convention(c) (UnsafeMutableRawPointer?) -> Void

    /// A new key for thread-specific values whose `destructor` runs for
    /// each thread's non-nil value when that thread ends.
    ///
    /// Darwin declares the destructor's argument non-optional
    /// (`void (*)(void * _Nonnull)` in Apple's `<pthread.h>`, imported as
    /// `(UnsafeMutableRawPointer) -> Void`; swift-nio's `ThreadPosix.swift`
    /// spells both), glibc and musl optional. The two have the same
    /// representation, a C function pointer, so one is cast to the other.
    static func makeThreadKey(destructor: ThreadValueDestructor) -> pthread_key_t {
        var key = pthread_key_t()
        #if canImport(Darwin)
            typealias DarwinDestructor = @convention(c) (UnsafeMutableRawPointer) -> Void
            let status = pthread_key_create(&key, unsafeBitCast(destructor, to: DarwinDestructor.self))
        #else
            let status = pthread_key_create(&key, destructor)
        #endif
        precondition(status == 0, "ModelKit: pthread_key_create failed (\(status))")
        return key
    }

    /// Runs `work` on a new thread with a stack of `stackSize` bytes and
    /// waits for it to end.
    /// - Returns: 0, or `pthread_create`'s error when no thread could be
    ///   started (then `work` did not run).
    static func runOnNewThread(stackSize: Int, _ work: @escaping () -> Void) -> CInt {
        final class Work {
            let body: () -> Void
            init(_ body: @escaping () -> Void) { self.body = body }
        }
        // Allocated, not a Swift value: pthread_attr_init sets it up.
        let attributes = UnsafeMutablePointer<pthread_attr_t>.allocate(capacity: 1)
        pthread_attr_init(attributes)
        defer {
            pthread_attr_destroy(attributes)
            attributes.deallocate()
        }
        pthread_attr_setstacksize(attributes, stackSize)
        let argument = Unmanaged.passRetained(Work(work)).toOpaque()
        #if canImport(Darwin)
            // Apple's <pthread.h>: `pthread_t _Nullable * _Nonnull` and a start
            // routine `void * _Nullable (*)(void * _Nonnull)` (swift-nio's
            // `ThreadPosix.swift`, `sysPthread_create`, calls it so).
            var thread: pthread_t?
            let status = pthread_create(&thread, attributes, { argument in
                Unmanaged<Work>.fromOpaque(argument).takeRetainedValue().body()
                return nil
            }, argument)
        #else
            var thread = pthread_t()
            let status = pthread_create(&thread, attributes, { argument in
                Unmanaged<Work>.fromOpaque(argument!).takeRetainedValue().body()
                return nil
            }, argument)
        #endif
        guard status == 0 else {
            Unmanaged<Work>.fromOpaque(argument).release()
            return status
        }
        #if canImport(Darwin)
            pthread_join(thread!, nil)
        #else
            pthread_join(thread, nil)
        #endif
        return 0
    }
}
