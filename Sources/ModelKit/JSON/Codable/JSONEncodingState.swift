import Foundation

/// One encoding run of ``ModelJSONEncoder``: its settings, and the boxing of
/// any value into an ``EncodedJSON`` under them.
///
/// Not `Sendable`: it lives for one `encode` call, on its thread.
final class JSONEncodingState {
    let settings: ModelJSONEncoder
    let userInfo: [CodingUserInfoKey: Any]
    let usesDefaultKeys: Bool
    /// The first value given two kinds of container (see ``recordConflict(_:path:)``), thrown when the run ends.
    private(set) var conflict: EncodingError?

    init(_ settings: ModelJSONEncoder) {
        self.settings = settings
        self.userInfo = settings.userInfo
        if case .useDefaultKeys = settings.keyEncodingStrategy { usesDefaultKeys = true } else { usesDefaultKeys = false }
    }

    /// `key` under the key encoding strategy, for a container at `parent`.
    func convert(_ key: any CodingKey, parent: CodingPathNode?) -> String {
        switch settings.keyEncodingStrategy {
        case .useDefaultKeys: return key.stringValue
        case .convertToSnakeCase: return SnakeCase.snakeCased(key.stringValue)
        case .custom(let closure): return closure((parent?.keys ?? []) + [key]).stringValue
        @unknown default: return key.stringValue
        }
    }

    /// Notes that the value at `path` was asked for a container, or given a
    /// single value, after it had another: `JSONEncoder` stops the program
    /// there; ``ModelJSONEncoder`` writes nothing and throws this at the end.
    func recordConflict(_ asked: String, path: [any CodingKey]) {
        guard conflict == nil else { return }
        let message = "\(asked) for a value that already has another kind (a value is one keyed container, one unkeyed "
            + "container or one single value)"
        conflict = EncodingError.invalidValue(
            asked,
            EncodingError.Context(
                codingPath: path, debugDescription: path.isEmpty ? message : "\(ModelKeyPath(codingPath: path)): \(message)"))
    }

    func codingPath(_ parent: CodingPathNode?, _ key: (any CodingKey)?) -> [any CodingKey] {
        var path = parent?.keys ?? []
        if let key { path.append(key) }
        return path
    }

    func boxDouble(_ value: Double, parent: CodingPathNode?, key: (any CodingKey)?) throws -> EncodedJSON {
        if value.isFinite { return .double(value) }
        return .string(try nonConforming(value, description: "\(value)", type: "Double", parent: parent, key: key))
    }

    func boxFloat(_ value: Float, parent: CodingPathNode?, key: (any CodingKey)?) throws -> EncodedJSON {
        if value.isFinite { return .float(value) }
        return .string(try nonConforming(Double(value), description: "\(value)", type: "Float", parent: parent, key: key))
    }

    private func nonConforming(
        _ value: Double, description: String, type: String, parent: CodingPathNode?, key: (any CodingKey)?
    ) throws -> String {
        try nonConformingText(value, description: description, type: type, path: codingPath(parent, key))
    }

    /// The text of an infinity or NaN under the strategy, or the error for it at `path`.
    func nonConformingText(
        _ value: Double, description: String, type: String, path: @autoclosure () -> [any CodingKey]
    ) throws -> String {
        guard case .convertToString(let positive, let negative, let nan) = settings.nonConformingFloatEncodingStrategy
        else {
            let path = path()
            let message = "JSON cannot represent the \(type) \(description)"
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: path, debugDescription: path.isEmpty ? message : "\(ModelKeyPath(codingPath: path)): \(message)"))
        }
        return value.isNaN ? nan : value < 0 ? negative : positive
    }

    /// The encoded form of `value`, whose coding path is `parent` and `key`;
    /// `nil` when its `encode(to:)` encoded nothing.
    func box<Value: Encodable>(_ value: Value, parent: CodingPathNode?, key: (any CodingKey)?) throws -> EncodedJSON? {
        // The metatype, not casts of the value: this runs unspecialised, once per value.
        switch ObjectIdentifier(Value.self) {
        case ObjectIdentifier(String.self): return .string(unsafeBitCast(value, to: String.self))
        case ObjectIdentifier(Int.self): return .int(unsafeBitCast(value, to: Int.self))
        case ObjectIdentifier(Bool.self): return .bool(unsafeBitCast(value, to: Bool.self))
        case ObjectIdentifier(Double.self): return try boxDouble(unsafeBitCast(value, to: Double.self), parent: parent, key: key)
        case ObjectIdentifier(Date.self): return try boxDate(unsafeBitCast(value, to: Date.self), parent: parent, key: key)
        case ObjectIdentifier(Data.self): return try boxData(unsafeBitCast(value, to: Data.self), parent: parent, key: key)
        case ObjectIdentifier(URL.self): return .string(unsafeBitCast(value, to: URL.self).absoluteString)
        case ObjectIdentifier(Decimal.self):
            let decimal = unsafeBitCast(value, to: Decimal.self)
            guard !decimal.isNaN else {
                let path = codingPath(parent, key)
                let message = "JSON cannot represent the Decimal NaN"
                throw EncodingError.invalidValue(
                    decimal,
                    EncodingError.Context(
                        codingPath: path, debugDescription: path.isEmpty ? message : "\(ModelKeyPath(codingPath: path)): \(message)"))
            }
            return .verbatim(decimal.description)
        // Arrays of the common scalars, without an encoder and container for each.
        case ObjectIdentifier([Int].self): return .array(EncodedArray(unsafeBitCast(value, to: [Int].self).map { .int($0) }))
        case ObjectIdentifier([String].self):
            return .array(EncodedArray(unsafeBitCast(value, to: [String].self).map { .string($0) }))
        case ObjectIdentifier([Double].self):
            let numbers = unsafeBitCast(value, to: [Double].self)
            guard numbers.allSatisfy(\.isFinite) else { break }
            return .array(EncodedArray(numbers.map { .double($0) }))
        default:
            break
        }
        let keepsKeys = !usesDefaultKeys && value is any StringKeyedDictionaryMarker
        let encoder = JSONTreeEncoder(options: self, parent: parent, key: key, keepsKeys: keepsKeys)
        try value.encode(to: encoder)
        return encoder.result
    }

    private func boxDate(_ date: Date, parent: CodingPathNode?, key: (any CodingKey)?) throws -> EncodedJSON? {
        switch settings.dateEncodingStrategy {
        case .deferredToDate:
            return try encodedByItself(date, parent: parent, key: key)
        case .secondsSince1970:
            return try boxDouble(date.timeIntervalSince1970, parent: parent, key: key)
        case .millisecondsSince1970:
            return try boxDouble(date.timeIntervalSince1970 * 1000, parent: parent, key: key)
        case .iso8601:
            return .string(Date.ISO8601FormatStyle().format(date))
        #if canImport(Darwin)
            // Foundation on Linux has no `.formatted` strategy.
            case .formatted(let formatter):
                return .string(formatter.string(from: date))
        #endif
        case .custom(let closure):
            let encoder = JSONTreeEncoder(options: self, parent: parent, key: key)
            try closure(date, encoder)
            return encoder.result ?? .object(EncodedObject())
        @unknown default:
            return try encodedByItself(date, parent: parent, key: key)
        }
    }

    private func boxData(_ data: Data, parent: CodingPathNode?, key: (any CodingKey)?) throws -> EncodedJSON? {
        switch settings.dataEncodingStrategy {
        case .deferredToData:
            return try encodedByItself(data, parent: parent, key: key)
        case .base64:
            return .string(data.base64EncodedString())
        case .custom(let closure):
            let encoder = JSONTreeEncoder(options: self, parent: parent, key: key)
            try closure(data, encoder)
            return encoder.result ?? .object(EncodedObject())
        @unknown default:
            return try encodedByItself(data, parent: parent, key: key)
        }
    }

    /// `value` encoded by its own `encode(to:)`.
    private func encodedByItself(_ value: some Encodable, parent: CodingPathNode?, key: (any CodingKey)?) throws
        -> EncodedJSON?
    {
        let encoder = JSONTreeEncoder(options: self, parent: parent, key: key)
        try value.encode(to: encoder)
        return encoder.result
    }
}
