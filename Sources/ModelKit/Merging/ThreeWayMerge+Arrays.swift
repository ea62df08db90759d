extension ThreeWayMerge {
    /// Arrays merged element by element: by their identity key where the
    /// elements are models of a class that names one (and every element of
    /// the three versions has a distinct identity), else by position.
    mutating func mergeArrays(
        _ base: [ModelValue], _ ours: [ModelValue], _ theirs: [ModelValue], shape: SavedFormShape
    ) throws -> [ModelValue] {
        guard case .elements(let element) = shape else {
            if let key = plainIdentityKey, let merged = try mergeByIdentity(base, ours, theirs, key: key, element: .other) {
                return merged
            }
            return try mergeByPosition(base, ours, theirs, element: .other)
        }
        if case .model(let declared) = element, let key = declared.identityKey,
            let merged = try mergeByIdentity(base, ours, theirs, key: key, element: element)
        {
            return merged
        }
        return try mergeByPosition(base, ours, theirs, element: element)
    }

    /// The three-way merge of arrays by position (diff3): each side is
    /// matched with the base (elements kept unchanged, in order); the
    /// elements kept by both sides are stable, and each region between them
    /// that only one side changed takes that side's elements. A region both
    /// sides changed merges element by element when the three have as many
    /// elements there, and is otherwise a conflict.
    private mutating func mergeByPosition(
        _ base: [ModelValue], _ ours: [ModelValue], _ theirs: [ModelValue], element: SavedFormShape
    ) throws -> [ModelValue] {
        let oursMatch = ArrayMatching.matches(base, ours, hash: fingerprints.hash)
        let theirsMatch = ArrayMatching.matches(base, theirs, hash: fingerprints.hash)
        var merged: [ModelValue] = []
        merged.reserveCapacity(max(ours.count, theirs.count))
        var (i, j, k) = (0, 0, 0)
        while i < base.count || j < ours.count || k < theirs.count {
            // A stable run: kept, in place, by both sides.
            var run = 0
            while i + run < base.count, oursMatch[i + run] == j + run, theirsMatch[i + run] == k + run { run += 1 }
            if run > 0 {
                merged.append(contentsOf: ours[j..<(j + run)])
                i += run
                j += run
                k += run
                continue
            }
            // A region up to the next element both sides kept.
            var next = i
            while next < base.count, oursMatch[next] < 0 || theirsMatch[next] < 0 { next += 1 }
            let oursEnd = next < base.count ? oursMatch[next] : ours.count
            let theirsEnd = next < base.count ? theirsMatch[next] : theirs.count
            try mergeRegion(
                base[i..<next], ours[j..<oursEnd], theirs[k..<theirsEnd], element: element, into: &merged)
            (i, j, k) = (next, oursEnd, theirsEnd)
        }
        return merged
    }

    /// Appends the merge of one region of the three arrays to `merged`.
    private mutating func mergeRegion(
        _ base: ArraySlice<ModelValue>, _ ours: ArraySlice<ModelValue>, _ theirs: ArraySlice<ModelValue>,
        element: SavedFormShape, into merged: inout [ModelValue]
    ) throws {
        if fingerprints.equal(ours, base) {
            merged.append(contentsOf: theirs)
        } else if fingerprints.equal(theirs, base) || fingerprints.equal(ours, theirs) {
            merged.append(contentsOf: ours)
        } else if base.count == ours.count, ours.count == theirs.count {
            for offset in 0..<base.count {
                path.append(.index(merged.count))
                defer { path.removeLast() }
                let value = try merge(
                    base[base.startIndex + offset], ours[ours.startIndex + offset],
                    theirs[theirs.startIndex + offset], shape: element)
                if let value { merged.append(value) }
            }
        } else {
            path.append(.index(merged.count))
            defer { path.removeLast() }
            let resolved = try conflict(.overlappingElements, .array(Array(base)), .array(Array(ours)), .array(Array(theirs)))
            switch resolved {
            case nil: break
            case .array(let elements)?: merged.append(contentsOf: elements)
            case let value?: merged.append(value)
            }
        }
    }
}
