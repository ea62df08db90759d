/// The hashes of the containers of the values a walk compares, each worked
/// out once, so that a merge or a difference compares values in time
/// proportional to the documents rather than to their size times their depth.
///
/// A merge compares ours, theirs and the base at every level it walks
/// down, and a difference compares array elements at every level. Comparing with `==` there walks each subtree again at every level
/// above it: a change at the bottom of a chain 2,000 levels deep costs
/// about 2,000 × 2,000 steps. Here two values are first compared by their
/// hashes; a container's hash is made from its children's, kept by the
/// address of its element buffer, so no container is hashed twice. Values
/// with equal hashes are then compared with `==`, which ends the walk at
/// that level (equal values are not descended into), so the full
/// comparisons together cost one walk of the documents.
///
/// The address of an array's buffer names its contents only while the
/// buffer lives and is not written to: only values inside the versions
/// compared are ever looked up, and they stay alive and unchanged for the
/// walk, which owns one table.
///
/// Two kinds of equality: `==` (a merge), or JSON equality
/// (`isJSONEqual(to:)`, a difference), where `1` equals `1.0` and a date
/// equals its text.
final class ValueFingerprints {
    private var containers: [UnsafeRawPointer: Int] = [:]
    /// Whether values are compared as JSON (`isJSONEqual(to:)`) rather than with `==`.
    private let asJSON: Bool

    init(asJSON: Bool = false) {
        self.asJSON = asJSON
    }

    /// Whether `a` and `b` are equal, as `==` says, both absent counting as equal.
    func equal(_ a: ModelValue?, _ b: ModelValue?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let a?, let b?): return hash(a) == hash(b) && (asJSON ? a.isJSONEqual(to: b) : a == b)
        default: return false
        }
    }

    /// Whether two runs of elements are equal, element by element.
    func equal(_ a: ArraySlice<ModelValue>, _ b: ArraySlice<ModelValue>) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { hash($0) == hash($1) }
            && (asJSON ? a.elementsEqual(b) { $0.isJSONEqual(to: $1) } : a.elementsEqual(b))
    }

    /// A hash of `value` consistent with the equality: equal values hash alike.
    func hash(_ value: ModelValue) -> Int {
        hash(value, depth: 0)
    }

    private func hash(_ value: ModelValue, depth: Int) -> Int {
        switch value {
        case .array(let elements):
            guard let address = Self.address(elements) else { return Self.emptyArrayHash }
            if let known = containers[address] { return known }
            var hasher = Hasher()
            hasher.combine(8 as UInt8)
            hasher.combine(elements.count)
            StackGuard.descending(depth) {
                for element in elements { hasher.combine(hash(element, depth: depth + 1)) }
            }
            let result = hasher.finalize()
            containers[address] = result
            return result
        case .object(let object):
            guard let address = Self.address(object.values) else { return Self.emptyObjectHash }
            if let known = containers[address] { return known }
            // Order-independent, as object equality is.
            var sum = 0
            StackGuard.descending(depth) {
                for (key, member) in object {
                    var hasher = Hasher()
                    hasher.combine(key)
                    hasher.combine(hash(member, depth: depth + 1))
                    sum &+= hasher.finalize()
                }
            }
            var hasher = Hasher()
            hasher.combine(9 as UInt8)
            hasher.combine(object.count)
            hasher.combine(sum)
            let result = hasher.finalize()
            containers[address] = result
            return result
        case .date where asJSON:
            return Self.dateLikeHash
        case .string(let text) where asJSON && Self.mayBeDate(text):
            // A date equals, as JSON, its text: every date and every string
            // that may be one hash alike, which spares formatting each date
            // (most of the cost of hashing a document full of them).
            return Self.dateLikeHash
        default:
            return asJSON ? value.jsonHash : value.hashValue
        }
    }

    private static let dateLikeHash = "a date, or a string that may be one".hashValue

    /// Whether `text` could be the JSON text of a date: at least 20 bytes,
    /// starting with a digit (a four-digit year) or a sign (an expanded year).
    private static func mayBeDate(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard utf8.count >= 20, let first = utf8.first else { return false }
        return first &- UInt8(ascii: "0") < 10 || first == UInt8(ascii: "+") || first == UInt8(ascii: "-")
    }

    private static let emptyArrayHash = ModelValue.array([]).hashValue
    private static let emptyObjectHash = ModelValue.object([:]).hashValue

    /// The address of the buffer of a non-empty array.
    private static func address(_ elements: [ModelValue]) -> UnsafeRawPointer? {
        guard !elements.isEmpty else { return nil }
        return elements.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }
}
