#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

/// Syncing the folders that hold new names (issue 58): a name made by
/// `mkdir` or `open(O_CREAT)` survives a power cut only once its folder is
/// synced, and a file in a folder whose own name was lost is lost with it.
/// ``DurableFile/write(_:to:durability:newFileMode:)`` syncs the folder of
/// the file it renames into place; these cover the names made elsewhere.
extension DurableFile {
    /// Syncs the parent of each folder of `folders` (made by
    /// ``makeFolders(_:file:mode:)``, listed top down), so that the folders
    /// themselves survive a power cut; each is noted to the
    /// ``FileOperationRecorder`` as made.
    static func syncParents(ofNewFolders folders: some Sequence<String>) {
        let folders = Array(folders)
        for path in folders { FileOperationRecorder.record(.makeFolder(path)) }  // made before this was called
        for path in folders { syncFolder((path as NSString).deletingLastPathComponent) }
    }

    /// Syncs the folder at `path`, so that the names made or changed in it
    /// survive a power cut: after a `mkdir` in it, and after a file was
    /// created in it outside ``write(_:to:durability:newFileMode:)`` (a JSON
    /// Lines append). A file system that cannot sync folders is no error.
    static func syncFolder(_ path: String) {
        let folder = path.isEmpty ? "/" : path
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        if Platform.syncFile(descriptor) { FileOperationRecorder.record(.sync(folder)) }
    }
}
