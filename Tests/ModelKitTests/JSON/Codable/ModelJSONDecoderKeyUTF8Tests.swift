import Foundation
import Testing

@testable import ModelKit

/// Issue 57, item 14: a key of ill-formed UTF-8 is an error, as
/// `JSONDecoder` makes it, never repaired into U+FFFD.
@Suite struct ModelJSONDecoderKeyUTF8Tests {
    struct Named: Decodable, Equatable {
        var name = ""
    }

    static func document(key bytes: [UInt8]) -> Data {
        Data(#"{"name":"a",""#.utf8) + Data(bytes) + Data(#"":1}"#.utf8)
    }

    @Test(arguments: [
        ([0xC0, 0x80], "0xC0", "14 (byte 13)"), ([0xFF], "0xFF", "14 (byte 13)"),
        ([0xED, 0xA0, 0x80], "0xED", "14 (byte 13)"), ([0x61, 0xE2, 0x82], "0xE2", "15 (byte 14)"),
    ] as [([UInt8], String, String)])
    func anIllFormedKeyIsAnError(bytes: [UInt8], first: String, column: String) throws {
        let data = Self.document(key: bytes)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([String: AnyScalar].self, from: data) }
        for decode in [
            { _ = try ModelJSONDecoder().decode([String: AnyScalar].self, from: data) },
            { _ = try ModelJSONDecoder().decode(Named.self, from: data) },
        ] as [() throws -> Void] {
            let error = try #require(throws: DecodingError.self) { try decode() }
            guard case .dataCorrupted(let context) = error else {
                Issue.record("unexpected \(error)")
                continue
            }
            #expect(
                context.debugDescription
                    == "in a key: invalid UTF-8 (byte \(first)) in string at line 1, column \(column)")
        }
    }

    @Test func wellFormedKeysPastASCIIStillRead() throws {
        let data = Data(#"{"café":1,"名前":2,"e\u0301":3}"#.utf8)
        #expect(try ModelJSONDecoder().decode([String: Int].self, from: data) == ["café": 1, "名前": 2, "e\u{301}": 3])
    }
}

/// A number or a string, for dictionaries read by both decoders.
enum AnyScalar: Decodable, Equatable {
    case number(Int), text(String)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            self = .number(number)
        } else {
            self = .text(try container.decode(String.self))
        }
    }
}
