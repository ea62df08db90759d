import Foundation

/// One file-system operation that a save performs, with the bytes it
/// writes: what the crash-state explorer of the tests
/// (`Tests/ModelKitTests/Files/CrashStateExplorerTests.swift`) replays to
/// build every state a crash could leave.
///
/// Paths are absolute. Operations that change no bytes and no name (the
/// permission bits, owner, ACL and extended attributes a rewrite keeps;
/// `flock`) are not recorded.
enum FileOperation: Hashable, Sendable {
    /// `mkdir`: a new, empty folder.
    case makeFolder(String)
    /// `open` with `O_CREAT` that made a new, empty file.
    case create(String)
    /// `write`: `bytes` at `offset` of the file.
    case write(String, offset: Int64, bytes: Data)
    /// `ftruncate`: the file cut (or grown with zeros) to `size`.
    case truncate(String, size: Int64)
    /// `fsync` (`F_FULLFSYNC` on Apple platforms) of a file or a folder.
    case sync(String)
    /// `rename`: the name `from` now names what it named, in place of `to`'s file.
    case rename(String, to: String)
}

/// Records the file operations that ModelKit's writers (``DurableFile``,
/// ``LineFileWriting``) perform on the current thread while
/// ``recording(_:)`` runs; for the tests' crash-state explorer. Costs one
/// thread-local look-up per operation when nothing records.
///
/// Not `Sendable`: a recorder belongs to the thread that records.
final class FileOperationRecorder {
    private(set) var operations: [FileOperation] = []

    /// The recorder of each thread, if it records.
    private final class Slot {
        var recorder: FileOperationRecorder?
    }
    private static let slot = ThreadLocal { Slot() }

    /// Runs `body` recording the operations this thread's writes perform,
    /// and returns them with `body`'s result.
    static func recording<Result>(_ body: () throws -> Result) rethrows -> (Result, [FileOperation]) {
        let recorder = FileOperationRecorder()
        let previous = slot.value.recorder
        slot.value.recorder = recorder
        defer { slot.value.recorder = previous }
        let result = try body()
        return (result, recorder.operations)
    }

    /// Notes `operation` when this thread records; `operation` is made only then.
    static func record(_ operation: @autoclosure () -> FileOperation) {
        guard let pointer = slot.existingValue, let recorder = pointer.recorder else { return }
        recorder.operations.append(operation())
    }
}
