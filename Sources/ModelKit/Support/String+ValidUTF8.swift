#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension String {
    /// The string of `bytes` if they are well-formed UTF-8, `nil` if not:
    /// what `String(validating:as:)` gives, for less.
    ///
    /// `String(validating:as:)` reaches generic code in the standard
    /// library that looks up two type metadata on every call (about 320
    /// instructions, more than validating a short string costs), while
    /// `String(decoding:as:)` is specialised for UTF-8 but repairs
    /// ill-formed bytes instead of failing. Repairing always changes the
    /// bytes (a well-formed result cannot equal ill-formed input), so the
    /// decoded string is the answer exactly when its bytes are the input's.
    @inline(__always)
    init?(validUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        let decoded = String(decoding: bytes, as: UTF8.self)
        guard decoded.utf8.count == bytes.count else { return nil }
        guard let input = bytes.baseAddress else {
            self = decoded
            return
        }
        let same = decoded.utf8.withContiguousStorageIfAvailable { utf8 in
            memcmp(utf8.baseAddress!, input, bytes.count) == 0
        }
        guard same ?? decoded.utf8.elementsEqual(bytes) else { return nil }
        self = decoded
    }
}
