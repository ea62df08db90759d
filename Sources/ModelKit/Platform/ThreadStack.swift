#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The running thread's stack as the system describes it, and where on it
/// the caller's frame really lies, also under AddressSanitizer.
///
/// Stacks grow down on every platform ModelKit supports: the room left to a
/// frame is its address minus the stack's lowest address.
enum ThreadStack {
    /// The lowest and highest addresses of the running thread's stack, or
    /// nil when the system cannot say. Asking costs a system call (on Linux's
    /// main thread, a read of `/proc/self/maps`): keep the answer.
    static func currentBounds() -> (low: UInt, high: UInt)? {
        #if canImport(Darwin)
            // Apple's <pthread.h>: `void *pthread_get_stackaddr_np(pthread_t)`
            // (the stack's highest address) and `size_t
            // pthread_get_stacksize_np(pthread_t)`; Apple's documentation of
            // pthread and swift-corelibs-foundation's Thread use them so.
            let thread = pthread_self()
            let high = UInt(bitPattern: pthread_get_stackaddr_np(thread))
            let size = UInt(pthread_get_stacksize_np(thread))
            guard size > 0, high > size else { return nil }
            return (high - size, high)
        #else
            guard let attributesOfThread = Self.attributesOfThread else { return nil }
            // Allocated, not a Swift value: pthread_getattr_np sets it up.
            let attributes = UnsafeMutablePointer<pthread_attr_t>.allocate(capacity: 1)
            defer { attributes.deallocate() }
            guard attributesOfThread(pthread_self(), attributes) == 0 else { return nil }
            defer { pthread_attr_destroy(attributes) }
            var start: UnsafeMutableRawPointer?
            var size = 0
            guard pthread_attr_getstack(attributes, &start, &size) == 0, let start, size > 0 else { return nil }
            let low = UInt(bitPattern: start)
            return (low, low + UInt(size))
        #endif
    }

    #if !canImport(Darwin)
        /// `pthread_getattr_np`, which glibc and musl have but declare only
        /// for `_GNU_SOURCE`, so Swift does not see it: found with `dlsym`.
        private static let attributesOfThread:
            (@convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>?) -> CInt)? = {
                guard let function = Platform.symbol(named: "pthread_getattr_np") else { return nil }
                return unsafeBitCast(
                    function, to: (@convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>?) -> CInt).self)
            }()
    #endif

    /// The address of the caller's frame on the real stack, near enough.
    ///
    /// It is the address of a local of this function, except under
    /// AddressSanitizer, which (detecting use after return, on by default
    /// on Linux) puts a function's locals in a fake frame on the heap: there
    /// ASan's interface gives the real frame the fake one stands for.
    @inline(never)
    static func frameAddress() -> UInt {
        var marker: UInt8 = 0
        return withUnsafeMutablePointer(to: &marker) { pointer in
            // Looked up while this function's fake frame is live: ASan
            // forgets a fake frame once its function returns.
            let local = UnsafeMutableRawPointer(pointer)
            if let sanitizer = FakeStacks.interface, let fakeStack = sanitizer.currentFakeStack(),
                let real = sanitizer.realFrame(fakeStack, local, nil, nil)
            {
                return UInt(bitPattern: real)
            }
            return UInt(bitPattern: local)
        }
    }
}

/// AddressSanitizer's fake stacks, when the process runs under it.
///
/// Found at run time with `dlsym`, so that ModelKit needs no sanitizer to
/// build and costs nothing without one; the two functions are part of ASan's
/// public interface (`sanitizer/asan_interface.h`).
private struct FakeStacks: @unchecked Sendable {
    typealias CurrentFakeStack = @convention(c) () -> UnsafeMutableRawPointer?
    typealias RealFrame =
        @convention(c) (
            _ fakeStack: UnsafeMutableRawPointer?, _ address: UnsafeMutableRawPointer?,
            _ frameStart: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
            _ frameEnd: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        ) -> UnsafeMutableRawPointer?

    /// `__asan_get_current_fake_stack`: this thread's fake stack, or nil when
    /// locals stay on the real stack.
    let currentFakeStack: CurrentFakeStack
    /// `__asan_addr_is_in_fake_stack`: for an address in a live fake frame
    /// of the fake stack, the address on the real stack where that frame's
    /// function runs; else nil.
    let realFrame: RealFrame

    /// The interface, or nil without AddressSanitizer.
    static let interface: FakeStacks? = {
        guard let current = Platform.symbol(named: "__asan_get_current_fake_stack"),
            let real = Platform.symbol(named: "__asan_addr_is_in_fake_stack")
        else { return nil }
        return FakeStacks(
            currentFakeStack: unsafeBitCast(current, to: CurrentFakeStack.self),
            realFrame: unsafeBitCast(real, to: RealFrame.self))
    }()
}
