/// Everything about a model object that can change, kept together behind the
/// object's lock.
///
/// `@unchecked Sendable`: the values of saved properties need not be
/// `Sendable`, and the object's lock (`ModelStorage`) is what makes sharing
/// them safe.
@usableFromInline
struct ModelState: @unchecked Sendable {
    /// The saved properties' values, one `SlotCell` per slot, in the
    /// object's `ModelStorage` (the buffer this state heads).
    @usableFromInline let cells: UnsafeMutableRawPointer
    /// The class's layout, whose codecs know each slot's type. Layouts live
    /// as long as the process (they are cached per class).
    @usableFromInline unowned(unsafe) let layout: ClassLayout
    /// Slots being mutated in place on the lock's holder: touching one of
    /// them before the mutation ends is an overlapping access.
    @usableFromInline var mutatingSlots = SlotSet()
    /// Which slots changed since load, init or `clearChanges()`.
    @usableFromInline var changedSlots = SlotSet()
    /// How many changes were recorded since the object was made: a save that
    /// clears change flags clears them only where this is what it was when
    /// the save began, so a change made while it wrote stays recorded.
    @usableFromInline var changeCount: UInt = 0
    /// Registrar, observers and streams; created on the first read of a saved
    /// property or the first observer, so objects nobody looks at pay nothing.
    @usableFromInline var observation: ObservationCenter?
    /// What most objects never use (a bag, change records of the bag, old
    /// values, queued changes), made on first use: a new object then
    /// starts, and is destroyed, with one empty reference instead of a dozen
    /// empty collections.
    @usableFromInline var extras: ModelStateExtras?
    /// How many `withLock` blocks and in-place mutations this thread is
    /// inside (only the lock's holder reads it): observers wait until 0.
    @usableFromInline var lockHolds = 0

    init(layout: ClassLayout, cells: UnsafeMutableRawPointer) {
        self.layout = layout
        self.cells = cells
    }

    /// Whether the state holds anything to release. Most objects die as
    /// they were born, with none of the references above made, and their
    /// storage then skips the state's destruction (four releases of nothing).
    /// A field added above that holds a reference must be checked here.
    @inline(__always)
    var holdsReferences: Bool {
        observation != nil || extras != nil || mutatingSlots.high != nil || changedSlots.high != nil
    }

    /// The extras, made now if the object has none yet.
    @usableFromInline
    mutating func madeExtras() -> ModelStateExtras {
        if let extras { return extras }
        let made = ModelStateExtras()
        extras = made
        return made
    }

    /// Keys the class does not save, in their loaded order: as values, or,
    /// when they were read from JSON, as their exact text.
    var bag: ExtensibleBag {
        get { extras?.bag ?? ExtensibleBag() }
        set {
            // Loading an object with no unknown keys makes no extras.
            if extras == nil, newValue.isEmpty { return }
            madeExtras().bag = newValue
        }
        _modify { yield &madeExtras().bag }
    }

    /// Whether the bag holds no member, read without copying the bag (or
    /// making an empty one when the object has no extras).
    var bagIsEmpty: Bool { extras?.bag.isEmpty ?? true }

    /// Bag keys set or removed since load, init or `clearChanges()`.
    var changedBagKeys: Set<String> {
        get { extras?.changedBagKeys ?? [] }
        set { madeExtras().changedBagKeys = newValue }
        _modify { yield &madeExtras().changedBagKeys }
    }

    /// The version of loaded data that was newer than the class's, kept so
    /// that saving does not mark newer data as older.
    var loadedNewerVersion: Int? {
        get { extras?.loadedNewerVersion }
        set {
            if extras == nil, newValue == nil { return }
            madeExtras().loadedNewerVersion = newValue
        }
    }

    /// Each changed slot's value before its first change since load, init
    /// or `clearChanges()`, for ``ModelObject/changes`` and revert.
    @usableFromInline var originalValues: [Int: Any] {
        get { extras?.originalValues ?? [:] }
        set { madeExtras().originalValues = newValue }
        _modify { yield &madeExtras().originalValues }
    }

    /// Each changed bag key's value before its first change (`nil`: absent).
    var originalBagValues: [String: ModelValue?] {
        get { extras?.originalBagValues ?? [:] }
        set { madeExtras().originalBagValues = newValue }
        _modify { yield &madeExtras().originalBagValues }
    }

    /// Changes made under the lock, waiting to be told once it is released.
    var pendingChanges: [ModelChange] {
        get { extras?.pendingChanges ?? [] }
        set {
            if extras == nil, newValue.isEmpty { return }
            madeExtras().pendingChanges = newValue
        }
        _modify { yield &madeExtras().pendingChanges }
    }

    /// The value before an in-place mutation of a slot someone observes,
    /// kept from its start to its end.
    var valuesBeforeMutation: [Int: Any] {
        get { extras?.valuesBeforeMutation ?? [:] }
        set { madeExtras().valuesBeforeMutation = newValue }
        _modify { yield &madeExtras().valuesBeforeMutation }
    }

    /// The value of `slot`, which holds a `Value` (the caller knows its type).
    @inline(__always)
    func value<Value>(at slot: Int, as type: Value.Type) -> Value {
        SlotCell.pointer(cells + slot &* SlotCell.size, as: Value.self).pointee
    }

    /// Replaces the value of `slot`, which holds a `Value`. Records nothing.
    @inline(__always)
    mutating func setValue<Value>(_ value: Value, at slot: Int, as type: Value.Type) {
        if mutatingSlots.contains(slot) { setValue(value as Any, at: slot) }
        SlotCell.pointer(cells + slot &* SlotCell.size, as: Value.self).pointee = value
    }

    /// The value of `slot`, boxed.
    func value(at slot: Int) -> Any {
        layout.codecs[slot].readCell(cells + slot * SlotCell.size)
    }

    /// Replaces the value of `slot` with `value`, which must be of the
    /// slot's type. Records nothing.
    mutating func setValue(_ value: Any, at slot: Int) {
        if mutatingSlots.contains(slot) {
            preconditionFailure(
                "ModelKit: \(layout.type).\(layout.slots[slot].key) was set while it is being mutated in place "
                    + "(overlapping access, as for a Swift variable)")
        }
        layout.codecs[slot].assignCell(cells + slot * SlotCell.size, value)
    }

    /// Every slot's value, boxed, in slot order: a copy to read once the
    /// lock is released.
    func snapshotValues() -> ContiguousArray<Any> {
        let codecs = layout.codecs
        var values = ContiguousArray<Any>()
        values.reserveCapacity(codecs.count)
        for slot in codecs.indices { values.append(codecs[slot].readCell(cells + slot * SlotCell.size)) }
        return values
    }

    /// Replaces the values of the `assigned` slots with those of `values`
    /// (slot order, each of its slot's type). Records nothing.
    mutating func applyDecoded(_ values: ContiguousArray<Any>, assigned: SlotSet) {
        for slot in values.indices where assigned.contains(slot) { setValue(values[slot], at: slot) }
    }

    /// Replaces every slot's value with those of `values` (slot order, each
    /// of its slot's type). Records nothing.
    mutating func replaceValues(with values: ContiguousArray<Any>) {
        for slot in values.indices { setValue(values[slot], at: slot) }
    }

    /// Records a change of `slot`, whose value was `old`, keeping the value
    /// from before its first change unless it may hold models (`layout`):
    /// keeping those would keep whole graphs alive after they are let go.
    mutating func markChanged(slot: Int, old: Any, layout: ClassLayout) {
        if !changedSlots.contains(slot), !layout.slotMayHoldModels[slot] { originalValues[slot] = old }
        changedSlots.insert(slot)
        changeCount &+= 1
    }

    /// Records a change of the bag key `key`, whose value was `old` (`nil`: absent).
    mutating func markBagChanged(key: String, old: ModelValue?) {
        if !changedBagKeys.contains(key) { originalBagValues.updateValue(old, forKey: key) }
        changedBagKeys.insert(key)
        changeCount &+= 1
    }

    /// Whether some change is recorded.
    var hasChangeRecords: Bool {
        guard let extras else { return !changedSlots.isEmpty }
        return !changedSlots.isEmpty || !extras.changedBagKeys.isEmpty || !extras.originalValues.isEmpty
            || !extras.originalBagValues.isEmpty
    }

    /// Forgets every change (after a load, an init or `clearChanges()`).
    mutating func clearChangeRecords() {
        changedSlots.removeAll()
        guard let extras else { return }
        extras.changedBagKeys = []
        extras.originalValues = [:]
        extras.originalBagValues = [:]
    }
}

/// The parts of a ``ModelState`` that most objects never use, in one
/// allocation made on first use. Reached only through the state, under the
/// object's lock; `@unchecked Sendable` for the same reason as the state.
@usableFromInline
final class ModelStateExtras: @unchecked Sendable {
    var bag = ExtensibleBag()
    var changedBagKeys: Set<String> = []
    var loadedNewerVersion: Int?
    @usableFromInline var originalValues: [Int: Any] = [:]
    var originalBagValues: [String: ModelValue?] = [:]
    var pendingChanges: [ModelChange] = []
    var valuesBeforeMutation: [Int: Any] = [:]
    /// What DejalObject's value dictionaries held beyond the values read
    /// from them, by slot (see `DejalObjectForm.Kept`).
    var dejalKept: [Int: DejalObjectForm.Kept] = [:]

    @usableFromInline init() {}
}

/// A set of slot numbers: one inline word for the first 64 slots, words
/// for the rest made only when a slot past 63 is added, so that small
/// models need no allocation (and a set never used past 63 holds nothing
/// to release).
@usableFromInline
struct SlotSet: Sendable {
    @usableFromInline var low: UInt64 = 0
    @usableFromInline var high: [UInt64]?

    @usableFromInline init() {}

    @inlinable @inline(__always)
    mutating func insert(_ slot: Int) {
        if slot < 64 {
            low |= 1 << UInt64(slot)
        } else {
            insertHigh(slot)
        }
    }

    @usableFromInline
    mutating func insertHigh(_ slot: Int) {
        let word = slot / 64 - 1
        if high == nil { high = [] }
        if high!.count <= word { high!.append(contentsOf: repeatElement(0, count: word + 1 - high!.count)) }
        high![word] |= 1 << UInt64(slot % 64)
    }

    @inlinable @inline(__always)
    mutating func remove(_ slot: Int) {
        if slot < 64 {
            low &= ~(1 << UInt64(slot))
        } else if high != nil {
            let word = slot / 64 - 1
            if word < high!.count { high![word] &= ~(1 << UInt64(slot % 64)) }
        }
    }

    @inlinable @inline(__always)
    func contains(_ slot: Int) -> Bool {
        if slot < 64 { return low & (1 << UInt64(slot)) != 0 }
        guard let high else { return false }
        let word = slot / 64 - 1
        return word < high.count && high[word] & (1 << UInt64(slot % 64)) != 0
    }

    @inline(__always)
    var isEmpty: Bool { low == 0 && (high == nil || highIsEmpty) }

    var highIsEmpty: Bool { high?.allSatisfy { $0 == 0 } ?? true }

    /// Whether the set holds every slot below `count`.
    func containsAll(below count: Int) -> Bool {
        if count <= 64 { return count == 64 ? low == .max : low == (1 << UInt64(count)) &- 1 }
        guard low == .max else { return false }
        return (64..<count).allSatisfy(contains)
    }

    mutating func removeAll() {
        low = 0
        high = nil
    }
}
