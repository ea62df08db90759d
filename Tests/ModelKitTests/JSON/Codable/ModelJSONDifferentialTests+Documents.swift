import Foundation
import Testing

@testable import ModelKit

/// Mutated documents: bad escapes, control characters and ill-formed UTF-8
/// in keys and values, number grammar at its edges, repeated keys, nulls
/// and bad dates, each decoded by both decoders; every difference must be
/// one of ``FoundationDifference``.
extension ModelJSONDifferentialTests {
    struct Mutated: Codable, Equatable {
        struct Inner: Codable, Equatable {
            var note: String?
            var when: Date
        }
        var name: String
        var count: Int
        var small: UInt8
        var flag: Bool
        var ratio: Double
        var level: Float
        var tags: [String]
        var inner: Inner
    }

    /// One change to a document, and the differences from Foundation it may show.
    struct Mutation: CustomStringConvertible {
        /// The key whose value (or, with `inKey`, whose key text) is replaced.
        var key: String
        var replacement: [UInt8]
        var inKey = false
        var allowed: [FoundationDifference]
        var description: String { "\(key)\(inKey ? " (key)" : "") <- \(String(decoding: replacement, as: UTF8.self).debugDescription)" }
    }

    /// The members of the document, in order: key, value text.
    static let mutatedMembers: [(String, String)] = [
        ("name", #""ann""#), ("count", "3"), ("small", "7"), ("flag", "true"), ("ratio", "0.5"), ("level", "1.5"),
        ("tags", #"["a","b"]"#), ("inner", #"{"note":"n","when":"2024-01-02T03:04:05Z"}"#), ("junk", #""j""#),
    ]

    /// Bad contents for a string, as the bytes between its quotes.
    static let badStringContents: [[UInt8]] = [
        Array(#"\a"#.utf8), Array(#"x\q"#.utf8), [0x01], Array("a\tb".utf8), Array(#"\ud800"#.utf8), Array(#"\udc00x"#.utf8),
        Array(#"\ud83dx"#.utf8), [0xFF], [0xC0, 0x80], [0x61, 0xE2, 0x82], [0xED, 0xA0, 0x80],
    ]

    /// Numbers at the edges of the grammar and of the types, with what they may show.
    static let edgeNumbers: [(String, [FoundationDifference])] = [
        ("01", [.strictNumberGrammar]), ("1.", [.strictNumberGrammar]), ("-", [.strictNumberGrammar]),
        ("1e", [.strictNumberGrammar]), ("1.5e+", [.strictNumberGrammar]), ("-01.5", [.strictNumberGrammar]),
        ("0e1", [.zeroWithAnExponent]), ("0e5", [.zeroWithAnExponent]), ("-0E+2", [.zeroWithAnExponent]), ("0E-3", []),
        ("-0", []), ("256", [.corruptedAtItsPath]), ("383", [.corruptedAtItsPath]), ("1e400", [.corruptedAtItsPath]),
        ("2e-400", [.corruptedAtItsPath]), ("1.5", [.corruptedAtItsPath]), ("1e2", []), ("2.55e2", []),
        ("9223372036854775808", [.corruptedAtItsPath]), ("1.0", []), ("123456789012345678901234567890", [.corruptedAtItsPath]),
        ("3.5e38", [.corruptedAtItsPath]), ("-1", [.corruptedAtItsPath]), ("1e-400", [.integersFromDigits, .corruptedAtItsPath]),
    ]

    /// The document with `mutations` applied, and the differences they may show.
    static func mutatedDocument(_ mutations: [Mutation]) -> [UInt8] {
        var members: [[UInt8]] = []
        for (key, value) in mutatedMembers {
            var keyBytes = Array(key.utf8)
            var valueBytes = Array(value.utf8)
            for mutation in mutations where mutation.key == key {
                if mutation.inKey { keyBytes = mutation.replacement } else { valueBytes = mutation.replacement }
            }
            members.append([UInt8(ascii: "\"")] + keyBytes + Array("\":".utf8) + valueBytes)
        }
        return [UInt8(ascii: "{")] + Array(members.joined(separator: [UInt8(ascii: ",")])) + [UInt8(ascii: "}")]
    }

    /// A random mutation of the document.
    static func randomMutation(_ generator: inout SeededGenerator) -> Mutation {
        let keys = mutatedMembers.map(\.0)
        let quote = [UInt8(ascii: "\"")]
        switch Int.random(in: 0..<7, using: &generator) {
        case 0:  // bad contents in a string value
            let key = ["name", "junk"].randomElement(using: &generator)!
            return Mutation(key: key, replacement: quote + badStringContents.randomElement(using: &generator)! + quote, allowed: [.corruptedAtItsPath])
        case 1:  // bad contents in a key, known or not
            let key = ["name", "junk", "tags"].randomElement(using: &generator)!
            let bad = badStringContents.randomElement(using: &generator)!
            return Mutation(key: key, replacement: Array(key.utf8.prefix(2)) + bad, inKey: true, allowed: [.corruptedAtItsPath])
        case 2:  // a number at an edge, in a number member or an unknown one
            let (text, allowed) = edgeNumbers.randomElement(using: &generator)!
            let key = ["count", "small", "ratio", "level", "junk"].randomElement(using: &generator)!
            return Mutation(key: key, replacement: Array(text.utf8), allowed: allowed + [.integersFromDigits])
        case 3:  // null for a value that is not optional
            return Mutation(key: keys.filter { $0 != "junk" }.randomElement(using: &generator)!, replacement: Array("null".utf8), allowed: [.nullIsValueNotFound])
        case 4:  // a bad date, or a value of another type
            let dates = [#"{"when":"2024-13-02T03:04:05Z"}"#, #"{"when":"yesterday"}"#, #"{"when":5}"#, #"{"note":5,"when":"2024-01-02T03:04:05Z"}"#]
            return Mutation(key: "inner", replacement: Array(dates.randomElement(using: &generator)!.utf8), allowed: [.dateAtItsPath])
        case 5:  // a value of the wrong type
            let values = [#""7""#, "[]", "{}", "true", "1", #"["a",2]"#]
            return Mutation(key: keys.randomElement(using: &generator)!, replacement: Array(values.randomElement(using: &generator)!.utf8), allowed: [])
        default:  // a repeated key: the junk member renamed to another member's key
            let key = keys.filter { $0 != "junk" }.randomElement(using: &generator)!
            return Mutation(key: "junk", replacement: Array(key.utf8), inKey: true, allowed: [])
        }
    }

    static var mutatedDecoders: (JSONDecoder, ModelJSONDecoder) {
        let foundation = JSONDecoder()
        foundation.dateDecodingStrategy = .iso8601
        var decoder = ModelJSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return (foundation, decoder)
    }

    @Test(arguments: 0..<300 as Range<UInt64>)
    func mutatedDocumentsDecodeAsInFoundation(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed &+ 7700)
        // One change a document: with two, the two decoders may meet them in another order.
        let mutations = [Self.randomMutation(&generator)]
        let document = Data(Self.mutatedDocument(mutations))
        let (foundation, decoder) = Self.mutatedDecoders
        FoundationDifference.decode(
            Mutated.self, from: document, "\(mutations)", foundation: foundation, modelKit: decoder,
            allowing: mutations.flatMap(\.allowed))
    }

    /// The smallest cases of the differences found, each with its outcome on both sides.
    @Test func badStringContentsAreDataCorruptedAtTheirPath() throws {
        let (foundation, decoder) = Self.mutatedDecoders
        // An ill-formed key fails its object, known or not, rather than matching no key.
        for key in ["name", "junk"] {
            for bad in Self.badStringContents {
                let mutation = Mutation(key: key, replacement: Array(key.utf8.prefix(2)) + bad, inKey: true, allowed: [])
                let data = Data(Self.mutatedDocument([mutation]))
                let actual = DecodeOutcome(Result { try decoder.decode(Mutated.self, from: data) })
                #expect(actual == .failure(kind: "dataCorrupted", path: []), "\(mutation)")
                FoundationDifference.decode(Mutated.self, from: data, "\(mutation)", foundation: foundation, modelKit: decoder, allowing: [])
                // One level down, ModelKit names the object.
                let nested = Data(("{\"outer\":".utf8) + Self.mutatedDocument([mutation]) + Array("}".utf8))
                let nestedOutcome = DecodeOutcome(Result { try decoder.decode([String: Mutated].self, from: nested) })
                #expect(nestedOutcome == .failure(kind: "dataCorrupted", path: ["outer"]), "\(mutation)")
                FoundationDifference.decode(
                    [String: Mutated].self, from: nested, "nested \(mutation)", foundation: foundation, modelKit: decoder,
                    allowing: [.corruptedAtItsPath])
            }
        }
        // In a value: at the value's path when read; not at all when no type reads it, as in Foundation.
        for bad in Self.badStringContents {
            let quote = [UInt8(ascii: "\"")]
            let read = Data(Self.mutatedDocument([Mutation(key: "name", replacement: quote + bad + quote, allowed: [])]))
            #expect(DecodeOutcome(Result { try decoder.decode(Mutated.self, from: read) }) == .failure(kind: "dataCorrupted", path: ["name"]))
            FoundationDifference.decode(Mutated.self, from: read, "name", foundation: foundation, modelKit: decoder, allowing: [.corruptedAtItsPath])
            let unread = Data(Self.mutatedDocument([Mutation(key: "junk", replacement: quote + bad + quote, allowed: [])]))
            #expect(throws: Never.self) { try decoder.decode(Mutated.self, from: unread) }
            FoundationDifference.decode(Mutated.self, from: unread, "junk", foundation: foundation, modelKit: decoder, allowing: [])
        }
    }

    @Test func theOtherDocumentedDifferencesLookAsREADMESays() throws {
        let (foundation, decoder) = Self.mutatedDecoders
        func outcomes<Value: Decodable>(_ type: Value.Type, _ text: String) -> (DecodeOutcome, DecodeOutcome) {
            let data = Data(text.utf8)
            return (DecodeOutcome(Result { try foundation.decode(type, from: data) }), DecodeOutcome(Result { try decoder.decode(type, from: data) }))
        }
        // 7: null for a non-optional Bool.
        #expect(outcomes([Bool].self, "[null]") == (.failure(kind: "typeMismatch", path: ["Index 0"]), .failure(kind: "valueNotFound", path: ["Index 0"])))
        #expect(outcomes([Int].self, "[null]") == (.failure(kind: "valueNotFound", path: ["Index 0"]), .failure(kind: "valueNotFound", path: ["Index 0"])))
        // 8: a number that does not fit.
        #expect(outcomes([UInt8].self, "[383]") == (.failure(kind: "dataCorrupted", path: []), .failure(kind: "dataCorrupted", path: ["Index 0"])))
        // 9: a bad ISO 8601 date.
        #expect(outcomes([Mutated.Inner].self, #"[{"when":"nope"}]"#) == (.failure(kind: "dataCorrupted", path: ["Index 0"]), .failure(kind: "dataCorrupted", path: ["Index 0", "when"])))
        // 10: bad number grammar in a member no type reads.
        #expect(outcomes([String: Int].self, #"{"a":1,"b":"x","c":1.5e+}"#).1 == .failure(kind: "dataCorrupted", path: []))
        #expect(outcomes([String].self, "[1.5e+]") == (.failure(kind: "typeMismatch", path: ["Index 0"]), .failure(kind: "dataCorrupted", path: [])))
        // 11: repeated keys keep the first value on both sides.
        #expect(outcomes([String: Int].self, #"{"k":1,"k":"tab"}"#) == (.value(#"["k": 1]"#), .value(#"["k": 1]"#)))
        #expect(outcomes(Mutated.Inner.self, #"{"when":"2024-01-02T03:04:05Z","note":"a","note":5}"#).1.isFailure == false)
        let snakeCase = JSONDecoder()
        snakeCase.keyDecodingStrategy = .convertFromSnakeCase
        var snakeCaseDecoder = ModelJSONDecoder()
        snakeCaseDecoder.keyDecodingStrategy = .convertFromSnakeCase
        let repeated = Data(#"{"k":1,"k":"tab"}"#.utf8)
        #expect(DecodeOutcome(Result { try snakeCase.decode([String: Int].self, from: repeated) }) == .failure(kind: "typeMismatch", path: ["k"]))
        #expect(DecodeOutcome(Result { try snakeCaseDecoder.decode([String: Int].self, from: repeated) }) == .value(#"["k": 1]"#))
        // 13: zero with an exponent.
        #expect(outcomes([Double].self, "[0e1]") == (.failure(kind: "dataCorrupted", path: []), .value("[0.0]")))
        #expect(outcomes([Float].self, "[0e5, 0E-3]") == (.failure(kind: "dataCorrupted", path: []), .value("[0.0, 0.0]")))
    }
}
