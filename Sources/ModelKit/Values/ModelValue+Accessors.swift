import Foundation

extension ModelValue {
    /// Whether this is ``null``.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The boolean, if this is one.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The integer, if this is an integer that fits `Int`.
    public var intValue: Int? {
        if case .int(let value) = self { return value }
        return nil
    }

    /// The number as a `Double`, if this is an integer or a floating-point number.
    /// A ``bigInteger(_:)`` gives the nearest `Double`.
    public var doubleValue: Double? {
        switch self {
        case .double(let value): value
        case .int(let value): Double(value)
        case .bigInteger(let digits): Double(digits)
        default: nil
        }
    }

    /// The string, if this is one.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The date, if this is one.
    public var dateValue: Date? {
        if case .date(let value) = self { return value }
        return nil
    }

    /// The bytes, if this is data.
    public var dataValue: Data? {
        if case .data(let value) = self { return value }
        return nil
    }

    /// The elements, if this is an array.
    public var arrayValue: [ModelValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members, if this is an object.
    public var objectValue: Object? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The member for `key`, if this is an object that has it.
    public subscript(key: String) -> ModelValue? {
        get {
            guard case .object(let object) = self else { return nil }
            return object[key]
        }
        set {
            guard case .object(var object) = self else { return }
            self = .null  // release the payload so the object below is uniquely referenced
            object[key] = newValue
            self = .object(object)
        }
    }

    /// The element at `index`, if this is an array long enough.
    public subscript(index: Int) -> ModelValue? {
        guard case .array(let array) = self, array.indices.contains(index) else { return nil }
        return array[index]
    }
}

extension ModelValue: CustomStringConvertible {
    /// Compact JSON-like text; dates and data in their JSON forms.
    public var description: String {
        var text = ""
        ModelValue.describe(self, into: &text)
        return text
    }

    /// Writes `value` without recursion (values may nest 512 levels and
    /// more), with an explicit stack of what is left to write.
    private static func describe(_ value: ModelValue, into text: inout String) {
        enum Work {
            case value(ModelValue)
            case text(String)
        }
        var stack: [Work] = [.value(value)]
        while let work = stack.popLast() {
            switch work {
            case .text(let piece): text += piece
            case .value(.null): text += "null"
            case .value(.bool(let value)): text += value ? "true" : "false"
            case .value(.int(let value)): text += String(value)
            case .value(.bigInteger(let digits)): text += digits
            case .value(.double(let value)): text += "\(value)"
            case .value(.string(let value)): text += quoted(value)
            case .value(.date(let value)): text += quoted(ISO8601DateText.string(from: value))
            case .value(.data(let value)): text += quoted(value.base64EncodedString())
            case .value(.array(let elements)):
                text += "["
                stack.append(.text("]"))
                for index in elements.indices.reversed() {
                    stack.append(.value(elements[index]))
                    if index > 0 { stack.append(.text(",")) }
                }
            case .value(.object(let object)):
                text += "{"
                stack.append(.text("}"))
                let members = Array(object)
                for index in members.indices.reversed() {
                    stack.append(.value(members[index].value))
                    stack.append(.text(quoted(members[index].key) + ":"))
                    if index > 0 { stack.append(.text(",")) }
                }
            }
        }
    }
}
