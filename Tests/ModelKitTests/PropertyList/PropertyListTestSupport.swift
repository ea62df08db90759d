import Foundation
@testable import ModelKit

/// Random ``ModelValue`` trees for round-trip tests: every case, strings
/// that need escaping or look like the null marker, dates to the microsecond,
/// integers beyond 64 bits.
struct RandomModelValues {
    var generator: SeededGenerator
    /// Dates in whole seconds, as XML property lists hold them.
    var wholeSecondDates = false

    init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

    static let stringPieces = [
        "a", "Z", " ", "&", "<", ">", "]]>", "&amp;", "\"", "'", "\t", "\n", "\r", "\r\n", "é", "ß", "✓", "🎉",
        "\u{7F}", "\u{FFFD}", "$null", "$", "null", "<!--", "-->", "\u{301}", "𝄞", "$integer:12", "integer:",
        "$$integer:-3",
    ]

    mutating func string() -> String {
        if Int.random(in: 0..<6, using: &generator) == 0 {
            return String(repeating: "$", count: Int.random(in: 1...3, using: &generator)) + "null"
        }
        let count = Int.random(in: 0...8, using: &generator)
        return (0..<count).map { _ in Self.stringPieces.randomElement(using: &generator)! }.joined()
    }

    mutating func date() -> Date {
        let micros = Int64.random(in: -4_000_000_000_000_000...4_000_000_000_000_000, using: &generator)
        let date = Date(timeIntervalSinceReferenceDate: Double(micros) / 1_000_000)
        return wholeSecondDates ? wholeSeconds(date) : date
    }

    mutating func bigInteger() -> String {
        let digits = Int.random(in: 20...45, using: &generator)
        var text = String(Int.random(in: 1...9, using: &generator))
        for _ in 1..<digits { text += String(Int.random(in: 0...9, using: &generator)) }
        return Bool.random(using: &generator) ? "-" + text : text
    }

    mutating func double() -> Double {
        switch Int.random(in: 0..<8, using: &generator) {
        case 0: return [Double.nan, .infinity, -.infinity, 0, -0.0, .leastNonzeroMagnitude, .greatestFiniteMagnitude]
            .randomElement(using: &generator)!
        case 1: return Double(Int.random(in: -1000...1000, using: &generator))
        case 2: return Double.random(in: -1...1, using: &generator)
        default: return Double(bitPattern: generator.next())
        }
    }

    mutating func value(depth: Int = 0, allowingNull: Bool = true) -> ModelValue {
        let containers = depth < 4 ? 2 : 0
        let pick = Int.random(in: 0..<(9 + containers), using: &generator)
        switch pick {
        case 0: return allowingNull ? .null : .bool(false)
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .int(Int(bitPattern: UInt(generator.next())) >> Int.random(in: 0...63, using: &generator))
        case 3: return .bigInteger(bigInteger())
        case 4: return .double(double())
        case 5, 6: return .string(string())
        case 7: return .date(date())
        case 8:
            let count = Int.random(in: 0...80, using: &generator)
            return .data(Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }))
        case 9:
            let count = Int.random(in: 0...5, using: &generator)
            return .array((0..<count).map { _ in value(depth: depth + 1) })
        default:
            let count = Int.random(in: 0...5, using: &generator)
            var members = ModelValue.Object()
            for _ in 0..<count { members[string()] = value(depth: depth + 1) }
            return .object(members)
        }
    }
}

/// `date` without its fraction of a second, as an XML property list holds it.
func wholeSeconds(_ date: Date) -> Date {
    Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate.rounded(.down))
}

/// A ModelValue's members in order, recursively, for checking that order survives.
func orderedDescription(_ value: ModelValue) -> String {
    switch value {
    case .array(let elements): return "[" + elements.map(orderedDescription).joined(separator: ",") + "]"
    case .object(let members):
        return "{" + members.map { ModelValue.quoted($0.key) + ":" + orderedDescription($0.value) }.joined(separator: ",")
            + "}"
    default: return "\(value)"
    }
}
