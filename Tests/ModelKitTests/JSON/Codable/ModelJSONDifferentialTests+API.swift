import Foundation
import Testing

@testable import ModelKit

#if canImport(Combine)
    import Combine
#endif

/// Foundation's coder API that ModelKit's coders offer too: the same
/// answers as `JSONDecoder`/`JSONEncoder` on this machine.
extension ModelJSONDifferentialTests {
    struct Pair: Codable, Equatable {
        var a: Int
        var b: String?
    }

    @Test(arguments: [
        #""a":1"#, #""a":1,"b":"x""#, #"{"a":1}"#, "", " \n ", "[1]", #""a":1}"#, #""a":"x""#, "\u{FEFF}\"a\":2",
        " \n {\"a\": 3 } ", "\"a\":1,\n\"b\": x", #""a":1,"#,
    ])
    func topLevelDictionariesWithoutBracesReadAsInFoundation(text: String) throws {
        let data = Data(text.utf8)
        let foundation = JSONDecoder()
        foundation.assumesTopLevelDictionary = true
        var decoder = ModelJSONDecoder()
        decoder.assumesTopLevelDictionary = true
        var expected = Result { try foundation.decode(Pair.self, from: data) }
        let actual = Result { try decoder.decode(Pair.self, from: data) }
        // Foundation on Linux accepts a trailing comma; ModelKit's grammar is strict (documented).
        if text.hasSuffix(",") { expected = .failure(DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: ""))) }
        switch (expected, actual) {
        case (.success(let expected), .success(let actual)): #expect(actual == expected)
        case (.failure(let expected), .failure(let actual)):
            #expect(failureKind(actual) == failureKind(expected), "\(actual)")
        default: Issue.record("\(text.debugDescription): JSONDecoder \(expected), ModelJSONDecoder \(actual)")
        }
        // Without the option, a document without braces is not JSON.
        if !text.contains("{"), !text.contains("[") {
            #expect(throws: DecodingError.self) { try ModelJSONDecoder().decode(Pair.self, from: data) }
        }
    }

    @Test func errorsWithoutBracesGiveTheDocumentsOwnLinesAndColumns() throws {
        var decoder = ModelJSONDecoder()
        decoder.assumesTopLevelDictionary = true
        let text = "\"a\": 1,\n\"b\": x"
        let error = #expect(throws: DecodingError.self) { try decoder.decode(Pair.self, from: Data(text.utf8)) }
        guard case .dataCorrupted(let context) = error, let underlying = context.underlyingError as? ModelError else {
            Issue.record("\(String(describing: error))")
            return
        }
        // The same place as in the same members with their braces, one line up.
        let braced = #expect(throws: DecodingError.self) { try ModelJSONDecoder().decode(Pair.self, from: Data("{\n\(text)\n}".utf8)) }
        guard case .dataCorrupted(let bracedContext) = braced, let bracedError = bracedContext.underlyingError as? ModelError
        else { return }
        #expect(underlying.location?.line == 2)
        #expect(underlying.location?.line == bracedError.location.map { $0.line - 1 })
        #expect(underlying.location?.column == bracedError.location?.column)
        #expect(underlying.location?.byteOffset == bracedError.location.map { $0.byteOffset - 2 })
    }

    /// Encoded and decoded with a scale, or with its provider's.
    struct Scaled: CodableWithConfiguration, Equatable {
        var value: Double
        var label: String

        enum Keys: String, CodingKey { case value, label }

        init(value: Double, label: String) {
            self.value = value
            self.label = label
        }

        init(from decoder: any Decoder, configuration scale: Double) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            value = try container.decode(Double.self, forKey: .value) / scale
            label = try container.decode(String.self, forKey: .label)
        }

        func encode(to encoder: any Encoder, configuration scale: Double) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(value * scale, forKey: .value)
            try container.encode(label, forKey: .label)
        }
    }

    enum Percent: EncodingConfigurationProviding, DecodingConfigurationProviding {
        static let encodingConfiguration = 100.0
        static let decodingConfiguration = 100.0
    }

    @Test func configurationsReachTheValueAsInFoundation() throws {
        let value = Scaled(value: 0.25, label: "quarter")
        let foundation = JSONEncoder()
        foundation.outputFormatting = .sortedKeys
        var encoder = ModelJSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let expected = try foundation.encode(value, configuration: 10)
        #expect(String(decoding: try encoder.encode(value, configuration: 10), as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        let percent = try foundation.encode(value, configuration: Percent.self)
        // Integral doubles keep their ".0" (a documented difference).
        #expect(String(decoding: percent, as: UTF8.self) == #"{"label":"quarter","value":25}"#)
        #expect(String(decoding: try encoder.encode(value, configuration: Percent.self), as: UTF8.self) == #"{"label":"quarter","value":25.0}"#)
        #expect(try ModelJSONDecoder().decode(Scaled.self, from: expected, configuration: 10) == value)
        #expect(try ModelJSONDecoder().decode(Scaled.self, from: percent, configuration: Percent.self) == value)
        #expect(try JSONDecoder().decode(Scaled.self, from: percent, configuration: Percent.self) == value)
        // Errors are the same kind as Foundation's.
        let bad = Data(#"{"value":"x"}"#.utf8)
        let error = #expect(throws: DecodingError.self) { try ModelJSONDecoder().decode(Scaled.self, from: bad, configuration: 1) }
        let foundationError = #expect(throws: DecodingError.self) { try JSONDecoder().decode(Scaled.self, from: bad, configuration: 1) }
        #expect(error.map(failureKind) == foundationError.map(failureKind))
    }

    #if canImport(Combine)
        @Test func theCodersAreCombinesTopLevelCoders() throws {
            let subject = Just(Pair(a: 1, b: nil)).encode(encoder: ModelJSONEncoder()).decode(type: Pair.self, decoder: ModelJSONDecoder())
            var received: [Pair] = []
            _ = subject.sink(receiveCompletion: { _ in }, receiveValue: { received.append($0) })
            #expect(received == [Pair(a: 1, b: nil)])
        }
    #endif
}
