import Foundation

extension ModelDocument {
    /// Folds back the conflict copies that sync services left beside the
    /// document, and on Apple platforms its unresolved iCloud versions.
    ///
    /// ```swift
    /// let folded = try document.mergeConflictCopies()
    /// for copy in folded.unmerged { print(copy) }   // left where it is
    /// ```
    ///
    /// Copies are recognised by the names each service gives them (see
    /// `ConflictCopies`): Dropbox's `notes (Ana's conflicted copy
    /// 2026-12-07).json`, Syncthing's
    /// `notes.sync-conflict-20261207-101500-ABCDEFG.json`, Nextcloud's and
    /// ownCloud's `notes (conflicted copy 2026-12-07 101500).json` (and
    /// older ownCloud clients' `notes_conflict-20261207-101500.json`). Each,
    /// oldest first, is merged three ways into the live model, as a save
    /// merges: its ancestor is the version in ``history`` closest to it (the
    /// fewest values that differ: a copy is its ancestor plus the other
    /// device's edits, so it is nearer to it than to our later versions).
    /// With no history, or none kept, the merge is two ways, and its
    /// ``DocumentMerge/hadCommonAncestor`` is `false`.
    ///
    /// Then the document is saved (merging whatever changed the file too),
    /// and only once that save is durable are the merged copies removed. A
    /// copy that does not load, holds another class, or whose merge fails
    /// stays where it is, reported in ``ConflictCopyMerges/unmerged``; the
    /// live model is unchanged by it.
    /// - Returns: the merges, the copies removed and those left.
    /// - Throws: ``ModelError`` when the folder cannot be listed or the save
    ///   fails; no copy is removed then (the live model keeps the merges,
    ///   and the next save writes them).
    @discardableResult
    public func mergeConflictCopies() throws -> ConflictCopyMerges {
        try lock.withLock {
            var result = ConflictCopyMerges()
            var sources = try ConflictCopies.beside(url).map { copy in
                (url: copy.url, resolve: { () throws -> Void in try FileManager.default.removeItem(at: copy.url) })
            }
            sources += Platform.unresolvedConflictVersions(of: url).map { ($0.url, $0.resolve) }
            var merged: [(url: URL, resolve: () throws -> Void)] = []
            for source in sources {
                do {
                    result.merges.append(try mergeCopy(at: source.url))
                    merged.append(source)
                } catch let error as ModelError {
                    result.unmerged.append(.init(url: source.url, error: error))
                }
            }
            guard !merged.isEmpty else { return result }
            let saved = try save()
            for source in merged {
                do {
                    try source.resolve()
                    result.removed.append(source.url)
                } catch {
                    result.unmerged.append(
                        .init(
                            url: source.url,
                            error: DurableFile.failure(source.url, "merged, but it could not be removed: \(error)")))
                }
            }
            lastConflicts = result.conflicts + saved
            for merge in result.merges { announce(merge) }
            return result
        }
    }

    /// Merges the copy at `copyURL` into the live model. Call holding `lock`.
    private func mergeCopy(at copyURL: URL) throws -> DocumentMerge {
        let (data, _) = try Self.readVersion(of: copyURL)
        let format = try Self.detectedFormat(of: data, url: copyURL)
        let theirs = try Self.decodedRoot(data, format: format, url: copyURL).encodedRoot(references: .shared)
        let ancestor = try? ancestorForm(ofCopyAt: copyURL)
        let conflicts = try ModelDocumentFormat.attributing(to: copyURL) {
            try root.mergeInPlace(base: ancestor ?? Self.twoWayBase(of: theirs), theirs: theirs, policy: policy)
        }
        return DocumentMerge(source: .conflictCopy(copyURL), conflicts: conflicts, hadCommonAncestor: ancestor != nil)
    }

    /// The saved form of the kept version closest to the copy at
    /// `copyURL`, or nil with no history or none that loads.
    private func ancestorForm(ofCopyAt copyURL: URL) throws -> ModelValue.Object? {
        keepWaitingVersions()
        guard let history, let version = history.closestVersion(to: try ModelValue(contentsOf: copyURL), of: url)
        else { return nil }
        let model = Root()
        try model.loadingNew { try model.load(version) }
        return try model.encodedRoot(references: .shared)
    }

    /// The base of a merge with no common ancestor: the class's metadata
    /// alone, so that whatever either side holds is an addition, and values
    /// both hold differently conflict.
    static func twoWayBase(of form: ModelValue.Object) -> ModelValue.Object {
        var base = ModelValue.Object()
        for key in [Root.typeKey, Root.versionKey].compactMap({ $0 }) {
            if let value = form[key] { base.appendNew(key: key, value: value) }
        }
        return base
    }
}
