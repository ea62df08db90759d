#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

/// The temporary files of ``DurableFile``: their names, how a writer makes
/// and locks its own, and how it removes those that killed writers left.
///
/// The lock decides what is abandoned, never the process id in the name
/// (process ids are reused, fastest in containers): a temporary file of the
/// destination whose `flock` is free and that no write of this process owns
/// is a killed writer's, and the next write to the destination removes it.
/// A writer holds its file's lock from just after creating it until after
/// the rename. In the instant between `openat` and `flock` its file is
/// unlocked, so a cleanup may remove it; the writer then sees, once it holds
/// the lock, that its name no longer names its file, and starts again with a
/// new one.
extension DurableFile {
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
        /// `nil` when `fileName` is not one. `matching` says how the folder's
        /// file system compares names: on a case-insensitive volume, a file
        /// left by a write to `Notes.json` is one of `notes.json`.
        static func processID(
            in fileName: String, of name: String, matching: Platform.FileNameMatching = .exactBytes
        ) -> pid_t? {
            guard let rest = matching.remainder(of: fileName, after: prefix(for: name)),
                let text = String(rest), text.hasSuffix(suffix)
            else { return nil }
            let middle = text.dropLast(suffix.count)
            let parts = middle.split(separator: "-")
            guard parts.count == 2, let pid = pid_t(parts[0]), UInt32(parts[1], radix: 16) != nil else { return nil }
            return pid
        }
    }

    /// Makes a new temporary file of `name` in the folder open as
    /// `folderDescriptor` and takes its lock; returns its name and its
    /// descriptor, registered in ``ActiveTemporaryFiles``.
    /// - Throws: ``ModelError`` naming `url` when the file cannot be made.
    static func lockedTemporaryFile(
        for name: String, in folderDescriptor: Int32, folder: String, mode: mode_t, url: URL, replacing: Bool
    ) throws -> (String, Int32) {
        var attempts = 0
        while true {
            attempts += 1
            let temporary = TemporaryName(for: name).fileName
            let path = folder + "/" + temporary
            ActiveTemporaryFiles.insert(path)
            let descriptor =
                refusesNewFilesForTesting(folder)
                ? -1 : openat(folderDescriptor, temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
            guard descriptor >= 0 else {
                let code = refusesNewFilesForTesting(folder) ? EACCES : errno
                ActiveTemporaryFiles.remove(path)
                if code == EEXIST, attempts < 16 { continue }  // the random part taken: another
                let failure = creationFailure(url, folder: folder, code: code, creating: !replacing)
                if code == EACCES || code == EPERM { throw FolderRefusesNewFiles(failure: failure) }
                throw failure
            }
            var locked: Int32
            repeat {
                locked = flock(descriptor, LOCK_EX)
            } while locked != 0 && errno == EINTR
            if locked == 0, isStillNamed(descriptor, temporary, in: folderDescriptor) { return (temporary, descriptor) }
            // Another writer's cleanup took it before the lock: a new one.
            close(descriptor)
            ActiveTemporaryFiles.remove(path)
            guard attempts < 16 else {
                throw failure(url, "the temporary file beside it was removed by other writers again and again")
            }
        }
    }

    /// Whether `name` in the folder still names the file open as `descriptor`.
    private static func isStillNamed(_ descriptor: Int32, _ name: String, in folderDescriptor: Int32) -> Bool {
        var open = stat()
        var named = stat()
        guard fstat(descriptor, &open) == 0, fstatat(folderDescriptor, name, &named, AT_SYMLINK_NOFOLLOW) == 0 else {
            return false
        }
        return open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }

    /// Removes the temporary files of `name` in the folder open as
    /// `folderDescriptor` that killed writers left: their lock is free and
    /// no write of this process owns them, whatever process id they name.
    static func removeAbandonedTemporaryFiles(of name: String, in folderDescriptor: Int32, folder: String) {
        let matching = Platform.fileNameMatching(ofFolder: folderDescriptor)
        for entry in entries(of: folderDescriptor) where entry.hasPrefix(".") {
            guard TemporaryName.processID(in: entry, of: name, matching: matching) != nil else { continue }
            if ActiveTemporaryFiles.contains(folder + "/" + entry) { continue }
            let descriptor = openat(folderDescriptor, entry, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
            guard descriptor >= 0 else { continue }
            var status = stat()
            if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
                unlinkat(folderDescriptor, entry, 0)
            }
            close(descriptor)
        }
    }

    /// The names in the folder open as `folderDescriptor` (read through a
    /// descriptor of its own, so the folder's path may be of any length);
    /// also how ``ConflictCopies`` lists a document's folder.
    static func entries(of folderDescriptor: Int32) -> [String] {
        let own = openat(folderDescriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard own >= 0 else { return [] }
        guard let directory = fdopendir(own) else {
            close(own)
            return []
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            // The name is read in place, up to its NUL: a record may be
            // shorter than `dirent`, so copying the whole `d_name` field
            // would read past it (AddressSanitizer saw this).
            let name = UnsafeRawPointer(entry).advanced(by: MemoryLayout<dirent>.offset(of: \dirent.d_name)!)
                .withMemoryRebound(to: CChar.self, capacity: 1) { String(cString: $0) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}

/// The temporary files this process is writing now, which its own cleanups
/// must leave alone.
enum ActiveTemporaryFiles {
    private static let paths = LockedTable<String, Bool>()
    static func insert(_ path: String) { paths.withLock { $0[path] = true } }
    static func remove(_ path: String) { paths.withLock { $0[path] = nil } }
    static func contains(_ path: String) -> Bool { paths.withLock { $0[path] != nil } }
}
