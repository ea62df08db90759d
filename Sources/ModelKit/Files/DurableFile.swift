#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

/// How far a write goes to survive a power cut.
///
/// Every write is atomic whatever its durability: a crash of the process
/// leaves the previous file or the new one, never a mix. Syncing also makes
/// the new file, and its name, survive a crash of the whole machine.
///
/// ```swift
/// try note.write(to: documentURL)                              // synced
/// try thumbnails.write(to: cacheURL, durability: .unsynced)    // a cache
/// ```
public enum FileDurability: Sendable, Hashable {
    /// The bytes are synced to the device before the rename, and the folder
    /// after it (`fsync`; `F_FULLFSYNC` on Apple platforms): once the write
    /// returns, the new file survives a power cut. The default.
    case synced
    /// No syncs: for caches and scratch files, where a write several times
    /// faster matters more than surviving a power cut. Still atomic.
    case unsynced
}

/// ModelKit's one writer of files: documents (``ModelObject/write(to:format:validating:references:durability:)``),
/// the defaults store and JSON Lines all go through it.
///
/// A write is a database's commit in small:
/// 1. A destination that is a symbolic link is followed (up to 32 links) to
///    the file it names, which gets the new bytes: the link stays a link. A
///    dangling link gets its target created, as a shell's `>` would.
/// 2. Temporary files that killed writers left for this destination are
///    removed (below).
/// 3. The bytes go to a new temporary file in the destination's folder,
///    opened with `O_EXCL` and `O_CLOEXEC`, named
///    `.<name>.modelkit-<pid>-<random>.tmp`, locked with `flock` while it is
///    written. A rewrite gives it the old file's permission bits, and its
///    owner and group where the process may set them.
/// 4. The bytes are synced, the file renamed over the destination, and the
///    folder synced (unless the durability is ``FileDurability/unsynced``).
///
/// Any failure removes the temporary file and leaves the old file byte for
/// byte as it was. A temporary file of this destination whose process is
/// gone and whose lock is free is a killed writer's, and any later write to
/// the destination removes it; one of a live writer (its process alive, or
/// its lock held) is left alone.
enum DurableFile {
    /// Writes `data` to `url` as described above.
    /// - Parameters:
    ///   - newFileMode: the permission bits of a file that does not exist
    ///     yet (less the process's umask); a rewrite keeps the old file's.
    /// - Throws: ``ModelError`` naming `url` and the cause in words.
    static func write(
        _ data: Data, to url: URL, durability: FileDurability = .synced, newFileMode: mode_t = 0o666
    ) throws {
        try requireFileURL(url)
        let destination = try resolvingLinks(url)
        let folder = destination.deletingLastPathComponent().path
        let name = destination.lastPathComponent
        var existing = stat()
        let exists = stat(destination.path, &existing) == 0
        if exists, existing.st_mode & S_IFMT == S_IFDIR {
            throw failure(url, "this is a folder, not a file")
        }
        if exists, access(destination.path, W_OK) != 0, errno == EACCES {
            throw failure(url, "permission denied: the file cannot be written to")
        }
        removeAbandonedTemporaryFiles(of: name, in: folder)

        let temporary = TemporaryName(for: name)
        let temporaryPath = folder + "/" + temporary.fileName
        ActiveTemporaryFiles.insert(temporaryPath)
        defer { ActiveTemporaryFiles.remove(temporaryPath) }
        let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, exists ? 0o600 : newFileMode)
        guard descriptor >= 0 else { throw creationFailure(url, folder: folder, code: errno) }
        var renamed = false
        var closed = false
        defer {
            if !closed { close(descriptor) }
            if !renamed { unlink(temporaryPath) }
        }
        _ = flock(descriptor, LOCK_EX | LOCK_NB)
        if exists {
            if existing.st_uid != geteuid() || existing.st_gid != getegid() {
                _ = fchown(descriptor, existing.st_uid, existing.st_gid)  // where the process may
            }
            guard fchmod(descriptor, existing.st_mode & 0o7777) == 0 else {
                throw failure(url, "its permissions could not be kept (\(describe(errno)))")
            }
        }
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc_write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw failure(url, "the file could not be written: \(describe(errno))")
                }
                offset += written
            }
        }
        if durability == .synced {
            guard syncFile(descriptor) else { throw failure(url, "the file could not be synced: \(describe(errno))") }
        }
        closed = true
        guard close(descriptor) == 0 else {
            throw failure(url, "the file could not be written: \(describe(errno))")
        }
        guard rename(temporaryPath, destination.path) == 0 else {
            throw failure(url, "the file could not be replaced: \(describe(errno))")
        }
        renamed = true
        if durability == .synced {
            syncFolder(folder)
        }
    }

    // MARK: - Links

    /// The file that `url` names once symbolic links in its last component
    /// are followed; `url` itself when it is no link.
    static func resolvingLinks(_ url: URL) throws -> URL {
        var path = url.path
        for _ in 0..<32 {
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else {
                return URL(fileURLWithPath: path)
            }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(path, &buffer, buffer.count - 1)
            guard count >= 0 else { return URL(fileURLWithPath: path) }
            let target = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            path =
                target.hasPrefix("/")
                ? target : (path as NSString).deletingLastPathComponent + "/" + target
        }
        throw failure(url, "too many symbolic links")
    }

    // MARK: - Folders

    /// Makes `folder` and the folders above it that are missing, each
    /// `mode` (less the umask), as the XDG base-directory specification asks
    /// of settings (`0700`). Folders that exist keep their mode.
    /// - Throws: ``ModelError`` naming `file` when a folder cannot be made.
    static func makeFolders(_ folder: URL, file: URL, mode: mode_t = 0o700) throws {
        var missing: [String] = []
        var path = folder.standardizedFileURL.path
        var status = stat()
        while !path.isEmpty, path != "/", stat(path, &status) != 0 {
            guard errno == ENOENT else { break }
            missing.append(path)
            path = (path as NSString).deletingLastPathComponent
        }
        for path in missing.reversed() where mkdir(path, mode) != 0 && errno != EEXIST {
            let code = errno
            throw failure(file, "the folder \(path) could not be made: \(describe(code))")
        }
    }

    // MARK: - Temporary files

    /// A temporary file's name: the destination's name (or a hash of a long
    /// one), this process's id, and a random part.
    struct TemporaryName {
        static let marker = ".modelkit-"
        static let suffix = ".tmp"
        let fileName: String

        init(for name: String) {
            let random = String(UInt32.random(in: .min ... .max), radix: 16)
            fileName = Self.prefix(for: name) + "\(getpid())-\(random)" + Self.suffix
        }

        /// `.<name>.modelkit-`, the start of every temporary file of `name`.
        static func prefix(for name: String) -> String {
            "." + stem(of: name) + marker
        }

        /// The name itself, or for a name too long to leave room in a file
        /// name, its hash.
        static func stem(of name: String) -> String {
            guard name.utf8.count > 200 else { return name }
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return "long-" + String(hash, radix: 16)
        }

        /// The writer's process id in a temporary file name of `name`, or
        /// `nil` when `fileName` is not one.
        static func processID(in fileName: String, of name: String) -> pid_t? {
            let prefix = prefix(for: name)
            guard fileName.hasPrefix(prefix), fileName.hasSuffix(suffix) else { return nil }
            let middle = fileName.dropFirst(prefix.count).dropLast(suffix.count)
            let parts = middle.split(separator: "-")
            guard parts.count == 2, let pid = pid_t(parts[0]), UInt32(parts[1], radix: 16) != nil else { return nil }
            return pid
        }
    }

    /// Removes the temporary files of `name` in `folder` that a killed
    /// writer left: their process is gone (or is this one, with no write of
    /// them open) and their lock is free.
    static func removeAbandonedTemporaryFiles(of name: String, in folder: String) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        let prefix = TemporaryName.prefix(for: name)
        let ownID = getpid()
        for entry in entries where entry.hasPrefix(prefix) {
            guard let pid = TemporaryName.processID(in: entry, of: name) else { continue }
            let path = folder + "/" + entry
            if pid == ownID {
                if ActiveTemporaryFiles.contains(path) { continue }
            } else if kill(pid, 0) == 0 || errno == EPERM {
                continue  // a live process's, perhaps writing it now
            }
            let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
            guard descriptor >= 0 else { continue }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
                unlink(path)
            }
            close(descriptor)
        }
    }

    // MARK: - Syncing

    /// Syncs a file's bytes to the device: `F_FULLFSYNC` on Apple platforms
    /// (plain `fsync` there leaves them in the drive's cache), else `fsync`.
    private static func syncFile(_ descriptor: Int32) -> Bool {
        #if canImport(Darwin)
            if fcntl(descriptor, F_FULLFSYNC) == 0 { return true }
        #endif
        while fsync(descriptor) != 0 {
            if errno != EINTR { return false }
        }
        return true
    }

    /// Syncs a folder, so that a rename in it survives a power cut. A file
    /// system that cannot sync folders is not an error: the file itself is.
    private static func syncFolder(_ folder: String) {
        let descriptor = open(folder, O_RDONLY | O_CLOEXEC | O_DIRECTORY)
        guard descriptor >= 0 else { return }
        _ = syncFile(descriptor)
        close(descriptor)
    }

    // MARK: - Errors

    /// Refuses a URL that is not a file URL (`https:`, `data:`…), before
    /// anything touches the disk: its path would name some other file.
    /// - Throws: ``ModelError`` naming the whole URL.
    static func requireFileURL(_ url: URL) throws {
        guard !url.isFileURL else { return }
        throw ModelError(
            code: .fileAccess,
            message: "\(url.absoluteString) is not a file URL: ModelKit reads and writes only files "
                + "(make the URL with URL(fileURLWithPath:))")
    }

    static func failure(_ url: URL, _ message: String) -> ModelError {
        ModelError(code: .fileAccess, message: message, file: url)
    }

    /// Why a file (the temporary file, the lock) could not be made in `folder`.
    static func creationFailure(_ url: URL, folder: String, code: Int32, creating: Bool = true) -> ModelError {
        var status = stat()
        switch code {
        case ENOENT:
            return ModelError(code: .fileAccess, message: "no such folder: \(folder)", file: url)
        case ENOTDIR:
            if stat(folder, &status) == 0, status.st_mode & S_IFMT != S_IFDIR {
                return failure(url, "\(folder) is a file, not a folder")
            }
            return failure(url, "a part of \(folder) is a file, not a folder")
        case EACCES, EPERM:
            return failure(url, "permission denied: the folder cannot be written to")
        default:
            return failure(url, "the file could not be written: \(describe(code))")
        }
    }

    /// An `errno` in words.
    static func describe(_ code: Int32) -> String {
        switch code {
        case ENOSPC: "no space left on the device"
        case EFBIG: "the file would pass the size limit this process may write (RLIMIT_FSIZE)"
        case EDQUOT: "the disk quota is used up"
        case EROFS: "the file system is read-only"
        case EACCES, EPERM: "permission denied"
        case EIO: "an input/output error on the device"
        default: String(cString: strerror(code))
        }
    }
}

/// `write(2)`, named apart from the `write` methods in scope.
@inline(__always)
private func Glibc_write(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Darwin)
        Darwin.write(descriptor, buffer, count)
    #elseif canImport(Glibc)
        Glibc.write(descriptor, buffer, count)
    #elseif canImport(Musl)
        Musl.write(descriptor, buffer, count)
    #endif
}

/// The temporary files this process is writing now, which its own cleanups
/// must leave alone.
enum ActiveTemporaryFiles {
    private static let paths = LockedTable<String, Bool>()
    static func insert(_ path: String) { paths.withLock { $0[path] = true } }
    static func remove(_ path: String) { paths.withLock { $0[path] = nil } }
    static func contains(_ path: String) -> Bool { paths.withLock { $0[path] != nil } }
}
