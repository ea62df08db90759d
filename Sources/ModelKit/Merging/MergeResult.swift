/// What a three-way merge gives: the merged value and the conflicts the
/// policy settled.
///
/// ```swift
/// let result = try Note.merge(base: base, ours: mine, theirs: other)
/// let merged: Note = result.merged
/// for conflict in result.conflicts { print(conflict) }
/// // items[2].title: base "a", ours "b", theirs "c"
/// ```
public struct MergeResult<Value> {
    /// The merge of both sides' changes, with each conflict settled by the policy.
    public var merged: Value
    /// Every conflict met, in document order, each with the values of the
    /// three versions; empty when both sides' changes merged cleanly.
    public var conflicts: [MergeConflict]

    /// A result from its merged value and conflicts.
    public init(merged: Value, conflicts: [MergeConflict]) {
        self.merged = merged
        self.conflicts = conflicts
    }

    /// Whether both sides' changes merged without a conflict.
    public var isClean: Bool { conflicts.isEmpty }
}

extension MergeResult: Sendable where Value: Sendable {}
