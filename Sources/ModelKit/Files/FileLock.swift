#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

/// An advisory lock on a file beside a document (`settings.plist.lock`),
/// shared by every process that follows the same protocol: `flock` on
/// Linux and Apple platforms. The lock file is never replaced, so the lock
/// holds while the document itself is replaced by atomic writes.
struct FileLock {
    let url: URL

    /// Runs `body` holding the lock exclusively, waiting for it; makes the
    /// lock file (`0600`, and its folders `0700`) when missing. Readers take
    /// no lock: writers replace the document atomically.
    /// - Throws: ``ModelError`` naming the lock file when it cannot be
    ///   opened or locked; what `body` throws.
    func withLock<Result>(_ body: () throws -> Result) throws -> Result {
        try DurableFile.makeFolders(url.deletingLastPathComponent(), file: url)
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ModelError(
                code: .fileAccess, message: "the lock file could not be opened (\(Self.describe(errno)))", file: url)
        }
        defer { close(descriptor) }
        var status: Int32
        repeat {
            status = flock(descriptor, LOCK_EX)
        } while status != 0 && errno == EINTR
        guard status == 0 else {
            throw ModelError(
                code: .fileAccess, message: "the lock file could not be locked (\(Self.describe(errno)))", file: url)
        }
        defer { _ = flock(descriptor, LOCK_UN) }
        return try body()
    }

    private static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
