/// How a three-way merge settles a conflict: a value that both sides
/// changed differently, that one side removed and the other edited, or
/// array edits that overlap.
///
/// ```swift
/// let result = try Note.merge(base: base, ours: mine, theirs: other, policy: .theirs)
/// let strict = try Note.merge(base: base, ours: mine, theirs: other, policy: .fail)
/// let custom = try Note.merge(base: base, ours: mine, theirs: other,
///                             policy: .resolve { conflict in conflict.theirs })
/// ```
///
/// Whatever the policy, every conflict is reported in
/// ``MergeResult/conflicts``: nothing is dropped without a report.
public enum MergePolicy: Sendable {
    /// Keep our side's value (the default).
    case ours
    /// Keep their side's value.
    case theirs
    /// Throw a ``ModelError`` with the code ``ModelError/Code/mergeConflict``
    /// that lists every conflict, and merge nothing.
    case fail
    /// Ask the closure for each conflict's value: it returns the value to
    /// keep at ``MergeConflict/path``, or `nil` to remove it. For
    /// ``MergeConflict/Kind/overlappingElements`` the value stands for the
    /// elements: an array gives its elements, `nil` none, and any other value
    /// one element. An error the closure throws ends the merge.
    case resolve(@Sendable (MergeConflict) throws -> ModelValue?)

    /// The value this policy keeps for `conflict`; `.fail` keeps ours while
    /// the merge goes on to find every conflict.
    func resolution(of conflict: MergeConflict) throws -> ModelValue? {
        switch self {
        case .ours, .fail: conflict.ours
        case .theirs: conflict.theirs
        case .resolve(let resolve): try resolve(conflict)
        }
    }
}
