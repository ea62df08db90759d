import Foundation
import ModelKit

/// ModelDefaults against Foundation's `UserDefaults(suiteName:)` on a store
/// of 1,000 keys: setting one key and saving (`synchronize()`), and opening
/// the store cold and reading a key.
enum DefaultsBenchmarks {
    static func run() {
        let setRow = "Defaults: set one key and save, 1,000-key store"
        let openRow = "Defaults: open a 1,000-key store again in the same process and read a key"
        guard Harness.wants(setRow) || Harness.wants(openRow) else { return }
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("ModelKitBenchmarks-\(UUID().uuidString)", isDirectory: true)
        try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("settings.plist")
        let suite = "ModelKitBenchmarks-\(UUID().uuidString)"
        let foundation = UserDefaults(suiteName: suite)!
        defer { foundation.removePersistentDomain(forName: suite) }

        let store = try! ModelDefaults(url: url, autosaveDelay: nil, watchInterval: nil)
        for index in 0..<1_000 {
            let key = "key \(index)"
            let value = index % 3 == 0 ? "value \(index)" : (index % 3 == 1 ? index as Any : Double(index) / 8)
            if let text = value as? String {
                store.set(text, forKey: key)
            } else if let number = value as? Int {
                store.set(number, forKey: key)
            } else if let number = value as? Double {
                store.set(number, forKey: key)
            }
            foundation.set(value, forKey: key)
        }
        try! store.save()
        foundation.synchronize()

        var counter = 0
        Harness.compare(setRow, rounds: 5, [
            .init(label: "UserDefaults") { iterations in
                for _ in 0..<iterations {
                    counter += 1
                    foundation.set(counter, forKey: "key 0")
                    foundation.synchronize()
                }
            },
            .init(label: "ModelDefaults (synced)") { iterations in
                store.durability = .synced
                for _ in 0..<iterations {
                    counter += 1
                    store.set(counter, forKey: "key 0")
                    try! store.save()
                }
            },
            .init(label: "ModelDefaults (.unsynced)") { iterations in
                store.durability = .unsynced
                defer { store.durability = .synced }
                for _ in 0..<iterations {
                    counter += 1
                    store.set(counter, forKey: "key 0")
                    try! store.save()
                }
            },
        ])
        Harness.compare(openRow, rounds: 5, [
            .init(label: "UserDefaults") { iterations in
                for _ in 0..<iterations {
                    let opened = UserDefaults(suiteName: suite)!
                    blackHole(opened.integer(forKey: "key 1"))
                }
            },
            .init(label: "ModelDefaults") { iterations in
                for _ in 0..<iterations {
                    let opened = try! ModelDefaults(url: url, autosaveDelay: nil, watchInterval: nil)
                    blackHole(opened.integer(forKey: "key 1"))
                }
            },
        ])
    }
}
