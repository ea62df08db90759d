/// A place where the two sides of a three-way merge disagree.
///
/// ```swift
/// let result = try Note.merge(base: base, ours: mine, theirs: other)
/// for conflict in result.conflicts {
///     print(conflict)   // items[2].title: base "a", ours "b", theirs "c"
/// }
/// ```
///
/// Each value is the one of its version at ``path``, `nil` where that
/// version has none (a key removed or never added).
public struct MergeConflict: Hashable, Sendable, CustomStringConvertible {
    /// What kind of disagreement a conflict is.
    public enum Kind: Hashable, Sendable {
        /// Both sides changed (or both added) the value, differently.
        case changedOnBothSides
        /// One side removed the value and the other changed it.
        case removedOnOneSide
        /// Both sides inserted, removed or replaced elements of an array at
        /// the same place. The path names the first element of the region
        /// (its index in the merged array) and each value is an array of that
        /// version's elements there.
        case overlappingElements
        /// Both sides reordered the elements of an array matched by an
        /// identity key, differently. The path names the array and each value
        /// is an array of the identities in that version's order; a
        /// resolution that is such an array sets the order (identities it
        /// leaves out follow in our order).
        case reordered
        /// A reference the merge keeps names a model the merge removed: one
        /// side removed the model, the other referred to it. ``ours`` holds
        /// the reference as merged, naming its model by the way to it
        /// (`{"$ref":"groups[id=\"g1\"].tasks[id=\"a\"]"}`); ``base`` and
        /// ``theirs`` are `nil`. A weak reference left so is saved as
        /// `null`; a resolution may name another model with a reference
        /// taken from a conflict's values.
        case removedTarget
    }

    /// Where the conflict is: `items[2].title`; empty for the root.
    public var path: ModelKeyPath
    /// What kind of disagreement this is.
    public var kind: Kind
    /// The value in the base version, `nil` where it has none.
    public var base: ModelValue?
    /// The value on our side, `nil` where it has none.
    public var ours: ModelValue?
    /// The value on their side, `nil` where it has none.
    public var theirs: ModelValue?

    /// A conflict from its place, kind and three values.
    public init(path: ModelKeyPath, kind: Kind, base: ModelValue?, ours: ModelValue?, theirs: ModelValue?) {
        self.path = path
        self.kind = kind
        self.base = base
        self.ours = ours
        self.theirs = theirs
    }

    /// One line: `items[2].title: base "a", ours "b", theirs "c"`; a value a
    /// version lacks is `absent`, and long values are shortened.
    public var description: String {
        let place = path.isEmpty ? "(root)" : path.description
        let prefix: String =
            switch kind {
            case .overlappingElements: " (overlapping array edits)"
            case .reordered: " (order)"
            default: ""
            }
        if kind == .removedTarget { return "\(place) (names a removed model): \(Self.shown(ours))" }
        return "\(place)\(prefix): base \(Self.shown(base)), ours \(Self.shown(ours)), theirs \(Self.shown(theirs))"
    }

    private static func shown(_ value: ModelValue?) -> String {
        guard let value else { return "absent" }
        let text = value.description
        return text.count > 60 ? String(text.prefix(59)) + "…" : text
    }
}
