import Foundation
import Synchronization

/// Writes a saved property whose type converts through the `Codable`
/// default straight into the direct JSON encoder (`JSONModelEncoder`): the
/// value is encoded by `ModelValueEncoder`'s own `Encoder` (`ValueEncoder`,
/// so the encoding is that conversion's, container for container), and its
/// tree of `EncodedNode`s is written as `EncodedNode.value` would be
/// written, without making that `ModelValue`.
///
/// Only slots of a type `V`, `V?` or `[V]` whose `modelValue` is the
/// `Codable` default have one (`Optional` and `Array` write `nil` as `null`
/// and each element with its `modelValue`). Whether it is cannot be known without a value of the
/// type, so the first value of the slot that holds one is probed
/// (`CodableDefaultProbe.usesCodableDefaultGetter`), and the answer is kept
/// for the class. Until then, and for every other slot, the slot is
/// written through its codec as before.
///
/// `@unchecked Sendable`: the closures capture nothing but the slot's type;
/// `decision` is atomic.
final class CodableSlotWriter: @unchecked Sendable {
    /// What the slot's value encodes to: a tree to write, or `nil` for `null`
    /// (a `nil` optional).
    let encode: (Any) throws -> EncodedNode?
    /// Whether the slot's type has the `Codable` default getter, probed with
    /// `value`; `nil` when `value` holds no value of the type (`nil`).
    let probe: (Any) -> Bool?
    /// 0 until a probe answered, then 1 for the codec, 2 for this writer.
    private let decision = Atomic<Int>(0)

    init(encode: @escaping (Any) throws -> EncodedNode?, probe: @escaping (Any) -> Bool?) {
        self.encode = encode
        self.probe = probe
    }

    /// Whether `value`, of the slot's type, is written by this writer; probes the type when not known yet.
    func writes(_ value: Any) -> Bool {
        switch decision.load(ordering: .relaxed) {
        case 1: return false
        case 2: return true
        default:
            guard let answer = probe(value) else { return false }
            decision.store(answer ? 2 : 1, ordering: .relaxed)
            return answer
        }
    }

    /// The writer of slots of `type`, or `nil` when they are written through their codec.
    static func of<Value: ModelValueConvertible>(_ type: Value.Type) -> CodableSlotWriter? {
        if let container = type as? any ContainerOfCodableEncoding.Type { return container.codableSlotWriter }
        guard let encodable = type as? any (ModelValueConvertible & Encodable).Type else { return nil }
        return plain(encodable)
    }

    private static func plain<Wrapped: ModelValueConvertible & Encodable>(_ type: Wrapped.Type) -> CodableSlotWriter {
        CodableSlotWriter(
            encode: { value in try tree(of: value as! Wrapped) },
            probe: { value in CodableDefaultProbe.usesCodableDefaultGetter(value as! Wrapped) })
    }

    /// The tree `ModelValueEncoder().encode(value)` makes before it makes a
    /// `ModelValue` of it; throws where that throws.
    static func tree<Value: Encodable>(of value: Value) throws -> EncodedNode {
        // ModelValueEncoder first looks for the types it converts natively;
        // each has a getter of its own, so none has a writer.
        let encoder = ValueEncoder(codingPath: [], userInfo: [:])
        try value.encode(to: encoder)
        if case .empty = encoder.storage.content {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: [], debugDescription: "\(Value.self) encoded no value"))
        }
        return encoder.storage
    }
}

/// `Optional` and `Array` slots of an `Encodable` saved type, written the
/// way their own conversions write them.
protocol ContainerOfCodableEncoding {
    static var codableSlotWriter: CodableSlotWriter { get }
}

/// `nil` is `null`, as `Optional`'s conversion writes it, anything else the wrapped type.
extension Optional: ContainerOfCodableEncoding where Wrapped: ModelValueConvertible & Encodable {
    static var codableSlotWriter: CodableSlotWriter {
        CodableSlotWriter(
            encode: { value in
                guard let wrapped = value as! Wrapped? else { return nil }
                return try CodableSlotWriter.tree(of: wrapped)
            },
            probe: { value in (value as! Wrapped?).map { CodableDefaultProbe.usesCodableDefaultGetter($0) } })
    }
}

/// An array of the elements' trees.
extension Array: ContainerOfCodableEncoding where Element: ModelValueConvertible & Encodable {
    static var codableSlotWriter: CodableSlotWriter {
        CodableSlotWriter(
            encode: { value in
                let node = EncodedNode()
                node.content = .array(try (value as! [Element]).map { try CodableSlotWriter.tree(of: $0) })
                return node
            },
            probe: { value in (value as! [Element]).first.map { CodableDefaultProbe.usesCodableDefaultGetter($0) } })
    }
}
