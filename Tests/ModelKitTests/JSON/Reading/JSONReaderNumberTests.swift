import Foundation
import Testing

@testable import ModelKit

/// Numbers: the grammar, integers, big integers and correctly rounded doubles.
@Suite struct JSONReaderNumberTests {
    @Test(arguments: [
        ("0", ModelValue.int(0)),
        ("-0", .int(0)),
        ("7", .int(7)),
        ("-12", .int(-12)),
        ("9223372036854775807", .int(.max)),
        ("-9223372036854775808", .int(.min)),
        ("9223372036854775808", .bigInteger("9223372036854775808")),
        ("-9223372036854775809", .bigInteger("-9223372036854775809")),
        ("99999999999999999999", .bigInteger("99999999999999999999")),
        ("123456789012345678901234567890", .bigInteger("123456789012345678901234567890")),
        ("-0.0", .double(-0.0)),
        ("0.0", .double(0)),
        ("1.0", .double(1)),
        ("1e2", .double(100)),
        ("1E2", .double(100)),
        ("1e+2", .double(100)),
        ("1e-2", .double(0.01)),
        ("-1.5E-3", .double(-0.0015)),
        ("0.1", .double(0.1)),
        ("3.141592653589793", .double(3.141592653589793)),
        ("1.7976931348623157e308", .double(.greatestFiniteMagnitude)),
        ("4.9406564584124654e-324", .double(.leastNonzeroMagnitude)),
        ("2.2250738585072014e-308", .double(.leastNormalMagnitude)),
        ("1e-400", .double(0)),
        ("-1e-400", .double(-0.0)),
        ("0e999999999999999999999", .double(0)),
        ("9007199254740993.0", .double(9_007_199_254_740_992)),
        ("123456789012345678901234567890.5", .double(1.2345678901234568e29)),
        ("0.000000000000000000000000000001", .double(1e-30)),
    ])
    func readsNumbers(text: String, expected: ModelValue) throws {
        let value = try readJSON(text)
        #expect(value == expected)
        if case .double(let read) = value, case .double(let wanted) = expected {
            #expect(read.bitPattern == wanted.bitPattern, "\(text) read as \(read)")
        }
    }

    @Test(arguments: [
        ("01", "expected no leading zero in a number, found '0'", 1),
        ("-01", "expected no leading zero in a number, found '0'", 2),
        ("00", "expected no leading zero in a number, found '0'", 1),
        ("1.", "expected a digit after '.', found end of input", 3),
        ("1.e5", "expected a digit after '.', found 'e'", 3),
        (".5", "expected a value, found '.'", 1),
        ("1e", "expected a digit in the exponent, found end of input", 3),
        ("1e+", "expected a digit in the exponent, found end of input", 4),
        ("1E-x", "expected a digit in the exponent, found 'x'", 4),
        ("+1", "expected a value, found '+'", 1),
        ("-", "expected a digit after '-', found end of input", 2),
        ("-a", "expected a digit after '-', found 'a'", 2),
        ("- 1", "expected a digit after '-', found ' '", 2),
        ("0x10", "expected end of input after the top-level value, found 'x'", 2),
        ("1.5.2", "expected end of input after the top-level value, found '.'", 4),
        ("Infinity", "expected a value, found 'I'", 1),
        ("-Infinity", "expected a digit after '-', found 'I'", 2),
    ] as [(String, String, Int)])
    func refusesMalformedNumbers(text: String, message: String, column: Int) {
        let error = readFailure(text)
        #expect(error?.code == .malformedDocument)
        #expect(error?.message == message)
        #expect(error?.location?.column == column)
    }

    @Test(arguments: ["1e309", "-1e309", "1e999999999999999999", "[1,{\"a\":1.8e308}]"])
    func refusesNumbersBeyondDouble(text: String) {
        let error = readFailure(text)
        #expect(error?.code == .numberOutOfRange)
        #expect(error?.message.hasSuffix("is too large for a Double") == true)
        if text.hasPrefix("[") { #expect(error?.keyPath.description == "[1].a") }
    }

    /// The fast paths agree bit for bit with the C library's correctly rounded conversion.
    @Test func roundsLikeStrtodOnRandomDecimalText() throws {
        var generator = SeededGenerator(seed: 0x5EED_0001)
        for _ in 0..<20_000 {
            var text = Bool.random(using: &generator) ? "-" : ""
            let digitCount = Int.random(in: 1...21, using: &generator)
            var digits = String(Int.random(in: 1...9, using: &generator))
            for _ in 1..<digitCount { digits += String(Int.random(in: 0...9, using: &generator)) }
            let point = Int.random(in: 1...digitCount, using: &generator)
            text += digits.prefix(point) + "." + (point == digitCount ? "0" : digits.dropFirst(point))
            if Bool.random(using: &generator) { text += "e\(Int.random(in: -40...40, using: &generator))" }
            guard case .double(let read) = try readJSON(text) else {
                Issue.record("\(text) did not read as a double")
                continue
            }
            let reference = strtod(text, nil)
            #expect(read.bitPattern == reference.bitPattern, "\(text): read \(read), strtod \(reference)")
        }
    }

    /// Halfway cases, where a double rounding would go wrong.
    @Test(arguments: [
        "9007199254740993e0", "9007199254740995.0", "18014398509481986.0", "1.00000000000000011102230246251565404e0",
        "4503599627370496.5", "4503599627370497.5", "2.0000000000000004440892098500626161694526672363281e0",
        "9223372036854775807.0", "18446744073709551615e0", "18446744073709551615e-27", "1844674407370955161.5e10",
    ])
    func roundsHalfwayCasesToEven(text: String) throws {
        guard case .double(let read) = try readJSON(text) else {
            Issue.record("\(text) did not read as a double")
            return
        }
        #expect(read.bitPattern == strtod(text, nil).bitPattern)
    }
}
