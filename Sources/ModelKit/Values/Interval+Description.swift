extension Interval.Unit {
    /// The full name for an amount: `"hour"` for exactly one, otherwise `"hours"`.
    func name(plural: Bool) -> String {
        plural ? rawValue : String(rawValue.dropLast())
    }

    /// The abbreviated name for an amount: `"hr"` for exactly one, otherwise `"hrs"`.
    func briefName(plural: Bool) -> String {
        let singular =
            switch self {
            case .seconds: "sec"
            case .minutes: "min"
            case .hours: "hr"
            case .days: "day"
            case .weeks: "wk"
            case .months: "mth"
            case .quarters: "qtr"
            case .years: "yr"
            }
        return plural ? singular + "s" : singular
    }
}

extension Interval: CustomStringConvertible, LosslessStringConvertible {
    /// The interval in words: `5 minutes`, `1 hour`, `1.5 days`, `2–4 hours`
    /// (with an en dash), `never` or `forever`.
    ///
    /// The unit is singular only for an amount of exactly one. ``init(_:)-(String)``
    /// reads the text back.
    ///
    /// ```swift
    /// print(Interval(1, .hours).description)       // 1 hour
    /// print(Interval(2...4, .hours).description)   // 2–4 hours
    /// ```
    public var description: String {
        text { unit, plural in unit.name(plural: plural) }
    }

    /// The interval with abbreviated units: `5 mins`, `1 hr`, `1 wk`,
    /// `2–4 hrs`, `3 mths`, `1 qtr`, `2 yrs`, `30 secs`; `never` and
    /// `forever` are unchanged.
    ///
    /// ```swift
    /// print(Interval(3, .months).briefDescription)   // 3 mths
    /// ```
    public var briefDescription: String {
        text { unit, plural in unit.briefName(plural: plural) }
    }

    private func text(naming name: (Unit, Bool) -> String) -> String {
        switch storage {
        case .never: return "never"
        case .forever: return "forever"
        case .amounts(let lower, let upper, let unit):
            if lower == upper {
                return Interval.amountText(lower) + " " + name(unit, lower != 1)
            }
            return Interval.amountText(lower) + "–" + Interval.amountText(upper) + " " + name(unit, true)
        }
    }

    /// An amount as people write it: `5`, `1.5`, `0.25`; whole numbers without
    /// a fraction, others in the shortest form that reads back exactly.
    static func amountText(_ amount: Double) -> String {
        if amount == amount.rounded(), abs(amount) < 1.0e15 {
            return String(Int64(amount))
        }
        return "\(amount)"
    }
}
