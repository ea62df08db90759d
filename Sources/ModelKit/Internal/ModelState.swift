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

    init(values: ContiguousArray<Any>) {
        self.values = values
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
