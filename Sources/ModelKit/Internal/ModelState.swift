/// Everything about a model object that can change, kept together behind the
/// object's lock.
///
/// `@unchecked Sendable`: the values of saved properties need not be
/// `Sendable`, and the object's lock (`ModelStorage`) is what makes sharing
/// them safe.
@usableFromInline
struct ModelState: @unchecked Sendable {
    /// The saved properties' Swift values, indexed by slot.
    @usableFromInline var values: ContiguousArray<Any>
    /// Which slots changed since load, init or `clearChanges()`.
    @usableFromInline var changedSlots = SlotSet()
    /// Keys the class does not save, in their loaded order: as values, or,
    /// when they were read from JSON, as their exact text.
    var bag = ExtensibleBag()
    /// Bag keys set or removed since load, init or `clearChanges()`.
    var changedBagKeys: Set<String> = []
    /// The version of loaded data that was newer than the class's, kept so
    /// that saving does not mark newer data as older.
    var loadedNewerVersion: Int?
    /// Each changed slot's value before its first change since load, init
    /// or `clearChanges()`, for ``ModelObject/changes`` and revert.
    @usableFromInline var originalValues: [Int: Any] = [:]
    /// Each changed bag key's value before its first change (`nil`: absent).
    var originalBagValues: [String: ModelValue?] = [:]
    /// Registrar, observers and streams; created on the first read of a saved
    /// property or the first observer, so objects nobody looks at pay nothing.
    @usableFromInline var observation: ObservationCenter?
    /// Changes made under the lock, waiting to be told once it is released.
    var pendingChanges: [ModelChange] = []
    /// The value before an in-place mutation of a slot someone observes,
    /// kept from its start to its end.
    var valuesBeforeMutation: [Int: Any] = [:]
    /// How many `withLock` blocks and in-place mutations this thread is
    /// inside (only the lock's holder reads it): observers wait until 0.
    @usableFromInline var lockHolds = 0

    init(values: ContiguousArray<Any>) {
        self.values = values
    }

    /// Records a change of `slot`, whose value was `old`, keeping the value
    /// from before its first change unless it may hold models (`layout`):
    /// keeping those would keep whole graphs alive after they are let go.
    mutating func markChanged(slot: Int, old: Any, layout: ClassLayout) {
        if !changedSlots.contains(slot), !layout.slotMayHoldModels[slot] { originalValues[slot] = old }
        changedSlots.insert(slot)
    }

    /// Records a change of the bag key `key`, whose value was `old` (`nil`: absent).
    mutating func markBagChanged(key: String, old: ModelValue?) {
        if !changedBagKeys.contains(key) { originalBagValues.updateValue(old, forKey: key) }
        changedBagKeys.insert(key)
    }

    /// Forgets every change (after a load, an init or `clearChanges()`).
    mutating func clearChangeRecords() {
        changedSlots.removeAll()
        changedBagKeys.removeAll()
        originalValues = [:]
        originalBagValues = [:]
    }
}

/// A set of slot numbers: one inline word for the first 64 slots, an array
/// for the rest, so that small models need no allocation.
@usableFromInline
struct SlotSet: Sendable {
    @usableFromInline var low: UInt64 = 0
    @usableFromInline var high: [UInt64] = []

    @usableFromInline init() {}

    @inlinable
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
        if high.count <= word { high.append(contentsOf: repeatElement(0, count: word + 1 - high.count)) }
        high[word] |= 1 << UInt64(slot % 64)
    }

    @usableFromInline
    func contains(_ slot: Int) -> Bool {
        if slot < 64 { return low & (1 << UInt64(slot)) != 0 }
        let word = slot / 64 - 1
        return word < high.count && high[word] & (1 << UInt64(slot % 64)) != 0
    }

    var isEmpty: Bool { low == 0 && high.allSatisfy { $0 == 0 } }

    mutating func removeAll() {
        low = 0
        high = []
    }
}
