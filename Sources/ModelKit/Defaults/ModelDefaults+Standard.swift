import Foundation

extension ModelDefaults {
    /// The environment variable that moves the standard store: a folder that
    /// holds its `defaults.plist` instead of the platform's place. Tests and
    /// tools set it so that nothing touches a real home folder.
    public static let directoryEnvironmentVariable = "MODELKIT_DEFAULTS_DIRECTORY"

    /// Where the standard store keeps its file: `defaults.plist` in the
    /// folder named by ``directoryEnvironmentVariable``, else in a folder
    /// named after the executable in the platform's place for settings.
    ///
    /// On Linux that place follows the XDG base-directory specification:
    /// `$XDG_CONFIG_HOME` when it is an absolute path, else `$HOME/.config`
    /// when `$HOME` is one, else `.config` in the home folder the user
    /// database gives. A test run or a CI job that sets `HOME` therefore
    /// keeps the store in that folder. On Apple platforms it is Application
    /// Support (by bundle identifier when there is one).
    public static var standardURL: URL {
        let environment = ProcessInfo.processInfo.environment
        if let folder = environment[directoryEnvironmentVariable], !folder.isEmpty {
            return URL(fileURLWithPath: folder, isDirectory: true).appendingPathComponent("defaults.plist")
        }
        let executable = ProcessInfo.processInfo.processName
        #if canImport(Darwin)
            let support =
                FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
                ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent("Library/Application Support")
            let name = Bundle.main.bundleIdentifier ?? executable
            return support.appendingPathComponent(name, isDirectory: true).appendingPathComponent("defaults.plist")
        #else
            let base: URL
            if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
                base = URL(fileURLWithPath: config, isDirectory: true)
            } else if let home = environment["HOME"], home.hasPrefix("/") {
                // $HOME, as the specification says; FileManager's home folder reads the user database.
                base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".config", isDirectory: true)
            } else {
                base = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config", isDirectory: true)
            }
            return base.appendingPathComponent(executable, isDirectory: true).appendingPathComponent("defaults.plist")
        #endif
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
