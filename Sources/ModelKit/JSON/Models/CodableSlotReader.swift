import Foundation
import Synchronization

/// Reads a saved property whose type converts through the `Codable` default
/// straight from a JSON document's bytes: the direct model decoder
/// (`JSONModelDecoder`) builds a tape of the member's value and decodes the
/// type with its own `init(from:)` over it, read as `ModelValueDecoder`
/// reads (`JSONDecodingState.readsLikeModelValues`), instead of building a
/// `ModelValue` and converting it.
///
/// Only slots of a type `V`, `V?` or `[V]` whose `decoded(from:)` and
/// `init(modelValue:)` are both the defaults (`CodableDefaultProbe`) have
/// one: the conversion of `V` is then `ModelValueDecoder().decode(V.self,
/// from:)` by definition (`Optional` and `Array` convert `null` and each
/// element with `V.decoded(from:)`). A hand-written conversion, the
/// raw-value default of enums and every other slot type keep the
/// `ModelValue` path.
///
/// `@unchecked Sendable`: `read` captures nothing but the slot's type, and
/// metatypes of types that are not `Sendable` are not `Sendable` either.
struct CodableSlotReader: @unchecked Sendable {
    /// Reads the slot's value, as `Any` holding the slot's type, from the
    /// value at the tape's first entry.
    let read: (JSONDecodingState) throws -> Any

    /// The reader of slots of `type`, or `nil` when they keep the `ModelValue` path.
    static func of<Value: ModelValueConvertible>(_ type: Value.Type) -> CodableSlotReader? {
        if let container = type as? any ContainerOfCodableDefault.Type { return container.codableSlotReader }
        guard let decodable = type as? any (ModelValueConvertible & Decodable).Type else { return nil }
        return plain(decodable)
    }

    private static func plain<Wrapped: ModelValueConvertible & Decodable>(_ type: Wrapped.Type) -> CodableSlotReader? {
        guard CodableDefaultProbe.usesCodableDefault(Wrapped.self) else { return nil }
        return CodableSlotReader { state in try state.decodeValue(Wrapped.self, at: 0, parent: nil, key: nil) }
    }
}

/// `Optional` and `Array` slots of a `Decodable` saved type, read the way
/// their own conversions read them.
protocol ContainerOfCodableDefault {
    static var codableSlotReader: CodableSlotReader? { get }
}

/// `null` is `nil`, as `Optional`'s conversion reads it, anything else the wrapped type.
extension Optional: ContainerOfCodableDefault where Wrapped: ModelValueConvertible & Decodable {
    static var codableSlotReader: CodableSlotReader? {
        guard CodableDefaultProbe.usesCodableDefault(Wrapped.self) else { return nil }
        return CodableSlotReader { state in
            if state.entries[0].kind == .null { return Wrapped?.none as Any }
            return Wrapped?.some(try state.decodeValue(Wrapped.self, at: 0, parent: nil, key: nil)) as Any
        }
    }
}

/// Each element is the element type, as `Array`'s conversion reads it.
extension Array: ContainerOfCodableDefault where Element: ModelValueConvertible & Decodable {
    static var codableSlotReader: CodableSlotReader? {
        guard CodableDefaultProbe.usesCodableDefault(Element.self) else { return nil }
        return CodableSlotReader { state in
            let array = state.entries[0]
            guard array.kind == .array else { throw JSONDecodingState.ReadThroughModelValue() }
            var elements: [Element] = []
            elements.reserveCapacity(Int(array.count))
            var cursor = 1
            for _ in 0..<array.count {
                // Each element decoded alone, at the root of its own coding path.
                elements.append(try state.decodeValue(Element.self, at: cursor, parent: nil, key: nil))
                cursor = state.indexAfter(cursor)
            }
            return elements as Any
        }
    }
}

/// The `CodableSlotReader`s of one class's slots, found on first use rather
/// than when the class is discovered: a probe may run a hand-written
/// conversion, which should not run inside the class's first `init()`.
///
/// `@unchecked Sendable`: `found` is written once, before `state` says so
/// with a releasing store, and read only after an acquiring load says it
/// was written (the lock only keeps two first uses from writing it twice).
final class CodableSlotReaders: @unchecked Sendable {
    /// Slots whose kind is generic and whose type may decode itself.
    private let candidates: [(offset: Int, codec: any SlotCodec)]
    private let slotCount: Int
    private let lock = NSLock()
    /// 0 until the slots are probed, then 1 when no slot has a reader, 2 when some have.
    private let state = Atomic<Int>(0)
    private var found: [CodableSlotReader?] = []

    /// `nil` when no slot of `slots` is a candidate.
    init?(slots: [ClassLayout.Slot], kinds: [JSONSlotKind]) {
        var candidates: [(offset: Int, codec: any SlotCodec)] = []
        for slot in slots {
            guard case .generic = kinds[slot.offset], slot.codec.valueType is any Decodable.Type else { continue }
            candidates.append((slot.offset, slot.codec))
        }
        guard !candidates.isEmpty else { return nil }
        self.candidates = candidates
        slotCount = slots.count
    }

    /// Each slot's reader, by offset; `nil` when no slot has one.
    var readers: [CodableSlotReader?]? {
        switch state.load(ordering: .acquiring) {
        case 1: return nil
        case 2: return found
        default: break
        }
        // Probed without the lock: a probe runs conversions, which may load
        // other objects of this class. Every thread finds the same readers.
        var readers = [CodableSlotReader?](repeating: nil, count: slotCount)
        for candidate in candidates { readers[candidate.offset] = candidate.codec.codableSlotReader() }
        let hasReaders = readers.contains { $0 != nil }
        lock.lock()
        defer { lock.unlock() }
        if state.load(ordering: .acquiring) == 0 {
            found = readers
            state.store(hasReaders ? 2 : 1, ordering: .releasing)
        }
        return hasReaders ? readers : nil
    }
}
