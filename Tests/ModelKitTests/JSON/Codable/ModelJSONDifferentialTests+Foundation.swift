import Foundation
import Testing

@testable import ModelKit

/// What a peer's port of Foundation's own coder tests found different:
/// each behaviour against Foundation's `JSONEncoder`/`JSONDecoder` on this machine.
extension ModelJSONDifferentialTests {
    class Person: Codable {
        var name: String
        init(name: String) { self.name = name }
    }

    final class Employee: Person {
        var badge: Int
        enum Keys: String, CodingKey { case badge }

        init(name: String, badge: Int) {
            self.badge = badge
            super.init(name: name)
        }

        required init(from decoder: any Decoder) throws {
            badge = try decoder.container(keyedBy: Keys.self).decode(Int.self, forKey: .badge)
            try super.init(from: decoder)
        }

        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(badge, forKey: .badge)
            try super.encode(to: encoder)
        }
    }

    @Test func theMetatypeGivenIsTheOneDecodedAsInFoundation() throws {
        let data = try JSONEncoder().encode(Employee(name: "Ann", badge: 7))
        let type: Person.Type = Employee.self
        let expected = try JSONDecoder().decode(type, from: data)
        let actual = try ModelJSONDecoder().decode(type, from: data)
        #expect(expected is Employee)
        let employee = try #require(actual as? Employee)
        #expect(employee.badge == 7 && employee.name == "Ann")
    }

    /// Keeps the decoder and a keyed and an unkeyed container it was given.
    final class Keeper: Decodable, @unchecked Sendable {
        let decoder: any Decoder
        let keyed: KeyedDecodingContainer<AnyKey>
        let list: any UnkeyedDecodingContainer
        struct AnyKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        required init(from decoder: any Decoder) throws {
            self.decoder = decoder
            keyed = try decoder.container(keyedBy: AnyKey.self)
            list = try keyed.nestedUnkeyedContainer(forKey: AnyKey(stringValue: "list"))
        }

        /// What the kept decoder and containers read now.
        func read() throws -> String {
            let name = try decoder.container(keyedBy: AnyKey.self).decode(String.self, forKey: AnyKey(stringValue: "name"))
            let again = try keyed.decode(String.self, forKey: AnyKey(stringValue: "ñame\u{301}"))
            var list = self.list
            var numbers: [Int] = []
            while !list.isAtEnd { numbers.append(try list.decode(Int.self)) }
            let keys = keyed.allKeys.map(\.stringValue).sorted()
            return "\(name) \(again) \(numbers) \(keys)"
        }
    }

    @Test func decodersKeptPastDecodeGoOnReadingAsInFoundation() throws {
        var keepers: [String: Keeper] = [:]
        for source in ["Foundation", "ModelKit"] {
            // The document's bytes are gone (overwritten) when the decoder is used again.
            var data = Data(#"{"name":"kept","list":[1,2,3],"ñame\u0301":"é"}"#.utf8)
            keepers[source] =
                source == "Foundation"
                ? try JSONDecoder().decode(Keeper.self, from: data) : try ModelJSONDecoder().decode(Keeper.self, from: data)
            data.resetBytes(in: 0..<data.count)
        }
        let expected = try keepers["Foundation"]!.read()
        #expect(expected == "kept é [1, 2, 3] [\"list\", \"name\", \"ñame\u{301}\"]")
        #expect(try keepers["ModelKit"]!.read() == expected)
    }

    struct Wide: Codable, Equatable {
        var signed: Int128
        var unsigned: UInt128
        var list: [Int128]
        var maybe: UInt128?
    }

    @Test(arguments: [
        Wide(signed: .max, unsigned: .max, list: [.min, 0, -1], maybe: nil),
        Wide(signed: .min, unsigned: 0, list: [], maybe: UInt128(UInt64.max) + 1),
        Wide(signed: Int128(Int64.min) - 1, unsigned: 1 << 100, list: [Int128(UInt64.max)], maybe: .max),
    ])
    func wideIntegersRoundTripAsInFoundation(value: Wide) throws {
        for settings in Self.sortedSettings + Self.streamingSettings {
            try expectSameAsFoundation(value, settings)
            try expectSameAsFoundation(value.signed, settings)
            try expectSameAsFoundation([value.unsigned], settings)
        }
    }

    @Test(arguments: [
        "18446744073709551615.0", "170141183460469231731687303715884105727", "-170141183460469231731687303715884105728",
        "170141183460469231731687303715884105728", "340282366920938463463374607431768211455",
        "340282366920938463463374607431768211456", "1.0", "1.50", "-0.0", "1E2", "0.5e1", "1e20", "-1", "\"1\"", "null",
        "1.0e0", "[1]",
    ])
    func wideIntegersDecodeAsInFoundation(text: String) throws {
        let data = Data(text.utf8)
        func compare<Value: Decodable & Equatable>(_ type: Value.Type) {
            // `1e20` is exactly an Int128 (README's differences: integers from their digits).
            FoundationDifference.decode(type, from: data, "\(type) \(text)", allowing: [.integersFromDigits, .corruptedAtItsPath])
        }
        compare(Int128.self)
        compare(UInt128.self)
        compare([String: Int128].self)
    }

    @Test(arguments: ["2.01e-1234", "1e-400", "2e-324", "3e-324", "0e-1234", "0.000e-999", "-1e-330", "1e400", "5e-324"])
    func tinyNumbersDecodeAsInFoundation(text: String) throws {
        let reason = text == "1e400" ? "is too large for a Double" : "does not fit in Double"
        let expected = Result { try JSONDecoder().decode(Double.self, from: Data(text.utf8)) }
        let actual = Result { try ModelJSONDecoder().decode(Double.self, from: Data(text.utf8)) }
        switch (expected, actual) {
        case (.success(let expected), .success(let actual)): #expect(actual == expected, "\(text)")
        case (.failure, .failure(let actual)):
            #expect(failureKind(actual) == "dataCorrupted")
            #expect(debugDescription(actual) == "number \(text) \(reason)")
        default: Issue.record("\(text): JSONDecoder \(expected), ModelJSONDecoder \(actual)")
        }
        let inArray = Result { try ModelJSONDecoder().decode([Double].self, from: Data("[1, \(text)]".utf8)) }
        let foundationInArray = Result { try JSONDecoder().decode([Double].self, from: Data("[1, \(text)]".utf8)) }
        if case .failure(let error) = inArray {
            #expect(throws: (any Error).self) { try foundationInArray.get() }
            #expect(debugDescription(error) == "[1]: number \(text) \(reason)")
        } else {
            #expect(try foundationInArray.get() == inArray.get())
        }
    }

    @Test func arrayPositionsAreIndexKeysAsInFoundation() throws {
        struct Box: Codable { var values: [[Int]] }
        let data = Data(#"{"values":[[1],[2,"x"]]}"#.utf8)
        var paths: [[String]] = []
        for decode in [
            { try JSONDecoder().decode(Box.self, from: data) }, { try ModelJSONDecoder().decode(Box.self, from: data) },
        ] {
            do {
                _ = try decode()
                Issue.record("decoded")
            } catch DecodingError.typeMismatch(_, let context) {
                paths.append(context.codingPath.map(\.stringValue))
                #expect(context.codingPath.map(\.intValue) == [nil, 1, 1])
            }
        }
        #expect(paths == [["values", "Index 1", "Index 1"], ["values", "Index 1", "Index 1"]])
        // Encoding: the path an encode(to:) sees, streamed and through the tree.
        struct Spy: Encodable, @unchecked Sendable {
            let seen: NSMutableArray
            func encode(to encoder: any Encoder) throws {
                seen.add(encoder.codingPath.map(\.stringValue).joined(separator: "/"))
                var container = encoder.singleValueContainer()
                try container.encode(1)
            }
        }
        for sorted in [false, true] {
            let foundationSeen = NSMutableArray()
            let seen = NSMutableArray()
            let foundation = JSONEncoder()
            var encoder = ModelJSONEncoder()
            if sorted { encoder.outputFormatting = .sortedKeys }
            _ = try foundation.encode(["k": [Spy(seen: foundationSeen), Spy(seen: foundationSeen)]])
            _ = try encoder.encode(["k": [Spy(seen: seen), Spy(seen: seen)]])
            #expect(seen == foundationSeen)
            #expect(seen as? [String] == ["k/Index 0", "k/Index 1"])
        }
    }

    struct MarkedKeys: Codable, Equatable {
        var one: Int
        var two: Int
        var three: Int
        enum CodingKeys: String, CodingKey {
            case one = "aB\u{301}c"
            case two = "aBC\u{301}d"
            case three = "e\u{301}AbC"
        }
    }

    @Test func snakeCaseKeepsCombiningMarksWithTheirLettersAsInFoundation() throws {
        let settings = Self.sortedSettings[1]
        let value = MarkedKeys(one: 1, two: 2, three: 3)
        let expected = String(decoding: try settings.foundationEncoder.encode(value), as: UTF8.self)
        #expect(expected.contains("a_b\u{301}c"))
        #expect(String(decoding: try settings.encoder.encode(value), as: UTF8.self) == expected)
        #expect(SnakeCase.snakeCased("aB\u{301}c") == "a_b\u{301}c")
        #expect(SnakeCase.snakeCased("aBC\u{301}d") == "a_b_c\u{301}d")
    }
}
