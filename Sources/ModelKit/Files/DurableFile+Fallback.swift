#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

/// Saving a file whose folder takes no new file.
///
/// An app on an Apple platform that holds a security-scoped URL for one
/// file (from a document picker or an `NSOpenPanel`) may write that file but
/// not create another beside it, so the usual temporary file in the
/// destination's folder is refused. The new bytes then go to a temporary
/// file in an item-replacement folder on the same volume
/// (`FileManager.url(for: .itemReplacementDirectory, …)`), get the old
/// file's mode, ACL and extended attributes as usual, are synced, and replace
/// the destination at once (`FileManager.replaceItemAt` on Apple platforms,
/// `rename` elsewhere): the save stays atomic, as Foundation's atomic write
/// is there. The replacement folder is removed afterwards, whatever happens.
extension DurableFile {
    /// Thrown by ``lockedTemporaryFile(for:in:folder:mode:url:replacing:)``
    /// when the folder refuses the new file for want of permission.
    struct FolderRefusesNewFiles: Error {
        let failure: ModelError
    }

    /// Folders that tests make refuse new temporary files, as a sandbox
    /// refuses them to an app holding only a file's URL (running as root, a
    /// test cannot make a real folder refuse them). Empty outside tests.
    static let foldersRefusingNewFiles = LockedTable<String, Bool>()

    /// Whether `folder` refuses new files by a test's wish.
    static func refusesNewFilesForTesting(_ folder: String) -> Bool {
        foldersRefusingNewFiles.withLock { !$0.isEmpty && $0[folder] != nil }
    }

    /// Writes `data` over the existing regular file `destination` through a
    /// temporary file in an item-replacement folder.
    /// - Throws: ``ModelError`` naming `url`: `refusal` when no such folder
    ///   can be had, or the cause of the step that failed.
    static func writeThroughReplacementFolder(
        _ data: Data, to destination: URL, url: URL, existing: stat, folderDescriptor: Int32, durability: FileDurability,
        refusal: ModelError
    ) throws {
        let manager = FileManager.default
        // Apple's Foundation documentation of url(for:in:appropriateFor:create:):
        // `.itemReplacementDirectory` makes a new folder on the volume of
        // `appropriateFor`, for a file that will replace it.
        guard
            let replacement = try? manager.url(
                for: .itemReplacementDirectory, in: .userDomainMask, appropriateFor: destination, create: true)
        else { throw refusal }
        defer { try? manager.removeItem(at: replacement) }
        let spareDescriptor = open(replacement.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard spareDescriptor >= 0 else { throw refusal }
        defer { close(spareDescriptor) }
        let name = destination.lastPathComponent
        let made: (String, Int32)
        do {
            made = try lockedTemporaryFile(
                for: name, in: spareDescriptor, folder: replacement.path, mode: 0o600, url: url, replacing: true)
        } catch is FolderRefusesNewFiles {
            throw refusal
        }
        let (temporaryName, descriptor) = made
        let temporary = replacement.appendingPathComponent(temporaryName)
        var closed = false
        defer {
            if !closed { close(descriptor) }
            ActiveTemporaryFiles.remove(temporary.path)
        }
        if existing.st_uid != geteuid() || existing.st_gid != getegid() {
            _ = fchown(descriptor, existing.st_uid, existing.st_gid)  // where the process may
        }
        try keepAccess(
            of: name, in: folderDescriptor, folder: destination.deletingLastPathComponent().path,
            temporaryName: temporaryName, mode: existing.st_mode & 0o7777, on: descriptor, url: url,
            temporaryFolder: replacement.path)
        // Recorded as the usual path records them, for the crash-state explorer.
        FileOperationRecorder.record(.create(temporary.path))
        FileOperationRecorder.record(.write(temporary.path, offset: 0, bytes: data))
        try writeAll(data, to: descriptor, url: url)
        if durability == .synced {
            guard Platform.syncFile(descriptor) else { throw failure(url, "the file could not be synced: \(describe(errno))") }
            FileOperationRecorder.record(.sync(temporary.path))
        }
        closed = true
        guard close(descriptor) == 0 else { throw failure(url, "the file could not be written: \(describe(errno))") }
        try Platform.replaceItem(at: destination, withItemAt: temporary, url: url)
        FileOperationRecorder.record(.rename(temporary.path, to: destination.path))
        if durability == .synced {
            _ = Platform.syncFile(folderDescriptor)  // a folder the process may not write may not sync: the file is synced
            FileOperationRecorder.record(.sync(destination.deletingLastPathComponent().path))
        }
    }
}
