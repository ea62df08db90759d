extension JSONPatch {
    /// How deep a patched document may nest and how much a patch's `copy`
    /// operations may make it grow.
    ///
    /// A patch comes from elsewhere (a server, another device, a user), and
    /// a small one can ask for a great deal: `copy` shares the copied value's
    /// storage, so thirty operations that each copy an array into itself
    /// (1.4 KB of patch) would ask for an array of 2³³ elements, and copying
    /// the whole document into its own deepest member doubles its depth each
    /// time. Application checks both limits as it goes, before the operation
    /// that would pass one is applied, and fails with an error naming that
    /// operation; the document is left as it was.
    ///
    /// ```swift
    /// var patch = try JSONPatch(json: Data(#"[{"op":"copy","from":"/blob","path":"/blob/-"}]"#.utf8))
    /// patch.limits.minimumCopyAllowance = 64 << 20    // a patch known to copy large values
    /// ```
    ///
    /// **Depth.** No patch makes a document nest deeper than
    /// ``maximumDepth`` levels of arrays and objects (512, the JSON reader's
    /// own limit, so that every patched document can be read again).
    ///
    /// **Growth.** Values that `add` and `replace` put in a document come
    /// from the patch itself, so they grow it no more than the patch's own
    /// size. Only `copy` can make a document grow faster than its patch, so
    /// copies are counted: the values that a patch's copies add, in bytes of
    /// compact JSON (estimated as the writer would write them), may together
    /// be at most the size of the document and the patch together (so any
    /// part of a document can be copied at least once), or
    /// ``minimumCopyAllowance`` when that is larger (so repeated copies in a
    /// small document work). Doubling an array by copying it into itself
    /// therefore stops after the document has about doubled, in time and
    /// memory in proportion to the document, not to what the patch asks for.
    public struct Limits: Sendable, Hashable {
        /// The deepest nesting of arrays and objects a patched document may
        /// have; 512 by default.
        public var maximumDepth: Int
        /// The least that copies may add to a document, in bytes of compact
        /// JSON, whatever the document's size; 1 MiB by default.
        public var minimumCopyAllowance: Int

        /// Limits of `maximumDepth` levels and a copy allowance of at least
        /// `minimumCopyAllowance` bytes.
        public init(maximumDepth: Int = 512, minimumCopyAllowance: Int = 1 << 20) {
            self.maximumDepth = maximumDepth
            self.minimumCopyAllowance = minimumCopyAllowance
        }

        /// 512 levels, and copies of at least 1 MiB.
        public static let standard = Limits()
    }
}

extension ModelValue {
    /// The depth of this value (how many arrays and objects nest in it: 0
    /// for a scalar) and the size of its compact JSON, estimated, walking
    /// without recursion and stopping once the depth passes `depthLimit` or
    /// the size passes `sizeLimit` (the figures are then at least those).
    func measured(depthLimit: Int = .max, sizeLimit: Int = .max) -> (depth: Int, size: Int) {
        var depth = 0
        var size = 0
        var pending: [(value: ModelValue, depth: Int)] = [(self, 0)]
        while let (value, level) = pending.popLast() {
            switch value {
            case .null: size += 4
            case .bool(let flag): size += flag ? 4 : 5
            case .int(let number): size += Self.digitCount(number)
            case .bigInteger(let digits): size += digits.utf8.count
            case .double: size += 8
            case .string(let text): size += text.utf8.count + 2
            case .date: size += 29
            case .data(let bytes): size += (bytes.count + 2) / 3 * 4 + 2
            case .array(let elements):
                depth = Swift.max(depth, level + 1)
                size += 2 + Swift.max(elements.count - 1, 0)
                for element in elements { pending.append((element, level + 1)) }
            case .object(let members):
                depth = Swift.max(depth, level + 1)
                size += 2 + Swift.max(members.count - 1, 0)
                for (key, member) in members {
                    size += key.utf8.count + 3
                    pending.append((member, level + 1))
                }
            }
            if depth > depthLimit || size > sizeLimit { break }
        }
        return (depth, size)
    }

    private static func digitCount(_ number: Int) -> Int {
        var count = number < 0 ? 2 : 1
        var rest = number.magnitude / 10
        while rest > 0 {
            count += 1
            rest /= 10
        }
        return count
    }
}
