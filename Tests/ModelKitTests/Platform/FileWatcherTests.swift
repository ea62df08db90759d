import Foundation
import Synchronization
import Testing

@testable import ModelKit

/// File watching: file events where the system has them (inotify here),
/// telling of every way a file changes and of nothing else.
@Suite struct FileWatcherTests {
    /// Counts the handler's calls.
    final class Calls: Sendable {
        let count = Mutex(0)
        func note() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }

        /// Waits up to `seconds` for a call after `previous`; returns whether one came.
        func wait(after previous: Int, seconds: Double = 3) -> Bool {
            let end = Date().addingTimeInterval(seconds)
            while Date() < end {
                if value > previous { return true }
                Thread.sleep(forTimeInterval: 0.01)
            }
            return value > previous
        }
    }

    @Test func linuxWatchesWithInotifyAndAppleWithKqueue() throws {
        try withTemporaryFolder { folder in
            let watcher = FileWatcher(url: folder.appendingPathComponent("a.plist"), interval: 3600) {}
            defer { watcher.cancel() }
            #if canImport(Darwin)
                #expect(watcher.mechanism == .kqueue)
            #else
                #expect(watcher.mechanism == .inotify)
            #endif
        }
    }

    /// Each way a file changes, made by another writer, is told (with an
    /// hour between polls, only file events can tell it in time).
    @Test(arguments: ["created", "replaced atomically", "written in place", "appended to", "removed"])
    func everyChangeToTheFileIsTold(change: String) throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("watched.plist")
            if change != "created" { try Data("old".utf8).write(to: url) }
            let calls = Calls()
            let watcher = FileWatcher(url: url, interval: 3600, coalescing: .milliseconds(10)) { calls.note() }
            defer { watcher.cancel() }
            Thread.sleep(forTimeInterval: 0.05)
            let before = calls.value
            switch change {
            case "created", "replaced atomically": try Data("new".utf8).write(to: url, options: .atomic)
            case "written in place":
                let handle = try FileHandle(forWritingTo: url)
                try handle.write(contentsOf: Data("NEW".utf8))
                try handle.close()
            case "appended to":
                let handle = try FileHandle(forWritingTo: url)
                _ = try handle.seekToEnd()
                try handle.write(contentsOf: Data("more".utf8))
                try handle.close()
            default: try FileManager.default.removeItem(at: url)
            }
            #expect(calls.wait(after: before), "\(change) was not told")
        }
    }

    @Test func anotherFileInTheFolderIsNotTold() throws {
        try withTemporaryFolder { folder in
            let calls = Calls()
            let watcher = FileWatcher(
                url: folder.appendingPathComponent("watched.plist"), interval: 3600, coalescing: .milliseconds(10)
            ) { calls.note() }
            defer { watcher.cancel() }
            try Data("x".utf8).write(to: folder.appendingPathComponent("other.plist"), options: .atomic)
            try Data("x".utf8).write(to: folder.appendingPathComponent("watched.plist.lock"))
            #if canImport(Darwin)
                // kqueue tells of the folder, not of a name: callers compare stamps.
            #else
                #expect(!calls.wait(after: 0, seconds: 0.3))
            #endif
        }
    }

    @Test func aBurstOfWritesIsToldOnce() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("watched.plist")
            let calls = Calls()
            let watcher = FileWatcher(url: url, interval: 3600, coalescing: .milliseconds(200)) { calls.note() }
            defer { watcher.cancel() }
            for index in 0..<20 { try Data("\(index)".utf8).write(to: url, options: .atomic) }
            #expect(calls.wait(after: 0))
            Thread.sleep(forTimeInterval: 0.4)
            #expect(calls.value == 1)
        }
    }

    @Test func noCallAfterCancel() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("watched.plist")
            let calls = Calls()
            let watcher = FileWatcher(url: url, interval: 3600, coalescing: .milliseconds(10)) { calls.note() }
            watcher.cancel()
            Thread.sleep(forTimeInterval: 0.05)
            try Data("x".utf8).write(to: url, options: .atomic)
            #expect(!calls.wait(after: 0, seconds: 0.3))
        }
    }

    /// A store watching its file (polling only once an hour) sees another
    /// store's save within a second or two: file events, not polling.
    @Test func aStoreSeesAnotherProcesssSaveThroughFileEvents() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("settings.plist")
            let watching = try ModelDefaults(url: url, autosaveDelay: nil, watchInterval: 3600)
            let other = try ModelDefaults(url: url, autosaveDelay: nil, watchInterval: nil)
            other.set("dark", forKey: "theme")
            try other.save()
            let end = Date().addingTimeInterval(3)
            while watching.string(forKey: "theme") == nil, Date() < end { Thread.sleep(forTimeInterval: 0.01) }
            #expect(watching.string(forKey: "theme") == "dark")
        }
    }

    /// A store opened before its folder exists polls, and watches with file
    /// events once its first save has made the folder.
    @Test func aStoreWhoseFolderIsMadeLaterWatchesWithEventsAfterItsFirstSave() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("new/folder/settings.plist")
            let store = try ModelDefaults(url: url, autosaveDelay: nil, watchInterval: 3600)
            #expect(store.lock.withLock { store.watcher?.mechanism } == .polling)
            store.set(1, forKey: "k")
            try store.save()
            #if canImport(Darwin)
                #expect(store.lock.withLock { store.watcher?.mechanism } == .kqueue)
            #else
                #expect(store.lock.withLock { store.watcher?.mechanism } == .inotify)
            #endif
        }
    }
}
