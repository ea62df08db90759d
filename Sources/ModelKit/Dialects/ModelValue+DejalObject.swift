import Foundation

extension ModelValue {
    /// This value, read as a DejalObject document, in ModelKit's form, with
    /// no model class needed: each object with a `"representedClassName"`
    /// names its class under `"type"` instead, and the dictionaries of
    /// DejalObject's value classes become ModelKit's forms of ``Color``,
    /// `Date`, ``Interval``, ``TimeOfDay`` and `Data` (a `DejalDate` with no
    /// date becomes `null`). Other values stay as they are.
    ///
    /// ```swift
    /// let old: ModelValue = ["representedClassName": "Task", "version": 1, "title": "Ship"]
    /// print(try old.convertedFromDejalObject()["type"] ?? "none")   // "Task"
    /// ```
    /// - Throws: ``ModelError`` naming the key path of a value-class
    ///   dictionary that does not hold what its class saves.
    public func convertedFromDejalObject() throws -> ModelValue {
        switch self {
        case .array(let elements):
            var converted: [ModelValue] = []
            converted.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                do {
                    converted.append(try element.convertedFromDejalObject())
                } catch let error as ModelError {
                    throw error.prepending(.index(index))
                }
            }
            return .array(converted)
        case .object(let members):
            guard case .string(let name)? = members[DejalObjectForm.classNameKey] else {
                return .object(try Self.convertedMembers(members, skippingClassName: false))
            }
            switch name {
            case DejalObjectForm.colorClass: return try Color(modelValue: self).modelValue
            case DejalObjectForm.dateClass: return try DejalObjectForm.date(from: members).map(ModelValue.date) ?? .null
            case DejalObjectForm.intervalClass: return try Interval(modelValue: self).modelValue
            case DejalObjectForm.timeClass: return try TimeOfDay(modelValue: self).modelValue
            case DejalObjectForm.dataClass: return .data(try Data(modelValue: self))
            default:
                var result = ModelValue.Object(minimumCapacity: members.count)
                result.appendNew(key: ModelObject.typeKey ?? "type", value: .string(name))
                for (key, value) in try Self.convertedMembers(members, skippingClassName: true)
                where result.index(forKey: key) == nil {
                    result.appendNew(key: key, value: value)
                }
                return .object(result)
            }
        default:
            return self
        }
    }

    private static func convertedMembers(_ members: ModelValue.Object, skippingClassName: Bool) throws
        -> ModelValue.Object
    {
        var result = ModelValue.Object(minimumCapacity: members.count)
        for (index, (key, value)) in members.enumerated() {
            if skippingClassName, key == DejalObjectForm.classNameKey { continue }
            do {
                result.appendNew(key: key, value: try value.convertedFromDejalObject())
            } catch let error as ModelError {
                throw error.prepending(.key(key))
            }
            // A scalar keeps its spelling (`1.10`); a container may have changed.
            switch value {
            case .object, .array: break
            default: if let text = members.text(at: index) { result.setText(text, at: result.count - 1) }
            }
        }
        return result
    }
}
