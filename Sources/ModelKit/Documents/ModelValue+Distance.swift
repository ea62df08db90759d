import Foundation

extension ModelValue {
    /// How many leaves differ between this value and `other`: objects are
    /// walked key by key and arrays by position, and every leaf that one
    /// side adds, removes or changes counts once. A leaf is a scalar, or an
    /// empty array or object where the other side has no container of its
    /// kind (`{}` filled with one member is one difference); a leaf
    /// replaced by a container counts the leaf and the container's leaves.
    ///
    /// ```swift
    /// let base: ModelValue = ["title": "Milk", "tags": ["a"]]
    /// let copy: ModelValue = ["title": "Oat milk", "tags": ["a", "b"], "done": true]
    /// print(base.leafDistance(to: copy))   // 3: one changed, two added
    /// ```
    ///
    /// Counting stops as soon as it passes `limit`, so finding the closest
    /// of several values costs little more than reading the closest: a
    /// result above `limit` means only "farther than `limit`". Strings and
    /// keys compare by Unicode scalars, as `==` does; values of any depth are
    /// walked without running out of stack.
    /// - Parameter limit: the distance past which counting stops.
    /// - Returns: the distance, or a number above `limit`.
    func leafDistance(to other: ModelValue, limit: Int = .max) -> Int {
        var count = 0
        addDistance(to: other, into: &count, limit: limit, depth: 0)
        return count
    }

    /// Adds the distance to `other` to `count`, stopping once it passes `limit`.
    private func addDistance(to other: ModelValue, into count: inout Int, limit: Int, depth: Int) {
        switch (self, other) {
        case (.object(let mine), .object(let theirs)):
            StackGuard.descending(depth) {
                for (key, value) in mine {
                    if count > limit { return }
                    if let match = theirs[key] {
                        value.addDistance(to: match, into: &count, limit: limit, depth: depth + 1)
                    } else {
                        value.addLeaves(into: &count, limit: limit, depth: depth + 1)
                    }
                }
                for (key, value) in theirs where mine[key] == nil {
                    if count > limit { return }
                    value.addLeaves(into: &count, limit: limit, depth: depth + 1)
                }
            }
        case (.array(let mine), .array(let theirs)):
            StackGuard.descending(depth) {
                let common = Swift.min(mine.count, theirs.count)
                for index in 0..<common {
                    if count > limit { return }
                    mine[index].addDistance(to: theirs[index], into: &count, limit: limit, depth: depth + 1)
                }
                for extra in mine[common...] + theirs[common...] {
                    if count > limit { return }
                    extra.addLeaves(into: &count, limit: limit, depth: depth + 1)
                }
            }
        default:
            if isLeaf && other.isLeaf {
                if !isEqual(to: other, depth: depth) { count += 1 }
            } else {
                addLeaves(into: &count, limit: limit, depth: depth)
                other.addLeaves(into: &count, limit: limit, depth: depth)
            }
        }
    }

    /// A scalar, or an empty array or object.
    private var isLeaf: Bool {
        switch self {
        case .array(let elements): elements.isEmpty
        case .object(let members): members.isEmpty
        default: true
        }
    }

    /// Adds the number of leaves in this value to `count`, stopping once it passes `limit`.
    private func addLeaves(into count: inout Int, limit: Int, depth: Int) {
        if isLeaf {
            count += 1
            return
        }
        StackGuard.descending(depth) {
            switch self {
            case .array(let elements):
                for element in elements {
                    if count > limit { return }
                    element.addLeaves(into: &count, limit: limit, depth: depth + 1)
                }
            case .object(let members):
                for (_, value) in members {
                    if count > limit { return }
                    value.addLeaves(into: &count, limit: limit, depth: depth + 1)
                }
            default:
                break
            }
        }
    }
}
