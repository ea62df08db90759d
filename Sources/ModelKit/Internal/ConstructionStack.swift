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
@usableFromInline
final class ConstructionStack {
    var values: ContiguousArray<Any> = []

    private static let storage = ThreadLocal { ConstructionStack() }

    /// The constructing thread's stack.
    static var current: ConstructionStack { storage.value }

    /// Pushes an initial value and returns its position.
    @usableFromInline
    static func push(_ value: Any) -> Int {
        let stack = current
        stack.values.append(value)
        return stack.values.count - 1
    }

    /// Removes and returns the values from `base` to the top.
    func take(from base: Int) -> ContiguousArray<Any> {
        let taken = ContiguousArray(values[base...])
        values.removeSubrange(base...)
        return taken
    }
}
