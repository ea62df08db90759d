import Synchronization

/// Finds out, without reading runtime metadata, whether a slot type's
/// conversion from `ModelValue` is the `Codable` default, so that the direct
/// JSON decoder may decode it from the bytes with the type's own
/// `init(from:)` (see `CodableSlotReader`).
///
/// Swift cannot be asked which implementation satisfies a requirement, so
/// the two defaults involved say so themselves when asked: the general
/// ``ModelValueConvertible/decoded(from:)`` and the `Codable` default
/// ``ModelValueConvertible/init(modelValue:)`` each tell the probe that they
/// ran, and for which `Self`. A probe of `V` calls `V.decoded(from: .null)`,
/// exactly what a slot's codec calls, and the answer is yes only when both
/// defaults ran for `V` itself:
/// - A hand-written `init(modelValue:)` (or a more specific default, such as
///   the raw-value one) is `V`'s witness, so the `Codable` default can never
///   run for `V`: there is no other way to reach it (a call in a generic
///   context goes through the witness, a call on `V` picks `V`'s own
///   member). A hand-written conversion that converts other `Codable`
///   values inside reports those types, not `V`.
/// - A hand-written `decoded(from:)` is likewise the only one that runs for
///   `V`, even when it calls `init(modelValue:)` and then changes the result.
///
/// When both defaults are `V`'s, the codec's conversion is by definition
/// `ModelValueDecoder().decode(V.self, from:)` (errors aside), which the
/// direct decoder reproduces. The `Codable` default stops at once under a
/// probe (no `init(from:)` runs); a hand-written conversion is called with
/// `null`, which a conversion of loaded data must already refuse by throwing.
///
/// The defaults check a process-wide count of running probes first (one
/// relaxed atomic load), so that conversions pay nothing more when no probe
/// runs; only then do they look at their thread's probe.
enum CodableDefaultProbe {
    /// Probes running in the process, on any thread.
    private static let running = Atomic<Int>(0)

    /// The probe of one thread: the type asked about and what ran for it.
    final class Record {
        var target: ObjectIdentifier?
        var ranDecodedDefault = false
        var ranCodableDefault = false
        var ranEncodingDefault = false
    }

    private static let records = ThreadLocal { Record() }

    /// Thrown by the `Codable` default under a probe, so that no decoding runs.
    struct Stop: Error {}

    /// Whether `type`'s `decoded(from:)` and `init(modelValue:)` are both the defaults.
    static func usesCodableDefault<Value: ModelValueConvertible>(_ type: Value.Type) -> Bool {
        let record = records.value
        let saved = (record.target, record.ranDecodedDefault, record.ranCodableDefault)
        record.target = ObjectIdentifier(type)
        record.ranDecodedDefault = false
        record.ranCodableDefault = false
        running.add(1, ordering: .sequentiallyConsistent)
        _ = try? Value.decoded(from: .null)
        running.subtract(1, ordering: .sequentiallyConsistent)
        let result = record.ranDecodedDefault && record.ranCodableDefault
        (record.target, record.ranDecodedDefault, record.ranCodableDefault) = saved
        return result
    }

    /// Whether `value`'s `modelValue` is the `Codable` default: the default
    /// getter says so when asked (and stops there, encoding nothing); a
    /// hand-written getter, the only one that can run for the type when it
    /// has one, runs in full.
    static func usesCodableDefaultGetter<Value: ModelValueConvertible>(_ value: Value) -> Bool {
        let record = records.value
        let saved = (record.target, record.ranEncodingDefault)
        record.target = ObjectIdentifier(Value.self)
        record.ranEncodingDefault = false
        running.add(1, ordering: .sequentiallyConsistent)
        _ = value.modelValue
        running.subtract(1, ordering: .sequentiallyConsistent)
        let result = record.ranEncodingDefault
        (record.target, record.ranEncodingDefault) = saved
        return result
    }

    /// Called first by the `Codable` default `modelValue`: whether a probe
    /// of `type` is running on this thread, which it should then stop.
    @inline(__always)
    static func isProbingEncodingDefault(_ type: Any.Type) -> Bool {
        guard running.load(ordering: .relaxed) != 0 else { return false }
        guard let record = records.existingValue, record.target == ObjectIdentifier(type) else { return false }
        record.ranEncodingDefault = true
        return true
    }

    /// Called by the general `decoded(from:)` default.
    @inline(__always)
    static func noteDecodedDefault(_ type: Any.Type) {
        guard running.load(ordering: .relaxed) != 0 else { return }
        noteSlowly(type, codable: false)
    }

    /// Called first by the `Codable` default `init(modelValue:)`: whether a
    /// probe of `type` is running on this thread, which it should then stop.
    @inline(__always)
    static func isProbingCodableDefault(_ type: Any.Type) -> Bool {
        guard running.load(ordering: .relaxed) != 0 else { return false }
        return noteSlowly(type, codable: true)
    }

    @discardableResult
    private static func noteSlowly(_ type: Any.Type, codable: Bool) -> Bool {
        guard let record = records.existingValue, record.target == ObjectIdentifier(type) else { return false }
        if codable { record.ranCodableDefault = true } else { record.ranDecodedDefault = true }
        return codable
    }
}
