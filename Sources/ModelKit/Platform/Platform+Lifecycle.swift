import Foundation

extension Platform {
    /// The notifications an app posts when it may be suspended, or is about
    /// to end, without running `atexit` handlers: iOS, iPadOS, tvOS,
    /// watchOS and visionOS suspend an app in the background and later kill
    /// it without notice, and an extension's host does the same.
    ///
    /// Observed by name, so that ModelKit imports neither UIKit, AppKit nor
    /// WatchKit (each name is the string value of the framework's constant,
    /// from Apple's documentation of it; no device runs this project's
    /// CI). Where nobody posts them, as on Linux, observing them costs
    /// nothing; tests post them by hand.
    static let appLeavingNotifications: [Notification.Name] = [
        // UIKit (iOS, iPadOS, tvOS, visionOS, Mac Catalyst):
        // UIApplication.didEnterBackgroundNotification, .willTerminateNotification.
        Notification.Name("UIApplicationDidEnterBackgroundNotification"),
        Notification.Name("UIApplicationWillTerminateNotification"),
        // AppKit (macOS): NSApplication.willTerminateNotification.
        Notification.Name("NSApplicationWillTerminateNotification"),
        // WatchKit (watchOS 7 and later): WKApplication.didEnterBackgroundNotification.
        Notification.Name("WKApplicationDidEnterBackgroundNotification"),
        // Foundation (app extensions): NSNotification.Name.NSExtensionHostDidEnterBackground.
        Notification.Name("NSExtensionHostDidEnterBackgroundNotification"),
    ]

    /// The notifications posted when files under Data Protection become
    /// readable again (the device was unlocked): UIKit's
    /// UIApplication.protectedDataDidBecomeAvailableNotification and AppKit's
    /// NSApplicationProtectedDataDidBecomeAvailable (macOS 12 and later).
    static let protectedDataAvailableNotifications: [Notification.Name] = [
        Notification.Name("UIApplicationProtectedDataDidBecomeAvailable"),
        Notification.Name("NSApplicationProtectedDataDidBecomeAvailableNotification"),
    ]
}
