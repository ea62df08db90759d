import Foundation
import Testing

@testable import ModelKit

/// Several processes setting keys of one store at once, through the Demo's
/// `defaults set` (each run opens the store, sets one key, saves and exits).
@Suite(.enabled(if: DemoProcess.executable != nil, "the Demo executable is not built: run swift build"))
struct ModelDefaultsProcessTests {
    @Test func fourProcessesSettingFiftyKeysEachKeepAllTwoHundred() async throws {
        try await withTemporaryFolder { folder in
            try await withThrowingTaskGroup(of: [Int32].self) { group in
                for process in 0..<4 {
                    group.addTask {
                        var failures: [Int32] = []
                        for index in 0..<50 {
                            let outcome = try DemoProcess.run(
                                ["defaults", "set", "p\(process).k\(index)", "\(process * 100 + index)"], storeFolder: folder)
                            if outcome.status != 0 { failures.append(outcome.status) }
                        }
                        return failures
                    }
                }
                for try await failures in group { #expect(failures.isEmpty) }
            }
            let store = try ModelDefaults(
                url: folder.appendingPathComponent("defaults.plist"), autosaveDelay: nil, watchInterval: nil)
            #expect(store.keys.count == 200)
            for process in 0..<4 {
                for index in 0..<50 {
                    #expect(store.integer(forKey: "p\(process).k\(index)") == process * 100 + index)
                }
            }
        }
    }
}
