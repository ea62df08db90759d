/// Which elements of an array a changed version kept, for the three-way
/// merge of arrays by position.
///
/// Elements are equal by `==`. The matching keeps a common prefix and
/// suffix, then a longest common subsequence of what lies between: by
/// Myers' algorithm while the changes are few enough for a million steps
/// (so arrays of any length with a few edits match exactly), else by a
/// table of pairs; where that would compare more than a million pairs, it first anchors the
/// elements that occur once in each version (in an increasing run of
/// positions, as patience diff does) and finds common subsequences only
/// between anchors small enough, so the cost stays near the arrays' sizes.
enum ArrayMatching {
    /// The most pairs of elements compared for one common subsequence.
    static let subsequenceLimit = 1 << 20

    /// For each index of `base`, the index of the element of `side` it is
    /// kept as, or -1 where `side` changed or removed it; increasing where
    /// not -1.
    static func matches(
        _ base: [ModelValue], _ side: [ModelValue], hash: (ModelValue) -> Int = { $0.hashValue }
    ) -> [Int] {
        var result = [Int](repeating: -1, count: base.count)
        let baseHashes = base.map(hash)
        let sideHashes = side.map(hash)
        func equal(_ row: Int, _ column: Int) -> Bool {
            baseHashes[row] == sideHashes[column] && base[row] == side[column]
        }
        var prefix = 0
        while prefix < min(base.count, side.count), equal(prefix, prefix) {
            result[prefix] = prefix
            prefix += 1
        }
        var suffix = 0
        while suffix < min(base.count, side.count) - prefix, equal(base.count - 1 - suffix, side.count - 1 - suffix) {
            result[base.count - 1 - suffix] = side.count - 1 - suffix
            suffix += 1
        }
        let baseRange = prefix..<(base.count - suffix)
        let sideRange = prefix..<(side.count - suffix)
        guard !baseRange.isEmpty, !sideRange.isEmpty else { return result }
        // Few changes: the fewest edits, at any length.
        if let pairs = CommonSubsequence.fewestEditsPairs(
            rows: baseRange.count, columns: sideRange.count, limit: subsequenceLimit,
            equal: { equal(baseRange.lowerBound + $0, sideRange.lowerBound + $1) })
        {
            for (row, column) in pairs { result[baseRange.lowerBound + row] = sideRange.lowerBound + column }
            return result
        }
        let matcher = Matcher(base: base, side: side, baseHashes: baseHashes, sideHashes: sideHashes)
        if fitsLimit(baseRange.count, sideRange.count) {
            matcher.commonSubsequence(baseRange, sideRange, into: &result)
        } else {
            var lastBase = baseRange.lowerBound
            var lastSide = sideRange.lowerBound
            for (anchorBase, anchorSide) in matcher.anchors(baseRange, sideRange) {
                if fitsLimit(anchorBase - lastBase, anchorSide - lastSide) {
                    matcher.commonSubsequence(lastBase..<anchorBase, lastSide..<anchorSide, into: &result)
                }
                result[anchorBase] = anchorSide
                lastBase = anchorBase + 1
                lastSide = anchorSide + 1
            }
            if fitsLimit(baseRange.upperBound - lastBase, sideRange.upperBound - lastSide) {
                matcher.commonSubsequence(lastBase..<baseRange.upperBound, lastSide..<sideRange.upperBound, into: &result)
            }
        }
        return result
    }

    private static func fitsLimit(_ rows: Int, _ columns: Int) -> Bool {
        let pairs = rows.multipliedReportingOverflow(by: columns)
        return !pairs.overflow && pairs.partialValue <= subsequenceLimit
    }

    /// The two arrays with the hashes of their elements.
    private struct Matcher {
        let base: [ModelValue]
        let side: [ModelValue]
        let baseHashes: [Int]
        let sideHashes: [Int]

        func equal(_ row: Int, _ column: Int) -> Bool {
            baseHashes[row] == sideHashes[column] && base[row] == side[column]
        }

        /// Records a longest common subsequence of `base[rows]` and `side[columns]`.
        func commonSubsequence(_ rows: Range<Int>, _ columns: Range<Int>, into result: inout [Int]) {
            let pairs = CommonSubsequence.pairs(rows: rows.count, columns: columns.count) { row, column in
                equal(rows.lowerBound + row, columns.lowerBound + column)
            }
            for (row, column) in pairs { result[rows.lowerBound + row] = columns.lowerBound + column }
        }

        /// Pairs of elements that occur once in each range and are equal,
        /// the longest run of them increasing on both sides, in order.
        func anchors(_ rows: Range<Int>, _ columns: Range<Int>) -> [(Int, Int)] {
            var sideOnce: [Int: Int] = [:]  // hash to index; -1 when it occurs again
            for column in columns {
                let hash = sideHashes[column]
                sideOnce[hash] = sideOnce[hash] == nil ? column : -1
            }
            var baseCount: [Int: Int] = [:]
            for row in rows { baseCount[baseHashes[row], default: 0] += 1 }
            var candidates: [(Int, Int)] = []
            for row in rows {
                let hash = baseHashes[row]
                if baseCount[hash] == 1, let column = sideOnce[hash], column >= 0, base[row] == side[column] {
                    candidates.append((row, column))
                }
            }
            return Self.longestIncreasingRun(candidates)
        }

        /// The longest subsequence of `pairs` (increasing in their first
        /// elements) whose second elements increase too.
        static func longestIncreasingRun(_ pairs: [(Int, Int)]) -> [(Int, Int)] {
            var tails: [Int] = []  // index into pairs of the smallest tail of each length
            var previous = [Int](repeating: -1, count: pairs.count)
            for (index, pair) in pairs.enumerated() {
                var low = 0
                var high = tails.count
                while low < high {
                    let middle = (low + high) / 2
                    if pairs[tails[middle]].1 < pair.1 { low = middle + 1 } else { high = middle }
                }
                if low > 0 { previous[index] = tails[low - 1] }
                if low == tails.count { tails.append(index) } else { tails[low] = index }
            }
            var run: [(Int, Int)] = []
            var index = tails.last ?? -1
            while index >= 0 {
                run.append(pairs[index])
                index = previous[index]
            }
            return run.reversed()
        }
    }
}
