/// Numbers: the RFC 8259 grammar, integers, and correctly rounded doubles.
extension JSONReader {
    /// Reads the number at `position`.
    ///
    /// Integer literals become ``ModelValue/int(_:)`` when they fit `Int`
    /// (`-0` included, as 0) and ``ModelValue/bigInteger(_:)`` with their
    /// exact digits otherwise. A literal with a fraction or an exponent becomes
    /// the nearest ``ModelValue/double(_:)``; one beyond `Double`'s range is
    /// refused rather than read as infinity.
    mutating func readNumber() throws(ModelError) -> ModelValue {
        let start = position
        var index = position
        let isNegative = base[index] == JSONByte.minus
        if isNegative { index += 1 }

        // Integer part: '0' alone, or a non-zero digit and more digits.
        guard index < count, isDigit(base[index]) else {
            throw error("expected a digit after '-'", at: index, includingCurrentMember: true)
        }
        let integerStart = index
        if base[index] == JSONByte.zero {
            index += 1
            if index < count, isDigit(base[index]) {
                throw error("expected no leading zero in a number", at: index - 1, includingCurrentMember: true)
            }
        } else {
            index = skipDigits(from: index + 1)
        }
        let integerEnd = index

        var fractionStart = index
        var fractionEnd = index
        var isInteger = true
        if index < count, base[index] == JSONByte.period {
            isInteger = false
            index += 1
            guard index < count, isDigit(base[index]) else {
                throw error("expected a digit after '.'", at: index, includingCurrentMember: true)
            }
            fractionStart = index
            index = skipDigits(from: index + 1)
            fractionEnd = index
        }
        var exponent = 0
        if index < count, base[index] | 0x20 == JSONByte.lowerE {
            isInteger = false
            index += 1
            var isExponentNegative = false
            if index < count, base[index] == JSONByte.minus || base[index] == JSONByte.plus {
                isExponentNegative = base[index] == JSONByte.minus
                index += 1
            }
            guard index < count, isDigit(base[index]) else {
                throw error("expected a digit in the exponent", at: index, includingCurrentMember: true)
            }
            while index < count, isDigit(base[index]) {
                // Saturate: anything this large overflows or underflows any Double anyway.
                if exponent < 1_000_000 { exponent = exponent * 10 + Int(base[index] &- JSONByte.zero) }
                index += 1
            }
            if isExponentNegative { exponent = -exponent }
        }
        position = index

        // The significant digits, as one integer when at most 19 of them.
        var digitStart = integerStart
        var integerDigits = integerEnd - integerStart
        var fractionDigits = fractionEnd - fractionStart
        if integerDigits + fractionDigits > 19, base[integerStart] == JSONByte.zero {
            // 0.000ddd: the zeros after the point are not significant.
            integerDigits = 0
            digitStart = fractionStart
            while fractionDigits > 0, base[digitStart] == JSONByte.zero {
                digitStart += 1
                fractionDigits -= 1
                exponent -= 1
            }
        }
        let significantDigits = integerDigits + fractionDigits
        var mantissa: UInt64 = 0
        if significantDigits <= 19 {
            // (Static, given the bytes: a method would copy the reader for each call from this mutating one.)
            mantissa = JSONReader.accumulateDigits(base, end: count, from: digitStart, count: integerDigits, into: 0)
            mantissa = JSONReader.accumulateDigits(
                base, end: count, from: fractionEnd - fractionDigits, count: fractionDigits, into: mantissa)
            exponent -= fractionDigits
        }

        if isInteger {
            if significantDigits <= 19 {
                if isNegative {
                    if mantissa <= UInt64(Int.max) + 1 { return .int(Int(truncatingIfNeeded: 0 &- mantissa)) }
                } else if mantissa <= UInt64(Int.max) {
                    return .int(Int(mantissa))
                }
            }
            return .bigInteger(
                String(decoding: UnsafeBufferPointer(start: base + start, count: integerEnd - start), as: UTF8.self))
        }
        if significantDigits <= 19, let value = JSONReader.exactDouble(mantissa: mantissa, exponent: exponent) {
            return .double(isNegative ? -value : value)
        }
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: index - start), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            var failure = ModelError.malformed(
                "JSON", "number \(text) is too large for a Double", at: location(of: start),
                keyPath: keyPath(includingCurrentMember: true))
            failure.code = .numberOutOfRange
            throw failure
        }
        return .double(value)
    }

    /// Reads an integer of at most 18 digits with no fraction or exponent
    /// (every such number fits an `Int`), the common case of a slot declared
    /// `Int`, and moves past it; anything else, a malformed number included,
    /// returns `nil` with the position unchanged, for ``readNumber()`` to
    /// read or refuse. What it returns is what `readNumber()` gives as `.int`.
    @inline(__always)
    mutating func readSmallInteger() -> Int? {
        guard let (value, end) = JSONReader.smallInteger(base, count: count, at: position) else { return nil }
        position = end
        return value
    }

    /// ``readSmallInteger()`` on the `count` bytes at `base`, from `index`:
    /// the value and the index after it. (Static, as the scanners are: a
    /// method would copy the reader when it is not inlined.)
    static func smallInteger(_ base: UnsafePointer<UInt8>, count: Int, at index: Int) -> (Int, Int)? {
        let isNegative = base[index] == JSONByte.minus
        let first = isNegative ? index &+ 1 : index
        let end = digitsEnd(base, count: count, from: first)
        let digits = end &- first
        // No digits, a leading zero before more digits, too many digits, or a
        // fraction or exponent next: the general reader's.
        guard digits > 0, digits <= 18, digits == 1 || base[first] != JSONByte.zero else { return nil }
        if end < count {
            let next = base[end]
            guard next != JSONByte.period, next | 0x20 != JSONByte.lowerE else { return nil }
        }
        let magnitude = Int(truncatingIfNeeded: accumulateDigits(base, end: count, from: first, count: digits, into: 0))
        return (isNegative ? 0 &- magnitude : magnitude, end)
    }

    @inline(__always)
    func isDigit(_ byte: UInt8) -> Bool { byte &- JSONByte.zero < 10 }

    /// The first index at or after `index` that does not hold a digit, or `count`.
    @inline(__always)
    func skipDigits(from index: Int) -> Int {
        JSONReader.digitsEnd(base, count: count, from: index)
    }

    /// ``skipDigits(from:)`` on the `count` bytes at `base`.
    @inline(__always)
    static func digitsEnd(_ base: UnsafePointer<UInt8>, count: Int, from index: Int) -> Int {
        var index = index
        // A word at a time, the last one too: numbers are followed by more text.
        while index + 8 <= count {
            let digits = leadingDigitCount(loadWord(base, at: index))
            index &+= digits
            if digits < 8 { return index }
        }
        while index < count, base[index] &- JSONByte.zero < 10 { index += 1 }
        return index
    }

    /// How many of the bytes of `word`, from the lowest, are ASCII digits
    /// before the first that is not (8 when all are).
    ///
    /// A byte is a digit when its high nibble is 3 and adding 6 keeps it so;
    /// the addition carries only out of a byte above
    /// 0xF9, which is not a digit, so only bytes after the first non-digit
    /// can be disturbed.
    @inline(__always)
    static func leadingDigitCount(_ word: UInt64) -> Int {
        let highNibbles: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
        let nibbles = (word & highNibbles) | (((word &+ 0x0606_0606_0606_0606) & highNibbles) >> 4)
        let misses = nibbles ^ 0x3333_3333_3333_3333
        // The high bit of each byte of `misses` that is not zero.
        let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let flags = (misses | ((misses & lows) &+ lows)) & ~lows
        return flags.trailingZeroBitCount >> 3
    }

    /// `value` followed by the `digitCount` decimal digits at `index` of
    /// the `end` bytes at `base`, which the caller has checked.
    @inline(__always)
    static func accumulateDigits(
        _ base: UnsafePointer<UInt8>, end: Int, from index: Int, count digitCount: Int, into value: UInt64
    ) -> UInt64 {
        var value = value
        var index = index
        var remaining = digitCount
        while remaining >= 8 {
            value = value &* 100_000_000 &+ eightDigitsValue(loadWord(base, at: index))
            index &+= 8
            remaining &-= 8
        }
        guard remaining > 0 else { return value }
        if index + 8 <= end {
            // The last 1 to 7 digits in one go: shifted to the top of the
            // word, the bytes below them read as leading zeros.
            let word = loadWord(base, at: index) << UInt64(8 &* (8 &- remaining))
            return value &* powerOfTen(remaining) &+ eightDigitsValue(word)
        }
        while remaining > 0 {
            value = value &* 10 &+ UInt64(base[index] &- JSONByte.zero)
            index &+= 1
            remaining &-= 1
        }
        return value
    }

    @inline(__always)
    private func loadWord(at index: Int) -> UInt64 {
        JSONReader.loadWord(base, at: index)
    }

    @inline(__always)
    private static func loadWord(_ base: UnsafePointer<UInt8>, at index: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
    }

    /// 10^`exponent` for 0 through 7.
    @inline(__always)
    static func powerOfTen(_ exponent: Int) -> UInt64 {
        switch exponent {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1000
        case 4: 10000
        case 5: 100_000
        case 6: 1_000_000
        default: 10_000_000
        }
    }

    /// The value of eight ASCII digits loaded little-endian (the first digit
    /// in the lowest byte): pairs, then quads, then the whole, combined by
    /// multiplication.
    @inline(__always)
    static func eightDigitsValue(_ word: UInt64) -> UInt64 {
        var value = word & 0x0F0F_0F0F_0F0F_0F0F
        value = (value &* (10 << 8 + 1)) >> 8 & 0x00FF_00FF_00FF_00FF
        value = (value &* (100 << 16 + 1)) >> 16 & 0x0000_FFFF_0000_FFFF
        value = (value &* (10_000 << 32 + 1)) >> 32
        return value
    }

    /// `mantissa × 10^exponent` correctly rounded, when a quick exact method
    /// applies; `nil` sends the caller to the general conversion.
    static func exactDouble(mantissa: UInt64, exponent: Int) -> Double? {
        if mantissa == 0 { return 0 }
        // Both factors exact in Double, so one IEEE operation rounds once (Clinger's fast path).
        if mantissa <= 1 << 53, exponent >= -22, exponent <= 22 {
            let value = Double(mantissa)
            return exponent < 0 ? value / powersOfTen[-exponent] : value * powersOfTen[exponent]
        }
        #if arch(x86_64) && !os(Windows) && !MODELKIT_APPLE_PATHS
            // (Apple devices are arm64, without Float80: a build with
            // `-D MODELKIT_APPLE_PATHS` leaves this out, so CI reads numbers
            // here as they are read there.)
            // Float80 holds any UInt64 and 10^k up to k = 27 exactly, so the
            // operation below rounds once, to 64 bits. Rounding that again to
            // 53 bits is correct unless the 64-bit result sits exactly halfway
            // between two doubles, where the first rounding may have moved it
            // there; then fall back.
            if exponent >= -27, exponent <= 27 {
                let power = powersOfTenExtended[exponent < 0 ? -exponent : exponent]
                let value = exponent < 0 ? Float80(mantissa) / power : Float80(mantissa) * power
                guard value.isNormal, value.significandBitPattern & 0x7FF != 0x400 else { return nil }
                return Double(value)
            }
        #endif
        return nil
    }

    /// 10^0 through 10^22, exact in `Double` because 5^22 < 2^53.
    /// (Literals, so that the array is built at compile time and reading it
    /// needs no check that it was initialised.)
    static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
        1e19, 1e20, 1e21, 1e22,
    ]

    #if arch(x86_64) && !os(Windows) && !MODELKIT_APPLE_PATHS
        /// 10^0 through 10^27, exact in `Float80` because 5^27 < 2^64.
        static let powersOfTenExtended: [Float80] = [
            1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17,
            1e18, 1e19, 1e20, 1e21, 1e22, 1e23, 1e24, 1e25, 1e26, 1e27,
        ]
    #endif
}
