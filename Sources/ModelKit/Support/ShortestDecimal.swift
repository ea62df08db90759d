/// The shortest decimal that reads back as a given `Double`, and of those
/// the closest to it: `digits × 10^exponent`.
///
/// The JSON writer spends most of its time on documents full of numbers
/// (canada.json: 111,000 of them) in this conversion, and the standard
/// library's (`Double.description`) costs about 480 instructions a number
/// on Linux, where its 128-bit arithmetic is calls. This follows Raffaello
/// Giulietti's Schubfach method ("The Schubfach way to render doubles",
/// 2020): the value and the two bounds of the interval of decimals that
/// read back as it are scaled by one power of ten, chosen so that the
/// interval is between 1 and 10 units wide; then at most one multiple of
/// ten fits in it, and if none does, the closest of the two integers
/// around the value is the answer. Each scaling is two 64 × 64-bit
/// multiplications by a 126-bit power of ten from
/// `ShortestDecimal+Powers.swift` (generated exactly by
/// `Scripts/generate-decimal-powers.py`), rounded to odd so that
/// comparisons with whole numbers stay exact. No digit is removed in a
/// loop. The digits are the same as the standard library's (a test
/// compares them on random and edge values).
struct ShortestDecimal {
    /// The decimal digits, as an integer of at most 17 digits that does
    /// not end in zero.
    var digits: UInt64
    /// The power of ten that `digits` is multiplied by.
    var exponent: Int

    /// The shortest decimal of `value`'s magnitude; `value` is finite and not zero.
    @inline(__always)
    init(_ value: Double) {
        let bits = value.bitPattern
        let fraction = bits & ((1 << 52) &- 1)
        let biased = Int(truncatingIfNeeded: (bits >> 52) & 0x7FF)
        // The value is c × 2^q.
        let c: UInt64
        let q: Int
        if biased == 0 {
            c = fraction
            q = -1074
        } else {
            c = fraction | (1 << 52)
            q = biased &- 1075
        }
        // The interval's bounds, in quarters of 2^q: halfway to each
        // neighbour, except below a power of two (not the smallest),
        // whose neighbour below is half as far. An even c owns its bounds.
        let exclusive: UInt64 = c & 1
        let centre = c &<< 2
        let upper = centre &+ 2
        let lower: UInt64
        // The power of ten k: the interval's width times 10^-k is in [1, 10).
        let k: Int
        if fraction != 0 || biased <= 1 {
            lower = centre &- 2
            k = Self.floorLog10Pow2(q)
        } else {
            lower = centre &- 1
            k = Self.floorLog10ThreeQuartersPow2(q)
        }
        // Scaled by 10^-k, still in quarters: the shift makes the product's
        // top bits the scaled value, for the entry's power of two.
        let shift = UInt64(truncatingIfNeeded: q &+ Self.floorLog2Pow10(-k) &+ 2)
        let (scaled, scaledLower, scaledUpper) = Self.scaledPowers.withUnsafeBufferPointer { table in
            let index = (k &+ 324) &* 2
            let high = table[index]
            let low = table[index &+ 1]
            return (
                Self.multiplyRoundingToOdd(centre &<< shift, high, low),
                Self.multiplyRoundingToOdd(lower &<< shift, high, low),
                Self.multiplyRoundingToOdd(upper &<< shift, high, low)
            )
        }
        // Whether the whole number n (in units of 10^k), below the value,
        // is not below the interval; and n, above it, not above.
        @inline(__always) func clearsLower(_ n: UInt64) -> Bool { scaledLower &+ exclusive <= n &<< 2 }
        @inline(__always) func clearsUpper(_ n: UInt64) -> Bool { (n &<< 2) &+ exclusive <= scaledUpper }
        let floor = scaled >> 2
        // One digit fewer: the multiples of ten on either side.
        let tens = floor / 10
        let tenBelow = clearsLower(tens &* 10)
        let tenAbove = clearsUpper((tens &+ 1) &* 10)
        if tenBelow != tenAbove {
            // Only here can the digits end in zero: the integers below
            // and above are never multiples of ten when no multiple of ten
            // is inside (they would be one of the two just tried).
            var shorter = tenBelow ? tens : tens &+ 1
            var power = k &+ 1
            while shorter % 10 == 0 {
                shorter /= 10
                power &+= 1
            }
            digits = shorter
            exponent = power
            return
        }
        // All the digits: the integer below or above, whichever is inside,
        // or the closer if both are (the even one on a tie).
        let below = clearsLower(floor)
        let above = clearsUpper(floor &+ 1)
        exponent = k
        if below != above {
            digits = below ? floor : floor &+ 1
        } else {
            let middle = (floor &<< 2) &+ 2
            digits = scaled < middle || (scaled == middle && floor & 1 == 0) ? floor : floor &+ 1
        }
    }

    /// ⌊log10(2^q)⌋, for −1074 ≤ q ≤ 971 (checked for every q by a test).
    @inline(__always)
    static func floorLog10Pow2(_ q: Int) -> Int { (q &* 78913) >> 18 }

    /// ⌊log10(3/4 · 2^q)⌋, for −1074 ≤ q ≤ 971 (checked for every q by a test).
    @inline(__always)
    static func floorLog10ThreeQuartersPow2(_ q: Int) -> Int { (q &* 315_653 &- 130_708) >> 20 }

    /// ⌊log2(10^e)⌋, for −292 ≤ e ≤ 324 (checked for every e by a test).
    @inline(__always)
    static func floorLog2Pow10(_ e: Int) -> Int { (e &* 1_741_647) >> 19 }

    /// ⌊m × g / 2^127⌋ for the 126-bit g = high·2^64 + low, with its lowest
    /// bit set when the bits below (from 2^64 up) are not all zero: an odd
    /// result then means "strictly between two whole numbers", which keeps
    /// comparisons with whole numbers exact (`low`'s product's low word is
    /// left out: the table's rounding up is smaller than that word can carry).
    @inline(__always)
    static func multiplyRoundingToOdd(_ m: UInt64, _ high: UInt64, _ low: UInt64) -> UInt64 {
        let carried = m.multipliedFullWidth(by: low).high
        let (top, middle) = m.multipliedFullWidth(by: high)
        let (sum, overflow) = middle.addingReportingOverflow(carried)
        let whole = ((top &+ (overflow ? 1 : 0)) &<< 1) | (sum >> 63)
        return whole | (sum & ((1 << 63) &- 1) != 0 ? 1 : 0)
    }
}
