extension ModelValue {
    /// Frees this value, leaving `.null`, without a call per level of
    /// nesting.
    ///
    /// Swift frees a nested value by recursion: one `.array` or `.object`
    /// level costs a few frames, and a value thousands of levels deep (a long
    /// chain of models read or written past the direct paths' depth) needs
    /// more stack than a secondary thread has (512 KiB on Apple platforms),
    /// far more in a debug build. Here the children of each container are
    /// moved to a list before the container goes, so that freeing it frees
    /// nothing below it; the list is then emptied the same way.
    mutating func releaseWithoutRecursion() {
        var pending: [ModelValue] = [self]
        self = .null
        while let next = pending.popLast() {
            switch next {
            case .array(let elements): pending.append(contentsOf: elements)
            case .object(let object): pending.append(contentsOf: object.values)
            default: break
            }
        }
    }
}
