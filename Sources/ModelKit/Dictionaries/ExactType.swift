/// Takes a value out of an `Any` when its dynamic type is exactly the one
/// wanted, without a dynamic cast.
///
/// `value as! T` goes through the runtime's general cast (`swift_dynamicCast`),
/// which considers bridging, optionals, existentials and class hierarchies:
/// several hundred instructions even when the type matches exactly. Opening
/// the existential and comparing metatypes settles the common case (a value
/// decoded for a slot of exactly its type) with a comparison and a copy; a
/// subclass instance, an optional to wrap or any other near match is left
/// to the caller, which falls back to the cast. Nothing here asks for the
/// metadata of a new type (such as `Optional<T>` in generic code), which
/// costs more than the cast.
enum ExactType {
    /// `value` as a `T`, when its dynamic type is `T` itself; otherwise `nil`.
    /// For concrete `T`; generic code uses `initialize` and `assign`.
    @inline(__always)
    static func value<T>(_ value: Any, as _: T.Type) -> T? {
        open(value, as: T.self)
    }

    @inline(__always)
    private static func open<U, T>(_ value: U, as _: T.Type) -> T? {
        guard U.self == T.self else { return nil }
        return unsafeBitCast(value, to: T.self)
    }

    /// Starts the life of `value` in the uninitialised cell at `cell` as a
    /// `T`, when its dynamic type is exactly `T`.
    /// - Returns: whether it did.
    @inline(__always)
    static func initialize<T>(_ cell: UnsafeMutableRawPointer, as _: T.Type, from value: Any) -> Bool {
        func opened<U>(_ value: U) -> Bool {
            guard U.self == T.self else { return false }
            SlotCell.initialize(cell, to: value)
            return true
        }
        return opened(value)
    }

    /// Replaces the `T` in the initialised cell at `cell` with `value`, when
    /// its dynamic type is exactly `T`.
    /// - Returns: whether it did.
    @inline(__always)
    static func assign<T>(_ cell: UnsafeMutableRawPointer, as _: T.Type, from value: Any) -> Bool {
        func opened<U>(_ value: U) -> Bool {
            guard U.self == T.self else { return false }
            SlotCell.pointer(cell, as: U.self).pointee = value
            return true
        }
        return opened(value)
    }
}
