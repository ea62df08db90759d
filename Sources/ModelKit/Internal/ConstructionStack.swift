/// Carries the initial values of `@Saved` properties from their wrappers to
/// the object being constructed.
///
/// Swift runs a class's property initialisers before `super.init()`, so each
/// `Saved(wrappedValue:)` runs before `ModelObject.init()` can see the object.
/// The wrapper pushes its value here, on the constructing thread, and
/// remembers the position it pushed at; `ModelObject.init()` then takes the
/// values its class declared from the top of the stack and keeps the stack
/// depth it started at as the object's `slotBase`, so that a wrapper finds its
/// slot as `position - slotBase`. Models constructed while another one is
/// being constructed (a property whose default is a model) push and pop in
/// between, so the stack stays balanced.
///
/// Each thread has its own stack and only that thread touches it, so its
/// storage opts out of the runtime's exclusivity checks, which would
/// otherwise cost more than the push itself.
@usableFromInline
final class ConstructionStack {
    @exclusivity(unchecked) private var storage: UnsafeMutablePointer<Any>
    @exclusivity(unchecked) private var capacity: Int
    /// The number of values on the stack.
    @exclusivity(unchecked) private(set) var count = 0
    /// The layout that the last object constructed on this thread used: a
    /// cache in front of `ClassLayout.cached(_:)` for runs of one class.
    @exclusivity(unchecked) var lastLayout: ClassLayout?

    private init() {
        capacity = 64
        storage = UnsafeMutablePointer<Any>.allocate(capacity: capacity)
    }

    deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    private static let threadStacks = ThreadLocal { ConstructionStack() }

    /// The constructing thread's stack.
    static var current: ConstructionStack { threadStacks.value }

    /// Pushes an initial value and returns its position.
    @usableFromInline
    static func push(_ value: Any) -> Int {
        threadStacks.withValue { $0.append(value) }
    }

    private func append(_ value: Any) -> Int {
        if count == capacity { grow() }
        (storage + count).initialize(to: value)
        count += 1
        return count - 1
    }

    private func grow() {
        let larger = UnsafeMutablePointer<Any>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: storage, count: count)
        storage.deallocate()
        storage = larger
        capacity *= 2
    }

    /// Removes and returns the values from `base` to the top.
    func take(from base: Int) -> ContiguousArray<Any> {
        let taken = count - base
        let source = storage + base
        let values = ContiguousArray<Any>(unsafeUninitializedCapacity: taken) { buffer, initialized in
            if taken > 0 { buffer.baseAddress!.moveInitialize(from: source, count: taken) }
            initialized = taken
        }
        count = base
        return values
    }
}
