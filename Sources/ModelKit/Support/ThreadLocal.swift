#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One instance of `Value` per thread, created on first use and released when
/// the thread ends. Built on POSIX thread-specific data, which every platform
/// ModelKit supports has.
@usableFromInline
final class ThreadLocal<Value: AnyObject>: @unchecked Sendable {
    // A constant, so that reading it needs no exclusivity check.
    @usableFromInline let key: pthread_key_t
    private let make: @Sendable () -> Value

    init(_ make: @escaping @Sendable () -> Value) {
        self.make = make
        key = Platform.makeThreadKey { pointer in
            if let pointer { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
        }
    }

    /// This thread's instance.
    @usableFromInline
    var value: Value {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<Value>.fromOpaque(pointer).takeUnretainedValue()
        }
        let created = make()
        pthread_setspecific(key, Unmanaged.passRetained(created).toOpaque())
        return created
    }

    /// Makes `value` this thread's instance (a thread that continues the
    /// work of another shares that thread's instance while the other waits).
    func install(_ value: Value) {
        if let old = pthread_getspecific(key) { Unmanaged<AnyObject>.fromOpaque(old).release() }
        pthread_setspecific(key, Unmanaged.passRetained(value).toOpaque())
    }

    /// The instance of this thread, if it has one yet.
    var existingValue: Value? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        return Unmanaged<Value>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Runs `body` on this thread's instance without retaining it: the
    /// thread's table keeps it alive for as long as the thread runs.
    @inlinable @inline(__always)
    func withValue<Result>(_ body: (Value) -> Result) -> Result {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<Value>.fromOpaque(pointer)._withUnsafeGuaranteedRef(body)
        }
        return body(value)
    }
}
