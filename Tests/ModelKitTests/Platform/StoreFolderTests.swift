import Foundation
import Testing

@testable import ModelKit

/// Where the standard store and suite stores live on each platform family:
/// the choice is a pure function of its inputs, so Apple's answers are
/// checked here on Linux, and no test touches a real home folder or Library.
@Suite struct StoreFolderTests {
    static func inputs(
        _ family: Platform.Family, environment: [String: String] = [:], bundle: String? = nil,
        support: String? = nil, groups: [String: String] = [:]
    ) -> Platform.StoreFolderInputs {
        Platform.StoreFolderInputs(
            family: family, environment: environment, processName: "notes-tool", bundleIdentifier: bundle,
            applicationSupport: support.map { URL(fileURLWithPath: $0, isDirectory: true) },
            home: URL(fileURLWithPath: "/Users/ann", isDirectory: true),
            groupContainer: { name in groups[name].map { URL(fileURLWithPath: $0, isDirectory: true) } })
    }

    /// Each case: the inputs, and the standard store's file.
    static let standardCases: [(String, Platform.StoreFolderInputs, String)] = [
        (
            "a macOS app", inputs(.apple, bundle: "com.example.Notes", support: "/Users/ann/Library/Application Support"),
            "/Users/ann/Library/Application Support/com.example.Notes/defaults.plist"
        ),
        (
            "a sandboxed app or an iPhone app",
            inputs(
                .apple, bundle: "com.example.Notes",
                support: "/var/mobile/Containers/Data/Application/A1B2/Library/Application Support"),
            "/var/mobile/Containers/Data/Application/A1B2/Library/Application Support/com.example.Notes/defaults.plist"
        ),
        (
            "a macOS command-line tool (no bundle identifier)",
            inputs(.apple, support: "/Users/ann/Library/Application Support"),
            "/Users/ann/Library/Application Support/notes-tool/defaults.plist"
        ),
        (
            "Apple, with no Application Support from Foundation", inputs(.apple, bundle: "com.example.Notes"),
            "/Users/ann/Library/Application Support/com.example.Notes/defaults.plist"
        ),
        (
            "Apple, moved by the environment variable",
            inputs(.apple, environment: ["MODELKIT_DEFAULTS_DIRECTORY": "/tmp/run"], bundle: "com.example.Notes"),
            "/tmp/run/defaults.plist"
        ),
        (
            "Linux with XDG_CONFIG_HOME", inputs(.freedesktop, environment: ["XDG_CONFIG_HOME": "/cfg", "HOME": "/h"]),
            "/cfg/notes-tool/defaults.plist"
        ),
        (
            "Linux with a relative XDG_CONFIG_HOME", inputs(.freedesktop, environment: ["XDG_CONFIG_HOME": "cfg", "HOME": "/h"]),
            "/h/.config/notes-tool/defaults.plist"
        ),
        ("Linux with HOME only", inputs(.freedesktop, environment: ["HOME": "/h"]), "/h/.config/notes-tool/defaults.plist"),
        ("Linux with neither", inputs(.freedesktop), "/Users/ann/.config/notes-tool/defaults.plist"),
        (
            "Linux, moved by the environment variable",
            inputs(.freedesktop, environment: ["MODELKIT_DEFAULTS_DIRECTORY": "/tmp/run", "XDG_CONFIG_HOME": "/cfg"]),
            "/tmp/run/defaults.plist"
        ),
    ]

    @Test(arguments: standardCases.indices)
    func theStandardStoreLivesInThePlatformsPlace(index: Int) {
        let (name, inputs, expected) = Self.standardCases[index]
        #expect(Platform.standardStoreFile(inputs).path == expected, "\(name)")
    }

    /// Each case: the inputs, the suite, and its store's file.
    static let suiteCases: [(String, Platform.StoreFolderInputs, String, String)] = [
        (
            "an App Group of the app: the group's container, shared with its extensions",
            inputs(
                .apple, bundle: "com.example.Notes", support: "/Users/ann/Library/Application Support",
                groups: ["group.com.example.notes": "/Users/ann/Library/Group Containers/group.com.example.notes"]),
            "group.com.example.notes",
            "/Users/ann/Library/Group Containers/group.com.example.notes/Library/Application Support/ModelKit/defaults.plist"
        ),
        (
            "Apple, a name that is no App Group: beside the standard store",
            inputs(.apple, bundle: "com.example.Notes", support: "/Users/ann/Library/Application Support"),
            "shared", "/Users/ann/Library/Application Support/shared/defaults.plist"
        ),
        (
            "Linux: beside the standard store", inputs(.freedesktop, environment: ["XDG_CONFIG_HOME": "/cfg"]),
            "group.com.example.notes", "/cfg/group.com.example.notes/defaults.plist"
        ),
        (
            "Linux: App Groups do not exist",
            inputs(.freedesktop, environment: ["HOME": "/h"], groups: ["g": "/never"]), "g", "/h/.config/g/defaults.plist"
        ),
        (
            "moved by the environment variable",
            inputs(.apple, environment: ["MODELKIT_DEFAULTS_DIRECTORY": "/tmp/run"], groups: ["g": "/never"]), "g",
            "/tmp/run/g.plist"
        ),
    ]

    @Test(arguments: suiteCases.indices)
    func aSuiteStoreLivesInItsGroupOrBesideTheStandardOne(index: Int) {
        let (name, inputs, suite, expected) = Self.suiteCases[index]
        #expect(Platform.suiteStoreFile(named: suite, inputs).path == expected, "\(name)")
    }

    @Test(arguments: [
        ("", "the suite name \"\" cannot name a store: it is empty"),
        (".", "the suite name \".\" cannot name a store: it names a folder's own entry"),
        ("..", "the suite name \"..\" cannot name a store: it names a folder's own entry"),
        ("a/b", "the suite name \"a/b\" cannot name a store: it holds a /"),
        ("a\u{0}b", "the suite name \"a\\0b\" cannot name a store: it holds a NUL character"),
        (String(repeating: "é", count: 128), "cannot name a store: it is longer than 255 bytes (256)"),
    ])
    func aSuiteNameThatCannotNameAFolderIsRefused(name: String, message: String) {
        do {
            _ = try ModelDefaults(suiteName: name, autosaveDelay: nil, watchInterval: nil)
            Issue.record("the suite \(name) was opened")
        } catch let error as ModelError {
            #expect(error.description.hasSuffix(message), "\(error.description)")
            #expect(error.code == .invalidValue)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    /// Two stores of one suite, as an app and its widget would open it,
    /// share the file; the suite's file is where `url(forSuiteNamed:)` says.
    @Test func twoStoresOfOneSuiteShareItsFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ModelKitTests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // The test process's environment names a folder only when CI sets it:
        // the suite's place is checked with the pure function above, and this
        // test opens the suite through its URL in a temporary folder.
        var inputs = Platform.StoreFolderInputs.current
        inputs.environment["MODELKIT_DEFAULTS_DIRECTORY"] = folder.path
        let url = Platform.suiteStoreFile(named: "group.com.example.notes", inputs)
        #expect(url.path == folder.appendingPathComponent("group.com.example.notes.plist").path)
        let app = try ModelDefaults(url: url, autosaveDelay: nil, watchInterval: nil)
        app.set(3, forKey: "unread")
        try app.save()
        let widget = try ModelDefaults(url: url, autosaveDelay: nil, watchInterval: nil)
        #expect(widget.integer(forKey: "unread") == 3)
    }
}
