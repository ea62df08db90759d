/// Counting the elements of an array ahead of reading them, so that a long
/// array is built at its final size (see `beginLargeArray()`).
extension JSONReader {
    /// The number of elements of the open array from `start` (just after a
    /// comma between two of its elements) to its closing bracket.
    ///
    /// Only brackets, braces, commas and quotes matter: the scan steps over
    /// strings (and their escaped quotes) and counts the commas outside
    /// nested containers, sixteen bytes at a time. It checks nothing, so on
    /// malformed input the count may be wrong, which only makes the array's
    /// capacity wrong: the read that follows finds the fault.
    func remainingElements(from start: Int) -> Int {
        var index = start
        var depth = 0
        var elements = 1
        let comma = SIMD16<UInt8>(repeating: JSONByte.comma)
        let quote = SIMD16<UInt8>(repeating: JSONByte.quote)
        // `[` and `{` differ only in bit 0x20, as do `]` and `}`.
        let caseBit = SIMD16<UInt8>(repeating: 0x20)
        let open = SIMD16<UInt8>(repeating: JSONByte.openBrace)
        let close = SIMD16<UInt8>(repeating: JSONByte.closeBrace)
        blocks: while index + 16 <= count {
            let chunk = UnsafeRawPointer(base + index).loadUnaligned(as: SIMD16<UInt8>.self)
            let folded = chunk | caseBit
            let hits = (chunk .== comma) .| (chunk .== quote) .| (folded .== open) .| (folded .== close)
            for half in 0..<2 {
                var lanes = JSONByte.lanes(of: hits, half: half)
                while lanes != 0 {
                    let offset = index &+ half &* 8 &+ lanes.trailingZeroBitCount >> 3
                    lanes &= lanes &- 1
                    switch base[offset] {
                    case JSONByte.comma:
                        if depth == 0 { elements &+= 1 }
                    case JSONByte.quote:
                        index = stringEnd(after: offset)
                        continue blocks
                    case JSONByte.openBracket, JSONByte.openBrace:
                        depth &+= 1
                    default:
                        if depth == 0 { return elements }
                        depth &-= 1
                    }
                }
            }
            index &+= 16
        }
        while index < count {
            switch base[index] {
            case JSONByte.comma:
                if depth == 0 { elements += 1 }
            case JSONByte.quote:
                index = stringEnd(after: index)
                continue
            case JSONByte.openBracket, JSONByte.openBrace:
                depth += 1
            case JSONByte.closeBracket, JSONByte.closeBrace:
                if depth == 0 { return elements }
                depth -= 1
            default:
                break
            }
            index += 1
        }
        return elements
    }

    /// The index after the quote that closes the string whose opening quote
    /// is at `quoteIndex`, stepping over escapes; `count` if there is none.
    private func stringEnd(after quoteIndex: Int) -> Int {
        var index = quoteIndex + 1
        var highBits: UInt8 = 0
        while true {
            index = skipPlainText(from: index, highBits: &highBits)
            guard index < count else { return count }
            switch base[index] {
            case JSONByte.quote: return index + 1
            case JSONByte.backslash: index += 2
            default: index += 1
            }
        }
    }
}
