import Foundation
import Testing

@testable import ModelKit

/// Every combination of the encoder's options, against `JSONEncoder`: the
/// same bytes when keys are sorted (pretty output spaced as README says),
/// the same JSON otherwise, the same errors.
extension ModelJSONDifferentialTests {
    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// A value that encodes through `superEncoder()` and `superEncoder(forKey:)`.
    struct WithSupers: Encodable {
        var base: Int
        var named: [String]
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: AnyKey.self)
            try container.encode("own", forKey: AnyKey(stringValue: "ownValue"))
            try base.encode(to: container.superEncoder())
            try named.encode(to: container.superEncoder(forKey: AnyKey(stringValue: "namedSuper")))
            var list = container.nestedUnkeyedContainer(forKey: AnyKey(stringValue: "listOfSupers"))
            try "element".encode(to: list.superEncoder())
        }
    }

    enum Event: Encodable {
        case started(atTime: Double, byName: String)
        case stopped
        case moved(to: Place)
    }

    struct Place: Encodable {
        var placeName: String
    }

    struct Everything: Encodable {
        var camelCase = "a/b"
        var when = Date(timeIntervalSince1970: 1_700_000_000.2505)
        var blob = Data([0, 1, 254, 255])
        var ratio: Double
        var emptyList: [Int] = []
        var emptyMap: [String: Int] = [:]
        var nested: [String: [Date]] = ["someDates": [Date(timeIntervalSince1970: 0.2505)]]
        var supers = WithSupers(base: 7, named: ["x"])
        var event = Event.started(atTime: 1.5, byName: "n")
        var stopped = Event.stopped
        var missing: String? = nil
    }

    static let keyStrategies: [(String, JSONEncoder.KeyEncodingStrategy)] = [
        ("default keys", .useDefaultKeys), ("snake case", .convertToSnakeCase),
        ("custom", .custom { path in AnyKey(stringValue: path.last!.stringValue + "_k") }),
    ]
    static let dateStrategies: [(String, JSONEncoder.DateEncodingStrategy)] = [
        ("deferred", .deferredToDate), ("seconds", .secondsSince1970), ("milliseconds", .millisecondsSince1970),
        ("iso8601", .iso8601), ("custom nothing", .custom { _, _ in }),
        ("custom string", .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode("at \(date.timeIntervalSince1970)")
        }),
        ("custom keyed", .custom { _, encoder in _ = encoder.container(keyedBy: AnyKey.self) }),
        ("custom unkeyed", .custom { date, encoder in
            var container = encoder.unkeyedContainer()
            try container.encode(date.timeIntervalSince1970)
            try container.encode("s")
        }),
    ]
    static let dataStrategies: [(String, JSONEncoder.DataEncodingStrategy)] = [
        ("base64", .base64), ("deferred", .deferredToData), ("custom nothing", .custom { _, _ in }),
        ("custom unkeyed", .custom { data, encoder in
            var container = encoder.unkeyedContainer()
            try container.encode(data.count)
        }),
    ]
    static let floatStrategies: [(String, JSONEncoder.NonConformingFloatEncodingStrategy)] = [
        ("throw", .throw), ("strings", .convertToString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")),
    ]

    /// Every combination, numbered: 3 key × 8 date × 4 data × 2 float strategies × 8 formattings = 1,536.
    static let encoderCombinations = 3 * 8 * 4 * 2 * 8

    static func encoders(_ combination: Int) -> (String, JSONEncoder, ModelJSONEncoder) {
        var rest = combination
        func next<T>(_ options: [T]) -> T {
            defer { rest /= options.count }
            return options[rest % options.count]
        }
        let key = next(keyStrategies)
        let date = next(dateStrategies)
        let data = next(dataStrategies)
        let float = next(floatStrategies)
        let formatting = JSONEncoder.OutputFormatting(
            rawValue: next([0, 1, 2, 3, 8, 9, 10, 11] as [UInt]))  // pretty 1, sorted 2, without escaping slashes 8
        let foundation = JSONEncoder()
        foundation.keyEncodingStrategy = key.1
        foundation.dateEncodingStrategy = date.1
        foundation.dataEncodingStrategy = data.1
        foundation.nonConformingFloatEncodingStrategy = float.1
        foundation.outputFormatting = formatting
        var encoder = ModelJSONEncoder()
        encoder.keyEncodingStrategy = key.1
        encoder.dateEncodingStrategy = date.1
        encoder.dataEncodingStrategy = data.1
        encoder.nonConformingFloatEncodingStrategy = float.1
        encoder.outputFormatting = formatting
        return ("\(key.0), dates \(date.0), data \(data.0), floats \(float.0), formatting \(formatting.rawValue)", foundation, encoder)
    }

    /// Foundation's pretty output with ModelKit's spacing of members
    /// (`"key": value`, not `"key" : value`; README's differences).
    static func respaced(_ text: String) -> String {
        text.replacingOccurrences(of: "\" : ", with: "\": ")
    }

    /// What an encode gave: its text, or the error's case and coding path.
    static func encodeOutcome(_ body: () throws -> Data) -> String {
        do {
            return String(decoding: try body(), as: UTF8.self)
        } catch EncodingError.invalidValue(_, let context) {
            return "invalidValue at \(context.codingPath.map(\.stringValue))"
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: 0..<8 as Range<Int>)
    func everyEncoderOptionCombinationEncodesAsInFoundation(part: Int) throws {
        // In eight parts, so a failure names fewer combinations at once.
        let share = Self.encoderCombinations / 8
        for combination in (part * share)..<((part + 1) * share) {
            let (name, foundation, encoder) = Self.encoders(combination)
            // One double a combination, picked by a seeded generator: a finite
            // one, or one the float strategy decides on.
            var generator = SeededGenerator(seed: UInt64(combination) &+ 3300)
            for ratio in [[0.25, .infinity, -.nan].randomElement(using: &generator)!] {
                let value = Everything(ratio: ratio)
                let expected = Self.encodeOutcome { try foundation.encode(value) }
                let actual = Self.encodeOutcome { try encoder.encode(value) }
                if foundation.outputFormatting.contains(.sortedKeys) || expected.hasPrefix("invalidValue") {
                    #expect(actual == Self.respaced(expected), "\(name), ratio \(ratio)")
                } else {
                    // Unsorted keys keep ModelKit's order (README): the same JSON.
                    let parsed = try? JSONSerialization.jsonObject(with: Data(expected.utf8), options: .fragmentsAllowed) as? NSObject
                    let ours = try? JSONSerialization.jsonObject(with: Data(actual.utf8), options: .fragmentsAllowed) as? NSObject
                    #expect(parsed != nil && ours == parsed, "\(name), ratio \(ratio): \(actual) against \(expected)")
                }
            }
        }
    }

    /// `superEncoder()`'s key "super" goes through the key strategy, custom
    /// ones included; keys inside an enum case's payload are converted with
    /// the path ModelKit gives, which names the case (README 12).
    @Test func superKeysAndEnumCasesUnderACustomKeyStrategy() throws {
        let strategy = JSONEncoder.KeyEncodingStrategy.custom { path in
            AnyKey(stringValue: path.last!.stringValue + "_\(path.count)")
        }
        let foundation = JSONEncoder()
        foundation.keyEncodingStrategy = strategy
        foundation.outputFormatting = .sortedKeys
        var encoder = ModelJSONEncoder()
        encoder.keyEncodingStrategy = strategy
        encoder.outputFormatting = .sortedKeys
        let supers = WithSupers(base: 1, named: [])
        let expected = String(decoding: try foundation.encode(supers), as: UTF8.self)
        #expect(expected.contains(#""super_1":1"#))
        #expect(String(decoding: try encoder.encode(supers), as: UTF8.self) == expected)
        let wrapped = ["outer": supers]
        #expect(try encoder.encode(wrapped) == foundation.encode(wrapped))
        // Inside an enum case's payload, Foundation's path leaves the case's name out (README 12).
        let events = [Event.started(atTime: 1.5, byName: "n"), .moved(to: Place(placeName: "p"))]
        let foundationEvents = String(decoding: try foundation.encode(events), as: UTF8.self)
        let ours = String(decoding: try encoder.encode(events), as: UTF8.self)
        #expect(foundationEvents == #"[{"started_2":{"atTime_3":1.5,"byName_3":"n"}},{"moved_2":{"to_3":{"placeName_3":"p"}}}]"#)
        #expect(ours == #"[{"started_2":{"atTime_3":1.5,"byName_3":"n"}},{"moved_2":{"to_3":{"placeName_4":"p"}}}]"#)
    }

    @Test func emptyContainersArePrettyPrintedAsInFoundation() throws {
        let foundation = JSONEncoder()
        foundation.outputFormatting = [.prettyPrinted, .sortedKeys]
        foundation.dateEncodingStrategy = .custom { _, _ in }
        var encoder = ModelJSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .custom { _, _ in }
        let values: [any Encodable] = [
            [String: Int](), [Int](), ["a": [[Int]()]], ["k": Date()], [Date()], Date(), ["a": ["b": [String: [Int]]()]],
        ]
        for value in values {
            let expected = Self.respaced(String(decoding: try foundation.encode(value), as: UTF8.self))
            #expect(String(decoding: try encoder.encode(value), as: UTF8.self) == expected, "\(value)")
            var unsorted = encoder
            unsorted.outputFormatting = .prettyPrinted
            #expect(String(decoding: try unsorted.encode(value), as: UTF8.self) == expected, "\(value)")
        }
        #expect(String(decoding: try encoder.encode(["k": [Int]()]), as: UTF8.self) == "{\n  \"k\": [\n\n  ]\n}")
    }
}
