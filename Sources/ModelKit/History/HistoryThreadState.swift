import Synchronization

/// The history steps one thread has open, and the histories it is applying.
///
/// A change to a tracked model is recorded by the thread that makes it,
/// while it holds the model's lock, into that thread's open step for the
/// history; the step is handed to the history when the thread's top-level
/// change ends: after the assignment, in-place mutation, update or patch,
/// after the outermost ``ModelObject/withLock(_:)`` block, or at the end of a
/// ``ModelHistory/group(_:_:)``. Only its own thread touches it (it lives in
/// `StackGuard.ThreadState`), so it needs no lock.
final class HistoryThreadState {
    /// A step being made for one history.
    struct OpenStep {
        let history: ModelHistory
        var edits: [HistoryEdit] = []
        /// How many `group` calls for this history are open on the thread.
        var groupDepth = 0
        /// The outermost group's name.
        var name: String?
        /// Whether an edit changed a property that may hold models, so
        /// that the tracked graph must be walked again.
        var touchesModels = false
    }

    var open: [OpenStep] = []
    /// The histories whose steps this thread is applying (undo, redo): what
    /// they change is not recorded by them.
    var applying: [ObjectIdentifier] = []
    /// How many `asOneStep` calls are open on the thread: their changes
    /// wait, as inside `withLock`, to be committed together.
    var oneStepDepth = 0
    /// How many undo or redo steps this thread is applying: observers hear
    /// of their changes once, when the outermost ends.
    var deliveryDeferral = 0
    /// The models whose changes wait for that end, in the order they changed.
    var deferredModels: [ModelObject] = []
    /// How many threads are applying a step now; while 0, a change's
    /// delivery looks at no thread state.
    static let deferringThreads = Atomic<Int>(0)

    /// Notes that `model` has changes to deliver at the end of the step this
    /// thread applies; returns false when it applies none.
    static func deferDelivery(of model: ModelObject) -> Bool {
        guard let state = StackGuard.current.history, state.deliveryDeferral > 0 else { return false }
        if !state.deferredModels.contains(where: { $0 === model }) { state.deferredModels.append(model) }
        return true
    }

    /// Runs `body` (an undo or redo step) with the delivery of its changes
    /// held back, then delivers each model's changes, one per key: the
    /// value before the step and the value after it, so that no observer
    /// sees a state in between.
    static func deliveringOnce<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        let state = current
        state.deliveryDeferral += 1
        deferringThreads.add(1, ordering: .relaxed)
        defer {
            deferringThreads.subtract(1, ordering: .relaxed)
            state.deliveryDeferral -= 1
            if state.deliveryDeferral == 0 {
                let models = state.deferredModels
                state.deferredModels = []
                for model in models { model.deliverChanges(coalescing: true) }
            }
        }
        return try body()
    }

    /// This thread's state, made on first use.
    static var current: HistoryThreadState {
        let thread = StackGuard.current
        if let state = thread.history { return state }
        let state = HistoryThreadState()
        thread.history = state
        return state
    }

    private func index(of history: ModelHistory) -> Int {
        if let index = open.firstIndex(where: { $0.history === history }) { return index }
        open.append(OpenStep(history: history))
        return open.count - 1
    }

    /// Adds an edit to the thread's open step for `history` (the model's lock is held).
    static func record(_ edit: HistoryEdit, for history: ModelHistory, touchesModels: Bool) {
        let state = current
        guard !state.applying.contains(ObjectIdentifier(history)) else { return }
        let index = state.index(of: history)
        state.open[index].edits.append(edit)
        if touchesModels { state.open[index].touchesModels = true }
    }

    func beginGroup(_ history: ModelHistory, name: String) {
        let index = index(of: history)
        if open[index].groupDepth == 0 { open[index].name = name }
        open[index].groupDepth += 1
    }

    /// Ends a group; returns the step when it was the outermost.
    func endGroup(_ history: ModelHistory) -> OpenStep? {
        let index = index(of: history)
        open[index].groupDepth -= 1
        guard open[index].groupDepth == 0 else { return nil }
        return open.remove(at: index)
    }

    /// Hands the open steps outside groups to their histories, when this
    /// thread is inside no `withLock` block; walks the graphs of groups
    /// that added models, so that models added in a group are tracked for
    /// the rest of it.
    static func commitIfIdle() {
        let thread = StackGuard.current
        guard thread.locksHeld == 0, let state = thread.history, state.oneStepDepth == 0, !state.open.isEmpty
        else { return }
        var ready: [OpenStep] = []
        var refreshing: [ModelHistory] = []
        var index = 0
        while index < state.open.count {
            if state.open[index].groupDepth == 0 {
                ready.append(state.open.remove(at: index))
                continue
            }
            if state.open[index].touchesModels {
                state.open[index].touchesModels = false
                refreshing.append(state.open[index].history)
            }
            index += 1
        }
        for step in ready { step.history.commit(step) }
        for history in refreshing { history.refreshGraph() }
    }

    /// Runs `body`, whose changes to any models (a merge that edits nested
    /// models in place and then the root) make one step of each history,
    /// committed when it ends, as after a `withLock` block; no lock is taken.
    static func asOneStep<Result>(_ body: () throws -> Result) rethrows -> Result {
        let state = current
        state.oneStepDepth += 1
        defer {
            state.oneStepDepth -= 1
            commitIfIdle()
        }
        return try body()
    }
}
