#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Platform {
    /// The address of the function or variable `name` in the running
    /// process (every image loaded), or nil when none has it.
    ///
    /// ModelKit looks up by name what the C library has but Swift cannot see
    /// (`pthread_getattr_np`, the extended-attribute calls on Linux) and what
    /// only some processes have (AddressSanitizer's interface).
    static func symbol(named name: String) -> UnsafeMutableRawPointer? {
        dlsym(everywhere, name)
    }

    /// `RTLD_DEFAULT`, the handle that searches every loaded image.
    private static var everywhere: UnsafeMutableRawPointer? {
        #if canImport(Darwin)
            // Apple's <dlfcn.h> defines it as `((void *) -2)`, a macro with a
            // cast that Swift cannot import (dlsym(3) on Apple platforms; the
            // same bit pattern as the Swift runtime's own Darwin lookups).
            UnsafeMutableRawPointer(bitPattern: -2)
        #else
            // glibc's and musl's <dlfcn.h>: `((void *) 0)`.
            nil
        #endif
    }
}
