import Foundation
import Testing

@testable import ModelKit

/// Every scalar a container can decode directly.
struct Scalars: Codable, Equatable {
    var int = 0
    var int8: Int8 = 0
    var int16: Int16 = 0
    var int32: Int32 = 0
    var int64: Int64 = 0
    var uint: UInt = 0
    var uint8: UInt8 = 0
    var uint16: UInt16 = 0
    var uint32: UInt32 = 0
    var uint64: UInt64 = 0
    var float: Float = 0
    var double = 0.0
    var flag = false
    var text = ""
    var maybeInt: Int? = nil
    var maybeText: String? = nil
    var maybeFlag: Bool? = nil
    var maybeDouble: Double? = nil
}

/// The same scalars, each optional: documents may leave any out.
struct SomeScalars: Codable, Equatable {
    var int: Int?
    var int8: Int8?
    var int64: Int64?
    var uint: UInt?
    var uint8: UInt8?
    var float: Float?
    var double: Double?
    var flag: Bool?
    var text: String?
}

/// Nested structs, arrays, dictionaries, optionals of containers.
struct Profile: Codable, Equatable {
    struct Place: Codable, Equatable {
        var city: String
        var zip: String?
        var point: [Double]
    }
    var name: String
    var tags: [String]
    var scores: [String: Int]
    var byNumber: [Int: String]
    var home: Place?
    var places: [Place]
    var matrix: [[Int]]
    var contact: Contact
    var history: [Contact]
    var nested: [String: [Place]]
    var flags: Set<String>
}

/// Foundation's special cases: dates, data, URLs, decimals.
struct Special: Codable, Equatable {
    var date: Date
    var data: Data
    var url: URL
    var decimal: Decimal
    var dates: [Date]
    var maybeDate: Date?
}

/// Keys that a key strategy converts.
struct CamelKeys: Codable, Equatable {
    var fooBar: Int
    var aURL: String?
    var myURLProperty: Int?
    var simple: Int?
    var dictionaryValue: [String: Int]?
}

/// Floats that may be infinite or NaN (compared so that NaN equals NaN).
struct Floats: Codable, Equatable {
    var double: Double
    var float: Float
    var values: [Double]

    static func == (lhs: Floats, rhs: Floats) -> Bool {
        func same(_ a: Double, _ b: Double) -> Bool { a == b || (a.isNaN && b.isNaN) }
        return same(lhs.double, rhs.double) && same(Double(lhs.float), Double(rhs.float))
            && lhs.values.count == rhs.values.count && zip(lhs.values, rhs.values).allSatisfy(same)
    }
}

/// Hand-written containers: nested keyed and unkeyed containers, `decodeNil`,
/// `allKeys`, `contains`, super decoders by key, single values.
struct Handmade: Codable, Equatable {
    var first: Int
    var second: [String]
    var extras: [String: Int]
    var nothing: Bool
    var wrapped: Int

    enum Keys: String, CodingKey { case outer, inner, list, rest, empty, wrapped }
    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(first: Int, second: [String], extras: [String: Int], nothing: Bool, wrapped: Int) {
        self.first = first
        self.second = second
        self.extras = extras
        self.nothing = nothing
        self.wrapped = wrapped
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        let outer = try container.nestedContainer(keyedBy: Keys.self, forKey: .outer)
        first = try outer.decode(Int.self, forKey: .inner)
        var list = try container.nestedUnkeyedContainer(forKey: .list)
        var second: [String] = []
        while !list.isAtEnd {
            if try list.decodeNil() { continue }
            var pair = try list.nestedUnkeyedContainer()
            second.append(try pair.decode(String.self) + (try pair.decode(String.self)))
        }
        self.second = second
        let rest = try container.nestedContainer(keyedBy: AnyKey.self, forKey: .rest)
        var extras: [String: Int] = [:]
        for key in rest.allKeys where rest.contains(key) { extras[key.stringValue] = try rest.decode(Int.self, forKey: key) }
        self.extras = extras
        nothing = try container.decodeNil(forKey: .empty)
        wrapped = try Int(from: container.superDecoder(forKey: .wrapped))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        var outer = container.nestedContainer(keyedBy: Keys.self, forKey: .outer)
        try outer.encode(first, forKey: .inner)
        var list = container.nestedUnkeyedContainer(forKey: .list)
        for text in second {
            var pair = list.nestedUnkeyedContainer()
            try pair.encode(String(text.prefix(1)))
            try pair.encode(String(text.dropFirst()))
            try list.encodeNil()
        }
        var rest = container.nestedContainer(keyedBy: AnyKey.self, forKey: .rest)
        for (key, value) in extras.sorted(by: { $0.key < $1.key }) { try rest.encode(value, forKey: AnyKey(stringValue: key)) }
        if nothing { try container.encodeNil(forKey: .empty) } else { try container.encode(1, forKey: .empty) }
        try wrapped.encode(to: container.superEncoder(forKey: .wrapped))
    }
}

/// Reads a value from `userInfo`.
struct Greeting: Codable, Equatable {
    static let key = CodingUserInfoKey(rawValue: "greeting")!
    var text: String

    init(text: String) { self.text = text }

    init(from decoder: any Decoder) throws {
        let prefix = decoder.userInfo[Self.key] as? String ?? ""
        text = prefix + (try decoder.singleValueContainer().decode(String.self))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode((encoder.userInfo[Self.key] as? String ?? "") + text)
    }
}

/// The same strategies for Foundation's coders and ModelKit's.
struct CoderSettings: @unchecked Sendable, CustomStringConvertible {
    var name = "default"
    var keyDecoding: JSONDecoder.KeyDecodingStrategy = .useDefaultKeys
    var keyEncoding: JSONEncoder.KeyEncodingStrategy = .useDefaultKeys
    var dateDecoding: JSONDecoder.DateDecodingStrategy = .deferredToDate
    var dateEncoding: JSONEncoder.DateEncodingStrategy = .deferredToDate
    var dataDecoding: JSONDecoder.DataDecodingStrategy = .base64
    var dataEncoding: JSONEncoder.DataEncodingStrategy = .base64
    var floatDecoding: JSONDecoder.NonConformingFloatDecodingStrategy = .throw
    var floatEncoding: JSONEncoder.NonConformingFloatEncodingStrategy = .throw
    var formatting: JSONEncoder.OutputFormatting = []

    var description: String { name }

    var foundationDecoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = keyDecoding
        decoder.dateDecodingStrategy = dateDecoding
        decoder.dataDecodingStrategy = dataDecoding
        decoder.nonConformingFloatDecodingStrategy = floatDecoding
        return decoder
    }

    var foundationEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = keyEncoding
        encoder.dateEncodingStrategy = dateEncoding
        encoder.dataEncodingStrategy = dataEncoding
        encoder.nonConformingFloatEncodingStrategy = floatEncoding
        encoder.outputFormatting = formatting
        return encoder
    }

    var decoder: ModelJSONDecoder {
        var decoder = ModelJSONDecoder()
        decoder.keyDecodingStrategy = keyDecoding
        decoder.dateDecodingStrategy = dateDecoding
        decoder.dataDecodingStrategy = dataDecoding
        decoder.nonConformingFloatDecodingStrategy = floatDecoding
        return decoder
    }

    var encoder: ModelJSONEncoder {
        var encoder = ModelJSONEncoder()
        encoder.keyEncodingStrategy = keyEncoding
        encoder.dateEncodingStrategy = dateEncoding
        encoder.dataEncodingStrategy = dataEncoding
        encoder.nonConformingFloatEncodingStrategy = floatEncoding
        encoder.outputFormatting = formatting
        return encoder
    }
}

/// What kind of `DecodingError` an error is, and its coding path, for comparing failures.
func failureKind(_ error: any Error) -> String {
    func path(_ context: DecodingError.Context) -> String {
        context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }
    switch error {
    case DecodingError.typeMismatch(_, let context): return "typeMismatch \(path(context))"
    case DecodingError.valueNotFound(_, let context): return "valueNotFound \(path(context))"
    case DecodingError.keyNotFound(let key, let context): return "keyNotFound \(path(context)) \(key.stringValue)"
    case DecodingError.dataCorrupted: return "dataCorrupted"
    default: return "other \(type(of: error))"
    }
}

/// The debug description of a `DecodingError` or `EncodingError`.
func debugDescription(_ error: any Error) -> String? {
    switch error {
    case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
        DecodingError.keyNotFound(_, let context), DecodingError.dataCorrupted(let context):
        return context.debugDescription
    case EncodingError.invalidValue(_, let context):
        return context.debugDescription
    default:
        return nil
    }
}
