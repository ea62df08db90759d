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
    /// The lock file.
    let url: URL
    /// The file it guards, which errors name (the user never gave the lock's name).
    let file: URL

    /// Runs `body` holding the lock, waiting for it: exclusively, or
    /// `shared` with other shared holders (each call opens the lock file
    /// again, so threads of one process exclude one another as processes
    /// do); makes the lock file (`0600`, and its folders `0700`) when
    /// missing. Readers of a document take no lock: writers replace it
    /// atomically.
    /// - Throws: ``ModelError`` naming the guarded file when the lock
    ///   cannot be opened or taken, with the cause in words; what `body` throws.
    func withLock<Result>(shared: Bool = false, _ body: () throws -> Result) throws -> Result {
        try DurableFile.makeFolders(url.deletingLastPathComponent(), file: file)
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw DurableFile.creationFailure(file, folder: url.deletingLastPathComponent().path, code: errno, creating: !FileManager.default.fileExists(atPath: file.path))
        }
        defer { close(descriptor) }
        var status: Int32
        repeat {
            status = flock(descriptor, shared ? LOCK_SH : LOCK_EX)
        } while status != 0 && errno == EINTR
        guard status == 0 else {
            throw DurableFile.failure(
                file, "the lock beside it (\(url.lastPathComponent)) could not be taken: \(DurableFile.describe(errno))")
        }
        defer { _ = flock(descriptor, LOCK_UN) }
        return try body()
    }
}
