/// A length of time as an amount, or a range of amounts, in a unit:
/// "5 minutes", "2–4 hours"; or ``never`` or ``forever``.
///
/// An interval keeps the unit it was given, so it reads back the way a person
/// wrote it, and it converts to seconds, to a `Duration`, or to a date a
/// calendar-aware length of time from another.
///
/// ```swift
/// let snooze = Interval(5, .minutes)
/// print(snooze)                                  // 5 minutes
/// print(snooze.seconds)                          // 300.0
/// print(Interval(2...4, .hours).briefDescription)   // 2–4 hrs
/// print(Interval("1.5 hours")! < Interval(2, .hours))   // true
/// ```
///
/// Amounts are `Double`s of zero or more; a range's lower amount is no greater
/// than its upper one, and a range whose ends are equal is the single amount.
/// Literal amounts use the plain initialisers, which treat a negative amount
/// as a programming error; amounts that come from outside go through the
/// throwing ``init(validating:_:)`` and ``init(validatingFrom:to:_:)`` or the
/// failable ``init(_:)-(String)``, which reject them.
///
/// The saved form names the unit: `{"amount":5.0,"unit":"minutes"}`,
/// `{"from":2.0,"to":4.0,"unit":"hours"}`, `"never"` or `"forever"`; see
/// ``init(modelValue:)``.
public struct Interval: Sendable, Hashable {
    /// A unit of time. Its raw value, the plural name, is used in saved forms.
    public enum Unit: String, Sendable, Hashable, CaseIterable, Codable {
        /// The units: `quarters` are three months, `weeks` seven days.
        case seconds, minutes, hours, days, weeks, months, quarters, years

        /// The unit's fixed length in seconds. A month is a twelfth of a mean
        /// Gregorian year (365.2425 days), a quarter three months and a year
        /// twelve.
        ///
        /// ```swift
        /// print(Interval.Unit.months.seconds)   // 2629746.0
        /// ```
        public var seconds: Double {
            switch self {
            case .seconds: 1
            case .minutes: 60
            case .hours: 3_600
            case .days: 86_400
            case .weeks: 604_800
            case .months: 2_629_746
            case .quarters: 7_889_238
            case .years: 31_556_952
            }
        }
    }

    enum Storage: Sendable, Hashable {
        case never
        case amounts(lower: Double, upper: Double, unit: Unit)
        case forever
    }

    let storage: Storage

    private init(storage: Storage) { self.storage = storage }

    /// No interval: the thing it measures does not happen. Its length is zero.
    public static let never = Interval(storage: .never)

    /// An endless interval. Its length is infinite.
    public static let forever = Interval(storage: .forever)

    /// An interval of `amount` units.
    ///
    /// ```swift
    /// print(Interval(90, .seconds))   // 90 seconds
    /// ```
    ///
    /// - Parameters:
    ///   - amount: a finite amount of zero or more; it may have a fraction.
    ///   - unit: the unit of `amount`.
    /// - Precondition: `amount` is finite and not negative. For amounts from
    ///   outside the program, use ``init(validating:_:)``, which throws instead.
    public init(_ amount: Double, _ unit: Unit) {
        precondition(amount.isFinite && amount >= 0, "Interval amount \(amount) is negative or not finite")
        storage = .amounts(lower: amount + 0, upper: amount + 0, unit: unit)
    }

    /// An interval of between `amounts.lowerBound` and `amounts.upperBound` units.
    ///
    /// ```swift
    /// print(Interval(2...4, .hours))   // 2–4 hours
    /// print(Interval(3...3, .days))    // 3 days
    /// ```
    ///
    /// - Parameters:
    ///   - amounts: finite amounts of zero or more.
    ///   - unit: the unit of the amounts.
    /// - Precondition: both bounds are finite and not negative. For amounts
    ///   from outside the program, use ``init(validatingFrom:to:_:)``.
    public init(_ amounts: ClosedRange<Double>, _ unit: Unit) {
        precondition(
            amounts.lowerBound.isFinite && amounts.upperBound.isFinite && amounts.lowerBound >= 0,
            "Interval amounts \(amounts) are negative or not finite")
        storage = .amounts(lower: amounts.lowerBound + 0, upper: amounts.upperBound + 0, unit: unit)
    }

    /// An interval of `amount` units, checked.
    ///
    /// ```swift
    /// do { _ = try Interval(validating: -5, .minutes) } catch { print(error) }
    /// // expected an amount of zero or more, found -5
    /// ```
    ///
    /// - Throws: ``ModelError`` when `amount` is negative or not finite.
    public init(validating amount: Double, _ unit: Unit) throws {
        try Interval.check(amount)
        self.init(amount, unit)
    }

    /// An interval of between `lower` and `upper` units, checked.
    ///
    /// ```swift
    /// do { _ = try Interval(validatingFrom: 4, to: 2, .hours) } catch { print(error) }
    /// // expected a range whose lower amount is no greater than its upper one, found 4 to 2
    /// ```
    ///
    /// - Throws: ``ModelError`` when an amount is negative or not finite, or
    ///   when `lower` is greater than `upper`.
    public init(validatingFrom lower: Double, to upper: Double, _ unit: Unit) throws {
        try Interval.check(lower)
        try Interval.check(upper)
        guard lower <= upper else {
            throw ModelError.invalidValue(
                "expected a range whose lower amount is no greater than its upper one, found \(Interval.amountText(lower)) to \(Interval.amountText(upper))")
        }
        self.init(lower...upper, unit)
    }

    private static func check(_ amount: Double) throws {
        guard amount.isFinite, amount >= 0 else {
            throw ModelError.invalidValue("expected an amount of zero or more, found \(Interval.amountText(amount))")
        }
    }

    /// Whether this is ``never``.
    public var isNever: Bool { storage == .never }

    /// Whether this is ``forever``.
    public var isForever: Bool { storage == .forever }

    /// Whether this is a range of amounts with different ends, such as 2–4 hours.
    public var isRange: Bool {
        if case .amounts(let lower, let upper, _) = storage { return lower != upper }
        return false
    }

    /// The unit, or `nil` for ``never`` and ``forever``.
    public var unit: Unit? {
        if case .amounts(_, _, let unit) = storage { return unit }
        return nil
    }

    /// The amount in ``unit``, or a range's lower amount; 0 for ``never``
    /// and infinity for ``forever``.
    public var amount: Double { amountRange.lowerBound }

    /// The amounts in ``unit``: a single amount gives a range of one value.
    public var amountRange: ClosedRange<Double> {
        switch storage {
        case .never: 0...0
        case .amounts(let lower, let upper, _): lower...upper
        case .forever: Double.infinity...Double.infinity
        }
    }

    /// The fixed length in seconds, or a range's lower length: months are a
    /// twelfth of a mean Gregorian year, quarters three months, years twelve.
    /// ``never`` is 0 and ``forever`` is `.infinity`.
    ///
    /// ```swift
    /// print(Interval(1, .quarters).seconds)   // 7889238.0
    /// ```
    public var seconds: Double { secondsRange.lowerBound }

    /// The fixed lengths in seconds of both ends of the interval.
    ///
    /// ```swift
    /// print(Interval(2...4, .hours).secondsRange)   // 7200.0...14400.0
    /// ```
    public var secondsRange: ClosedRange<Double> {
        switch storage {
        case .never: 0...0
        case .amounts(let lower, let upper, let unit): lower * unit.seconds...upper * unit.seconds
        case .forever: Double.infinity...Double.infinity
        }
    }

    /// The fixed length (a range's lower length) as a `Duration`, or `nil`
    /// for ``forever`` and lengths beyond `Duration`'s range.
    ///
    /// ```swift
    /// print(Interval(1.5, .minutes).duration!)   // 90.0 seconds
    /// ```
    public var duration: Duration? {
        let seconds = self.seconds
        // Duration counts attoseconds in 128 bits: about 1.7e20 seconds.
        guard seconds < 1.0e20 else { return nil }
        return .seconds(seconds)
    }
}

extension Interval: Comparable {
    /// Orders intervals by length: by ``secondsRange``'s lower bound, then its
    /// upper bound. Intervals of equal length that are not equal, such as
    /// 60 seconds and 1 minute, are ordered by unit, smaller units first, and
    /// ``never`` comes before every other interval of zero length.
    public static func < (lhs: Interval, rhs: Interval) -> Bool {
        let left = lhs.secondsRange
        let right = rhs.secondsRange
        if left.lowerBound != right.lowerBound { return left.lowerBound < right.lowerBound }
        if left.upperBound != right.upperBound { return left.upperBound < right.upperBound }
        switch (lhs.storage, rhs.storage) {
        case (.never, .never), (.forever, .forever), (_, .never), (.forever, _): return false
        case (.never, _), (_, .forever): return true
        case (.amounts(let lowerLeft, let upperLeft, let unitLeft), .amounts(let lowerRight, let upperRight, let unitRight)):
            let leftRank = Unit.allCases.firstIndex(of: unitLeft)!
            let rightRank = Unit.allCases.firstIndex(of: unitRight)!
            if leftRank != rightRank { return leftRank < rightRank }
            if lowerLeft != lowerRight { return lowerLeft < lowerRight }
            return upperLeft < upperRight
        }
    }
}
