import Foundation

/// One merge of another version of a document into the live model: at a
/// save that found the file changed, as the file changed while watching,
/// or from a sync service's conflict copy.
///
/// ```swift
/// for await merge in document.merges() {
///     print(merge.source, merge.conflicts.count)
/// }
/// ```
public struct DocumentMerge: Sendable, CustomStringConvertible {
    /// Where the other version came from.
    public enum Source: Sendable, Hashable, CustomStringConvertible {
        /// ``ModelDocument/save()`` found the file changed since it was
        /// loaded or last saved, and merged it before writing.
        case save
        /// The file changed while the document was watching it
        /// (``ModelDocument/startWatching(queue:)``).
        case watching
        /// A conflict copy a sync service left beside the document (Dropbox,
        /// Syncthing, Nextcloud, ownCloud), or on Apple platforms an
        /// unresolved iCloud version, at this URL.
        case conflictCopy(URL)

        /// `save`, `watching`, or `conflict copy NAME`.
        public var description: String {
            switch self {
            case .save: "save"
            case .watching: "watching"
            case .conflictCopy(let url): "conflict copy \(url.lastPathComponent)"
            }
        }
    }

    /// Where the other version came from.
    public var source: Source
    /// Every conflict met, each settled by the document's ``MergePolicy``.
    public var conflicts: [MergeConflict]
    /// Whether the version both sides started from was known. Without it
    /// (a conflict copy whose ancestor is in no history), the merge is two
    /// ways: whatever either side holds is kept, and every value the two
    /// hold differently is a conflict settled by the policy.
    public var hadCommonAncestor: Bool

    /// A merge from `source` that met `conflicts`.
    public init(source: Source, conflicts: [MergeConflict], hadCommonAncestor: Bool = true) {
        self.source = source
        self.conflicts = conflicts
        self.hadCommonAncestor = hadCommonAncestor
    }

    /// Where it came from, whether it was two ways, and how many conflicts
    /// it met: `merged from watching: 1 conflict`.
    public var description: String {
        let ways = hadCommonAncestor ? "" : ", two ways (no common ancestor)"
        let settled = conflicts.isEmpty ? "no conflicts" : "\(conflicts.count) conflict\(conflicts.count == 1 ? "" : "s")"
        return "merged from \(source)\(ways): \(settled)"
    }
}
