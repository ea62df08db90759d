import Foundation
import Testing

@testable import ModelKit

/// The three Codable forms every value type must survive.
enum CodableForm: String, CaseIterable, CustomTestStringConvertible {
    case json, xmlPropertyList, binaryPropertyList

    var testDescription: String { rawValue }

    func roundTrip<T: Codable>(_ value: T) throws -> T {
        // Wrapped in an array: property lists need a container at the top level.
        switch self {
        case .json:
            let data = try JSONEncoder().encode([value])
            return try JSONDecoder().decode([T].self, from: data)[0]
        case .xmlPropertyList, .binaryPropertyList:
            let encoder = PropertyListEncoder()
            encoder.outputFormat = self == .xmlPropertyList ? .xml : .binary
            let data = try encoder.encode([value])
            return try PropertyListDecoder().decode([T].self, from: data)[0]
        }
    }

    /// Decodes `[T]` from a JSON document; used to feed Codable bad input.
    static func decodeJSON<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder().decode([T].self, from: Data(json.utf8))[0]
    }
}

/// Checks that reading `value` as `T` throws a ``ModelError`` whose
/// description is exactly `message` (key path included).
func expectModelError<T: ModelValueConvertible>(
    _ type: T.Type, from value: ModelValue, _ message: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    do {
        let decoded = try T(modelValue: value)
        Issue.record("expected an error, got \(decoded)", sourceLocation: sourceLocation)
    } catch let error as ModelError {
        #expect(error.description == message, sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected a ModelError, got \(error)", sourceLocation: sourceLocation)
    }
}

/// Checks that decoding `json` (an array of one `T`) throws a `DecodingError`
/// whose debug description is `message`.
func expectDecodingError<T: Decodable>(
    _ type: T.Type, json: String, _ message: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    do {
        let decoded = try CodableForm.decodeJSON(T.self, json)
        Issue.record("expected an error, got \(decoded)", sourceLocation: sourceLocation)
    } catch DecodingError.dataCorrupted(let context) {
        #expect(context.debugDescription == message, sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected DecodingError.dataCorrupted, got \(error)", sourceLocation: sourceLocation)
    }
}

/// Compile-time proof that the value types are `Sendable`.
func requireSendable<T: Sendable>(_: T.Type) {}

@Test func valueTypesAreSendable() {
    requireSendable(Color.self)
    requireSendable(Interval.self)
    requireSendable(Interval.Unit.self)
    requireSendable(Day.self)
    requireSendable(TimeOfDay.self)
}
