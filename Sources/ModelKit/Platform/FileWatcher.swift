#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Dispatch
import Foundation

/// Tells when a file may have changed: replaced by a rename (as every
/// atomic writer does), written in place, created or removed, by this
/// process or another.
///
/// It asks the system to be told rather than looking again and again, so an
/// idle watcher costs nothing (on a phone or a watch, polling every second
/// costs battery):
/// - Apple platforms: kqueue, through `DispatchSource`'s file-system object
///   sources on the folder (a name added, removed or renamed in it) and on
///   the file itself (written, extended, its attributes changed).
/// - Linux: inotify on the folder, keeping the events that name the file.
/// - Elsewhere, or when the system refuses (Linux's limit of watches
///   reached): it polls the file's ``FileStamp`` every `interval` seconds.
///
/// The handler may be called for a change that is no change (the folder's
/// other files, a save by this process): callers compare ``FileStamp``s.
/// Bursts are coalesced: the handler runs at most once per `coalescing`
/// interval, after the burst's last event, on `queue`.
final class FileWatcher: @unchecked Sendable {
    /// How the file is being watched.
    enum Mechanism: Sendable, Hashable {
        case kqueue
        case inotify
        case polling
    }

    let url: URL
    /// How the file is being watched, set once when the watch starts.
    private(set) var mechanism = Mechanism.polling
    private let queue: DispatchQueue
    private let handler: @Sendable () -> Void
    private let coalescing: DispatchTimeInterval
    // Guarded by `queue`: every source runs its handlers there.
    private var sources: [any DispatchSourceProtocol] = []
    private var fileSource: (any DispatchSourceProtocol)?
    private var pending = false
    private var cancelled = false

    /// Starts watching the file at `url` (which need not exist yet; its
    /// folder should).
    /// - Parameters:
    ///   - interval: seconds between looks where the file must be polled.
    ///   - coalescing: how long a burst of events is waited out.
    ///   - handler: called on `queue` after a change.
    init(
        url: URL, interval: TimeInterval, coalescing: DispatchTimeInterval = .milliseconds(50),
        queue: DispatchQueue = DispatchQueue(label: "ModelKit.FileWatcher", qos: .utility),
        handler: @escaping @Sendable () -> Void
    ) {
        self.url = url
        self.queue = queue
        self.handler = handler
        self.coalescing = coalescing
        let folder = url.deletingLastPathComponent().path
        queue.sync {
            #if canImport(Darwin)
                if startKqueue(folder: folder) { mechanism = .kqueue }
            #else
                if startInotify(folder: folder, name: url.lastPathComponent) { mechanism = .inotify }
            #endif
            if mechanism == .polling { startPolling(every: interval) }
        }
    }

    deinit { cancelSources() }

    /// Stops watching; the handler is not called after this returns on `queue`.
    func cancel() {
        queue.async { self.cancelSources() }
    }

    private func cancelSources() {
        cancelled = true
        for source in sources { source.cancel() }
        fileSource?.cancel()
        sources = []
        fileSource = nil
    }

    /// Notes an event: the handler runs once the burst has been quiet for
    /// `coalescing`. Call on `queue`.
    private func changed() {
        guard !cancelled, !pending else { return }
        pending = true
        queue.asyncAfter(deadline: .now() + coalescing) { [weak self] in
            guard let self, !self.cancelled else { return }
            self.pending = false
            self.handler()
        }
    }

    // MARK: - Polling

    private func startPolling(every interval: TimeInterval) {
        let path = url.path
        var last = FileStamp(path: path)
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let seconds = max(interval, 0.01)
        timer.schedule(deadline: .now() + seconds, repeating: seconds, leeway: .milliseconds(100))
        timer.setEventHandler { [weak self] in
            let stamp = FileStamp(path: path)
            if stamp != last {
                last = stamp
                self?.changed()
            }
        }
        sources.append(timer)
        timer.resume()
    }

    // MARK: - kqueue (Apple platforms)

    #if canImport(Darwin)
        /// Watches the folder for names coming and going, and the file for
        /// writes; the file's source is made again whenever the folder
        /// changes, since a rename puts another file under the name.
        private func startKqueue(folder: String) -> Bool {
            // Apple's <sys/fcntl.h>: `O_EVTONLY`, a descriptor for event
            // notifications only, which does not keep a volume from being
            // unmounted (open(2) on Apple platforms).
            let folderDescriptor = open(folder, O_EVTONLY | O_CLOEXEC)
            guard folderDescriptor >= 0 else { return false }
            // Dispatch's `makeFileSystemObjectSource(fileDescriptor:eventMask:queue:)`
            // (Apple's Dispatch documentation; kqueue's EVFILT_VNODE).
            let source = DispatchSource.makeFileSystemObjectSource(
                fileDescriptor: folderDescriptor, eventMask: [.write, .delete, .rename, .link, .revoke], queue: queue)
            source.setEventHandler { [weak self] in
                self?.watchFile()
                self?.changed()
            }
            source.setCancelHandler { close(folderDescriptor) }
            sources.append(source)
            source.resume()
            watchFile()
            return true
        }

        /// (Re)starts the source on the file now under the watched name.
        private func watchFile() {
            fileSource?.cancel()
            fileSource = nil
            let descriptor = open(url.path, O_EVTONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return }
            let source = DispatchSource.makeFileSystemObjectSource(
                fileDescriptor: descriptor, eventMask: [.write, .extend, .attrib, .delete, .rename, .revoke], queue: queue)
            source.setEventHandler { [weak self] in self?.changed() }
            source.setCancelHandler { close(descriptor) }
            fileSource = source
            source.resume()
        }
    #endif

    // MARK: - inotify (Linux)

    #if !canImport(Darwin)
        /// Watches the folder with inotify (`<sys/inotify.h>`, which glibc's
        /// and musl's Swift modules import); events naming the file, and
        /// those about the folder itself or a lost queue, count.
        private func startInotify(folder: String, name: String) -> Bool {
            let descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
            guard descriptor >= 0 else { return false }
            let mask =
                UInt32(IN_CLOSE_WRITE | IN_MODIFY | IN_ATTRIB | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO)
                | UInt32(IN_DELETE_SELF | IN_MOVE_SELF)
            guard inotify_add_watch(descriptor, folder, mask) >= 0 else {
                close(descriptor)
                return false
            }
            let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
            let wanted = Array(name.utf8)
            source.setEventHandler { [weak self] in
                if Self.readEvents(descriptor, naming: wanted) { self?.changed() }
            }
            source.setCancelHandler { close(descriptor) }
            sources.append(source)
            source.resume()
            return true
        }

        /// Reads every queued event; returns whether one concerns the file.
        private static func readEvents(_ descriptor: Int32, naming name: [UInt8]) -> Bool {
            let headerSize = MemoryLayout<inotify_event>.size
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            var relevant = false
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count <= 0 { return relevant }  // EAGAIN: nothing more
                buffer.withUnsafeBytes { bytes in
                    var offset = 0
                    while offset + headerSize <= count {
                        let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                        let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                        let nameBytes = bytes[(offset + headerSize)..<min(offset + headerSize + length, count)]
                        let eventName = nameBytes.prefix { $0 != 0 }
                        if mask & UInt32(IN_Q_OVERFLOW | IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0
                            || eventName.elementsEqual(name)
                        {
                            relevant = true
                        }
                        offset += headerSize + length
                    }
                }
            }
        }
    #endif
}
