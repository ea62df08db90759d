import Foundation

/// What ``ModelDocument/mergeConflictCopies()`` did with the conflict copies
/// beside a document.
public struct ConflictCopyMerges: Sendable {
    /// A copy that could not be merged, left where it is.
    public struct UnmergedCopy: Sendable, CustomStringConvertible {
        /// The copy.
        public var url: URL
        /// Why it was not merged (it does not load, holds another class, or
        /// its merge failed), naming the copy.
        public var error: ModelError

        /// The copy's name and why it was not merged.
        public var description: String { "\(url.lastPathComponent): \(error)" }
    }

    /// One merge per copy merged, whose source is
    /// ``DocumentMerge/Source/conflictCopy(_:)``.
    public var merges: [DocumentMerge] = []
    /// The copies removed (iCloud versions marked resolved) once the merged
    /// document was durably saved.
    public var removed: [URL] = []
    /// The copies left where they are, with why.
    public var unmerged: [UnmergedCopy] = []

    /// Every conflict of every copy's merge.
    public var conflicts: [MergeConflict] { merges.flatMap(\.conflicts) }

    /// Nothing merged, removed or left.
    public init() {}
}
