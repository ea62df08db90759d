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

/// ModelKit's one writer of files: documents (``ModelObject/write(to:format:validating:references:durability:clearingChanges:)``),
/// the defaults store and JSON Lines all go through it.
///
/// A write is a database's commit in small:
/// 1. Only a file URL is written. A destination that is a symbolic link is
///    followed (up to 32 links) to the file it names, which gets the new
///    bytes: the link stays a link. A dangling link gets its target
///    created, as a shell's `>` would. Only a regular file is replaced: a
///    named pipe, a device, a socket (directly or as a link's target) is
///    refused, and nothing is created or renamed.
/// 2. The destination's folder is opened once; every later step works
///    relative to that descriptor (`openat`, `renameat`, `fsync`), so any
///    path `open` accepts can be saved and the folder cannot be swapped
///    between the checks and the rename.
/// 3. Temporary files that killed writers left for this destination are
///    removed (`DurableFile+TemporaryFiles.swift`).
/// 4. The bytes go to a new temporary file in that folder, opened with
///    `O_EXCL` and `O_CLOEXEC`, named `.<name>.modelkit-<pid>-<random>.tmp`,
///    locked with `flock` until it is renamed. A rewrite gives it the old
///    file's owner and group (where the process may), permission bits, ACL
///    and extended attributes (`DurableFile+Attributes.swift`): access to
///    the file never widens, and a save that cannot keep them fails.
/// 5. The bytes are synced, the file renamed over the destination, and the
///    folder synced (unless the durability is ``FileDurability/unsynced``).
///
/// Any failure removes the temporary file and leaves the old file byte for
/// byte as it was.
enum DurableFile {
    /// Writes `data` to `url` as described above.
    /// - Parameters:
    ///   - newFileMode: the permission bits of a file that does not exist
    ///     yet (less the process's umask); a rewrite keeps the old file's.
    /// - Returns: the stamp of the new file, taken before its rename (a
    ///   rename changes neither its inode nor its modification time), so that
    ///   a caller holding a lock knows the version it wrote.
    /// - Throws: ``ModelError`` naming `url` and the cause in words.
    @discardableResult
    static func write(
        _ data: Data, to url: URL, durability: FileDurability = .synced, newFileMode: mode_t = 0o666
    ) throws -> FileStamp? {
        try requireFileURL(url)
        let destination = try resolvingLinks(url)
        let folder = destination.deletingLastPathComponent().path
        let name = destination.lastPathComponent
        let folderDescriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folderDescriptor >= 0 else { throw folderFailure(url, folder: folder, code: errno) }
        defer { close(folderDescriptor) }
        var existing = stat()
        let exists = fstatat(folderDescriptor, name, &existing, AT_SYMLINK_NOFOLLOW) == 0
        if !exists, errno != ENOENT {
            throw errno == ENAMETOOLONG
                ? nameTooLong(url, path: destination.path) : failure(url, "the file could not be looked at: \(describe(errno))")
        }
        if exists {
            try requireRegularFile(existing, url: url, destination: destination)
            if faccessat(folderDescriptor, name, W_OK, 0) != 0, errno == EACCES {
                throw failure(url, "permission denied: the file cannot be written to")
            }
        }
        removeAbandonedTemporaryFiles(of: name, in: folderDescriptor, folder: folder)

        let made: (String, Int32)
        do {
            made = try lockedTemporaryFile(
                for: name, in: folderDescriptor, folder: folder, mode: exists ? 0o600 : newFileMode, url: url,
                replacing: exists)
        } catch let refused as FolderRefusesNewFiles {
            // A file the process may write in a folder it may not add to (a
            // security-scoped URL of one file): replaced from elsewhere.
            guard exists else { throw refused.failure }
            try writeThroughReplacementFolder(
                data, to: destination, url: url, existing: existing, folderDescriptor: folderDescriptor,
                durability: durability, refusal: refused.failure)
            return FileStamp(path: destination.path)
        }
        let (temporaryName, descriptor) = made
        let temporaryPath = folder + "/" + temporaryName
        FileOperationRecorder.record(.create(temporaryPath))
        FileOperationRecorder.record(.write(temporaryPath, offset: 0, bytes: data))  // as it is about to be written
        var renamed = false
        var closed = false
        defer {
            if !closed { close(descriptor) }
            if !renamed { unlinkat(folderDescriptor, temporaryName, 0) }
            ActiveTemporaryFiles.remove(temporaryPath)
        }
        if exists {
            if existing.st_uid != geteuid() || existing.st_gid != getegid() {
                _ = fchown(descriptor, existing.st_uid, existing.st_gid)  // where the process may
            }
            try keepAccess(
                of: name, in: folderDescriptor, folder: folder, temporaryName: temporaryName, mode: existing.st_mode & 0o7777,
                on: descriptor, url: url)
        }
        try writeAll(data, to: descriptor, url: url)
        if durability == .synced {
            guard Platform.syncFile(descriptor) else { throw failure(url, "the file could not be synced: \(describe(errno))") }
            FileOperationRecorder.record(.sync(temporaryPath))
        }
        let stamp = FileStamp(descriptor: descriptor)
        // The lock stays held through a second descriptor until the rename,
        // so that no other writer's cleanup takes the file for abandoned.
        let keeper = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
        defer { if keeper >= 0 { close(keeper) } }
        closed = true
        guard close(descriptor) == 0 else {
            throw failure(url, "the file could not be written: \(describe(errno))")
        }
        guard renameat(folderDescriptor, temporaryName, folderDescriptor, name) == 0 else {
            throw failure(url, "the file could not be \(exists ? "replaced" : "created"): \(describe(errno))")
        }
        renamed = true
        FileOperationRecorder.record(.rename(temporaryPath, to: folder + "/" + name))
        if durability == .synced, Platform.syncFile(folderDescriptor) {  // a file system that cannot sync folders is no error: the file is synced
            FileOperationRecorder.record(.sync(folder))
        }
        return stamp
    }

    /// Refuses a destination that is not a regular file, saying what it is
    /// (and, through a link, where the link leads).
    static func requireRegularFile(_ status: stat, url: URL, destination: URL) throws {
        let kind: String
        switch status.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: kind = "a folder"
        case S_IFIFO: kind = "a named pipe"
        case S_IFCHR: kind = "a character device"
        case S_IFBLK: kind = "a block device"
        case S_IFSOCK: kind = "a socket"
        case S_IFLNK: kind = "a symbolic link that could not be followed"
        default: kind = "a special file"
        }
        if destination.path == url.path {
            if kind == "a folder" { throw failure(url, "this is a folder, not a file") }
            throw failure(url, "this is \(kind), not a regular file; only regular files are replaced")
        }
        throw failure(
            url, "the link leads to \(destination.path), \(kind), not a regular file; only regular files are replaced")
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
    ///
    /// The folder holding each new folder is synced once they are made, so
    /// that the new folders' names survive a power cut: a file saved into
    /// it afterwards (whose own folder the writer syncs) is never left
    /// unreachable by a folder that vanished.
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
        // Each new folder's name is in its parent: synced, top down, before
        // any file goes in (`DurableFile+FolderSync.swift`).
        syncParents(ofNewFolders: missing.reversed())
    }

    /// Writes all of `data` to `descriptor`, again after an interruption.
    /// - Throws: ``ModelError`` naming `url` with the cause.
    static func writeAll(_ data: Data, to descriptor: Int32, url: URL) throws {
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Platform.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw failure(url, "the file could not be written: \(describe(errno))")
                }
                offset += written
            }
        }
    }
}
