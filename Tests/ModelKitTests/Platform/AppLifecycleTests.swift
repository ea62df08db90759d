import Foundation
import Testing

@testable import ModelKit

/// The store as an app on a phone needs it: saved when the app leaves the
/// foreground (where it may be killed without `atexit`), and read again
/// once its protected file becomes readable.
@Suite(.serialized) struct AppLifecycleTests {
    @Test(arguments: Platform.appLeavingNotifications)
    func aStoreSavesWhenTheAppLeavesTheForeground(notification: Notification.Name) throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("settings.plist")
            let store = try ModelDefaults(url: url, autosaveDelay: nil, watchInterval: nil)
            store.set("unsaved", forKey: "draft")
            #expect(!FileManager.default.fileExists(atPath: url.path))
            NotificationCenter.default.post(name: notification, object: nil)
            let fresh = try ModelDefaults(url: url, autosaveDelay: nil, watchInterval: nil)
            #expect(fresh.string(forKey: "draft") == "unsaved", "\(notification.rawValue)")
            #expect(!store.hasUnsavedChanges)
        }
    }

    /// A store whose file could not be read when it opened (as a protected
    /// file before the device's first unlock) keeps its changes, refuses to
    /// save while the file stays unreadable, and saves, merged with the
    /// file, once it reads: it does not refuse saves for the life of the process.
    @Test func anUnreadableStoreSavesOnceItsFileReads() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("settings.plist")
            let good = try ModelValue.object(["kept": "yes"]).propertyListData(format: .xml)
            try Data("not a property list".utf8).write(to: url)
            let problem: ModelError
            do {
                _ = try ModelDefaults(url: url, autosaveDelay: nil, watchInterval: nil)
                Issue.record("the store read a broken file")
                return
            } catch let error as ModelError {
                problem = error
            }
            let store = ModelDefaults(url: url, unreadable: problem)
            store.set("mine", forKey: "added")
            #expect(throws: ModelError.self) { try store.save() }
            #expect(store.loadError != nil)
            try good.write(to: url)
            try store.save()
            #expect(store.loadError == nil)
            let fresh = try ModelDefaults(url: url, autosaveDelay: nil, watchInterval: nil)
            #expect(fresh.string(forKey: "kept") == "yes")
            #expect(fresh.string(forKey: "added") == "mine")
        }
    }

    @Test(arguments: Platform.protectedDataAvailableNotifications)
    func anUnreadableStoreReadsAgainWhenProtectedDataBecomesAvailable(notification: Notification.Name) throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("settings.plist")
            try Data("locked".utf8).write(to: url)
            let store = ModelDefaults(url: url, unreadable: ModelError(code: .fileAccess, message: "protected"))
            #expect(store.loadError != nil)
            try ModelValue.object(["theme": "dark"]).propertyListData(format: .xml).write(to: url)
            NotificationCenter.default.post(name: notification, object: nil)
            #expect(store.loadError == nil)
            #expect(store.string(forKey: "theme") == "dark")
        }
    }
}
