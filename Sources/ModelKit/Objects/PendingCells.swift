/// The decoded values of one object's slots, typed in `SlotCell`s as the
/// object's storage holds them, waiting to be applied all at once.
///
/// A direct decoding path (`DictionaryModelDecoder`) fills it member by
/// member without touching the object, so a failure part way leaves the
/// object as it was; applying it to a new object then moves each value into
/// its slot (the slot's old value is destroyed), with no boxing in `Any` and
/// no cast. Values never applied are destroyed with the row.
///
/// One allocation: the header holds the layout and the set of filled slots,
/// the elements are the cells.
final class PendingCells: ManagedBuffer<PendingCells.Header, SlotCell> {
    struct Header {
        /// The layout whose slots the cells follow (layouts live as long as the process).
        unowned(unsafe) let layout: ClassLayout
        /// The slots whose cells hold a value.
        var filled = SlotSet()
    }

    /// An empty row for the slots of `layout`.
    static func make(layout: ClassLayout) -> PendingCells {
        let buffer = create(minimumCapacity: max(1, layout.slotCount)) { _ in Header(layout: layout) }
        return unsafeDowncast(buffer, to: PendingCells.self)
    }

    deinit {
        withUnsafeMutablePointers { header, elements in
            let layout = header.pointee.layout
            let cells = UnsafeMutableRawPointer(elements)
            for slot in 0..<layout.slotCount where header.pointee.filled.contains(slot) {
                if !layout.slotIsPlainData[slot] {
                    layout.slotTypes[slot]._destroyStoredValue(at: cells + slot &* SlotCell.size)
                }
            }
        }
    }

    /// The slots that hold a value.
    var filled: SlotSet { withUnsafeMutablePointerToHeader { $0.pointee.filled } }

    /// Puts `value`, of the slot's exact type (or convertible to it by
    /// `as!`), in the cell of `slot`, replacing any value already there.
    func set(_ value: Any, slot: Int) {
        withUnsafeMutablePointers { header, elements in
            let layout = header.pointee.layout
            let cell = UnsafeMutableRawPointer(elements) + slot &* SlotCell.size
            if header.pointee.filled.contains(slot) {
                layout.codecs[slot].assignCell(cell, value)
            } else {
                layout.codecs[slot].initializeCell(cell, value)
                header.pointee.filled.insert(slot)
            }
        }
    }

    /// Puts `value`, of exactly the slot's type (the caller knows it), in the
    /// cell of `slot`, replacing any value already there.
    @inline(__always)
    func put<Value>(_ value: Value, slot: Int) {
        withUnsafeMutablePointers { header, elements in
            let cell = UnsafeMutableRawPointer(elements) + slot &* SlotCell.size
            if header.pointee.filled.contains(slot) {
                SlotCell.pointer(cell, as: Value.self).pointee = value
            } else {
                SlotCell.initialize(cell, to: value)
                header.pointee.filled.insert(slot)
            }
        }
    }

    /// Puts the value of `shape` (the slot's type) holding `models` in the
    /// cell of `slot`, replacing any value already there.
    func put(_ models: [ModelObject], shape: any JSONModelShape.Type, slot: Int) {
        withUnsafeMutablePointers { header, elements in
            let layout = header.pointee.layout
            let cell = UnsafeMutableRawPointer(elements) + slot &* SlotCell.size
            if header.pointee.filled.contains(slot) {
                if !layout.slotIsPlainData[slot] { layout.slotTypes[slot]._destroyStoredValue(at: cell) }
            } else {
                header.pointee.filled.insert(slot)
            }
            shape.initializeCell(cell, holding: models)
        }
    }

    /// The value of `slot`, boxed (the slot must be filled).
    func value(at slot: Int) -> Any {
        withUnsafeMutablePointers { header, elements in
            header.pointee.layout.codecs[slot].readCell(UnsafeMutableRawPointer(elements) + slot &* SlotCell.size)
        }
    }

    /// Moves every value into the slots of `state` (of the same layout),
    /// destroying the values they replace. The row is empty afterwards.
    /// Records nothing.
    func move(into state: inout ModelState) {
        withUnsafeMutablePointers { header, elements in
            let layout = header.pointee.layout
            let source = UnsafeMutableRawPointer(elements)
            // Every slot filled and none being mutated (a new object, loaded):
            // destroy the old values, then move the row in at once.
            if Platform.movesCellsBitwise, state.mutatingSlots.isEmpty,
                header.pointee.filled.containsAll(below: layout.slotCount)
            {
                let types = layout.typesToDestroy
                for (index, slot) in layout.slotsToDestroy.enumerated() {
                    types[index]._destroyStoredValue(at: state.cells + slot &* SlotCell.size)
                }
                state.cells.copyMemory(from: source, byteCount: layout.slotCount &* SlotCell.size)
                header.pointee.filled.removeAll()
                return
            }
            for slot in 0..<layout.slotCount where header.pointee.filled.contains(slot) {
                // A slot being mutated in place cannot be replaced: this traps
                // with the property's name, as every write to it does.
                if state.mutatingSlots.contains(slot) { state.setValue(value(at: slot), at: slot) }
                let target = state.cells + slot &* SlotCell.size
                if !layout.slotIsPlainData[slot] { layout.slotTypes[slot]._destroyStoredValue(at: target) }
                if Platform.movesCellsBitwise {
                    target.copyMemory(from: source + slot &* SlotCell.size, byteCount: SlotCell.size)
                } else {
                    layout.codecs[slot].moveCell(from: source + slot &* SlotCell.size, to: target)
                }
            }
            header.pointee.filled.removeAll()
        }
    }
}

/// Where a direct decoding path puts the values it decodes, typed, by slot:
/// a `PendingCells` row, applied later all at once, or the cells of a new
/// object (`UnsharedCells`).
protocol DecodedSlots {
    /// Puts `value`, of exactly the slot's type, in the cell of `slot`.
    func put<Value>(_ value: Value, slot: Int)
    /// Puts `value`, of the slot's exact type (or convertible to it by `as!`), in the cell of `slot`.
    func set(_ value: Any, slot: Int)
    /// Puts the value of `shape` (the slot's type) holding `models` in the cell of `slot`.
    func put(_ models: [ModelObject], shape: any JSONModelShape.Type, slot: Int)
    /// The model in the cell of `slot` (a slot holding a model of class
    /// `type`, not optional) when a decoder may fill it in place instead of
    /// making a new one; else `nil`. See `UnsharedCells`.
    func pristineModel(slot: Int, of type: ModelObject.Type) -> ModelObject?
}

extension PendingCells: DecodedSlots {
    /// Never: a row's object already exists, and its models are the app's.
    func pristineModel(slot: Int, of type: ModelObject.Type) -> ModelObject? { nil }
}

/// The cells of an object that is being created and that nothing else
/// holds yet (no other thread, observer or change record can see it), which
/// a direct decoding path fills in place, replacing the defaults, without
/// the lock. If decoding fails, the object is dropped, or its values are
/// all replaced by the `ModelValue` path, so nothing half-loaded is seen.
struct UnsharedCells: DecodedSlots {
    let cells: UnsafeMutableRawPointer
    unowned(unsafe) let layout: ClassLayout

    @inline(__always)
    func put<Value>(_ value: Value, slot: Int) {
        SlotCell.pointer(cells + slot &* SlotCell.size, as: Value.self).pointee = value
    }

    func set(_ value: Any, slot: Int) {
        layout.codecs[slot].assignCell(cells + slot &* SlotCell.size, value)
    }

    func put(_ models: [ModelObject], shape: any JSONModelShape.Type, slot: Int) {
        let cell = cells + slot &* SlotCell.size
        if !layout.slotIsPlainData[slot] { layout.slotTypes[slot]._destroyStoredValue(at: cell) }
        shape.initializeCell(cell, holding: models)
    }

    /// The default model that the new object's `init()` put in the cell of
    /// `slot`, when decoding into it gives what decoding into a new
    /// `type.init()` gives, so that a decoder need not make one more object
    /// and free this one: it is of exactly class `type`, this object holds
    /// the only strong reference to it (so nothing else can see it change),
    /// and it is as `init()` left it: no change recorded, no extensible
    /// properties, no observation, nothing being mutated.
    func pristineModel(slot: Int, of type: ModelObject.Type) -> ModelObject? {
        let cell = SlotCell.pointer(cells + slot &* SlotCell.size, as: ModelObject.self)
        guard ObjectIdentifier(Swift.type(of: cell.pointee)) == ObjectIdentifier(type),
            isKnownUniquelyReferenced(&cell.pointee)
        else { return nil }
        let model = cell.pointee
        // Held by this unshared object alone, so unshared too: no lock.
        let isPristine = model.withUnsharedState { state in
            state.extras == nil && state.observation == nil && state.changedSlots.isEmpty
                && state.mutatingSlots.isEmpty
        }
        return isPristine ? model : nil
    }
}
