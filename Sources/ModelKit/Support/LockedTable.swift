import Foundation

/// A process-wide table behind an `NSLock`: the class-layout cache and the
/// class registry.
///
/// Like objects (`ModelStorage`), these tables use a pthread mutex (here
/// through `NSLock`) rather than `Synchronization.Mutex`, because on Linux
/// ThreadSanitizer cannot see the futex-based locking inside `Mutex` and
/// reports every write to a `Mutex`-guarded global as a race, so that
/// `swift test --sanitize=thread` would warn about correct code. They are read
/// once per class or per lookup, where the difference in speed does not show.
final class LockedTable<Key: Hashable, Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var table: [Key: Value] = [:]

    init() {}

    /// Runs `body` on the table, holding the lock.
    func withLock<Result>(_ body: (inout [Key: Value]) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&table)
    }
}
