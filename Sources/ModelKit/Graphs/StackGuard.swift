#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Synchronization

/// Keeps the recursion over nested models (one level of encoding or
/// decoding calls per model, up to the nesting limit) off the end of the
/// thread's stack.
///
/// Threads have small stacks (512 KiB for secondary threads on Apple
/// platforms) and a level of model costs kilobytes, more in debug builds and
/// several times more under AddressSanitizer. So nothing here is a fixed
/// estimate: each level past the first few runs inside
/// ``continuingOnLargeStack(_:)``, which measures how far below the
/// enclosing level its frame lies (the size of a level, as built and run)
/// and how much of this thread's stack is left (`ThreadStack`). When what is
/// left is less than a reserve of a few levels' size, the rest of the work
/// runs on a new thread with a large stack while this one waits, sharing
/// this thread's coding state (the `EncodingGuard`, the document's
/// `DecodingReferences`, the date strategy in force). A thread that holds a
/// model's lock (inside ``ModelObject/withLock(_:)``) cannot hand over work
/// that may need that lock: there it is an error instead, never a crash.
enum StackGuard {
    /// Levels this shallow run without a check, which would cost every
    /// small document: a caller must leave them room (a few dozen KiB in a
    /// release build) besides the reserve.
    static let uncheckedLevels = 8
    /// Stack always left below a level for the work at its leaves (scalars,
    /// the runtime's metadata lookups, Foundation), which is not ModelKit's
    /// code and does not grow with a level's size.
    static let reserveFloor: UInt = 64 << 10
    /// Levels' worth of stack left besides, at the largest level measured.
    static let reservedLevels: UInt = 4
    /// The size of a level until one has been measured in this process.
    static let assumedLevelSize: UInt = 8 << 10
    /// The most a measurement may count as one level: a gap larger than this
    /// holds the caller's own work between two codings, not one level. It
    /// keeps the reserve under a quarter of the smallest continuing stack,
    /// so a continuing thread always runs levels before it would hand over.
    static let largestLevelSize: UInt = 1 << 20
    /// The stack of a continuing thread, at least: room for 1,000 levels
    /// and more in a debug build under AddressSanitizer.
    static let continuationStackFloor = 16 << 20
    /// The stack that levels may use, from the outermost, on a thread whose
    /// stack the system does not describe (or when a frame is not on it).
    static let fallbackBudget: UInt = 160 << 10

    /// The largest level measured in this process (0 before the first).
    private static let largestLevel = Atomic<UInt>(0)

    /// The size of one level: the largest measured, else the assumption.
    static var levelSize: UInt {
        let measured = largestLevel.load(ordering: .relaxed)
        return measured == 0 ? assumedLevelSize : measured
    }

    /// The stack a level needs left below it to run here.
    static var reserve: UInt { reserveFloor + reservedLevels * levelSize }

    /// The stack of a new continuing thread: 1,024 levels and the reserve,
    /// at least ``continuationStackFloor``, in whole 64 KiB.
    static var continuationStackSize: Int {
        let wanted = 1024 * levelSize + reserve
        return max(continuationStackFloor, Int((wanted + 0xFFFF) & ~0xFFFF))
    }

    /// Records that a level took `size` bytes of stack.
    private static func noteLevel(size: UInt) {
        let size = min(size, largestLevelSize)
        var known = largestLevel.load(ordering: .relaxed)
        while size > known {
            let (exchanged, original) = largestLevel.compareExchange(
                expected: known, desired: size, ordering: .relaxed)
            if exchanged { break }
            known = original
        }
    }

    /// This thread's stack, its open levels, and how many model locks it
    /// holds.
    final class ThreadState {
        /// The bounds of this thread's stack, asked once, when a level first needs them.
        lazy var stack: (low: UInt, high: UInt)? = ThreadStack.currentBounds()
        /// The frames of the outermost and the innermost open level on this
        /// thread (0 when none is open).
        var outermostFrame: UInt = 0
        var innermostFrame: UInt = 0
        /// How many `withLock` blocks are open on this thread.
        var locksHeld = 0
        /// The history steps this thread has open, made on its first
        /// change to a model a ``ModelHistory`` tracks.
        var history: HistoryThreadState?

        /// Whether a level whose frame is at `frame` has the room it needs here.
        func hasRoom(at frame: UInt) -> Bool {
            if let stack, frame > stack.low, frame <= stack.high {
                return frame - stack.low >= StackGuard.reserve
            }
            guard innermostFrame != 0, outermostFrame > frame else { return true }
            return outermostFrame - frame <= StackGuard.fallbackBudget
        }
    }

    private static let storage = ThreadLocal { ThreadState() }
    static var current: ThreadState { storage.value }

    /// Runs `body`, one level of nested models, here when this thread's
    /// stack has the room a level needs, else on a new thread with a large
    /// stack, waiting for it.
    /// - Throws: what `body` throws; ``ModelError`` when the stack runs low
    ///   and this thread holds a model's lock.
    @inline(__always)
    static func continuingOnLargeStack<Value>(_ body: () throws -> Value) throws -> Value {
        let state = current
        let here = ThreadStack.frameAddress()
        let enclosing = state.innermostFrame
        if enclosing > here { noteLevel(size: enclosing - here) }
        if !state.hasRoom(at: here) {
            guard state.locksHeld == 0 else {
                throw ModelError(
                    code: .nestingTooDeep,
                    message: "models are nested too deep for the stack of this thread while it holds a model's "
                        + "lock (withLock); encode or decode the graph outside withLock")
            }
            return try onNewThread(body)
        }
        if enclosing == 0 { state.outermostFrame = here }
        state.innermostFrame = here
        defer { state.innermostFrame = enclosing }
        return try body()
    }

    /// Runs `body`, one level of a recursive walk over nested values (not
    /// models: equality, hashing, differences), at `depth` levels below the
    /// walk's start. Every eighth level goes through
    /// ``continuingOnLargeStack(_:)``, so a walk of any depth never runs off
    /// the stack, while the shallow levels of small values cost no check. A
    /// walk that cannot continue on a new thread (one holding a model's
    /// lock) goes on here.
    @inline(__always)
    static func descending<Value>(_ depth: Int, _ body: () -> Value) -> Value {
        guard depth & 7 == 7 else { return body() }
        do {
            return try continuingOnLargeStack(body)
        } catch {
            // Refused before `body` ran, which throws nothing.
            return body()
        }
    }

    /// ``descending(_:_:)`` for a walk that throws (patches, merges): where
    /// the walk cannot continue on a new thread, it throws the guard's error.
    @inline(__always)
    static func descendingThrowing<Value>(_ depth: Int, _ body: () throws -> Value) throws -> Value {
        guard depth & 7 == 7 else { return try body() }
        return try continuingOnLargeStack(body)
    }

    /// The work handed to a continuing thread, and its outcome.
    private final class Continuation {
        let body: () -> Void
        let encoding: EncodingGuard?
        let decoding: DecodingReferences.Holder?
        let coding: CodingContext?
        let loading: LoadInProgress?
        init(body: @escaping () -> Void) {
            self.body = body
            encoding = EncodingGuard.existing
            decoding = DecodingReferences.existingHolder
            coding = CodingContext.existing
            loading = LoadInProgress.existing
        }
        func run() {
            if let encoding { EncodingGuard.install(encoding) }
            if let decoding { DecodingReferences.install(decoding) }
            if let coding { CodingContext.install(coding) }
            if let loading { LoadInProgress.install(loading) }
            body()
        }
    }

    private static func onNewThread<Value>(_ body: () throws -> Value) throws -> Value {
        var outcome: Result<Value, any Error>?
        try withoutActuallyEscaping({ outcome = Result { try body() } }) { work in
            let continuation = Continuation(body: work)
            let status = Platform.runOnNewThread(stackSize: continuationStackSize) { continuation.run() }
            guard status == 0 else {
                throw ModelError(
                    code: .nestingTooDeep,
                    message: "models are nested too deep for the stack of this thread, and no thread with a larger "
                        + "stack could be started (error \(status))")
            }
        }
        return try outcome!.get()
    }
}
