import Foundation

/// Learns the shape of a `Codable` type's saved form from the type itself:
/// it runs the type's `init(from:)` against a decoder that hands out
/// placeholder values and records what was asked for (which keys, of which
/// types, with `decode` or `decodeIfPresent`), then encodes the value made
/// with ``ModelValueEncoder`` to check that the coding writes the shape it
/// reads. A synthesized `init(from:)` asks for every key with `decode`, so
/// every key is `required`; optionals are asked for with `decodeIfPresent`.
///
/// What the probe cannot learn (an `init(from:)` that refuses placeholder
/// values, or an `encode(to:)` that writes another shape) gives `nil`, and
/// the caller describes the type as any value.
struct CodableShapeProbe {
    let builder: JSONSchemaBuilder

    /// The schema of `type`'s coding, or `nil` when it cannot be learnt.
    func schema<T: Decodable>(of type: T.Type) -> ModelValue? {
        guard let (value, schema) = try? probe(type) else { return nil }
        if let encodable = value as? any Encodable, let written = try? ModelValueEncoder().encode(encodable) {
            guard Self.agrees(written, with: schema) else { return nil }
        }
        return schema
    }

    /// A value of `type` made from placeholders, and the schema of what its
    /// `init(from:)` asked for.
    func probe<T: Decodable>(_ type: T.Type) throws -> (T, ModelValue) {
        if let (value, schema) = try special(type) { return (value, schema) }
        let identifier = ObjectIdentifier(type)
        guard !builder.probing.contains(identifier) else { throw ProbeFailure() }
        builder.probing.insert(identifier)
        defer { builder.probing.remove(identifier) }
        let record = ProbeRecord()
        let value = try T(from: ProbeDecoder(probe: self, record: record, codingPath: []))
        return (value, record.schema(in: builder))
    }

    /// Types that ModelKit's decoder reads itself, optionals, containers and
    /// enums with a list of cases: their schema and a placeholder, without
    /// running their `init(from:)`.
    private func special<T: Decodable>(_ type: T.Type) throws -> (T, ModelValue)? {
        if let convertible = type as? any ModelValueConvertible.Type, ModelValueDecoder.readsNatively(type) {
            guard let placeholder = Self.placeholder(of: type) as? T else { throw ProbeFailure() }
            return (placeholder, convertible.jsonSchema(in: builder))
        }
        if let shaped = type as? any ProbeShaped.Type {
            let (value, schema) = try shaped.probeShape(with: self)
            guard let typed = value as? T else { throw ProbeFailure() }
            return (typed, schema)
        }
        if let iterable = type as? any CaseIterable.Type {
            var cases: [ModelValue] = []
            var first: T?
            for element in iterable.allCases as any Collection {
                guard let value = element as? T, let encodable = value as? any Encodable,
                    let written = try? ModelValueEncoder().encode(encodable)
                else { throw ProbeFailure() }
                if first == nil { first = value }
                if !cases.contains(written) { cases.append(written) }
            }
            guard let first else { throw ProbeFailure() }
            let kinds = Set(cases.map(Self.typeName))
            var schema: ModelValue.Object = [:]
            if kinds.count == 1, let kind = kinds.first, let kind { schema["type"] = .string(kind) }
            schema["enum"] = .array(cases)
            return (first, .object(schema))
        }
        switch type {
        case is Bool.Type: return (false as! T, builder.schema(for: Bool.self))
        case is String.Type: return ("" as! T, builder.schema(for: String.self))
        case is Double.Type: return (0.0 as! T, builder.schema(for: Double.self))
        case is Float.Type: return (Float(0) as! T, builder.schema(for: Float.self))
        case let integer as any (FixedWidthInteger & ModelValueConvertible).Type:
            return (integer.zero as! T, integer.jsonSchema(in: builder))
        default: return nil
        }
    }

    /// The JSON type name of a written value.
    private static func typeName(_ value: ModelValue) -> String? {
        switch value {
        case .string: "string"
        case .int, .bigInteger: "integer"
        case .double: "number"
        case .bool: "boolean"
        default: nil
        }
    }

    /// A value of a type that ModelKit's decoder reads itself.
    private static func placeholder(of type: Any.Type) -> Any? {
        switch type {
        case is ModelValue.Type: ModelValue.null
        case is Date.Type: Date(timeIntervalSince1970: 0)
        case is Data.Type: Data()
        case is URL.Type: URL(string: "https://example.com")
        case is UUID.Type: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        case is Decimal.Type: Decimal(0)
        case is Color.Type: Color.black
        case is Interval.Type: Interval.never
        case is Day.Type: Day("2000-01-01")
        case is TimeOfDay.Type: TimeOfDay.midnight
        case let model as ModelObject.Type: model.init()
        default: nil
        }
    }

    /// Whether the written value has the shape the schema describes, as far
    /// as its top level goes: an object for an object, an array for an array.
    private static func agrees(_ written: ModelValue, with schema: ModelValue) -> Bool {
        guard case .object(let object) = schema, case .string(let type)? = object["type"] else { return true }
        switch (type, written) {
        case ("object", .object(let members)):
            // Every key written must be one the decoder reads.
            guard case .object(let properties)? = object["properties"] else { return true }
            return members.keys.allSatisfy { properties[$0] != nil }
        case ("array", .array): return true
        case ("object", _), ("array", _): return false
        default: return true
        }
    }
}

struct ProbeFailure: Error {}

/// What one `init(from:)` asked its decoder for.
final class ProbeRecord {
    enum Shape { case unknown, keyed, unkeyed, single }
    var shape = Shape.unknown
    var keys: [(key: String, schema: ModelValue, isRequired: Bool)] = []
    var element: ModelValue?
    var single: ModelValue?
    var isNullable = false
    /// Nested keyed containers, by key: their schemas replace the keys' when the schema is made.
    var nested: [(key: String, record: ProbeRecord)] = []
    /// Keys whose value may be `null` (the decoder was asked about `null` there).
    var nullableKeys: Set<String> = []

    func add(_ key: String, _ schema: ModelValue, required: Bool) {
        if let index = keys.firstIndex(where: { $0.key == key }) {
            keys[index].isRequired = keys[index].isRequired && required
        } else {
            keys.append((key, schema, required))
        }
    }

    func schema(in builder: JSONSchemaBuilder) -> ModelValue {
        let result: ModelValue
        switch shape {
        case .unknown: result = [:]
        case .keyed:
            var members = keys
            for (key, record) in nested {
                if let index = members.firstIndex(where: { $0.key == key }) {
                    members[index].schema = record.schema(in: builder)
                }
            }
            for index in members.indices where nullableKeys.contains(members[index].key) {
                members[index].schema = builder.nullable(members[index].schema)
            }
            result = builder.objectSchema(members, closed: false)
        case .unkeyed: result = ["type": "array", "items": element ?? [:]]
        case .single: result = single ?? [:]
        }
        return isNullable ? builder.nullable(result) : result
    }
}

/// Types whose shape the probe learns without running their `init(from:)`.
protocol ProbeShaped {
    static func probeShape(with probe: CodableShapeProbe) throws -> (Any, ModelValue)
}

extension Optional: ProbeShaped where Wrapped: Decodable {
    static func probeShape(with probe: CodableShapeProbe) throws -> (Any, ModelValue) {
        let inner = (try? probe.probe(Wrapped.self))?.1 ?? [:]
        return (Self.none as Any, probe.builder.nullable(inner))
    }
}

extension Array: ProbeShaped where Element: Decodable {
    static func probeShape(with probe: CodableShapeProbe) throws -> (Any, ModelValue) {
        let element = (try? probe.probe(Element.self))?.1 ?? [:]
        return ([Element]() as Any, ["type": "array", "items": element])
    }
}

extension Set: ProbeShaped where Element: Decodable {
    static func probeShape(with probe: CodableShapeProbe) throws -> (Any, ModelValue) {
        let element = (try? probe.probe(Element.self))?.1 ?? [:]
        return (Set<Element>() as Any, ["type": "array", "items": element])
    }
}

extension Dictionary: ProbeShaped where Key == String, Value: Decodable {
    static func probeShape(with probe: CodableShapeProbe) throws -> (Any, ModelValue) {
        if probe.builder.isStrict {
            probe.builder.refuse(
                "a dictionary ([String: \(Value.self)]) has keys that are not known in advance, "
                    + "which strict structured outputs cannot describe")
        }
        let value = (try? probe.probe(Value.self))?.1 ?? [:]
        return ([String: Value]() as Any, ["type": "object", "additionalProperties": value])
    }
}

// MARK: - The decoder

struct ProbeDecoder: Decoder {
    let probe: CodableShapeProbe
    let record: ProbeRecord
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard record.shape == .unknown || record.shape == .keyed else { throw ProbeFailure() }
        record.shape = .keyed
        return KeyedDecodingContainer(ProbeKeyedContainer<Key>(probe: probe, record: record, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard record.shape == .unknown || record.shape == .unkeyed else { throw ProbeFailure() }
        record.shape = .unkeyed
        return ProbeUnkeyedContainer(probe: probe, record: record, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        guard record.shape == .unknown || record.shape == .single else { throw ProbeFailure() }
        record.shape = .single
        return ProbeSingleValueContainer(probe: probe, record: record, codingPath: codingPath)
    }
}

struct ProbeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let probe: CodableShapeProbe
    let record: ProbeRecord
    let codingPath: [any CodingKey]
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool {
        // A key asked about first is one the type can do without.
        record.add(key.stringValue, [:], required: false)
        return true
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        // Asked by `decodeIfPresent`'s default, and by hand: `null` is accepted.
        record.add(key.stringValue, [:], required: false)
        record.nullableKeys.insert(key.stringValue)
        return false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let (value, schema) = try probe.probe(type)
        store(key, schema, required: true)
        return value
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        let (value, schema) = try probe.probe(type)
        store(key, probe.builder.nullable(schema), required: false)
        return value
    }

    private func store(_ key: Key, _ schema: ModelValue, required: Bool) {
        if let index = record.keys.firstIndex(where: { $0.key == key.stringValue }) {
            record.keys[index].schema = schema
            record.keys[index].isRequired = record.keys[index].isRequired && required
        } else {
            record.add(key.stringValue, schema, required: required)
        }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let nested = ProbeRecord()
        nested.shape = .keyed
        let container = ProbeKeyedContainer<NestedKey>(probe: probe, record: nested, codingPath: codingPath + [key])
        // Recorded now and filled in as the caller decodes: the record is a reference.
        record.add(key.stringValue, [:], required: true)
        record.nested.append((key.stringValue, nested))
        return KeyedDecodingContainer(container)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw ProbeFailure()
    }

    func superDecoder() throws -> any Decoder { throw ProbeFailure() }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw ProbeFailure() }
}

struct ProbeUnkeyedContainer: UnkeyedDecodingContainer {
    let probe: CodableShapeProbe
    let record: ProbeRecord
    let codingPath: [any CodingKey]
    var count: Int? { 1 }
    var currentIndex = 0
    var isAtEnd: Bool { currentIndex >= 1 }

    mutating func decodeNil() throws -> Bool {
        record.element = probe.builder.nullable(record.element ?? [:])
        return false
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, schema) = try probe.probe(type)
        if record.element == nil { record.element = schema }
        currentIndex += 1
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    { throw ProbeFailure() }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { throw ProbeFailure() }
    mutating func superDecoder() throws -> any Decoder { throw ProbeFailure() }
}

struct ProbeSingleValueContainer: SingleValueDecodingContainer {
    let probe: CodableShapeProbe
    let record: ProbeRecord
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool {
        record.isNullable = true
        return false
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, schema) = try probe.probe(type)
        record.single = schema
        return value
    }
}
