import Foundation

extension Platform {
    /// A version of a document that the system's own sync keeps apart from
    /// the file because it conflicts with it: on Apple platforms, an
    /// unresolved iCloud `NSFileVersion`.
    struct ConflictVersion {
        /// Where the version's bytes can be read.
        var url: URL
        /// Marks the version resolved and removes it, so that it no longer
        /// syncs to the user's devices or counts against their quota.
        var resolve: () throws -> Void
    }

    /// The unresolved conflict versions of the file at `url`; none where the
    /// platform keeps none (Linux and other systems: their sync services
    /// leave copies beside the file instead, see `ConflictCopies`).
    static func unresolvedConflictVersions(of url: URL) -> [ConflictVersion] {
        #if canImport(Darwin)
            // Apple's Foundation documentation (NSFileVersion, iOS 5, macOS
            // 10.7, tvOS 9, watchOS 2, visionOS 1):
            // `class func unresolvedConflictVersionsOfItem(at url: URL) -> [NSFileVersion]?`,
            // `var url: URL { get }`, `var isResolved: Bool { get set }` ("After
            // you resolve the conflict, set this property to true ... you must
            // then remove any versions of the file that are no longer useful"),
            // and `func remove() throws`.
            return (NSFileVersion.unresolvedConflictVersionsOfItem(at: url) ?? []).map { version in
                ConflictVersion(url: version.url) {
                    version.isResolved = true
                    try version.remove()
                }
            }
        #else
            return []
        #endif
    }
}
