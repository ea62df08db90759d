import Foundation
import Testing

@testable import ModelKit

/// `ModelDefaults` is `@unchecked Sendable`: one store used from many tasks
/// at once, while it saves by itself and watches its file, loses nothing.
/// Runs under ThreadSanitizer in `.ci/run`.
@Suite struct ModelDefaultsConcurrencyTests {
    @Test func manyTasksSettingReadingAndSavingOneStoreLoseNothing() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("settings.plist")
            let store = try ModelDefaults(url: url, autosaveDelay: 0.001, watchInterval: 0.01)
            let heard = Log()
            let token = store.observeAll { key, _, _ in heard.append(key) }
            let stream = store.changedKeys()
            await withTaskGroup(of: Void.self) { group in
                for task in 0..<4 {
                    group.addTask {
                        for index in 0..<100 {
                            store.set(index, forKey: "t\(task).k\(index)")
                            _ = store.integer(forKey: "t\((task + 1) % 4).k\(index)")
                            if index % 25 == 0 { try? store.save() }
                        }
                    }
                }
                group.addTask {
                    // Another store on the same file, saving its own keys meanwhile.
                    guard let other = try? ModelDefaults(url: url, autosaveDelay: nil, watchInterval: nil) else { return }
                    for index in 0..<20 {
                        other.set("other", forKey: "o\(index)")
                        try? other.save()
                    }
                }
            }
            try store.save()
            token.cancel()
            let fresh = try ModelDefaults(url: url, autosaveDelay: nil, watchInterval: nil)
            #expect(fresh.keys.count == 420)
            for task in 0..<4 {
                for index in 0..<100 { #expect(fresh.integer(forKey: "t\(task).k\(index)") == index) }
            }
            #expect(Set(heard.entries).isSuperset(of: (0..<100).map { "t0.k\($0)" }))
            var streamed = 0
            for await _ in stream {
                streamed += 1
                if streamed == 400 { break }
            }
            #expect(streamed == 400)
        }
    }
}
