import Foundation
import Testing

@testable import ModelKit

/// Every name a save makes is synced (issue 58): the parent of each folder
/// the writer makes, then the file's own folder after the rename.
@Suite struct FolderSyncTests {
    /// The operations, with paths relative to `root` (`.` for itself) and
    /// temporary files' names as `<tmp>`, without the bytes.
    static func outline(_ operations: [FileOperation], in root: URL) -> [String] {
        func name(_ path: String) -> String {
            var relative = path == root.path ? "." : String(path.dropFirst(root.path.count + 1))
            if let range = relative.range(of: #"\.[^/]*\.modelkit-[0-9]+-[0-9a-zA-Z]+\.tmp$"#, options: .regularExpression) {
                relative.replaceSubrange(range, with: "<tmp>")
            }
            return relative
        }
        return operations.map { operation in
            switch operation {
            case .makeFolder(let path): "mkdir \(name(path))"
            case .create(let path): "create \(name(path))"
            case .write(let path, let offset, _): "write \(name(path)) at \(offset)"
            case .truncate(let path, let size): "truncate \(name(path)) to \(size)"
            case .sync(let path): "sync \(name(path))"
            case .rename(let from, let to): "rename \(name(from)) to \(name(to))"
            }
        }
    }

    /// Fails without the fix: no folder above the store's file was synced,
    /// so a power cut after `save()` returned could lose the whole folder.
    @Test func aStoresFirstSaveSyncsTheParentOfEachFolderItMakes() throws {
        try withTemporaryFolder { root in
            let url = root.appendingPathComponent("config/app/defaults.plist")
            let store = try ModelDefaults(url: url, autosaveDelay: nil, watchInterval: nil)
            store.set(1, forKey: "launches")
            let (_, operations) = try FileOperationRecorder.recording { try store.save() }
            #expect(
                Self.outline(operations, in: root) == [
                    "mkdir config", "mkdir config/app", "sync .", "sync config",
                    "create config/app/<tmp>", "write config/app/<tmp> at 0", "sync config/app/<tmp>",
                    "rename config/app/<tmp> to config/app/defaults.plist", "sync config/app",
                ])
            store.set(2, forKey: "launches")
            let (_, again) = try FileOperationRecorder.recording { try store.save() }
            #expect(
                Self.outline(again, in: root) == [
                    "create config/app/<tmp>", "write config/app/<tmp> at 0", "sync config/app/<tmp>",
                    "rename config/app/<tmp> to config/app/defaults.plist", "sync config/app",
                ])
        }
    }

    @Test func aDocumentWriteSyncsTheFileThenRenamesThenSyncsItsFolder() throws {
        try withTemporaryFolder { root in
            let note = Note()
            let url = root.appendingPathComponent("note.json")
            let (_, operations) = try FileOperationRecorder.recording { try note.write(to: url) }
            #expect(
                Self.outline(operations, in: root) == [
                    "create <tmp>", "write <tmp> at 0", "sync <tmp>", "rename <tmp> to note.json", "sync .",
                ])
            let (_, unsynced) = try FileOperationRecorder.recording { try note.write(to: url, durability: .unsynced) }
            #expect(Self.outline(unsynced, in: root) == ["create <tmp>", "write <tmp> at 0", "rename <tmp> to note.json"])
        }
    }
}
