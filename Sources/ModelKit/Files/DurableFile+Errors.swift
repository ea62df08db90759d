#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

/// The errors of ``DurableFile``: each names the file the user gave (never
/// a temporary file or a lock) and says the cause in words.
extension DurableFile {
    /// The most bytes a name in a path may have, on Linux and Apple platforms.
    static let maximumNameLength = 255

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

    /// Why the folder that should hold the file could not be opened.
    static func folderFailure(_ url: URL, folder: String, code: Int32) -> ModelError {
        var status = stat()
        switch code {
        case ENOENT:
            return failure(url, "no such folder: \(folder)")
        case ENOTDIR:
            if stat(folder, &status) == 0, status.st_mode & S_IFMT != S_IFDIR {
                return failure(url, "\(folder) is a file, not a folder")
            }
            return failure(url, "a part of \(folder) is a file, not a folder")
        case ENAMETOOLONG:
            return nameTooLong(url, path: url.path)
        case EACCES, EPERM:
            return failure(url, "the folder \(folder) cannot be opened: permission denied")
        default:
            return failure(url, "the folder \(folder) cannot be opened: \(describe(code))")
        }
    }

    /// Why a file (the temporary file, the lock) could not be made in
    /// `folder`; `creating` says whether the file the user gave exists.
    static func creationFailure(_ url: URL, folder: String, code: Int32, creating: Bool) -> ModelError {
        var status = stat()
        let folderExists = stat(folder, &status) == 0
        switch code {
        case ENOENT where folderExists:
            return failure(url, "the folder \(folder) does not let files be created in it")
        case ENOENT, ENOTDIR, ENAMETOOLONG:
            return folderFailure(url, folder: folder, code: code)
        case EACCES, EPERM:
            return failure(url, "the folder \(folder) is not writable")
        default:
            return failure(url, "the file could not be \(creating ? "created" : "replaced"): \(describe(code))")
        }
    }

    /// Which limit `path` passes: a name in it longer than a name may be,
    /// or the whole path longer than the system takes.
    static func nameTooLong(_ url: URL, path: String) -> ModelError {
        if let long = path.split(separator: "/").first(where: { $0.utf8.count > maximumNameLength }) {
            let shown = long.count > 24 ? long.prefix(20) + "…" : long
            return failure(
                url,
                "a name in the path is too long: \"\(shown)\" has \(long.utf8.count) bytes, "
                    + "more than the \(maximumNameLength) a name may have")
        }
        return failure(url, "the path is too long (\(path.utf8.count) bytes)")
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
        case ENAMETOOLONG: "the path is too long"
        case ELOOP: "too many symbolic links"
        case ENOTSUP: "the file system does not support this"
        case ENXIO: "no device or process is behind it"
        default: String(cString: strerror(code))
        }
    }
}
