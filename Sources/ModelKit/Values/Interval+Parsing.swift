extension Interval {
    /// Reads an interval from text, or gives `nil` if the text is not one.
    ///
    /// Accepts what ``description`` and ``briefDescription`` write: an amount
    /// or a range of two amounts joined by `-` or `–`, then a unit, full or
    /// abbreviated, singular or plural; or `never` or `forever`. Case and the
    /// spaces around the parts do not matter. Amounts are decimal numbers of
    /// zero or more; a range whose lower amount is greater than its upper one
    /// is rejected.
    ///
    /// ```swift
    /// print(Interval("5 Minutes") == Interval(5, .minutes))   // true
    /// print(Interval("2-4 hrs") == Interval(2...4, .hours))   // true
    /// print(Interval("1 hours") == Interval(1, .hours))       // true
    /// print(Interval("4–2 hours") as Any)                     // nil
    /// ```
    ///
    /// - Parameter text: the text to read.
    public init?(_ text: String) {
        var scanner = Scanner(text.lowercased())
        scanner.skipSpaces()
        switch scanner.rest.trimmingTrailingSpaces {
        case "never":
            self = .never
            return
        case "forever":
            self = .forever
            return
        default:
            break
        }
        guard let lower = scanner.amount() else { return nil }
        scanner.skipSpaces()
        var upper = lower
        if scanner.take("-") || scanner.take("–") {
            scanner.skipSpaces()
            guard let parsed = scanner.amount() else { return nil }
            upper = parsed
            scanner.skipSpaces()
        }
        guard let unit = Unit(name: scanner.rest.trimmingTrailingSpaces), lower <= upper else { return nil }
        self.init(lower...upper, unit)
    }
}

extension Interval.Unit {
    /// The unit with a full or abbreviated name, singular or plural, in lower case.
    init?(name: Substring) {
        for unit in Interval.Unit.allCases
        where name == unit.name(plural: true) || name == unit.name(plural: false)
            || name == unit.briefName(plural: true) || name == unit.briefName(plural: false)
        {
            self = unit
            return
        }
        return nil
    }
}

/// Reads an interval's text from left to right.
private struct Scanner {
    var rest: Substring

    init(_ text: String) { rest = Substring(text) }

    mutating func skipSpaces() {
        rest = rest.drop { $0 == " " || $0 == "\t" }
    }

    mutating func take(_ character: Character) -> Bool {
        guard rest.first == character else { return false }
        rest = rest.dropFirst()
        return true
    }

    /// A decimal amount of zero or more: digits, an optional fraction and an
    /// optional exponent (`1e-05`, as Swift writes small amounts).
    mutating func amount() -> Double? {
        let digits = { (character: Character) in character.isASCII && character.isNumber }
        var end = rest.startIndex
        func skipDigits() -> Int {
            var count = 0
            while end < rest.endIndex, digits(rest[end]) {
                end = rest.index(after: end)
                count += 1
            }
            return count
        }
        var count = skipDigits()
        if end < rest.endIndex, rest[end] == "." {
            end = rest.index(after: end)
            count += skipDigits()
        }
        guard count > 0 else { return nil }
        if end < rest.endIndex, rest[end] == "e" {
            var exponentEnd = rest.index(after: end)
            if exponentEnd < rest.endIndex, rest[exponentEnd] == "+" || rest[exponentEnd] == "-" {
                exponentEnd = rest.index(after: exponentEnd)
            }
            let save = end
            end = exponentEnd
            if skipDigits() == 0 { end = save }
        }
        guard let value = Double(rest[..<end]), value.isFinite else { return nil }
        rest = rest[end...]
        return value
    }
}

extension Substring {
    fileprivate var trimmingTrailingSpaces: Substring {
        var text = self
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
