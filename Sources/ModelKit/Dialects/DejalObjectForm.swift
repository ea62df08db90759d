import Foundation

/// DejalObject's saved form (Dejal/DejalObject, `DejalObject.m` and its value
/// classes): the one place that reads and writes it.
///
/// A DejalObject is saved as a dictionary of its saved keys plus
/// `"representedClassName"` (its class name) and `"version"` (an integer);
/// nested objects are dictionaries of their own, arrays of them arrays. Its
/// value classes are DejalObjects too, each a dictionary with its own
/// `"representedClassName"` and `"version"`:
///
/// | class | keys |
/// | --- | --- |
/// | `DejalColor` | `red`, `green`, `blue`, `alpha`: numbers from 0 to 1 |
/// | `DejalDate` | `string`: `yyyy-MM-dd'T'HH:mm:ss'Z'` in UTC; one starting `0001-01-01` or `1899-12-30`, or none, is no date |
/// | `DejalInterval` | `usingRange`, `firstAmount`, `secondAmount`, `units` (0 second … 7 year, 8 never, 9 forever), `extraValues` |
/// | `DejalTime` | `hour`, `minute`, `second`, `timeZoneName` |
/// | `DejalData` | `length`, `string` (Base64), `dataClass` |
///
/// Reading: `ModelObject.decodePending` and `decoded(from:)` take
/// ``classNameKey`` as they take the type key (`ModelObject.representedClass(named:)`),
/// and the value types' `init(modelValue:)` accept the value dictionaries
/// (`color(from:)`, `date(from:)` …). The direct JSON and dictionary
/// readers hand an object with a `"representedClassName"` member to that
/// path (`JSONDecodingPlan.dejalClassTarget`). Writing: a class whose
/// ``ModelObject/savedDialect`` is ``SavedDialect/dejalObject`` is written
/// by `encodedMembers`, through ``savedValue(_:encoded:)``; the direct
/// writers leave such a document to it.
enum DejalObjectForm {
    /// The member naming an object's class.
    static let classNameKey = "representedClassName"
    /// The member holding an object's version.
    static let versionKey = "version"
    /// The version DejalObject's value classes write (`DejalObjectVersion`).
    static let valueVersion = 1

    /// The class name of a DejalObject dictionary, if `object` has one.
    @inline(__always)
    static func className(of object: ModelValue.Object) -> ModelValue? {
        object[classNameKey]
    }

    // MARK: - Value classes: checks

    /// Checks that `object` is a dictionary of the value class `expected`
    /// (`"DejalColor"` …) and returns its members, or `nil` when it names
    /// no class (the caller reads ModelKit's form).
    /// - Throws: ``ModelError`` when it names another class.
    static func members(of object: ModelValue.Object, as expected: String) throws -> ModelValue.Object? {
        guard let raw = object[classNameKey] else { return nil }
        guard case .string(let name) = raw else {
            throw ModelError.typeMismatch(expected: "the class name \"\(expected)\"", found: raw)
                .prepending(.key(classNameKey))
        }
        guard name == expected else {
            throw ModelError(
                code: .typeMismatch,
                message: "expected a \(expected) dictionary, found one of \(ModelValue.quoted(name))",
                keyPath: ModelKeyPath([.key(classNameKey)]))
        }
        return object
    }

    /// The integer member `key`, or `nil` when absent.
    static func integer(_ key: String, in object: ModelValue.Object, expected: String) throws -> Int? {
        guard let value = object[key] else { return nil }
        switch value {
        case .int(let number): return number
        case .double(let number) where number.rounded() == number && abs(number) < 1e15: return Int(number)
        case .bool(let flag): return flag ? 1 : 0
        default: throw ModelError.typeMismatch(expected: expected, found: value).prepending(.key(key))
        }
    }

    /// The string member `key`, or `nil` when absent or null.
    static func string(_ key: String, in object: ModelValue.Object, expected: String) throws -> String? {
        guard let value = object[key] else { return nil }
        switch value {
        case .string(let text): return text
        case .null: return nil
        default: throw ModelError.typeMismatch(expected: expected, found: value).prepending(.key(key))
        }
    }

    /// A value dictionary's two metadata members.
    static func header(_ className: String) -> ModelValue.Object {
        var object = ModelValue.Object(minimumCapacity: 8)
        object.appendNew(key: classNameKey, value: .string(className))
        object.appendNew(key: versionKey, value: .int(valueVersion))
        return object
    }

    /// A number as `NSJSONSerialization` would write the `NSNumber`: whole
    /// numbers without a fraction.
    static func number(_ value: Double) -> ModelValue {
        if value.rounded() == value, abs(value) < 1e15 { return .int(Int(value)) }
        return .double(value)
    }
}
