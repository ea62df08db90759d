extension JSONPatch {
    /// A patch that turns `source` into `target`, preferring few operations.
    ///
    /// ```swift
    /// let before: ModelValue = ["title": "Milk", "tags": ["a", "b", "c"], "count": 1]
    /// let after: ModelValue = ["title": "Milk", "tags": ["a", "x", "b", "c"], "count": 2]
    /// print(try JSONPatch.difference(from: before, to: after).jsonString())
    /// // [{"op":"add","path":"/tags/1","value":"x"},{"op":"replace","path":"/count","value":2}]
    /// ```
    ///
    /// The patch:
    /// - goes into objects present on both sides, member by member, so a
    ///   change deep inside is one operation at its path, never a
    ///   replacement of the objects around it; members are removed in the
    ///   source's order, changed and added in the target's;
    /// - keeps unchanged array elements: a common prefix and suffix, then the
    ///   longest common subsequence of what lies between, with the elements
    ///   in between paired (and compared again, member by member) where both
    ///   sides have some, removed or added where one side has more; between
    ///   more than a million pairs of elements it pairs them by position
    ///   instead, so the cost stays in proportion to the arrays' sizes;
    /// - uses only `add`, `remove` and `replace` (no `move` or `copy`), and
    ///   adds at numeric indices (never `-`).
    ///
    /// Values are compared as JSON values (see ``ModelValue/isJSONEqual(to:)``),
    /// as `test` compares them: `1` and `1.0` are equal, so no operation turns
    /// one into the other.
    /// - Parameters:
    ///   - source: the value the patch applies to.
    ///   - target: the value it gives.
    /// - Returns: a patch whose ``applied(to:)`` on `source` gives `target`.
    public static func difference(from source: ModelValue, to target: ModelValue) -> JSONPatch {
        var differ = Differ()
        var path: [String] = []
        differ.compare(source, target, at: &path)
        return JSONPatch(differ.operations)
    }

    /// Builds the operations of a difference.
    private struct Differ {
        var operations: [Operation] = []
        /// Hashes of the containers compared, each worked out once, so that
        /// arrays nested deep are not compared whole at every level.
        let fingerprints = ValueFingerprints(asJSON: true)

        /// The most pairs of elements compared for a common subsequence.
        static let subsequenceLimit = 1 << 20

        /// Compares the values at `path`, which is as it was when this returns.
        mutating func compare(_ source: ModelValue, _ target: ModelValue, at path: inout [String]) {
            switch (source, target) {
            case (.object(let old), .object(let new)):
                StackGuard.descending(path.count) { compareObjects(old, new, at: &path) }
            case (.array(let old), .array(let new)):
                StackGuard.descending(path.count) { compareArrays(old, new, at: &path) }
            default:
                if !source.isJSONEqual(to: target) {
                    operations.append(.replace(path: JSONPointer(tokens: path), value: target))
                }
            }
        }

        private mutating func compareObjects(
            _ old: ModelValue.Object, _ new: ModelValue.Object, at path: inout [String]
        ) {
            for key in old.keys where new.index(forKey: key) == nil {
                operations.append(.remove(path: JSONPointer(tokens: path + [key])))
            }
            for (key, value) in new {
                if let oldValue = old[key] {
                    path.append(key)
                    compare(oldValue, value, at: &path)
                    path.removeLast()
                } else {
                    operations.append(.add(path: JSONPointer(tokens: path + [key]), value: value))
                }
            }
        }

        private mutating func compareArrays(_ old: [ModelValue], _ new: [ModelValue], at path: inout [String]) {
            var prefix = 0
            while prefix < min(old.count, new.count), fingerprints.equal(old[prefix], new[prefix]) { prefix += 1 }
            var suffix = 0
            while suffix < min(old.count, new.count) - prefix,
                fingerprints.equal(old[old.count - 1 - suffix], new[new.count - 1 - suffix])
            {
                suffix += 1
            }
            let oldMiddle = old[prefix..<(old.count - suffix)]
            let newMiddle = new[prefix..<(new.count - suffix)]
            let matches = commonSubsequence(oldMiddle, newMiddle)

            // Walk the gaps between kept elements; `position` is where the
            // next element stands in the array as patched so far.
            var position = prefix
            var oldIndex = oldMiddle.startIndex
            var newIndex = newMiddle.startIndex
            for (oldMatch, newMatch) in matches + [(oldMiddle.endIndex, newMiddle.endIndex)] {
                let paired = min(oldMatch - oldIndex, newMatch - newIndex)
                for offset in 0..<paired {
                    path.append(String(position))
                    compare(old[oldIndex + offset], new[newIndex + offset], at: &path)
                    path.removeLast()
                    position += 1
                }
                for _ in (oldIndex + paired)..<oldMatch {
                    operations.append(.remove(path: JSONPointer(tokens: path + [String(position)])))
                }
                for index in (newIndex + paired)..<newMatch {
                    operations.append(.add(path: JSONPointer(tokens: path + [String(position)]), value: new[index]))
                    position += 1
                }
                position += 1
                oldIndex = oldMatch + 1
                newIndex = newMatch + 1
            }
        }

        /// The index pairs of a longest common subsequence of `old` and
        /// `new` (elements equal as JSON values), in order.
        /// Few changes are found by Myers' algorithm at any length; more by
        /// a table of pairs, up to a million; past that none are kept (every
        /// element of the middle is replaced).
        private func commonSubsequence(_ old: ArraySlice<ModelValue>, _ new: ArraySlice<ModelValue>)
            -> [(Int, Int)]
        {
            let rows = old.count
            let columns = new.count
            guard rows > 0, columns > 0 else { return [] }
            let oldHashes = old.map(fingerprints.hash)
            let newHashes = new.map(fingerprints.hash)
            func equal(_ row: Int, _ column: Int) -> Bool {
                oldHashes[row] == newHashes[column]
                    && old[old.startIndex + row].isJSONEqual(to: new[new.startIndex + column])
            }
            let pairs: [(Int, Int)]
            if let fewest = CommonSubsequence.fewestEditsPairs(
                rows: rows, columns: columns, limit: Self.subsequenceLimit, equal: equal)
            {
                pairs = fewest
            } else {
                let product = rows.multipliedReportingOverflow(by: columns)
                guard !product.overflow, product.partialValue <= Self.subsequenceLimit else { return [] }
                pairs = CommonSubsequence.pairs(rows: rows, columns: columns, equal: equal)
            }
            return pairs.map { row, column in (old.startIndex + row, new.startIndex + column) }
        }
    }
}
