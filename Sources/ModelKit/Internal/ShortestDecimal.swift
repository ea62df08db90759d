/// The shortest decimal that reads back as a given `Double`, and of those
/// the closest to it: `digits × 10^exponent`.
///
/// The JSON writer spends most of its time on documents full of numbers
/// (canada.json: 111,000 of them) in this conversion, and the standard
/// library's (`Double.description`) costs about 480 instructions a number
/// on Linux, where its 128-bit arithmetic is calls; this, about 180. This is Ulf
/// Adams's Ryū method (PLDI 2018): the bounds of the interval of decimals
/// that round to the value are computed at a power of ten chosen so that
/// the shortest one is found by removing digits, with one 64 × 128-bit
/// multiplication each, by a power of five from
/// `ShortestDecimal+Powers.swift` (generated exactly by
/// `Scripts/generate-decimal-powers.py`). The digits are the same as the
/// standard library's (a test compares them on random and edge values).
struct ShortestDecimal {
    /// The decimal digits, as an integer of at most 17 digits.
    var digits: UInt64
    /// The power of ten that `digits` is multiplied by.
    var exponent: Int

    /// The shortest decimal of `value`'s magnitude; `value` is finite and not zero.
    @inline(__always)
    init(_ value: Double) {
        let bits = value.bitPattern
        let fraction = bits & ((1 << 52) &- 1)
        let biased = Int(truncatingIfNeeded: (bits >> 52) & 0x7FF)
        // The value is m2 × 2^e2, where the two extra powers of two leave
        // room for the interval's bounds (halfway to the neighbours) as
        // integers: 4·m2 − 1 or − 2 below, 4·m2 + 2 above.
        let m2: UInt64
        let e2: Int
        if biased == 0 {
            m2 = fraction
            e2 = 1 &- 1023 &- 52 &- 2
        } else {
            m2 = fraction | (1 << 52)
            e2 = biased &- 1023 &- 52 &- 2
        }
        // Round-half-even reading: an even significand owns its bounds.
        let acceptBounds = m2 & 1 == 0
        let mv = m2 &* 4
        // A power of two has a nearer neighbour below: its lower bound is
        // a quarter step away instead of a half.
        let lowerShift: UInt64 = fraction != 0 || biased <= 1 ? 1 : 0
        let mm = mv &- 1 &- lowerShift
        let mp = mv &+ 2

        var vr: UInt64
        var vp: UInt64
        var vm: UInt64
        let e10: Int
        var vmIsTrailingZeros = false
        var vrIsTrailingZeros = false
        if e2 >= 0 {
            // Divide by 10^q: multiply by 2^k / 5^q and shift.
            let q = Self.log10Pow2(e2) &- (e2 > 3 ? 1 : 0)
            e10 = q
            let k = Self.bitCount &+ Self.pow5Bits(q) &- 1
            let shift = q &- e2 &+ k
            (vr, vp, vm) = Self.scale(mv, mp, mm, by: Self.inversePowers, at: q, shift: shift)
            // Whether a bound or the value is exact at this scale: only
            // possible while 5^q is no more than 4·m2 + 2 < 2^55.
            if q <= 23 {
                if mv % 5 == 0 {
                    vrIsTrailingZeros = Self.isMultipleOfPowerOf5(mv, q)
                } else if acceptBounds {
                    vmIsTrailingZeros = Self.isMultipleOfPowerOf5(mm, q)
                } else if Self.isMultipleOfPowerOf5(mp, q) {
                    vp &-= 1
                }
            }
        } else {
            // Multiply by 10^-e10 = 5^i · 2^(−q − e2): by 5^i, then shift.
            let q = Self.log10Pow5(-e2) &- (-e2 > 1 ? 1 : 0)
            e10 = q &+ e2
            let i = -e2 &- q
            let k = Self.pow5Bits(i) &- Self.bitCount
            let shift = q &- k
            (vr, vp, vm) = Self.scale(mv, mp, mm, by: Self.powers, at: i, shift: shift)
            if q <= 1 {
                // The products are mv × 5^i / 2^q with mv a multiple of 4.
                vrIsTrailingZeros = true
                if acceptBounds {
                    vmIsTrailingZeros = lowerShift == 1
                } else {
                    vp &-= 1
                }
            } else if q < 63 {
                vrIsTrailingZeros = mv & ((1 << UInt64(q)) &- 1) == 0
            }
        }

        // Remove digits while the bounds still differ above them.
        var removed = 0
        var output: UInt64
        if vmIsTrailingZeros || vrIsTrailingZeros {
            // Rare: a bound or the value is exact, so ties matter.
            var lastRemovedDigit: UInt64 = 0
            while vp / 10 > vm / 10 {
                vmIsTrailingZeros = vmIsTrailingZeros && vm % 10 == 0
                vrIsTrailingZeros = vrIsTrailingZeros && lastRemovedDigit == 0
                lastRemovedDigit = vr % 10
                vr /= 10
                vp /= 10
                vm /= 10
                removed &+= 1
            }
            if vmIsTrailingZeros {
                while vm % 10 == 0 {
                    vrIsTrailingZeros = vrIsTrailingZeros && lastRemovedDigit == 0
                    lastRemovedDigit = vr % 10
                    vr /= 10
                    vp /= 10
                    vm /= 10
                    removed &+= 1
                }
            }
            if vrIsTrailingZeros && lastRemovedDigit == 5 && vr % 2 == 0 {
                // Exactly halfway: round to even.
                lastRemovedDigit = 4
            }
            let roundUp = (vr == vm && (!acceptBounds || !vmIsTrailingZeros)) || lastRemovedDigit >= 5
            output = vr &+ (roundUp ? 1 : 0)
        } else {
            // Common: no ties; two digits at a time first.
            var roundUp = false
            if vp / 100 > vm / 100 {
                roundUp = vr % 100 >= 50
                vr /= 100
                vp /= 100
                vm /= 100
                removed &+= 2
            }
            while vp / 10 > vm / 10 {
                roundUp = vr % 10 >= 5
                vr /= 10
                vp /= 10
                vm /= 10
                removed &+= 1
            }
            output = vr &+ (vr == vm || roundUp ? 1 : 0)
        }
        digits = output
        exponent = e10 &+ removed
    }

    /// Bits kept of each power of five (and of each inverse).
    static let bitCount = 125

    /// ⌈log2(5^e)⌉ (1 for e = 0), for 0 ≤ e ≤ 3528.
    @inline(__always)
    static func pow5Bits(_ e: Int) -> Int { ((e &* 1_217_359) >> 19) &+ 1 }

    /// ⌊log10(2^e)⌋, for 0 ≤ e ≤ 1650.
    @inline(__always)
    static func log10Pow2(_ e: Int) -> Int { (e &* 78913) >> 18 }

    /// ⌊log10(5^e)⌋, for 0 ≤ e ≤ 2620.
    @inline(__always)
    static func log10Pow5(_ e: Int) -> Int { (e &* 732_923) >> 20 }

    /// Whether `value` (not zero) is a multiple of 5^power.
    @inline(__always)
    static func isMultipleOfPowerOf5(_ value: UInt64, _ power: Int) -> Bool {
        var value = value
        var count = 0
        while value % 5 == 0 {
            value /= 5
            count &+= 1
        }
        return count >= power
    }

    /// The value and its bounds, each times the 128-bit entry `index` of
    /// `table` and shifted right by `shift`.
    @inline(__always)
    static func scale(
        _ value: UInt64, _ upper: UInt64, _ lower: UInt64, by table: [UInt64], at index: Int, shift: Int
    ) -> (UInt64, UInt64, UInt64) {
        table.withUnsafeBufferPointer { table in
            let low = table[index &* 2]
            let high = table[index &* 2 &+ 1]
            return (
                multiplyShift(value, low, high, shift),
                multiplyShift(upper, low, high, shift),
                multiplyShift(lower, low, high, shift)
            )
        }
    }

    /// ⌊m × (high·2^64 + low) / 2^shift⌋, for 64 < shift < 128 and a
    /// product whose bits above `shift` fit in 64.
    @inline(__always)
    static func multiplyShift(_ m: UInt64, _ low: UInt64, _ high: UInt64, _ shift: Int) -> UInt64 {
        let carried = m.multipliedFullWidth(by: low).high
        let (upper, lower) = m.multipliedFullWidth(by: high)
        let (sum, overflow) = lower.addingReportingOverflow(carried)
        let top = upper &+ (overflow ? 1 : 0)
        let s = UInt64(truncatingIfNeeded: shift &- 64)
        return (top &<< (64 &- s)) | (sum &>> s)
    }
}
