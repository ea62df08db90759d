import Foundation

extension ModelValue {
    /// Whether the two are equal as JSON values, as RFC 6902's `test`
    /// compares them.
    ///
    /// Unlike `==`, which keeps ModelKit's cases apart, this compares what
    /// JSON text can tell apart: numbers are equal when their values are
    /// (`1`, `1.0` and `1e0`), objects whatever the order of their members,
    /// and a date or data equals the string that JSON writes for it (ISO 8601
    /// text, of any precision or offset that names the same instant to the
    /// microsecond; base64). Strings and keys are equal when their Unicode
    /// scalars are, as RFC 6902 §4.6 and RFC 8259 compare them: `"é"` and
    /// `"e\u{301}"` differ, though Swift's `==` on `String` finds them equal.
    /// Values of any depth compare without running out of stack.
    ///
    /// ```swift
    /// print(ModelValue.int(1) == .double(1))                 // false
    /// print(ModelValue.int(1).isJSONEqual(to: .double(1)))   // true
    /// ```
    /// - Parameter other: the value to compare with.
    /// - Returns: whether a JSON reader could not tell the two apart.
    public func isJSONEqual(to other: ModelValue) -> Bool {
        isJSONEqual(to: other, depth: 0)
    }

    private func isJSONEqual(to other: ModelValue, depth: Int) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.string(let a), .string(let b)): return KeyHash.sameBytes(a, b)
        case (.date(let a), .date(let b)): return a == b
        case (.data(let a), .data(let b)): return a == b
        case (.date(let date), .string(let text)), (.string(let text), .date(let date)):
            // Dates of any year, in the text JSON writes for them.
            return (ModelValue.dateText(of: text) ?? text) == ISO8601DateText.documentString(from: date)
        case (.data(let bytes), .string(let text)), (.string(let text), .data(let bytes)):
            return bytes.base64EncodedString() == text
        case (.array(let a), .array(let b)):
            guard a.count == b.count else { return false }
            return StackGuard.descending(depth) {
                for index in a.indices where !a[index].isJSONEqual(to: b[index], depth: depth + 1) { return false }
                return true
            }
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            return StackGuard.descending(depth) {
                for (key, value) in a {
                    guard let match = b[key], value.isJSONEqual(to: match, depth: depth + 1) else { return false }
                }
                return true
            }
        default:
            guard let a = numberForm, let b = other.numberForm else { return false }
            return a.isEqual(to: b)
        }
    }

    /// A hash that agrees with ``isJSONEqual(to:)``: values equal as JSON
    /// hash alike.
    var jsonHash: Int {
        var hasher = Hasher()
        combineJSONHash(into: &hasher, depth: 0)
        return hasher.finalize()
    }

    private func combineJSONHash(into hasher: inout Hasher, depth: Int) {
        switch self {
        case .null: hasher.combine(0 as UInt8)
        case .bool(let flag): hasher.combine(1 as UInt8); hasher.combine(flag)
        case .int, .bigInteger, .double:
            hasher.combine(2 as UInt8)
            // Equal numbers have equal nearest doubles.
            let approximate = numberForm?.approximateValue ?? 0
            hasher.combine(approximate.isNaN ? Double.nan.bitPattern : (approximate == 0 ? 0 : approximate.bitPattern))
        case .string(let text):
            hasher.combine(3 as UInt8)
            hasher.combine(ModelValue.dateText(of: text) ?? text)
        case .date(let date): hasher.combine(3 as UInt8); hasher.combine(ISO8601DateText.documentString(from: date) ?? "")
        case .data(let bytes): hasher.combine(3 as UInt8); hasher.combine(bytes.base64EncodedString())
        case .array(let elements):
            hasher.combine(4 as UInt8)
            hasher.combine(elements.count)
            StackGuard.descending(depth) {
                for element in elements { element.combineJSONHash(into: &hasher, depth: depth + 1) }
            }
        case .object(let members):
            // Order-independent, as equality is.
            var sum = 0
            StackGuard.descending(depth) {
                for (key, value) in members {
                    var member = Hasher()
                    member.combine(key)
                    value.combineJSONHash(into: &member, depth: depth + 1)
                    sum &+= member.finalize()
                }
            }
            hasher.combine(5 as UInt8)
            hasher.combine(members.count)
            hasher.combine(sum)
        }
    }

    /// The text JSON writes for the date that `text` names, so that the
    /// forms of one date (`.5Z`, `.500000Z`, `+01:00`) compare equal; `nil`
    /// when `text` is not an ISO 8601 date.
    private static func dateText(of text: String) -> String? {
        // Dates start with a four-digit year and a dash: skip other strings cheaply.
        let utf8 = text.utf8
        guard utf8.count >= 20, utf8.dropFirst(4).first == UInt8(ascii: "-"),
            utf8.prefix(4).allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let date = ISO8601DateText.date(from: text)
        else { return nil }
        return ISO8601DateText.documentString(from: date)
    }

    /// A number's value, for comparing numbers of different cases.
    private enum NumberForm {
        case integer(Int)
        case digits(String)
        case floating(Double)

        var approximateValue: Double {
            switch self {
            case .integer(let value): Double(value)
            case .digits(let digits): Double(digits) ?? 0
            case .floating(let value): value
            }
        }

        func isEqual(to other: NumberForm) -> Bool {
            switch (self, other) {
            case (.integer(let a), .integer(let b)): return a == b
            case (.digits(let a), .digits(let b)): return a == b
            case (.floating(let a), .floating(let b)): return a == b || (a.isNaN && b.isNaN)
            case (.integer(let a), .digits(let b)), (.digits(let b), .integer(let a)): return String(a) == b
            case (.integer(let a), .floating(let b)), (.floating(let b), .integer(let a)):
                return Int(exactly: b) == a
            case (.digits(let a), .floating(let b)), (.floating(let b), .digits(let a)):
                // An integral double's exact decimal digits.
                guard b.isFinite, b.rounded(.towardZero) == b else { return false }
                return String(format: "%.0f", b) == a
            }
        }
    }

    private var numberForm: NumberForm? {
        switch self {
        case .int(let value): .integer(value)
        case .bigInteger(let digits): .digits(digits)
        case .double(let value): .floating(value)
        default: nil
        }
    }
}
