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
