/// Integers read from a number's digits, whatever its spelling.
///
/// A number with a fraction or an exponent stands for an integer when its
/// value is integral: `1e2` is 100, `1.338910060664305e+19` is exactly
/// 13389100606643050000 and `-0.0` is 0. Rounding it to a `Double` first
/// would give 13389100606643050496 for the second, and the nearest `Double`
/// of `12345678901234567890.5` is an integer too. So the value is worked out
/// from the digits themselves: the significant digits with the trailing
/// zeros taken off, and a power of ten; no `Double` is involved.
extension JSONReader {
    /// The integer of type `Integer` that the number `text` stands for, or
    /// `nil` when its value is not integral or does not fit in `Integer`.
    ///
    /// ```swift
    /// // text                       Integer   result
    /// // 1.338910060664305e+19      UInt64    13389100606643050000
    /// // 1.5e2                      Int8      nil (150 does not fit)
    /// // 1.5                        Int       nil (not integral)
    /// // -9.223372036854775808e18   Int64     Int64.min
    /// ```
    ///
    /// - Parameter text: one number by RFC 8259's grammar (as the tape and
    ///   the reader have validated it), with nothing around it.
    static func exactInteger<Integer: FixedWidthInteger>(
        _: Integer.Type, number text: UnsafeBufferPointer<UInt8>
    ) -> Integer? {
        let count = text.count
        var index = 0
        let isNegative = count > 0 && text[0] == JSONByte.minus
        if isNegative { index = 1 }
        // The digits before the point, after it, and the exponent.
        let integerStart = index
        while index < count, text[index] &- JSONByte.zero < 10 { index += 1 }
        let integerEnd = index
        var fractionStart = index
        if index < count, text[index] == JSONByte.period {
            index += 1
            fractionStart = index
            while index < count, text[index] &- JSONByte.zero < 10 { index += 1 }
        }
        let fractionEnd = index
        var exponent = 0
        if index < count, text[index] | 0x20 == JSONByte.lowerE {
            index += 1
            var isExponentNegative = false
            if index < count, text[index] == JSONByte.minus || text[index] == JSONByte.plus {
                isExponentNegative = text[index] == JSONByte.minus
                index += 1
            }
            while index < count, text[index] &- JSONByte.zero < 10 {
                // Saturates: past this, no value is integral and fits anyway.
                if exponent < 1_000_000 { exponent = exponent &* 10 &+ Int(text[index] &- JSONByte.zero) }
                index += 1
            }
            if isExponentNegative { exponent = -exponent }
        }
        guard index == count, integerEnd > integerStart else { return nil }

        // The significant digits run over the integer part and the fraction,
        // as one sequence; the value is those digits times 10^power.
        let integerCount = integerEnd - integerStart
        let digitCount = integerCount + (fractionEnd - fractionStart)
        func digit(_ position: Int) -> UInt8 {
            position < integerCount
                ? text[integerStart + position] &- JSONByte.zero : text[fractionStart + position - integerCount] &- JSONByte.zero
        }
        var first = 0
        while first < digitCount, digit(first) == 0 { first += 1 }
        guard first < digitCount else { return 0 }  // zero, `-0.0e5` included
        var last = digitCount
        while digit(last - 1) == 0 { last -= 1 }
        // Each trailing zero taken off raises the power by one.
        let power = exponent - (fractionEnd - fractionStart) + (digitCount - last)
        // A negative power leaves a fraction; 40 digits exceed every 128-bit integer.
        guard power >= 0, last - first + power <= 40 else { return nil }

        var magnitude: Integer.Magnitude = 0
        for position in first..<last {
            let (times, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times.addingReportingOverflow(Integer.Magnitude(digit(position)))
            guard !overflow, !carry else { return nil }
            magnitude = sum
        }
        for _ in 0..<power {
            let (times, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            magnitude = times
        }
        guard isNegative else { return Integer(exactly: magnitude) }
        // -magnitude, which reaches Integer.min, whose magnitude is one more than max's.
        guard Integer.isSigned, let lessOne = Integer(exactly: magnitude - 1) else { return nil }
        return 0 - lessOne - 1
    }
}
