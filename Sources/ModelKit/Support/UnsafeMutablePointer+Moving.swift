extension UnsafeMutablePointer {
    /// A new buffer of `capacity` elements holding the `count` elements
    /// moved from this one, which is freed: how the hand-managed buffers of
    /// the readers and writers grow.
    func moved(count: Int, toCapacity capacity: Int) -> UnsafeMutablePointer<Pointee> {
        let new = UnsafeMutablePointer<Pointee>.allocate(capacity: capacity)
        new.moveInitialize(from: self, count: count)
        deallocate()
        return new
    }
}
