import Foundation
import Testing

@testable import ModelKit

/// Every documented difference between ModelKit's coders and Foundation's
/// on this machine, in one place: README's "Differences from Foundation"
/// lists the same, with the reasons. Each is recognised by what the two
/// answers look like, so a test allows a difference only where its shape
/// fits; anything else is a failure.
enum FoundationDifference: String, CaseIterable, Sendable {
    /// Integers are read from the number's digits (README 1): ModelKit
    /// refuses a number that is not integral where Foundation rounds it
    /// through a `Double` (`1.0000000000000001`, `1e-400`) or drops the
    /// fraction of one past 2^53 (`9007199254740993.5`); it reads an integral
    /// value past 2^53 that Foundation refuses (`1e20` as `Int128`,
    /// `-9.223372036854775808e18` as `Int64`).
    case integersFromDigits
    /// A JSON5 string that JSON5 allows but Foundation refuses once it reads
    /// it (README 6, 14): a control character, `\v`, `\0`, `\u0000`, a
    /// character escaped to itself. ModelKit reads it; Foundation throws
    /// `dataCorrupted` at `[]`.
    case json5StringContents
    /// `null` for a non-optional value that Foundation reports as
    /// `typeMismatch` (`Bool`, among others): ModelKit says `valueNotFound`,
    /// at the same path (README 7).
    case nullIsValueNotFound
    /// A value whose contents are bad (a number that does not fit, a bad
    /// escape or UTF-8 in a string or key): both throw `dataCorrupted`;
    /// ModelKit at the value's path (a key's: its object's), Foundation at
    /// `[]` (README 5, 8).
    case corruptedAtItsPath
    /// A bad date under `.iso8601`: both `dataCorrupted`; ModelKit at the
    /// date's path, Foundation at its parent's (README 9).
    case dateAtItsPath
    /// A number breaking RFC 8259's grammar (`1.5e+`, `01`, `1.`) anywhere in
    /// the document: ModelKit refuses the document at `[]`; Foundation
    /// refuses it only when a number type reads it (README 10).
    case strictNumberGrammar
    /// A repeated key in a `[String: …]` dictionary under a key strategy:
    /// ModelKit reads the first value only, Foundation type-checks every
    /// occurrence and may throw `typeMismatch` (README 11).
    case firstOfRepeatedKeysOnly
    /// `0e1`, `0e5` as `Float`, `Double` or `Date`: ModelKit reads zero,
    /// Foundation throws (README 13).
    case zeroWithAnExponent
}

/// What a decode gave: the value's description, or the error's case and coding path.
enum DecodeOutcome: Equatable, CustomStringConvertible {
    case value(String)
    case failure(kind: String, path: [String])

    init<Value>(_ result: Result<Value, any Error>) {
        switch result {
        case .success(let value): self = .value(String(reflecting: value))
        case .failure(let error):
            let (kind, context): (String, DecodingError.Context?) =
                switch error {
                case DecodingError.typeMismatch(_, let context): ("typeMismatch", context)
                case DecodingError.valueNotFound(_, let context): ("valueNotFound", context)
                case DecodingError.keyNotFound(let key, let context): ("keyNotFound \(key.stringValue)", context)
                case DecodingError.dataCorrupted(let context): ("dataCorrupted", context)
                default: ("other \(type(of: error))", nil)
                }
            self = .failure(kind: kind, path: context?.codingPath.map(\.stringValue) ?? [])
        }
    }

    var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }

    var description: String {
        switch self {
        case .value(let text): text
        case .failure(let kind, let path): "\(kind) at [\(path.joined(separator: ", "))]"
        }
    }
}

extension FoundationDifference {
    /// Whether Foundation's outcome `expected` and ModelKit's `actual` differ in this way.
    func fits(expected: DecodeOutcome, actual: DecodeOutcome) -> Bool {
        switch (self, expected, actual) {
        case (.integersFromDigits, .value, .failure(kind: "dataCorrupted", _)),
            (.integersFromDigits, .failure(kind: "dataCorrupted", path: []), .value):
            return true
        case (.json5StringContents, .failure(kind: "dataCorrupted", path: []), .value):
            return true
        case (.nullIsValueNotFound, .failure(kind: "typeMismatch", let path), .failure(kind: "valueNotFound", let ours)):
            return path == ours
        case (.corruptedAtItsPath, .failure(kind: "dataCorrupted", path: []), .failure(kind: "dataCorrupted", let ours)):
            return !ours.isEmpty
        case (.dateAtItsPath, .failure(kind: "dataCorrupted", let path), .failure(kind: "dataCorrupted", let ours)):
            return path == ours.dropLast()
        case (.strictNumberGrammar, _, .failure(kind: "dataCorrupted", path: [])):
            return true
        case (.zeroWithAnExponent, .failure(kind: "dataCorrupted", _), .value),
            (.firstOfRepeatedKeysOnly, .failure(kind: "typeMismatch", _), .value):
            return true
        default:
            return false
        }
    }

    /// The difference among `allowed` that Foundation's `expected` and
    /// ModelKit's `actual` show: `nil` when they agree; records an issue
    /// (naming `label`) when they differ in a way none of `allowed` describes.
    @discardableResult
    static func check(
        _ label: String, expected: DecodeOutcome, actual: DecodeOutcome, allowing allowed: [FoundationDifference],
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> FoundationDifference? {
        if expected == actual { return nil }
        if let difference = allowed.first(where: { $0.fits(expected: expected, actual: actual) }) { return difference }
        Issue.record("\(label): JSONDecoder \(expected), ModelJSONDecoder \(actual)", sourceLocation: sourceLocation)
        return nil
    }

    /// Decodes `type` from `data` with both decoders and checks the outcomes as ``check(_:expected:actual:allowing:sourceLocation:)`` does.
    @discardableResult
    static func decode<Value: Decodable>(
        _ type: Value.Type, from data: Data, _ label: String, foundation: JSONDecoder = JSONDecoder(),
        modelKit: ModelJSONDecoder = ModelJSONDecoder(), allowing allowed: [FoundationDifference],
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> FoundationDifference? {
        let expected = DecodeOutcome(Result { try foundation.decode(type, from: followedByNUL(data)) })
        let actual = DecodeOutcome(Result { try modelKit.decode(type, from: data) })
        return check(label, expected: expected, actual: actual, allowing: allowed, sourceLocation: sourceLocation)
    }

    /// The document's bytes, followed in their storage by a NUL byte that is
    /// not part of them. Foundation on Linux, decoding a floating-point
    /// number from a JSON5 document that ends in that number, reads one byte
    /// past the document's end, and stops the program when that byte would
    /// continue the number (a digit or `.`; README difference 19). `Data`
    /// keeps a document of up to 14 bytes inline, with zeros after it; after
    /// a longer one lies whatever the allocator left there, so
    /// `9223372036854775808` as `Double` stopped one run of the suite in
    /// many. Foundation is given what it reads past: a NUL, which continues
    /// nothing.
    static func followedByNUL(_ data: Data) -> Data {
        let storage = data + [0]
        return storage[storage.startIndex..<storage.endIndex - 1]
    }
}
