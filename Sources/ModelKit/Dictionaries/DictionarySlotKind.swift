import Foundation

/// How the direct dictionary paths (`DictionaryModelDecoder`,
/// `DictionaryModelEncoder`) read and write one slot: common scalars, their
/// optionals and arrays as the Foundation values themselves, models (alone,
/// optional or in arrays) member by member, anything else through
/// `ModelValue` and the slot's codec.
enum DictionarySlotKind: Sendable {
    case int, string, bool, double
    /// A `Date` under the ISO 8601 strategy, which a dictionary holds as a `Date`.
    case date
    case optionalInt, optionalString, optionalBool, optionalDouble, optionalDate
    case strings, ints, doubles, bools
    /// A model of this class (or a registered subclass).
    case model(ModelObject.Type)
    /// An optional model; `wrap` makes the slot's `Optional` value, `unwrap` takes it apart.
    case optionalModel(
        ModelObject.Type, wrap: @Sendable (ModelObject?) -> Any, unwrap: @Sendable (Any) -> ModelObject?)
    /// An array of models; `wrap` makes the slot's `Array` value, `unwrap` takes it apart.
    case modelArray(ModelObject.Type, wrap: @Sendable ([ModelObject]) -> Any, unwrap: @Sendable (Any) -> [ModelObject])
    case generic

    /// The kind without its payload, which a switch reads without retaining
    /// anything (a switch over the kind itself copies its closures).
    enum Code: UInt8, Sendable {
        case int, string, bool, double, date
        case optionalInt, optionalString, optionalBool, optionalDouble, optionalDate
        case strings, ints, doubles, bools
        case model, optionalModel, modelArray, generic
    }

    var code: Code {
        switch self {
        case .int: .int
        case .string: .string
        case .bool: .bool
        case .double: .double
        case .date: .date
        case .optionalInt: .optionalInt
        case .optionalString: .optionalString
        case .optionalBool: .optionalBool
        case .optionalDouble: .optionalDouble
        case .optionalDate: .optionalDate
        case .strings: .strings
        case .ints: .ints
        case .doubles: .doubles
        case .bools: .bools
        case .model: .model
        case .optionalModel: .optionalModel
        case .modelArray: .modelArray
        case .generic: .generic
        }
    }

    /// The model class of a model, optional model or array of models slot.
    var modelType: ModelObject.Type? {
        switch self {
        case .model(let type), .optionalModel(let type, _, _), .modelArray(let type, _, _): type
        default: nil
        }
    }

    /// The kind of a slot holding `type`, whose dates are saved with `dateStrategy`.
    static func of(_ type: Any.Type, dateStrategy: DateStrategy) -> DictionarySlotKind {
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(Int.self): return .int
        case ObjectIdentifier(String.self): return .string
        case ObjectIdentifier(Bool.self): return .bool
        case ObjectIdentifier(Double.self): return .double
        case ObjectIdentifier(Date.self): return dateStrategy == .iso8601 ? .date : .generic
        case ObjectIdentifier(Int?.self): return .optionalInt
        case ObjectIdentifier(String?.self): return .optionalString
        case ObjectIdentifier(Bool?.self): return .optionalBool
        case ObjectIdentifier(Double?.self): return .optionalDouble
        case ObjectIdentifier(Date?.self): return dateStrategy == .iso8601 ? .optionalDate : .generic
        case ObjectIdentifier([String].self): return .strings
        case ObjectIdentifier([Int].self): return .ints
        case ObjectIdentifier([Double].self): return .doubles
        case ObjectIdentifier([Bool].self): return .bools
        default: break
        }
        switch JSONSlotKind.of(type) {
        case .model(let model): return .model(model)
        case .optionalModel(let model, let wrap, let unwrap): return .optionalModel(model, wrap: wrap, unwrap: unwrap)
        case .modelArray(let model, let wrap, let unwrap): return .modelArray(model, wrap: wrap, unwrap: unwrap)
        default: return .generic
        }
    }
}
