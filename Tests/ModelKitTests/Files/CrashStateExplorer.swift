import Foundation
import Testing

@testable import ModelKit

/// Builds every state of a folder that a crash could leave during a save,
/// after ALICE ("All File Systems Are Not Created Equal", OSDI 2014), from
/// the operations the save performed (``FileOperationRecorder``: what
/// `DurableFile` and `LineFileWriting` do, with the bytes written).
///
/// The folder is taken as it was before the save (everything there
/// durable), then the operations are replayed in order. A crash after the
/// first `k` operations (every `k`, from none to all: all is a crash after
/// the save returned) leaves, under each model:
///
/// - ``Model/orderedMetadata`` (ext4 `data=ordered` with delayed
///   allocation): names (`mkdir`, `create`, `rename`) persist in the order
///   they were made, a prefix of them, and every name made before any
///   `fsync` is persisted (the journal commits them together). A file's
///   bytes persist in order, in blocks of 4 KiB, with the size that holds
///   them (never zeros), and all of them once the file is synced; they are
///   not ordered with the names.
/// - ``Model/writeback``: a name persists only once its folder is synced;
///   before that any subset of the names made persists. A file's new size
///   may persist before its bytes: its bytes persist in order, in blocks,
///   and its size may run ahead of them, the rest zeros.
///
/// A file whose name, or whose folder's name, did not persist is not there.
/// Each state is made in a folder of its own and handed to a checker, which
/// reads it with a fresh reader.
struct CrashStateExplorer {
    enum Model: String, CaseIterable {
        case orderedMetadata = "ordered metadata"
        case writeback = "writeback"
    }

    enum Entry: Hashable {
        case folder
        case file(Int)
    }

    /// A change of one name, made by one operation.
    struct NameChange {
        var operation: Int
        var folder: String
        var changes: [(String, Entry?)]
    }

    /// A change of a file's bytes: a block of a write, or a truncation.
    struct Piece {
        var operation: Int
        var offset: Int
        var bytes: [UInt8]
        var truncation: Int?

        func apply(to content: inout [UInt8]) {
            if let truncation {
                setSize(truncation, of: &content)
                return
            }
            if content.count < offset + bytes.count { setSize(offset + bytes.count, of: &content) }
            content.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
        }

        func size(after size: Int) -> Int { truncation ?? max(size, offset + bytes.count) }
    }

    static func setSize(_ size: Int, of content: inout [UInt8]) {
        if size < content.count {
            content.removeSubrange(size...)
        } else {
            content.append(contentsOf: repeatElement(0, count: size - content.count))
        }
    }

    let root: String
    let blockSize = 4096
    private(set) var initialEntries: [String: Entry] = [:]
    private(set) var initialContents: [Int: [UInt8]] = [:]
    private(set) var names: [NameChange] = []
    private(set) var pieces: [Int: [Piece]] = [:]
    /// Each `fsync`: its operation, and the folder it synced or the file.
    private(set) var syncs: [(operation: Int, folder: String?, file: Int?)] = []
    private(set) var operationCount = 0
    /// Operations the explorer could not place (a path it does not know): a broken recording.
    private(set) var problems: [String] = []

    /// Takes `root` as it is now, durable, before the save.
    init(root: URL) throws {
        self.root = root.path
        var inode = 0
        let manager = FileManager.default
        for case let path as String in manager.enumerator(atPath: self.root) ?? FileManager.DirectoryEnumerator() {
            let full = self.root + "/" + path
            var isFolder: ObjCBool = false
            guard manager.fileExists(atPath: full, isDirectory: &isFolder) else { continue }
            if isFolder.boolValue {
                initialEntries[full] = .folder
            } else {
                inode += 1
                initialEntries[full] = .file(inode)
                initialContents[inode] = Array(try Data(contentsOf: URL(fileURLWithPath: full)))
            }
        }
    }

    /// Replays `operations` (those under the root; others are ignored).
    mutating func replay(_ operations: [FileOperation]) {
        var entries = initialEntries
        var nextInode = (initialContents.keys.max() ?? 0) + 1
        func parent(_ path: String) -> String { (path as NSString).deletingLastPathComponent }
        func isInside(_ path: String) -> Bool { path == root || path.hasPrefix(root + "/") }
        func inode(_ path: String) -> Int? {
            if case .file(let number)? = entries[path] { return number }
            problems.append("no file at \(path)")
            return nil
        }
        for operation in operations {
            let index = operationCount
            switch operation {
            case .makeFolder(let path) where isInside(path):
                names.append(NameChange(operation: index, folder: parent(path), changes: [(path, .folder)]))
                entries[path] = .folder
            case .create(let path) where isInside(path):
                initialContents[nextInode] = []
                names.append(NameChange(operation: index, folder: parent(path), changes: [(path, .file(nextInode))]))
                entries[path] = .file(nextInode)
                nextInode += 1
            case .write(let path, let offset, let bytes) where isInside(path):
                guard let number = inode(path) else { continue }
                var start = Int(offset)
                var remaining = Array(bytes)[...]
                while !remaining.isEmpty {
                    let length = min(remaining.count, blockSize - start % blockSize)
                    pieces[number, default: []].append(
                        Piece(operation: index, offset: start, bytes: Array(remaining.prefix(length)), truncation: nil))
                    remaining = remaining.dropFirst(length)
                    start += length
                }
            case .truncate(let path, let size) where isInside(path):
                guard let number = inode(path) else { continue }
                pieces[number, default: []].append(Piece(operation: index, offset: 0, bytes: [], truncation: Int(size)))
            case .sync(let path) where isInside(path):
                if path == root || entries[path] == .folder {
                    syncs.append((index, path, nil))
                } else if let number = inode(path) {
                    syncs.append((index, nil, number))
                }
            case .rename(let from, let to) where isInside(from) && isInside(to):
                let moved = entries[from]
                names.append(NameChange(operation: index, folder: parent(to), changes: [(from, nil), (to, moved)]))
                entries[from] = nil
                entries[to] = moved
            default:
                continue
            }
            operationCount += 1
        }
    }

    /// A state a crash can leave: the names that persisted and each file's bytes.
    struct State: Hashable {
        var files: [String: [UInt8]]
        var folders: Set<String>
    }

    /// Every distinct state under `model` of a crash after the first `count` operations.
    func states(after count: Int, model: Model) -> Set<State> {
        let made = names.filter { $0.operation < count }
        let lastSync = syncs.last { $0.operation < count }?.operation ?? -1
        func isForced(_ change: NameChange) -> Bool {
            switch model {
            case .orderedMetadata:
                return change.operation < lastSync
            case .writeback:
                return syncs.contains { $0.operation < count && $0.operation > change.operation && $0.folder == change.folder }
            }
        }
        var nameChoices: [[NameChange]] = []
        switch model {
        case .orderedMetadata:
            let forced = made.prefix { isForced($0) }.count
            for length in forced...made.count { nameChoices.append(Array(made.prefix(length))) }
        case .writeback:
            let free = made.filter { !isForced($0) }
            let subsets = free.count <= 12 ? 1 << free.count : 1 << 12
            for mask in 0..<subsets {
                var chosen: [NameChange] = []
                var bit = 0
                for change in made {
                    if isForced(change) {
                        chosen.append(change)
                    } else {
                        if mask & (1 << bit) != 0 || bit >= 12 { chosen.append(change) }
                        bit += 1
                    }
                }
                nameChoices.append(chosen)
            }
        }
        // Each file's possible contents.
        var contents: [Int: [[UInt8]]] = [:]
        for (number, initial) in initialContents {
            let written = (pieces[number] ?? []).filter { $0.operation < count }
            let synced = syncs.last { $0.operation < count && $0.file == number }?.operation ?? -1
            let forced = written.prefix { $0.operation < synced }
            var base = initial
            for piece in forced { piece.apply(to: &base) }
            let free = Array(written.dropFirst(forced.count))
            var options: [[UInt8]] = []
            var content = base
            var sizes = [base.count]
            for piece in free { sizes.append(piece.size(after: sizes.last!)) }
            for persisted in 0...free.count {
                if persisted > 0 { free[persisted - 1].apply(to: &content) }
                switch model {
                case .orderedMetadata:
                    options.append(content)
                case .writeback:
                    for size in Set(sizes[persisted...]) {
                        var sized = content
                        Self.setSize(size, of: &sized)
                        options.append(sized)
                    }
                }
            }
            contents[number] = Array(Set(options))
        }
        var states: Set<State> = []
        for chosen in nameChoices {
            var entries = initialEntries
            for change in chosen {
                for (path, entry) in change.changes { entries[path] = entry }
            }
            // Only what can be reached from the root is there.
            var folders: Set<String> = [root]
            var files: [String: Int] = [:]
            for path in entries.keys.sorted(by: { $0.count < $1.count }) {
                guard folders.contains((path as NSString).deletingLastPathComponent) else { continue }
                switch entries[path] {
                case .folder?: folders.insert(path)
                case .file(let number)?: files[path] = number
                case nil: break
                }
            }
            // Every combination of the contents of the files there.
            var partial: [[String: [UInt8]]] = [[:]]
            for (path, number) in files {
                let options = contents[number] ?? [[]]
                partial = partial.flatMap { state in
                    options.map { option in
                        var next = state
                        next[path] = option
                        return next
                    }
                }
            }
            for files in partial { states.insert(State(files: files, folders: folders.subtracting([root]))) }
        }
        return states
    }

    /// Makes `state` in `folder` (emptied first), paths under the root moved there.
    func make(_ state: State, in folder: URL) throws {
        let manager = FileManager.default
        try? manager.removeItem(at: folder)
        try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        func moved(_ path: String) -> URL { folder.appendingPathComponent(String(path.dropFirst(root.count + 1))) }
        for path in state.folders.sorted(by: { $0.count < $1.count }) {
            try manager.createDirectory(at: moved(path), withIntermediateDirectories: true)
        }
        for (path, bytes) in state.files { try Data(bytes).write(to: moved(path)) }
    }
}
