extension Color: ModelValueConvertible {
    /// The names of the components in the saved form, in the order written.
    static let componentKeys = ["red", "green", "blue", "alpha"]

    /// Reads a colour from its saved form, a components object, or a hex string.
    ///
    /// Accepts an object with numbers from 0 to 1 for `"red"`, `"green"` and
    /// `"blue"`, and optionally `"alpha"` (1 when absent), and no other keys;
    /// or a string that ``init(hex:)`` accepts; or DejalObject's `DejalColor`
    /// dictionary.
    ///
    /// ```swift
    /// let saved: ModelValue = ["red": 1, "green": 0.5, "blue": 0]
    /// print(try Color(modelValue: saved) == .orange)   // true
    /// print(try Color(modelValue: "#FF0000") == .red)      // true
    /// ```
    ///
    /// - Throws: ``ModelError`` naming the failing component's key when a
    ///   component is missing, not a number, or outside `0...1`; when the
    ///   object has another key; or when a string is not a hex colour.
    public init(modelValue: ModelValue) throws {
        switch modelValue {
        case .string(let text):
            guard let color = Color(hex: text) else {
                throw ModelError.invalidValue(
                    "expected a hex colour such as \"#FF8000\" or \"#FF800080\", found \(modelValue.excerpt)")
            }
            self = color
        case .object(let object):
            if let dejal = try DejalObjectForm.members(of: object, as: DejalObjectForm.colorClass) {
                self = try DejalObjectForm.color(from: dejal)
                return
            }
            for key in object.keys where !Color.componentKeys.contains(key) {
                throw ModelError.invalidValue(
                    "expected only the keys \"red\", \"green\", \"blue\" and \"alpha\", found \(ModelValue.quoted(key))"
                )
            }
            let red = try Color.component("red", in: object)
            let green = try Color.component("green", in: object)
            let blue = try Color.component("blue", in: object)
            let alpha = object["alpha"] == nil ? 1 : try Color.component("alpha", in: object)
            self.init(red: red, green: green, blue: blue, alpha: alpha)
        default:
            throw ModelError.typeMismatch(
                expected: "a Color (an object of \"red\", \"green\", \"blue\" and \"alpha\", or a hex string)",
                found: modelValue)
        }
    }

    /// The four components as an object, in the order red, green, blue, alpha:
    /// `{"red": 1.0, "green": 0.5, "blue": 0.0, "alpha": 1.0}`. Alpha is always
    /// written, so the form does not depend on the colour.
    public var modelValue: ModelValue {
        .object(["red": .double(red), "green": .double(green), "blue": .double(blue), "alpha": .double(alpha)])
    }

    /// The component `key` of `object`, checked to be a number in `0...1`.
    private static func component(_ key: String, in object: ModelValue.Object) throws -> Double {
        do {
            guard let value = object[key] else {
                throw ModelError.invalidValue("expected a number from 0 to 1, found nothing")
            }
            let number: Double
            switch value {
            case .int, .double, .bigInteger: number = value.doubleValue ?? .nan
            default: throw ModelError.typeMismatch(expected: "a number from 0 to 1", found: value)
            }
            guard isValidComponent(number) else {
                throw ModelError.invalidValue("expected a number from 0 to 1, found \(value.numberText)")
            }
            return number
        } catch let error as ModelError {
            throw error.prepending(.key(key))
        }
    }
}

extension ModelValue {
    /// The number as it appears in a document (`1.5`, `-2`), for error messages;
    /// other values give their ``excerpt``.
    var numberText: String {
        switch self {
        case .int(let value): String(value)
        case .bigInteger(let digits): digits
        case .double(let value): "\(value)"
        default: excerpt
        }
    }
}
