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

    /// A store opened while another process's store saves the file for the
    /// first time (here a thread, timed to land the file's creation next to
    /// the opening, 400 times): it opens empty or with the saved values,
    /// never with an error. (Opening looked for the file, found none, then
    /// found one and reported that it "could not be read".)
    @Test func aStoreOpenedWhileItsFileIsCreatedOpensEmptyOrWithTheValues() throws {
        try withTemporaryFolder { folder in
            let saved = try PropertyListSerialization.data(fromPropertyList: ["k": 1], format: .xml, options: 0)
            var random = SeededGenerator(seed: 41)
            var failures: [String] = []
            var sawValues = 0
            for round in 0..<400 {
                let url = folder.appendingPathComponent("race-\(round).plist")
                let temporary = folder.appendingPathComponent(".race-\(round).tmp")
                try saved.write(to: temporary)
                let start = DispatchSemaphore(value: 0)
                let done = DispatchSemaphore(value: 0)
                let delay = UInt32.random(in: 0...40, using: &random)
                Thread.detachNewThread {
                    start.wait()
                    usleep(delay)
                    rename(temporary.path, url.path)
                    done.signal()
                }
                start.signal()
                usleep(20)
                do {
                    let store = try ModelDefaults(url: url, autosaveDelay: nil, watchInterval: nil)
                    if store.integer(forKey: "k") == 1 { sawValues += 1 } else if !store.keys.isEmpty {
                        failures.append("round \(round): keys \(store.keys)")
                    }
                } catch {
                    failures.append("round \(round): \(error)")
                }
                done.wait()
            }
            // (Before the fix, about one round in a hundred failed here. How
            // many rounds open after the creation depends on the machine's
            // timing, so it is only reported.)
            #expect(failures.isEmpty, "\(failures.prefix(3)); \(sawValues) of 400 opened with the values")
        }
    }
}
