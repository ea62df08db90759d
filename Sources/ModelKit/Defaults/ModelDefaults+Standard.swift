import Foundation

extension ModelDefaults {
    /// The environment variable that moves the standard store: a folder that
    /// holds its `defaults.plist` instead of the platform's place. Tests and
    /// tools set it so that nothing touches a real home folder.
    public static let directoryEnvironmentVariable = "MODELKIT_DEFAULTS_DIRECTORY"

    /// Where the standard store keeps its file: `defaults.plist` in the
    /// folder named by ``directoryEnvironmentVariable``, else in a folder
    /// named after the program in the platform's place for settings.
    ///
    /// | platform | file |
    /// | --- | --- |
    /// | macOS | `~/Library/Application Support/<bundle identifier>/defaults.plist` (the container's Library in a sandboxed app; the process name for a tool with no bundle identifier) |
    /// | iOS, iPadOS, tvOS, watchOS, visionOS | `Library/Application Support/<bundle identifier>/defaults.plist` in the app's container |
    /// | Linux and other systems | `$XDG_CONFIG_HOME/<executable>/defaults.plist`, else `$HOME/.config/…`, else `.config/…` in the home folder the user database gives |
    ///
    /// On Linux that follows the XDG base-directory specification:
    /// `$XDG_CONFIG_HOME` counts only when it is an absolute path, as does
    /// `$HOME`, so a test run or a CI job that sets `HOME` keeps the store in
    /// that folder. Tests and tools set ``directoryEnvironmentVariable`` so
    /// that nothing touches a real home folder or Library.
    public static var standardURL: URL {
        Platform.standardStoreFile(.current)
    }

    /// Where the store of the suite `suiteName` keeps its file; see
    /// ``init(suiteName:format:recovery:autosaveDelay:watchInterval:)``.
    /// - Throws: ``ModelError`` when `suiteName` cannot name a folder.
    public static func url(forSuiteNamed suiteName: String) throws -> URL {
        try checkSuiteName(suiteName)
        return Platform.suiteStoreFile(named: suiteName, .current)
    }

    /// Opens the store shared under the name `suiteName`, as
    /// `UserDefaults(suiteName:)` does.
    ///
    /// On Apple platforms, when `suiteName` is an App Group the app belongs
    /// to (`group.com.example.notes`, listed in its App Groups
    /// entitlement), the store lives in that group's container, at
    /// `Library/Application Support/ModelKit/defaults.plist`: the app and its
    /// extensions (widgets, share and intents extensions) open the same
    /// file, and the file lock and merging of ``save(clearingChanges:)``
    /// keep each process's keys. Elsewhere, and on Apple platforms for a name
    /// that is no App Group of the app, the store is `<suiteName>/defaults.plist`
    /// beside the standard store's folder (on Linux, in `$XDG_CONFIG_HOME`).
    /// With ``directoryEnvironmentVariable`` set, it is `<suiteName>.plist` in
    /// that folder.
    ///
    /// ```swift
    /// let shared = try ModelDefaults(suiteName: "group.com.example.notes")
    /// shared.set(3, forKey: "unread")      // the widget reads 3
    /// ```
    ///
    /// On macOS, Foundation gives a group container's URL even for a group
    /// the app does not belong to; a sandboxed app can then not write it, and
    /// the save names the file and the cause.
    /// - Parameters: as ``init(url:format:recovery:autosaveDelay:watchInterval:)``.
    /// - Throws: ``ModelError`` when `suiteName` is empty, `.` or `..`, holds a
    ///   `/` or a NUL, or is longer than 255 bytes; and as `init(url:…)` for its file.
    public convenience init(
        suiteName: String, format: PropertyListSerialization.PropertyListFormat = .xml,
        recovery: CorruptFileRecovery = .fail, autosaveDelay: TimeInterval? = 0.2, watchInterval: TimeInterval? = 1
    ) throws {
        try self.init(
            url: Self.url(forSuiteNamed: suiteName), format: format, recovery: recovery, autosaveDelay: autosaveDelay,
            watchInterval: watchInterval)
    }

    /// Refuses a suite name that cannot be one folder's name.
    static func checkSuiteName(_ name: String) throws {
        let problem: String? =
            if name.isEmpty { "it is empty" }
            else if name == "." || name == ".." { "it names a folder's own entry" }
            else if name.contains("/") { "it holds a /" }
            else if name.utf8.contains(0) { "it holds a NUL character" }
            else if name.utf8.count > 255 { "it is longer than 255 bytes (\(name.utf8.count))" }
            else { nil }
        if let problem {
            throw ModelError(
                code: .invalidValue,
                message: "the suite name \(String(reflecting: name)) cannot name a store: \(problem)")
        }
    }

    /// The store at ``standardURL``, opened on first use.
    ///
    /// When its file exists but cannot be read, the store still answers
    /// (registered defaults, values set in this run) but never writes the
    /// file: ``save(clearingChanges:)`` throws the error, and ``loadError`` says it. Open
    /// `ModelDefaults(url: ModelDefaults.standardURL, recovery: .moveAside)`
    /// to set the bad file aside and start again.
    public static let standard: ModelDefaults = {
        let url = standardURL
        do {
            return try ModelDefaults(url: url)
        } catch {
            return ModelDefaults(url: url, unreadable: ModelError(error))
        }
    }()

    /// Why the store's file could not be read when the store was opened, or `nil`.
    public var loadError: ModelError? { lock.withLock { loadProblem } }
}
