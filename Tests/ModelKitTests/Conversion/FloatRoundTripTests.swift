import Foundation
import Testing

@testable import ModelKit

/// Issue 51, item 7: every `Float` ModelKit writes reads back as itself, in
/// every format, at the edges of its range above all. The shortest text of
/// `Float.greatestFiniteMagnitude`, 3.4028235e+38, read as a `Double`, lies
/// just above it: it must still read as it.
@Suite struct FloatRoundTripTests {
    static let edges: [Float] = {
        let positive: [Float] = [
            .greatestFiniteMagnitude, Float.greatestFiniteMagnitude.nextDown,
            .leastNormalMagnitude, Float.leastNormalMagnitude.nextUp, Float.leastNormalMagnitude.nextDown,
            .leastNonzeroMagnitude, Float.leastNonzeroMagnitude.nextUp, 1, 0.1, .pi, 16_777_216, 1e38, 1e-38,
        ]
        return [0, -0.0] + positive + positive.map { -$0 }
    }()

    enum Format: String, CaseIterable {
        case json, xml, binary, dictionary, modelValueJSON, defaults
    }

    /// `value` saved in `format` and loaded again, in a model.
    static func roundTrip(_ value: Float, _ format: Format) throws -> (single: Float, list: [Float]) {
        let holder = FloatHolder()
        // A saved property ignores an equal value, and -0.0 == 0: go through 1 first.
        holder.value = 1
        holder.value = value
        holder.values = [value, -value]
        let back: FloatHolder
        switch format {
        case .json: back = try FloatHolder(json: holder.jsonData())
        case .xml: back = try FloatHolder(propertyList: holder.propertyListData(format: .xml))
        case .binary: back = try FloatHolder(propertyList: holder.propertyListData(format: .binary))
        case .dictionary: back = try FloatHolder(dictionary: holder.dictionary)
        case .modelValueJSON:
            // The text, read back as a ModelValue and loaded from it (no direct path).
            back = try FloatHolder(modelValue: ModelValue(json: holder.jsonData()))
        case .defaults:
            return try withTemporaryFolder { folder in
                let url = folder.appendingPathComponent("settings.plist")
                let store = try ModelDefaults(url: url, autosaveDelay: nil, watchInterval: nil)
                store.set(value, forKey: "single")
                store.set([value, -value], forKey: "list")
                try store.save()
                let reopened = try ModelDefaults(url: url, autosaveDelay: nil, watchInterval: nil)
                let single = try #require(try reopened.value(Float.self, forKey: "single"))
                let list = try #require(try reopened.value([Float].self, forKey: "list"))
                return (single, list)
            }
        }
        return (back.value, back.values)
    }

    @Test(arguments: Format.allCases)
    func everyEdgeFloatReadsBackAsItself(format: Format) throws {
        for value in Self.edges {
            let (single, list) = try Self.roundTrip(value, format)
            #expect(single.bitPattern == value.bitPattern, "\(format) \(value)")
            #expect(list.map(\.bitPattern) == [value, -value].map(\.bitPattern), "\(format) \(value)")
        }
    }

    /// The shortest text of the largest Float is what ModelKit writes, and
    /// what it reads back; the Double half-way to 2^128 and beyond still
    /// does not fit, as it rounds to infinity.
    @Test(arguments: [
        (ModelValue.double(3.4028235e38), Float?.some(.greatestFiniteMagnitude)),
        (.double(-3.4028235e38), -.greatestFiniteMagnitude),
        (.double(3.4028235677973362e38), .greatestFiniteMagnitude),  // just below half-way
        (.double(3.4028235677973366e38), nil),  // half-way: rounds to even, which is infinity
        (.double(3.5e38), nil),
        (.double(-1e39), nil),
        (.double(1e-46), 0),  // below half the smallest subnormal: zero, as Float(Double) gives
        (.double(.infinity), .infinity),
    ])
    func narrowingRefusesOnlyWhatRoundsToInfinity(value: ModelValue, expected: Float?) throws {
        if let expected {
            #expect(try Float(modelValue: value) == expected)
        } else {
            let error = #expect(throws: ModelError.self) { try Float(modelValue: value) }
            #expect(error?.description == "expected Float, found \(value.description), which does not fit")
        }
    }

    @Test func theLargestFloatIsWrittenAsItsShortestText() throws {
        let holder = FloatHolder()
        holder.value = .greatestFiniteMagnitude
        #expect(try holder.jsonString().contains("3.4028235e+38"))
    }
}
