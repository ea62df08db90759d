import Foundation

/// The typed value tree that every saved value passes through.
///
/// `ModelValue` is what ModelKit reads from and writes to dictionaries, JSON and
/// property lists. It keeps integers and floating-point numbers apart, keeps the
/// exact digits of an integer too large for `Int`, and keeps the order of an
/// object's keys, so data written by another program survives a round trip
/// unchanged.
///
/// ```swift
/// let value: ModelValue = ["title": "Groceries", "count": 3, "tags": ["home"]]
/// print(value["count"]?.intValue ?? 0)   // 3
/// print(value)                           // {"title":"Groceries","count":3,"tags":["home"]}
/// ```
///
/// Two values of different cases are never equal: `.int(1)` is not `.double(1)`.
/// Objects compare equal when they hold the same keys with equal values,
/// whatever their order.
public enum ModelValue: Sendable {
    /// JSON `null`. Property lists have no null: see ``propertyListData(format:)``.
    case null
    /// A boolean.
    case bool(Bool)
    /// An integer that fits `Int`.
    case int(Int)
    /// An integer outside `Int`'s range, kept as its exact decimal digits
    /// (an optional `-` followed by digits, no leading zeros).
    case bigInteger(String)
    /// A floating-point number.
    case double(Double)
    /// A string.
    case string(String)
    /// A point in time. JSON has no dates: they are written as ISO 8601 strings.
    case date(Date)
    /// Bytes. JSON has no bytes: they are written as base64 strings.
    case data(Data)
    /// An ordered list of values.
    case array([ModelValue])
    /// String keys mapped to values, in insertion order.
    indirect case object(Object)
}

extension ModelValue {
    /// A short phrase naming this value's kind, for error messages: "a string", "an integer".
    public var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .bigInteger: "an integer"
        case .double: "a floating-point number"
        case .string: "a string"
        case .date: "a date"
        case .data: "data"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The kind of this value followed by a short excerpt of it, for error
    /// messages: `a string ("three")`, `an integer (42)`, `an array of 3 elements`.
    public var excerpt: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return "a boolean (\(value))"
        case .int(let value): return "an integer (\(value))"
        case .bigInteger(let digits): return "an integer (\(digits))"
        case .double(let value): return "a floating-point number (\(value))"
        case .string(let value):
            let shown = value.count > 40 ? String(value.prefix(40)) + "…" : value
            return "a string (\(ModelValue.quoted(shown)))"
        case .date(let value): return "a date (\(ISO8601DateText.string(from: value)))"
        case .data(let value): return "data (\(value.count) bytes)"
        case .array(let value): return "an array of \(value.count) element\(value.count == 1 ? "" : "s")"
        case .object(let value): return "an object with \(value.count) key\(value.count == 1 ? "" : "s")"
        }
    }

    static func quoted(_ string: String) -> String {
        var result = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                result += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

extension ModelValue: Equatable {
    /// Whether the two are equal.
    ///
    /// Strings (and object keys) are equal when they have the same Unicode
    /// scalars, as JSON compares them: `"é"` and `"e\u{301}"` are two
    /// values here, though Swift's `==` finds the two strings equal. Values
    /// nested at any depth compare without running out of stack.
    public static func == (lhs: ModelValue, rhs: ModelValue) -> Bool {
        lhs.isEqual(to: rhs, depth: 0)
    }

    /// `==`, at `depth` levels of nesting below the first value compared.
    func isEqual(to other: ModelValue, depth: Int) -> Bool {
        switch (self, other) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.bigInteger(let a), .bigInteger(let b)): a == b
        case (.double(let a), .double(let b)): a == b || (a.isNaN && b.isNaN)
        case (.string(let a), .string(let b)): KeyHash.sameBytes(a, b)
        case (.date(let a), .date(let b)): a == b
        case (.data(let a), .data(let b)): a == b
        case (.array(let a), .array(let b)):
            a.count == b.count
                && StackGuard.descending(depth) {
                    for index in a.indices where !a[index].isEqual(to: b[index], depth: depth + 1) { return false }
                    return true
                }
        case (.object(let a), .object(let b)): a.isEqual(to: b, depth: depth + 1)
        default: false
        }
    }
}

extension ModelValue: Hashable {
    /// Hashes the value.
    public func hash(into hasher: inout Hasher) {
        combine(into: &hasher, depth: 0)
    }

    /// `hash(into:)`, at `depth` levels of nesting below the first value hashed.
    func combine(into hasher: inout Hasher, depth: Int) {
        switch self {
        case .null: hasher.combine(0 as UInt8)
        case .bool(let value): hasher.combine(1 as UInt8); hasher.combine(value)
        case .int(let value): hasher.combine(2 as UInt8); hasher.combine(value)
        case .bigInteger(let value): hasher.combine(3 as UInt8); hasher.combine(value)
        case .double(let value):
            hasher.combine(4 as UInt8)
            // Equal doubles hash alike: 0.0 and -0.0 are equal, and every NaN equals every NaN here.
            hasher.combine(value.isNaN ? Double.nan.bitPattern : (value == 0 ? 0 : value.bitPattern))
        // Strings equal by their scalars are equal to Swift too, so they hash alike.
        case .string(let value): hasher.combine(5 as UInt8); hasher.combine(value)
        case .date(let value): hasher.combine(6 as UInt8); hasher.combine(value)
        case .data(let value): hasher.combine(7 as UInt8); hasher.combine(value)
        case .array(let elements):
            hasher.combine(8 as UInt8)
            hasher.combine(elements.count)
            StackGuard.descending(depth) {
                for element in elements { element.combine(into: &hasher, depth: depth + 1) }
            }
        case .object(let value):
            hasher.combine(9 as UInt8)
            value.combine(into: &hasher, depth: depth + 1)
        }
    }
}
