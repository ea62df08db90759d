import Foundation

extension Platform {
    /// The two ways ModelKit places its standard store: Apple's
    /// (Application Support, App Group containers) and the XDG base-directory
    /// specification's (Linux and other Unix systems).
    enum Family: Sendable, Hashable {
        case apple
        case freedesktop

        /// The family of the running platform.
        static var current: Family {
            #if canImport(Darwin)
                .apple
            #else
                .freedesktop
            #endif
        }
    }

    /// What decides where a store lives, read from the running process by
    /// ``current`` and given by hand in tests: the choice itself
    /// (``standardStoreFile(_:)``, ``suiteStoreFile(named:_:)``) is a pure
    /// function of these, so every platform's answer is checked on any.
    struct StoreFolderInputs: Sendable {
        var family: Family
        var environment: [String: String]
        /// The executable's name (`ProcessInfo.processName`).
        var processName: String
        /// The main bundle's identifier, on Apple platforms where there is one.
        var bundleIdentifier: String?
        /// Application Support in the user's domain (Apple platforms; in a
        /// sandboxed app, inside its container).
        var applicationSupport: URL?
        /// The user's home folder as the system gives it (the user database
        /// on Linux, `NSHomeDirectory()` on Apple platforms).
        var home: URL
        /// The App Group container of an identifier, or nil when the app has
        /// no such group (Apple platforms; always nil elsewhere).
        var groupContainer: @Sendable (String) -> URL?

        /// The inputs of the running process.
        static var current: StoreFolderInputs {
            let process = ProcessInfo.processInfo
            #if canImport(Darwin)
                // `FileManager.urls(for:in:)`, `NSHomeDirectory()` and
                // `containerURL(forSecurityApplicationGroupIdentifier:)` exist
                // on every Apple platform (Apple's Foundation documentation);
                // `homeDirectoryForCurrentUser` is macOS only, so it is not used.
                return StoreFolderInputs(
                    family: .apple, environment: process.environment, processName: process.processName,
                    bundleIdentifier: Bundle.main.bundleIdentifier,
                    applicationSupport: FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)
                        .first,
                    home: URL(fileURLWithPath: NSHomeDirectory(), isDirectory: true),
                    groupContainer: { FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: $0) })
            #else
                return StoreFolderInputs(
                    family: .freedesktop, environment: process.environment, processName: process.processName,
                    bundleIdentifier: nil, applicationSupport: nil,
                    home: FileManager.default.homeDirectoryForCurrentUser, groupContainer: { _ in nil })
            #endif
        }
    }

    /// The file of the standard store:
    /// - `defaults.plist` in `$MODELKIT_DEFAULTS_DIRECTORY` when it is set;
    /// - on Apple platforms, `Application Support/<bundle identifier or
    ///   process name>/defaults.plist` (`~/Library/Application Support` on
    ///   macOS, the app's container when sandboxed and on iOS, tvOS, watchOS
    ///   and visionOS);
    /// - elsewhere, `<executable>/defaults.plist` in `$XDG_CONFIG_HOME` when
    ///   that is an absolute path, else in `$HOME/.config` when `$HOME` is
    ///   one, else in `.config` of the home folder the user database gives.
    static func standardStoreFile(_ inputs: StoreFolderInputs) -> URL {
        if let folder = overrideFolder(inputs) {
            return folder.appendingPathComponent("defaults.plist")
        }
        return settingsFolder(inputs)
            .appendingPathComponent(inputs.bundleIdentifier ?? inputs.processName, isDirectory: true)
            .appendingPathComponent("defaults.plist")
    }

    /// The file of the store of the suite `name` (an App Group identifier on
    /// Apple platforms):
    /// - `<name>.plist` in `$MODELKIT_DEFAULTS_DIRECTORY` when it is set;
    /// - on Apple platforms, when the app belongs to the App Group `name`,
    ///   `Library/Application Support/ModelKit/defaults.plist` in the group's
    ///   container, shared by the app and its extensions;
    /// - else `<name>/defaults.plist` beside the standard store's folder.
    static func suiteStoreFile(named name: String, _ inputs: StoreFolderInputs) -> URL {
        if let folder = overrideFolder(inputs) {
            return folder.appendingPathComponent(name + ".plist")
        }
        if inputs.family == .apple, let container = inputs.groupContainer(name) {
            return container.appendingPathComponent("Library/Application Support/ModelKit", isDirectory: true)
                .appendingPathComponent("defaults.plist")
        }
        return settingsFolder(inputs).appendingPathComponent(name, isDirectory: true)
            .appendingPathComponent("defaults.plist")
    }

    /// The folder named by `$MODELKIT_DEFAULTS_DIRECTORY`, if set.
    private static func overrideFolder(_ inputs: StoreFolderInputs) -> URL? {
        guard let folder = inputs.environment["MODELKIT_DEFAULTS_DIRECTORY"], !folder.isEmpty else { return nil }
        return URL(fileURLWithPath: folder, isDirectory: true)
    }

    /// The folder that holds each program's settings folder.
    private static func settingsFolder(_ inputs: StoreFolderInputs) -> URL {
        switch inputs.family {
        case .apple:
            return inputs.applicationSupport
                ?? inputs.home.appendingPathComponent("Library/Application Support", isDirectory: true)
        case .freedesktop:
            if let config = inputs.environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
                return URL(fileURLWithPath: config, isDirectory: true)
            }
            // $HOME, as the specification says; the user database only without it.
            if let home = inputs.environment["HOME"], home.hasPrefix("/") {
                return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".config", isDirectory: true)
            }
            return inputs.home.appendingPathComponent(".config", isDirectory: true)
        }
    }
}
