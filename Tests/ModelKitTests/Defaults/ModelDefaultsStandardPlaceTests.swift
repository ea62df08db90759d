import Foundation
import Testing

@testable import ModelKit

/// Where `ModelDefaults.standard` lands on Linux, seen from the Demo's
/// `defaults set` run with a chosen environment: `$XDG_CONFIG_HOME`, else
/// `$HOME/.config`, never the home folder of the user database when
/// `$HOME` says otherwise.
@Suite(.enabled(if: DemoProcess.executable != nil, "the Demo executable is not built: run swift build"))
struct ModelDefaultsStandardPlaceTests {
    /// Runs `Demo defaults set key 1` with `environment` over the test's own
    /// (without ``ModelDefaults/directoryEnvironmentVariable`` or the XDG and
    /// home variables unless given).
    static func setKey(_ key: String, environment: [String: String]) throws -> Int32 {
        let process = Process()
        guard let executable = DemoProcess.executable else { return -1 }
        process.executableURL = executable
        process.arguments = ["defaults", "set", key, "1"]
        var merged = ProcessInfo.processInfo.environment
        for name in [ModelDefaults.directoryEnvironmentVariable, "XDG_CONFIG_HOME", "HOME"] { merged[name] = nil }
        merged.merge(environment) { $1 }
        process.environment = merged
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    static func keys(at url: URL) throws -> [String] {
        try ModelDefaults(url: url, autosaveDelay: nil, watchInterval: nil).keys
    }

    #if !canImport(Darwin)
        @Test func homeIsUsedWhenXDGConfigHomeIsNotSet() throws {
            try withTemporaryFolder { folder in
                let home = folder.appendingPathComponent("home")
                let status = try Self.setKey("fromHome", environment: ["HOME": home.path])
                #expect(status == 0)
                let keys = try Self.keys(at: home.appendingPathComponent(".config/Demo/defaults.plist"))
                #expect(keys == ["fromHome"])
            }
        }

        @Test func xdgConfigHomeComesBeforeHome() throws {
            try withTemporaryFolder { folder in
                let home = folder.appendingPathComponent("home")
                let config = folder.appendingPathComponent("xdg")
                let status = try Self.setKey("fromXDG", environment: ["HOME": home.path, "XDG_CONFIG_HOME": config.path])
                #expect(status == 0)
                let keys = try Self.keys(at: config.appendingPathComponent("Demo/defaults.plist"))
                #expect(keys == ["fromXDG"])
                #expect(!FileManager.default.fileExists(atPath: home.path))
            }
        }

        /// The specification ignores a relative `$XDG_CONFIG_HOME`.
        @Test func aRelativeXDGConfigHomeIsIgnored() throws {
            try withTemporaryFolder { folder in
                let home = folder.appendingPathComponent("home")
                let status = try Self.setKey("relative", environment: ["HOME": home.path, "XDG_CONFIG_HOME": "xdg"])
                #expect(status == 0)
                let keys = try Self.keys(at: home.appendingPathComponent(".config/Demo/defaults.plist"))
                #expect(keys == ["relative"])
            }
        }
    #endif
}
