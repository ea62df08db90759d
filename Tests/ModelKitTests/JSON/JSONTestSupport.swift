import Foundation
import Testing

@testable import ModelKit

/// Reads `text` as JSON with `options`.
func readJSON(_ text: String, options: JSONReadingOptions = JSONReadingOptions()) throws -> ModelValue {
    try ModelValue(json: Data(text.utf8), options: options)
}

/// Reads `bytes` as JSON with `options`.
func readJSON(bytes: [UInt8], options: JSONReadingOptions = JSONReadingOptions()) throws -> ModelValue {
    try ModelValue(json: Data(bytes), options: options)
}

/// The ``ModelError`` that reading `bytes` throws, or `nil` (recorded as a test failure) when it reads.
func readFailure(
    bytes: [UInt8], options: JSONReadingOptions = JSONReadingOptions(), sourceLocation: SourceLocation = #_sourceLocation
) -> ModelError? {
    do {
        let value = try readJSON(bytes: bytes, options: options)
        Issue.record("expected an error, read \(value)", sourceLocation: sourceLocation)
        return nil
    } catch let error as ModelError {
        return error
    } catch {
        Issue.record("expected a ModelError, caught \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// The ``ModelError`` that reading `text` throws.
func readFailure(
    _ text: String, options: JSONReadingOptions = JSONReadingOptions(), sourceLocation: SourceLocation = #_sourceLocation
) -> ModelError? {
    readFailure(bytes: Array(text.utf8), options: options, sourceLocation: sourceLocation)
}

/// Random documents that exercise every corner of the codec: numbers at the
/// edges of `Int` and `Double`, big integers, strings with every character
/// that needs an escape and with text beyond the Basic Multilingual Plane,
/// and nesting of arrays and objects.
struct RandomDocuments {
    var generator: SeededGenerator

    init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

    mutating func value(depth: Int) -> ModelValue {
        let containers = depth > 0 ? 2 : 0
        switch Int.random(in: 0..<(7 + containers), using: &generator) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .int(integer())
        case 3: return .bigInteger(bigInteger())
        case 4: return .double(double())
        case 5, 6: return .string(string())
        case 7:
            let count = Int.random(in: 0...5, using: &generator)
            return .array((0..<count).map { _ in value(depth: depth - 1) })
        default:
            let count = Int.random(in: 0...5, using: &generator)
            var object = ModelValue.Object()
            for _ in 0..<count { object[string()] = value(depth: depth - 1) }
            return .object(object)
        }
    }

    mutating func integer() -> Int {
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: return [Int.min, Int.max, Int.min + 1, Int.max - 1, 0, -1, 1][Int.random(in: 0..<7, using: &generator)]
        case 1: return Int.random(in: -1000...1000, using: &generator)
        default: return Int(truncatingIfNeeded: generator.next()) >> Int.random(in: 0..<64, using: &generator)
        }
    }

    mutating func bigInteger() -> String {
        let edges = ["9223372036854775808", "-9223372036854775809", "18446744073709551616", "-18446744073709551615"]
        if Bool.random(using: &generator) { return edges[Int.random(in: 0..<edges.count, using: &generator)] }
        var digits = Bool.random(using: &generator) ? "-" : ""
        digits += String(Int.random(in: 1...9, using: &generator))
        for _ in 0..<Int.random(in: 19...40, using: &generator) { digits += String(Int.random(in: 0...9, using: &generator)) }
        return digits
    }

    mutating func double() -> Double {
        switch Int.random(in: 0..<5, using: &generator) {
        case 0:
            let edges: [Double] = [
                0, -0.0, 1, -1, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude,
                .leastNormalMagnitude, 9_007_199_254_740_992, 1e15, 1e16, 1e22, 1e23, 0.1, 1e300, 123_456.0,
            ]
            return edges[Int.random(in: 0..<edges.count, using: &generator)]
        case 1: return Double(Int.random(in: -1_000_000...1_000_000, using: &generator))
        case 2: return Double.random(in: -1000...1000, using: &generator)
        default:
            // Any finite bit pattern: subnormals, huge and tiny exponents.
            while true {
                let value = Double(bitPattern: generator.next())
                if value.isFinite { return value }
            }
        }
    }

    mutating func string() -> String {
        let pieces: [String] = [
            "a", "Z", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{08}", "\u{0C}", "\u{00}", "\u{1F}", "\u{7F}",
            "é", "ß", "€", "中文", "\u{FEFF}", "\u{2028}", "😀", "\u{10FFFF}", "key", "1",
        ]
        let count = Int.random(in: 0...12, using: &generator)
        var text = ""
        for _ in 0..<count { text += pieces[Int.random(in: 0..<pieces.count, using: &generator)] }
        return text
    }
}

/// Where the benchmark corpus lives, if it is there.
func corpusURL(_ name: String) -> URL? {
    var directory = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { directory.deleteLastPathComponent() }  // the package's root
    let url = directory.appendingPathComponent("../shared/corpus/\(name)").standardizedFileURL
    return FileManager.default.fileExists(atPath: url.path) ? url : nil
}
