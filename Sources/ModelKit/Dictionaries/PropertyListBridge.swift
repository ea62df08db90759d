import Foundation

/// Converts between ``ModelValue`` and property-list objects (`String`,
/// `Int`, `Double`, `Bool`, `Date`, `Data`, `[Any]`, `[String: Any]`, and the
/// `NSNumber`s that Foundation's readers return).
///
/// Property lists have no null. ModelKit writes `null` as the string
/// `"$null"`, the marker Foundation's `PropertyListEncoder` uses, and reads
/// that string back as `null`. Integers outside `Int` are written as
/// unsigned 64-bit integers when they fit; beyond 64 bits, where neither
/// Foundation nor `plutil` can hold them, as the string `"$integer:"` and
/// their digits (`"$integer:-123456789012345678901234567890"`), read back as
/// the same integer. A real string made of one or more `$` and then `null`,
/// or `integer:` and an integer, is written with one more `$`, so every
/// string survives too.
enum PropertyListBridge {
    /// Nesting deeper than this is rejected, in dictionaries and property lists alike.
    static let maximumDepth = 512
    static let nullMarker = "$null"
    static let bigIntegerMarker = "$integer:"

    // MARK: - To ModelValue

    static func members(of dictionary: [String: Any]) throws -> ModelValue.Object {
        try object(dictionary, depth: 1)
    }

    static func modelValue(from any: Any, depth: Int = 0) throws -> ModelValue {
        if let string = any as? String { return unescaped(string) }
        let type = Swift.type(of: any)
        if type == Int.self { return .int(any as! Int) }
        if type == Double.self { return .double(any as! Double) }
        if type == Bool.self { return .bool(any as! Bool) }
        // Casting a Swift dictionary or array to a class (`NSNumber`, `NSNull`)
        // makes Foundation bridge the whole nested value first, recursively,
        // before the cast fails: deep input would exhaust the stack there.
        // So class casts are tried only on class instances.
        let isObject = type is AnyObject.Type
        if isObject, let number = any as? NSNumber, type != Bool.self { return number.modelValue }
        if let date = any as? Date { return .date(date) }
        if let data = any as? Data { return .data(data) }
        if let dictionary = any as? [String: Any] {
            // One level of recursion per container: on a large stack when this one runs low.
            return .object(try StackGuard.continuingOnLargeStack { try object(dictionary, depth: depth + 1) })
        }
        if let array = any as? [Any] {
            guard depth < maximumDepth else { throw tooDeep() }
            return try StackGuard.continuingOnLargeStack { try arrayValue(array, depth: depth) }
        }
        if let value = any as? ModelValue { return value }
        if isObject, any is NSNull { return .null }
        if let convertible = any as? any ModelValueConvertible { return convertible.modelValue }
        if let optional = any as? any OptionalValue {
            guard let wrapped = optional.wrappedAny else { return .null }
            return try modelValue(from: wrapped, depth: depth)
        }
        if any is [AnyHashable: Any] {
            throw ModelError(
                code: .typeMismatch, message: "expected a dictionary with string keys, found one with keys of other types")
        }
        throw ModelError(
            code: .typeMismatch,
            message: "expected a property-list value (string, number, boolean, date, data, array or dictionary), "
                + "found a value of type \(type)")
    }

    /// The elements of `array`, an array at `depth`.
    private static func arrayValue(_ array: [Any], depth: Int) throws -> ModelValue {
        var elements: [ModelValue] = []
        elements.reserveCapacity(array.count)
        for (index, element) in array.enumerated() {
            do {
                elements.append(try modelValue(from: element, depth: depth + 1))
            } catch let error as ModelError {
                throw error.prepending(.index(index))
            }
        }
        return .array(elements)
    }

    private static func object(_ dictionary: [String: Any], depth: Int) throws -> ModelValue.Object {
        guard depth <= maximumDepth else { throw tooDeep() }
        var members = ModelValue.Object(minimumCapacity: dictionary.count)
        // Dictionaries have no order: model decoding sorts the keys that go to
        // the extensible properties, so that their order does not vary from run to run.
        for (key, value) in dictionary {
            do {
                members.appendNew(key: key, value: try modelValue(from: value, depth: depth))
            } catch let error as ModelError {
                throw error.prepending(.key(key))
            }
        }
        return members
    }

    private static func tooDeep() -> ModelError {
        ModelError(code: .nestingTooDeep, message: "nesting is deeper than the limit of \(maximumDepth) levels")
    }

    /// The value a property-list string stands for: `"$null"` is null,
    /// `"$integer:"` and digits an integer, and one `$` comes off a string of
    /// two or more `$` followed by `null` or `integer:` and digits.
    static func unescaped(_ string: String) -> ModelValue {
        guard string.utf8.first == UInt8(ascii: "$"), let marker = markerLike(string) else { return .string(string) }
        guard marker.dollars == 1 else { return .string(String(string.dropFirst())) }
        if marker.isNull { return .null }
        let digits = String(string.dropFirst(bigIntegerMarker.utf8.count))
        if let small = Int(digits) { return .int(small) }
        return .bigInteger(digits)
    }

    /// When `string` is one or more `$` then `null`, or `integer:` and an
    /// integer: how many `$`, and which.
    private static func markerLike(_ string: String) -> (dollars: Int, isNull: Bool)? {
        let utf8 = string.utf8
        let dollars = utf8.prefix { $0 == UInt8(ascii: "$") }.count
        guard dollars > 0 else { return nil }
        let rest = string.utf8.dropFirst(dollars)
        if rest.elementsEqual("null".utf8) { return (dollars, true) }
        let prefix = "integer:".utf8
        guard rest.starts(with: prefix) else { return nil }
        let digits = Substring(rest.dropFirst(prefix.count))
        return isIntegerText(digits) ? (dollars, false) : nil
    }

    /// Whether `text` is an integer as JSON writes one: an optional `-`,
    /// then `0` or digits not starting with `0`.
    static func isIntegerText<Text: StringProtocol>(_ text: Text) -> Bool {
        var utf8 = text.utf8[...]
        if utf8.first == UInt8(ascii: "-") { utf8 = utf8.dropFirst() }
        guard let first = utf8.first, first &- UInt8(ascii: "0") < 10 else { return false }
        guard first != UInt8(ascii: "0") || utf8.count == 1 else { return false }
        return utf8.allSatisfy { $0 &- UInt8(ascii: "0") < 10 }
    }

    /// How a big integer is written: a number when it fits 64 bits, else the marker string.
    static func bigIntegerObject(_ digits: String) -> Any {
        if let unsigned = UInt64(digits) { return NSNumber(value: unsigned) }
        if let signed = Int64(digits) { return NSNumber(value: signed) }
        return bigIntegerMarker + digits
    }

    // MARK: - From ModelValue

    static func propertyListObject(from value: ModelValue) -> Any {
        switch value {
        case .null: return nullMarker
        case .bool(let value): return value
        case .int(let value): return value
        case .bigInteger(let digits): return bigIntegerObject(digits)
        case .double(let value): return value
        case .string(let value): return escaped(value)
        case .date(let value): return value
        case .data(let value): return value
        case .array(let elements):
            // One level of recursion per container: on a large stack when this one runs low.
            return (try? StackGuard.continuingOnLargeStack { elements.map(propertyListObject(from:)) })
                ?? elements.map(propertyListObject(from:))
        case .object(let members):
            return (try? StackGuard.continuingOnLargeStack { dictionary(from: members) }) ?? dictionary(from: members)
        }
    }

    static func dictionary(from members: ModelValue.Object) -> [String: Any] {
        var dictionary = [String: Any](minimumCapacity: members.count)
        for (key, value) in members { dictionary[key] = propertyListObject(from: value) }
        return dictionary
    }

    static func escaped(_ string: String) -> String {
        isMarkerLike(string) ? "$" + string : string
    }

    /// Whether `string` is one or more `$` followed by `null`, or by
    /// `integer:` and an integer, and so is written with one more `$`.
    static func isMarkerLike(_ string: String) -> Bool {
        string.utf8.first == UInt8(ascii: "$") && markerLike(string) != nil
    }
}

extension NSNumber {
    /// The value a property-list reader's number stands for.
    fileprivate var modelValue: ModelValue {
        switch UInt8(bitPattern: objCType.pointee) {
        case UInt8(ascii: "c"), UInt8(ascii: "B"):
            return .bool(boolValue)
        case UInt8(ascii: "d"), UInt8(ascii: "f"):
            return .double(doubleValue)
        case UInt8(ascii: "Q"), UInt8(ascii: "L"), UInt8(ascii: "I"), UInt8(ascii: "S"), UInt8(ascii: "C"):
            let unsigned = uint64Value
            if let small = Int(exactly: unsigned) { return .int(small) }
            return .bigInteger(String(unsigned))
        default:
            return .int(intValue)
        }
    }
}
