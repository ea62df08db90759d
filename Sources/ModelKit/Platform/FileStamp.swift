#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What identifies one version of a file: replacing it atomically gives it a
/// new inode, writing it in place a new size or modification time.
///
/// The `stat` fields that differ by platform are read here only: the
/// modification time is `st_mtimespec` in Apple's `<sys/stat.h>` and
/// `st_mtim` in glibc's and musl's; `st_size` is `off_t`, 64 bits on every
/// platform (so a size stays `Int64`: `Int` has 32 bits on watchOS).
struct FileStamp: Hashable, Sendable {
    var seconds: Int64
    var nanoseconds: Int64
    var size: Int64
    var device: UInt64
    var inode: UInt64
    /// Whether it is a regular file (a store reads and replaces nothing else).
    var isRegularFile: Bool

    /// The stamp of the file at `path` (a link followed), or nil when it
    /// cannot be looked at (`errno` says why).
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    /// The stamp of the file open as `descriptor`, or nil.
    init?(descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        self.init(info)
    }

    init(_ info: stat) {
        isRegularFile = info.st_mode & S_IFMT == S_IFREG
        #if canImport(Darwin)
            // Apple's <sys/stat.h>: `struct timespec st_mtimespec` (swift-nio's
            // NIOFileSystem compares it so in its Darwin `stat` equality).
            seconds = Int64(info.st_mtimespec.tv_sec)
            nanoseconds = Int64(info.st_mtimespec.tv_nsec)
        #else
            seconds = Int64(info.st_mtim.tv_sec)
            nanoseconds = Int64(info.st_mtim.tv_nsec)
        #endif
        size = Int64(info.st_size)
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(info.st_ino)
    }
}
