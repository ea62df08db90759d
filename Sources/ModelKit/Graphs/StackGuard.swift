#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Keeps the recursion over nested models (one level of encoding or
/// decoding calls per model, up to the nesting limit) off the end of the
/// thread's stack.
///
/// Threads have small stacks (512 KiB for secondary threads on Apple
/// platforms) and a level of model costs kilobytes, more in debug builds.
/// Each level runs inside ``continuingOnLargeStack(_:)``, which measures the
/// stack used since the outermost level on this thread; past a budget that
/// any thread's stack affords, the rest of the work runs on a new thread
/// with a large stack while this one waits, sharing this thread's coding
/// state (the `EncodingGuard`, the document's `DecodingReferences`, the date
/// strategy in force). A thread that holds a model's lock (inside
/// ``ModelObject/withLock(_:)``) cannot hand over work that may need that
/// lock: there it is an error instead, never a crash.
enum StackGuard {
    /// Stack that the levels may use on a thread ModelKit did not start.
    static let budget: UInt = 160 << 10
    /// Levels this shallow run without a check: they cannot use up a stack,
    /// and checking them would cost every small document.
    static let uncheckedLevels = 8
    /// The stack of a continuing thread, and the part of it the levels may use.
    static let continuationStackSize = 16 << 20
    static let continuationBudget: UInt = 15 << 20

    /// This thread's use of its stack by nested levels, and how many model
    /// locks it holds.
    final class ThreadState {
        /// The address of the outermost level's frame.
        var base: UInt = 0
        /// Open levels.
        var levels = 0
        var budget = StackGuard.budget
        /// How many `withLock` blocks are open on this thread.
        var locksHeld = 0
    }

    private static let storage = ThreadLocal { ThreadState() }
    static var current: ThreadState { storage.value }

    /// The address of the caller's frame, near enough.
    @inline(never)
    private static func frameAddress() -> UInt {
        var marker = 0
        return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    }

    /// Runs `body`, one level of nested models, here when the levels open on
    /// this thread are within its budget, else on a new thread with a large
    /// stack, waiting for it.
    /// - Throws: what `body` throws; ``ModelError`` when the budget is spent
    ///   and this thread holds a model's lock.
    @inline(__always)
    static func continuingOnLargeStack<Value>(_ body: () throws -> Value) throws -> Value {
        let state = current
        let here = frameAddress()
        if state.levels == 0 {
            state.base = here
        } else if state.base > here, state.base - here > state.budget {
            guard state.locksHeld == 0 else {
                throw ModelError(
                    code: .nestingTooDeep,
                    message: "models are nested too deep for the stack of this thread while it holds a model's "
                        + "lock (withLock); encode or decode the graph outside withLock")
            }
            return try onNewThread(body)
        }
        state.levels += 1
        defer { state.levels -= 1 }
        return try body()
    }

    /// The work handed to a continuing thread, and its outcome.
    private final class Continuation {
        let body: () -> Void
        let encoding: EncodingGuard?
        let decoding: DecodingReferences.Holder?
        let coding: CodingContext?
        init(body: @escaping () -> Void) {
            self.body = body
            encoding = EncodingGuard.existing
            decoding = DecodingReferences.existingHolder
            coding = CodingContext.existing
        }
        func run() {
            let state = StackGuard.current
            state.budget = StackGuard.continuationBudget
            if let encoding { EncodingGuard.install(encoding) }
            if let decoding { DecodingReferences.install(decoding) }
            if let coding { CodingContext.install(coding) }
            body()
        }
    }

    private static func onNewThread<Value>(_ body: () throws -> Value) throws -> Value {
        var outcome: Result<Value, any Error>?
        try withoutActuallyEscaping({ outcome = Result { try body() } }) { work in
            let continuation = Continuation(body: work)
            // Allocated, not a Swift value: pthread_attr_init sets it up.
            let attributes = UnsafeMutablePointer<pthread_attr_t>.allocate(capacity: 1)
            pthread_attr_init(attributes)
            defer {
                pthread_attr_destroy(attributes)
                attributes.deallocate()
            }
            pthread_attr_setstacksize(attributes, continuationStackSize)
            let argument = Unmanaged.passRetained(continuation).toOpaque()
            #if canImport(Darwin)
                var thread: pthread_t?
                let status = pthread_create(&thread, attributes, { argument in
                    Unmanaged<Continuation>.fromOpaque(argument).takeRetainedValue().run()
                    return nil
                }, argument)
            #else
                var thread = pthread_t()
                let status = pthread_create(&thread, attributes, { argument in
                    Unmanaged<Continuation>.fromOpaque(argument!).takeRetainedValue().run()
                    return nil
                }, argument)
            #endif
            guard status == 0 else {
                Unmanaged<Continuation>.fromOpaque(argument).release()
                throw ModelError(
                    code: .nestingTooDeep,
                    message: "models are nested too deep for the stack of this thread, and no thread with a larger "
                        + "stack could be started (error \(status))")
            }
            #if canImport(Darwin)
                pthread_join(thread!, nil)
            #else
                pthread_join(thread, nil)
            #endif
        }
        return try outcome!.get()
    }
}
