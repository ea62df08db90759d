#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

/// How documents and stores read a whole file: `open` and `read`, so that a
/// failure says its cause (where `Data(contentsOf:)` says only that the file
/// could not be read). A named pipe or a device is read to its end, as
/// `cat` reads it.
enum FileReading {
    /// The bytes of the file at `url`.
    /// - Throws: ``ModelError`` naming `url`: no such file, a folder,
    ///   permission denied, a socket, or the cause in words.
    static func data(at url: URL) throws -> Data {
        try version(at: url).data
    }

    /// The bytes of the file at `url` with the stamp of the file they were
    /// read from (taken from the open descriptor, so a file replaced
    /// meanwhile cannot give one version's bytes with another's stamp).
    static func version(at url: URL) throws -> (data: Data, stamp: FileStamp) {
        let path = url.path
        var descriptor: Int32
        repeat {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
        } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else { throw problem(at: url, code: errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw problem(at: url, code: errno) }
        if status.st_mode & S_IFMT == S_IFDIR { throw problem(at: url, code: EISDIR) }
        var data = Data()
        if status.st_mode & S_IFMT == S_IFREG, status.st_size > 0 {
            // `st_size` has 64 bits everywhere, `Int` 32 on watchOS.
            guard let size = Int(exactly: status.st_size), size < Int.max else {
                throw DurableFile.failure(url, "the file is too large to read into memory (\(status.st_size) bytes)")
            }
            data.reserveCapacity(size + 1)
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return (data, FileStamp(status)) }
            if count < 0 {
                if errno == EINTR { continue }
                throw problem(at: url, code: errno)
            }
            data.append(contentsOf: chunk[..<count])
        }
    }

    /// Why the file at `url` could not be read, from the `errno` of the
    /// failed call, as a sentence naming the file.
    static func problem(at url: URL, code: Int32) -> ModelError {
        var status = stat()
        switch code {
        case ENOENT:
            return ModelError(code: .fileNotFound, message: "no such file", file: url)
        case EISDIR:
            return DurableFile.failure(url, "this is a folder, not a file")
        case EACCES, EPERM:
            return DurableFile.failure(url, "permission denied: the file cannot be read")
        case ENAMETOOLONG:
            return DurableFile.nameTooLong(url, path: url.path)
        case ENXIO where stat(url.path, &status) == 0 && status.st_mode & S_IFMT == S_IFSOCK:
            return DurableFile.failure(url, "this is a socket, not a file, and a socket cannot be opened to be read")
        default:
            return DurableFile.failure(url, "the file could not be read: \(DurableFile.describe(code))")
        }
    }
}
