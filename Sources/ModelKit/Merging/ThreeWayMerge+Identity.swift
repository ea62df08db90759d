extension ThreeWayMerge {
    /// Arrays of models merged by the identity saved under `key`: each
    /// element is merged with the elements of the same identity in the
    /// other versions, wherever they moved. `nil` when an element of any
    /// version is not an object with a value under `key`, or two elements
    /// of one version share a value: such arrays merge by position.
    ///
    /// The order is that of the side that reordered the elements both kept
    /// (ours when neither did), with the elements only the other side has
    /// placed after the element that precedes them there. Both sides
    /// reordering differently is a ``MergeConflict/Kind/reordered`` conflict.
    mutating func mergeByIdentity(
        _ base: [ModelValue], _ ours: [ModelValue], _ theirs: [ModelValue], key: String, element: SavedFormShape
    ) throws -> [ModelValue]? {
        guard let baseIDs = Self.identities(base, key: key), let oursIDs = Self.identities(ours, key: key),
            let theirsIDs = Self.identities(theirs, key: key)
        else { return nil }
        let baseIndex = Self.positions(baseIDs)
        let oursIndex = Self.positions(oursIDs)
        let theirsIndex = Self.positions(theirsIDs)

        // Whether a side moved elements it kept from the base.
        func isReordered(_ ids: [ModelValue], _ index: [ModelValue: Int]) -> Bool {
            ids.filter { baseIndex[$0] != nil } != baseIDs.filter { index[$0] != nil }
        }
        let oursReordered = isReordered(oursIDs, oursIndex)
        let theirsReordered = isReordered(theirsIDs, theirsIndex)
        let useTheirs = theirsReordered && !oursReordered
        var order = useTheirs
            ? Self.interleaving(theirsIDs, with: oursIDs) : Self.interleaving(oursIDs, with: theirsIDs)
        if oursReordered, theirsReordered {
            let shared = { (ids: [ModelValue]) in
                ids.filter { baseIndex[$0] != nil && oursIndex[$0] != nil && theirsIndex[$0] != nil }
            }
            if shared(oursIDs) != shared(theirsIDs) {
                let resolved = try conflict(.reordered, .array(baseIDs), .array(oursIDs), .array(theirsIDs))
                if case .array(let chosen)? = resolved { order = Self.reordering(order, first: chosen) }
            }
        }

        var merged: [ModelValue] = []
        merged.reserveCapacity(order.count)
        for id in order {
            path.append(.index(merged.count))
            defer { path.removeLast() }
            let value = try merge(
                baseIndex[id].map { base[$0] }, oursIndex[id].map { ours[$0] }, theirsIndex[id].map { theirs[$0] },
                shape: element)
            if let value { merged.append(value) }
        }
        return merged
    }

    /// The identities of `elements` in order, or `nil` when one has none or
    /// two share one.
    static func identities(_ elements: [ModelValue], key: String) -> [ModelValue]? {
        var seen = Set<ModelValue>(minimumCapacity: elements.count)
        var ids: [ModelValue] = []
        ids.reserveCapacity(elements.count)
        for element in elements {
            guard case .object(let members) = element, let id = members[key], seen.insert(id).inserted else {
                return nil
            }
            ids.append(id)
        }
        return ids
    }

    private static func positions(_ ids: [ModelValue]) -> [ModelValue: Int] {
        var index: [ModelValue: Int] = [:]
        index.reserveCapacity(ids.count)
        for (position, id) in ids.enumerated() { index[id] = position }
        return index
    }

    /// `main` with the identities only `other` has, each placed after the
    /// nearest identity before it in `other` that `main` has (or first).
    private static func interleaving(_ main: [ModelValue], with other: [ModelValue]) -> [ModelValue] {
        let inMain = Set(main)
        var leading: [ModelValue] = []
        var followers: [ModelValue: [ModelValue]] = [:]
        var anchor: ModelValue?
        for id in other {
            if inMain.contains(id) {
                anchor = id
            } else if let anchor {
                followers[anchor, default: []].append(id)
            } else {
                leading.append(id)
            }
        }
        var order = leading
        order.reserveCapacity(main.count + other.count)
        for id in main {
            order.append(id)
            if let following = followers[id] { order.append(contentsOf: following) }
        }
        return order
    }

    /// `order` with the identities `first` names (once each) moved to the
    /// front in `first`'s order; the others keep theirs.
    private static func reordering(_ order: [ModelValue], first: [ModelValue]) -> [ModelValue] {
        let present = Set(order)
        var placed = Set<ModelValue>()
        var result: [ModelValue] = []
        for id in first where present.contains(id) && placed.insert(id).inserted { result.append(id) }
        for id in order where !placed.contains(id) { result.append(id) }
        return result
    }
}
