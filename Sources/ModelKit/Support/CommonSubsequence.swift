/// A longest common subsequence of two sequences, by dynamic programming:
/// the differences of arrays (`JSONPatch.difference`) and the three-way
/// merge's matching of arrays (`ArrayMatching`) both start from one.
///
/// It takes time and memory proportional to `rows × columns` (a table of
/// `Int32`), so callers bound that product before calling.
enum CommonSubsequence {
    /// The index pairs `(row, column)` of a longest common subsequence of
    /// `rows` elements and `columns` elements, both increasing, where
    /// `equal(row, column)` says whether two elements match (indices from 0).
    /// Where several are longest, matches come as early in the rows as they can.
    static func pairs(rows: Int, columns: Int, equal: (Int, Int) -> Bool) -> [(Int, Int)] {
        guard rows > 0, columns > 0 else { return [] }
        // lengths[row * width + column]: the longest common subsequence of
        // the rows from `row` and the columns from `column`.
        let width = columns + 1
        var lengths = [Int32](repeating: 0, count: (rows + 1) * width)
        for row in stride(from: rows - 1, through: 0, by: -1) {
            for column in stride(from: columns - 1, through: 0, by: -1) {
                lengths[row * width + column] =
                    equal(row, column)
                    ? lengths[(row + 1) * width + column + 1] + 1
                    : max(lengths[(row + 1) * width + column], lengths[row * width + column + 1])
            }
        }
        var pairs: [(Int, Int)] = []
        var row = 0
        var column = 0
        while row < rows, column < columns {
            if equal(row, column) {
                pairs.append((row, column))
                row += 1
                column += 1
            } else if lengths[(row + 1) * width + column] >= lengths[row * width + column + 1] {
                row += 1
            } else {
                column += 1
            }
        }
        return pairs
    }
}

extension CommonSubsequence {
    /// The index pairs of a longest common subsequence found by Myers'
    /// difference algorithm ("An O(ND) Difference Algorithm and Its
    /// Variations", 1986): time proportional to `(rows + columns) × D`,
    /// where D is the number of elements only one side has, and memory to
    /// `D²`, so long sequences with few changes cost little. `nil` when
    /// that work would pass `limit` steps (many changes): the caller then
    /// falls back to a bounded method.
    static func fewestEditsPairs(
        rows: Int, columns: Int, limit: Int, equal: (Int, Int) -> Bool
    ) -> [(Int, Int)]? {
        guard rows > 0, columns > 0 else { return [] }
        let most = rows + columns
        // furthest[offset + k]: the furthest row reached on diagonal k (row - column).
        let offset = most + 1
        var furthest = [Int](repeating: 0, count: 2 * most + 3)
        // trace[d]: the window -(d + 1)...(d + 1) of `furthest` before round d.
        var trace: [[Int]] = []
        var work = 0
        for d in 0...most {
            trace.append(Array(furthest[(offset - d - 1)...(offset + d + 1)]))
            work += d + 1
            for k in stride(from: -d, through: d, by: 2) {
                var row =
                    k == -d || (k != d && furthest[offset + k - 1] < furthest[offset + k + 1])
                    ? furthest[offset + k + 1] : furthest[offset + k - 1] + 1
                var column = row - k
                while row < rows, column < columns, equal(row, column) {
                    row += 1
                    column += 1
                    work += 1
                }
                furthest[offset + k] = row
                if row >= rows, column >= columns { return backtrack(trace, rows: rows, columns: columns) }
            }
            if work > limit { return nil }
        }
        return nil
    }

    /// The diagonal runs of the path that `trace` records, from the end back.
    private static func backtrack(_ trace: [[Int]], rows: Int, columns: Int) -> [(Int, Int)] {
        var pairs: [(Int, Int)] = []
        var row = rows
        var column = columns
        for d in stride(from: trace.count - 1, through: 0, by: -1) {
            let window = trace[d]
            // window[d + 1 + k] is diagonal k's furthest row before round d.
            func furthest(_ k: Int) -> Int { window[d + 1 + k] }
            let k = row - column
            let previousK = k == -d || (k != d && furthest(k - 1) < furthest(k + 1)) ? k + 1 : k - 1
            let previousRow = d == 0 ? 0 : furthest(previousK)
            let previousColumn = d == 0 ? 0 : previousRow - previousK
            while row > previousRow, column > previousColumn {
                row -= 1
                column -= 1
                pairs.append((row, column))
            }
            if d > 0 {
                row = previousRow
                column = previousColumn
            }
        }
        return pairs.reversed()
    }
}
