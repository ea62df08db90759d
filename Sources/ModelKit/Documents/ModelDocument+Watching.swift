import Dispatch
import Foundation

extension ModelDocument {
    /// How long a burst of file events is waited out before the file is read.
    static var watchCoalescing: DispatchTimeInterval { .milliseconds(100) }
    /// How long to wait before reading again a changed file that does not
    /// load yet (a text editor writing it in place), and how many times.
    static var notReadyRetry: (delay: DispatchTimeInterval, limit: Int) { (.milliseconds(250), 40) }

    /// Whether the document is watching its file.
    public var isWatching: Bool {
        lock.withLock { watcher != nil }
    }

    /// The last error met while merging a change the watch saw (the file
    /// deleted, a merge that failed under ``MergePolicy/fail``), or `nil`.
    /// The live model is unchanged by a merge that failed; ``save()`` meets
    /// the same change again and throws.
    public var watchingError: ModelError? {
        lock.withLock { lastWatchingError }
    }

    /// Starts merging other writers' changes into the live model as they
    /// land, without saving.
    ///
    /// ```swift
    /// document.startWatching(queue: .main)
    /// for await merge in document.merges() { print(merge.conflicts) }
    /// ```
    ///
    /// File-system events say when the file may have changed (kqueue on
    /// Apple platforms, inotify on Linux; polling every second where neither
    /// works, see `FileWatcher`). A burst of writes is waited out, then the
    /// file is read whole. A version that does not load yet (a file written
    /// in place, half written) is not merged: it is read again a moment
    /// later, and at its next change. A version that loads is merged three
    /// ways with the base under ``policy``, as a save merges: one undo
    /// step, ``ModelObject/didLoad()`` on the models it changed, observers
    /// told, unsaved edits kept. It becomes the base; the observers and
    /// ``merges()`` are told.
    /// - Parameter queue: where merges run, and so where the model's
    ///   observers are called: `.main` for an app whose views observe the
    ///   model; a queue of the document's own by default.
    public func startWatching(queue: DispatchQueue? = nil) {
        lock.withLock {
            guard watcher == nil else { return }
            let queue = queue ?? DispatchQueue(label: "ModelKit.ModelDocument", qos: .userInitiated)
            watchQueue = queue
            watcher = FileWatcher(url: url, interval: 1, coalescing: Self.watchCoalescing, queue: queue) {
                [weak self] in self?.mergeWatchedChange()
            }
        }
    }

    /// Stops watching the file: no merge starts from watching afterwards.
    ///
    /// It does not wait for a merge already running on the watching queue
    /// (whose observers may be what calls it): that merge finishes, and
    /// tells its observers. To wait for it, give ``startWatching(queue:)``
    /// a queue of your own and run `queue.sync {}` after this, from
    /// another queue.
    public func stopWatching() {
        lock.withLock {
            watcher?.cancel()
            watcher = nil
            watchQueue = nil
            pendingRetries = 0
        }
    }

    /// Merges a change the watch saw, or waits for a version that loads.
    func mergeWatchedChange() {
        lock.withLock {
            guard watcher != nil else { return }
            do {
                _ = try mergeChangedFile(source: .watching, readFailure: .notReady)
                lastWatchingError = nil
            } catch let error as ModelError {
                lastWatchingError = error
                return
            } catch {
                lastWatchingError = ModelError(code: .invalidValue, message: "\(error)", file: url)
                return
            }
            // Still not the base: a version that does not load yet.
            if FileStamp(path: url.path).map({ $0 != base.stamp }) ?? false {
                scheduleRetry()
            } else {
                pendingRetries = 0
            }
        }
    }

    private func scheduleRetry() {
        guard let queue = watchQueue, pendingRetries < Self.notReadyRetry.limit else { return }
        pendingRetries += 1
        queue.asyncAfter(deadline: .now() + Self.notReadyRetry.delay) { [weak self] in
            self?.mergeWatchedChange()
        }
    }
}
