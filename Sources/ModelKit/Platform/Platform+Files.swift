#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

extension Platform {
    /// `write(2)`: writes up to `count` bytes to `descriptor`, returning the
    /// count written or -1 (with `errno`). Named through its module, apart
    /// from the `write` methods in scope where it is called.
    @inline(__always)
    static func write(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Darwin)
            // Apple's <unistd.h>: `ssize_t write(int, const void *, size_t)`.
            Darwin.write(descriptor, buffer, count)
        #elseif canImport(Glibc)
            Glibc.write(descriptor, buffer, count)
        #elseif canImport(Musl)
            Musl.write(descriptor, buffer, count)
        #endif
    }

    /// Syncs a file's (or a folder's) bytes to the device, so that they
    /// survive a power cut: `F_FULLFSYNC` on Apple platforms, where plain
    /// `fsync` leaves them in the drive's cache, else `fsync`, retried when
    /// a signal interrupts it.
    /// - Returns: whether it succeeded (`errno` says why not).
    static func syncFile(_ descriptor: Int32) -> Bool {
        #if canImport(Darwin)
            // Apple's <sys/fcntl.h>: `F_FULLFSYNC` (51), "flush data to the
            // drive's permanent storage" (fcntl(2) and fsync(2) manual pages;
            // SQLite's os_unix.c calls it so on Apple platforms).
            // A file system that does not support it (some network volumes)
            // gets `fsync` below.
            if fcntl(descriptor, F_FULLFSYNC) == 0 { return true }
        #endif
        while fsync(descriptor) != 0 {
            if errno != EINTR { return false }
        }
        return true
    }

    /// Puts the file at `replacement` in the place of the file at
    /// `destination`, at once: whoever opens `destination` finds the old
    /// file or the new one.
    /// - Throws: ``ModelError`` naming `url` with the cause.
    static func replaceItem(at destination: URL, withItemAt replacement: URL, url: URL) throws {
        #if canImport(Darwin)
            // Apple's Foundation: `FileManager.replaceItemAt(_:withItemAt:backupItemName:options:)`,
            // the replacement Apple documents for an item-replacement folder's
            // file; it swaps the two atomically where the volume can, and a
            // sandboxed app may call it on a file it holds a URL of.
            do {
                _ = try FileManager.default.replaceItemAt(destination, withItemAt: replacement)
            } catch {
                throw DurableFile.failure(url, "the file could not be replaced: \(error.localizedDescription)")
            }
        #else
            guard rename(replacement.path, destination.path) == 0 else {
                throw DurableFile.failure(url, "the file could not be replaced: \(DurableFile.describe(errno))")
            }
        #endif
    }

}
