#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every call that ModelKit makes differently per platform, in one place.
///
/// The rest of ModelKit calls the members of `Platform` (and the types of
/// this folder: `ThreadStack`, `FileStamp`, `FileWatcher`,
/// `DurableFile+Attributes`) and has no `#if os` or `#if canImport(Darwin)`
/// of its own, so a reviewer checks one platform concern by reading one
/// file, with the Darwin and the Glibc/Musl spellings side by side:
///
/// | file | concern |
/// | --- | --- |
/// | `Platform+Symbols.swift` | `dlsym` in the whole process |
/// | `Platform+Threads.swift` | thread identity, thread-specific keys, threads with a given stack |
/// | `ThreadStack.swift` | a thread's stack bounds, and frames under AddressSanitizer |
/// | `Platform+Locks.swift` | recursive mutexes |
/// | `Platform+Files.swift` | writing and syncing descriptors, sizes |
/// | `FileStamp.swift` | the `stat` fields that identify a version of a file |
/// | `DurableFile+Attributes.swift` | permission bits, ACLs and extended attributes |
/// | `Platform+Folders.swift` | where the standard store lives |
/// | `Platform+Lifecycle.swift` | the notifications that an app is leaving the foreground or ending |
/// | `FileWatcher.swift` | watching a file for changes (kqueue, inotify, polling) |
///
/// Nothing here compiles on an Apple platform in this project's CI, so each
/// Darwin-only line names where its signature was confirmed.
@usableFromInline
enum Platform {
    /// Whether a saved value's 32-byte cell can be moved by copying its
    /// bytes. Swift moves every value bitwise except, where the Objective-C
    /// runtime exists, weak references to Objective-C objects (and values
    /// holding them), which the runtime tracks by address; there each cell is
    /// moved through its codec.
    ///
    /// A build with `-D MODELKIT_APPLE_PATHS` moves cells through their
    /// codecs too, so that CI on Linux runs the Apple platforms' path.
    @inlinable @inline(__always)
    static var movesCellsBitwise: Bool {
        #if canImport(ObjectiveC) || MODELKIT_APPLE_PATHS
            false
        #else
            true
        #endif
    }

    /// Whether this build takes the Apple platforms' paths where they need
    /// only the standard library (`-D MODELKIT_APPLE_PATHS`): number parsing
    /// without `Float80`, strings made without `UTF8Span` (Apple systems
    /// before the 26 releases) and cells moved through their codecs
    /// (``movesCellsBitwise``). CI builds Linux with it on to run those
    /// paths; see README's "Platforms".
    @inlinable @inline(__always)
    static var takesApplePaths: Bool {
        #if MODELKIT_APPLE_PATHS
            true
        #else
            false
        #endif
    }
}
