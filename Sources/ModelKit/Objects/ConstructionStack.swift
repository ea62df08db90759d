#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Synchronization

/// The POSIX thread-specific key of the construction stacks, plus one; zero
/// until the first object is constructed. A global of constant initial
/// value, so that reading it is a plain load.
@usableFromInline
let constructionStackKey = Atomic<UInt>(0)

/// The shared fast stack (an unretained `ConstructionStack`), 0 until the
/// first object is constructed. One thread at a time owns it (its
/// `owner`): the first thread to construct an object claims it and keeps it
/// until it ends, and finds its stack with one compare of its thread's
/// identity instead of a thread-specific lookup (about 15 instructions less
/// for each `@Saved` default). Made once and never freed, so that even a
/// thread that claims it while ending, after its thread-specific values were
/// destroyed, cannot leave a dangling stack to a later thread given the same
/// identity.
@usableFromInline
let fastStack = Atomic<UInt>(0)

/// Carries the initial values of `@Saved` properties from their wrappers to
/// the object being constructed.
///
/// Swift runs a class's property initialisers before `super.init()`, so each
/// `Saved(wrappedValue:)` runs before `ModelObject.init()` can see the object.
/// The wrapper puts its value in the next `SlotCell` here, on the
/// constructing thread, typed (no existential box), and remembers the
/// position it pushed at; `ModelObject.init()` then moves the cells its
/// class declared from the top of the stack into the object's storage and
/// keeps the stack depth it started at as the object's `slotBase`, so that a
/// wrapper finds its slot as `position - slotBase`. Models constructed while
/// another one is being constructed (a property whose default is a model)
/// push and pop in between, so the stack stays balanced.
///
/// Each thread has its own stack and only that thread touches it, so its
/// storage opts out of the runtime's exclusivity checks, which would
/// otherwise cost more than the push itself.
@usableFromInline
final class ConstructionStack {
    @usableFromInline @exclusivity(unchecked) var cells: UnsafeMutableRawPointer
    @usableFromInline @exclusivity(unchecked) var capacity: Int
    /// For each cell: whether `settings` holds what its declaration gave.
    @usableFromInline @exclusivity(unchecked) var declared: UnsafeMutablePointer<Bool>
    /// What declarations gave besides the value (a key, a date strategy,
    /// rules), by position; valid where `declared` is set.
    @exclusivity(unchecked) var settings: [Int: SavedSettings] = [:]
    /// The thread that owns this stack if it is the shared fast stack
    /// (`fastStack`), 0 when none does; unused otherwise.
    @usableFromInline let owner = Atomic<UInt>(0)
    /// The number of cells in use.
    @usableFromInline @exclusivity(unchecked) var count = 0
    /// The layouts of the last two classes constructed on this thread, the
    /// latest first: a cache in front of `ClassLayout.cached(_:)` for runs
    /// of one class and for two classes in turn (a parent and its child,
    /// as a document of statuses and their users is read). (Held strongly:
    /// reading an `unowned(unsafe)` one into a local retained it, which
    /// cost every construction more than the swaps cost.)
    @exclusivity(unchecked) var lastLayout: ClassLayout?
    @exclusivity(unchecked) var previousLayout: ClassLayout?

    private init() {
        capacity = 64
        cells = UnsafeMutableRawPointer.allocate(byteCount: capacity * SlotCell.size, alignment: 16)
        declared = .allocate(capacity: capacity)
    }

    deinit {
        // Cells are taken by the objects that pushed them; a thread that
        // ends in the middle of a construction leaves values whose types
        // nobody knows any more, which are let go without their deinit.
        cells.deallocate()
        declared.deallocate()
    }

    /// The constructing thread's stack, made on the thread's first use and
    /// released when the thread ends.
    static var current: ConstructionStack {
        currentUnretained().takeUnretainedValue()
    }

    /// The constructing thread's stack, not retained: the thread's table
    /// keeps it alive for as long as the thread runs.
    ///
    /// Every `@Saved` default of every new object comes through here, so the
    /// common case is inlined into the wrapper's initialiser: on the fast
    /// stack's owner, a load of `fastStack` (a constant-initialised global:
    /// no lazy-global check), a load of its owner and `pthread_self`; on
    /// other threads, a load of the key and one `pthread_getspecific`.
    @inlinable @inline(__always)
    static func currentUnretained() -> Unmanaged<ConstructionStack> {
        // Only a thread itself ever stores its identity as the owner, so
        // reading it back means the fast stack is this thread's.
        if let pointer = UnsafeRawPointer(bitPattern: fastStack.load(ordering: .acquiring)) {
            let shared = Unmanaged<ConstructionStack>.fromOpaque(pointer)
            if shared._withUnsafeGuaranteedRef({ $0.owner.load(ordering: .relaxed) }) == threadID() {
                return shared
            }
        }
        let key = constructionStackKey.load(ordering: .acquiring)
        if key != 0, let pointer = pthread_getspecific(pthread_key_t(truncatingIfNeeded: key &- 1)) {
            return Unmanaged.fromOpaque(pointer)
        }
        return makeCurrent()
    }

    /// Creates the key on the process's first construction, and the
    /// thread's stack on the thread's first.
    @usableFromInline @inline(never)
    static func makeCurrent() -> Unmanaged<ConstructionStack> {
        var stored = constructionStackKey.load(ordering: .acquiring)
        if stored == 0 {
            let key = Platform.makeThreadKey { pointer in
                guard let pointer else { return }
                if UInt(bitPattern: pointer) == fastStack.load(ordering: .acquiring) {
                    // The owner is ending: the fast stack is free for the
                    // next thread that makes its first object.
                    Unmanaged<ConstructionStack>.fromOpaque(pointer).takeUnretainedValue()
                        .owner.store(0, ordering: .releasing)
                } else {
                    Unmanaged<ConstructionStack>.fromOpaque(pointer).release()
                }
            }
            let (exchanged, original) = constructionStackKey.compareExchange(
                expected: 0, desired: UInt(key) &+ 1, ordering: .acquiringAndReleasing)
            if exchanged {
                stored = UInt(key) &+ 1
            } else {
                // Another thread made the key first: use its key.
                pthread_key_delete(key)
                stored = original
            }
        }
        let key = pthread_key_t(truncatingIfNeeded: stored &- 1)
        if let pointer = pthread_getspecific(key) { return Unmanaged.fromOpaque(pointer) }
        var shared = fastStack.load(ordering: .acquiring)
        if shared == 0 {
            // The process's first construction makes the fast stack.
            let made = Unmanaged.passRetained(ConstructionStack())
            let (exchanged, original) = fastStack.compareExchange(
                expected: 0, desired: UInt(bitPattern: made.toOpaque()), ordering: .acquiringAndReleasing)
            if exchanged {
                shared = UInt(bitPattern: made.toOpaque())
            } else {
                made.release()
                shared = original
            }
        }
        let sharedStack = Unmanaged<ConstructionStack>.fromOpaque(UnsafeRawPointer(bitPattern: shared)!)
        let claimed = sharedStack._withUnsafeGuaranteedRef {
            $0.owner.compareExchange(expected: 0, desired: threadID(), ordering: .acquiringAndReleasing).exchanged
        }
        let stack = claimed ? sharedStack : Unmanaged.passRetained(ConstructionStack())
        // Also the owner's: its destructor gives the fast stack back.
        pthread_setspecific(key, stack.toOpaque())
        return stack
    }

    /// The calling thread's identity, never 0.
    @inlinable @inline(__always)
    static func threadID() -> UInt {
        Platform.threadID()
    }

    /// Pushes an initial value and returns its position.
    @inlinable @inline(__always)
    static func push<Value>(_ value: Value) -> Int {
        currentUnretained()._withUnsafeGuaranteedRef { $0.append(value) }
    }

    /// Pushes an initial value whose declaration gave `settings` and returns its position.
    @usableFromInline
    static func push<Value>(_ value: Value, settings: SavedSettings) -> Int {
        currentUnretained()._withUnsafeGuaranteedRef { stack in
            let position = stack.append(value)
            stack.declared[position] = true
            stack.settings[position] = settings
            return position
        }
    }

    @inlinable @inline(__always)
    func append<Value>(_ value: Value) -> Int {
        if count == capacity { grow() }
        SlotCell.initialize(cells + count &* SlotCell.size, to: value)
        declared[count] = false
        count &+= 1
        return count &- 1
    }

    /// What the declaration of the value at `position` gave besides it.
    func settings(at position: Int) -> SavedSettings {
        declared[position] ? settings[position] ?? SavedSettings() : SavedSettings()
    }

    @usableFromInline
    func grow() {
        let larger = UnsafeMutableRawPointer.allocate(byteCount: capacity * 2 * SlotCell.size, alignment: 16)
        // Cells move bitwise, as Swift moves values. (Where Objective-C
        // interoperability exists, a value holding a `weak` reference is the
        // one kind that is not bitwise movable; growing past 64 pending cells
        // with such a value among them is not supported.)
        larger.copyMemory(from: cells, byteCount: count * SlotCell.size)
        cells.deallocate()
        cells = larger
        let largerDeclared = UnsafeMutablePointer<Bool>.allocate(capacity: capacity * 2)
        largerDeclared.moveInitialize(from: declared, count: count)
        declared.deallocate()
        declared = largerDeclared
        capacity *= 2
    }

    /// Moves the cells from `base` to the top into `target` (uninitialised
    /// cells of the slots of `layout`) and pops them.
    func take(from base: Int, into target: UnsafeMutableRawPointer, layout: ClassLayout) {
        if Platform.movesCellsBitwise {
            // Cells move bitwise, as Swift moves values.
            target.copyMemory(from: cells + base &* SlotCell.size, byteCount: (count &- base) &* SlotCell.size)
        } else {
            SlotCell.moveRow(from: cells + base * SlotCell.size, to: target, count: count - base, codecs: layout.codecs)
        }
        count = base
    }
}
