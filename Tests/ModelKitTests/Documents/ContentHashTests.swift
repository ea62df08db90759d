import Foundation
import Testing

@testable import ModelKit

/// The content hash is fixed once and for all (kept bases are named by it),
/// spreads every input bit over all 128 bits, and tells apart the inputs a
/// history meets.
@Suite struct ContentHashTests {
    /// Each case: an input and its hash, as every run and platform must give
    /// it. A change of the algorithm fails here first.
    /// Computed, not stored: a stored static of `Data` values is reported
    /// by LeakSanitizer in `.ci/run`.
    static var knownAnswers: [(Data, String)] {
        [
        (Data(), "7334f9c57d9577c18442ad72c177df4e"),
        (Data("a".utf8), "2537521b5b9b8125be1267ab43f9d84b"),
        (Data("abc".utf8), "bfc457444a5a314a4c5ac5ec0dd9370a"),
        (Data(#"{"title":"Milk"}"#.utf8), "2ac2e2adbfe9e5ebb55fd5dabd852b6a"),
        (Data((0..<31).map { UInt8($0) }), "de6c01242676e7256d1923887246bfa8"),
        (Data((0..<32).map { UInt8($0) }), "0bb4c9bd5690c700e44f5b0a18f6a88b"),
        (Data((0..<100).map { UInt8($0) }), "c92a29affb6429efb8c6c1f995e2d0c4"),
        (Data(repeating: 0, count: 1000), "17d95d788bc9e151baa88779fa3804b3"),
        ]
    }

    @Test(arguments: knownAnswers.indices)
    func theHashOfKnownInputsNeverChanges(index: Int) {
        let (input, hex) = Self.knownAnswers[index]
        let hash = ContentHash(input)
        #expect(hash.hex == hex)
        #expect(hash.description == hex)
        #expect(ContentHash(hex: hex) == hash)
        #expect(input.withUnsafeBytes { ContentHash(bytes: $0) } == hash)
    }

    /// Bytes at an offset of a larger buffer hash as the same bytes alone
    /// (the words are read unaligned).
    @Test func theHashDependsOnlyOnTheBytesNotWhereTheyLie() {
        var generator = SeededGenerator(seed: 1)
        let bytes = (0..<300).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for offset in 0..<9 {
            let slice = Data(bytes[offset..<(offset + 200)])
            #expect(ContentHash(slice) == ContentHash(Data(Array(bytes[offset..<(offset + 200)]))))
            let inPlace = bytes.withUnsafeBytes {
                ContentHash(bytes: UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + 200)]))
            }
            #expect(inPlace == ContentHash(slice))
        }
    }

    /// Inputs a history meets (every length of zeros, every one-byte change
    /// of a document) give distinct hashes.
    @Test func nearbyInputsHaveDistinctHashes() {
        var seen = Set<ContentHash>()
        for length in 0...300 { seen.insert(ContentHash(Data(repeating: 0, count: length))) }
        #expect(seen.count == 301)
        let document = Array(#"{"title":"Groceries","items":["milk","eggs","bread"],"done":false,"count":3}"#.utf8)
        var changed = Set<ContentHash>()
        for index in document.indices {
            for delta: UInt8 in [1, 2, 128] {
                var copy = document
                copy[index] &+= delta
                changed.insert(ContentHash(Data(copy)))
            }
        }
        #expect(changed.count == document.count * 3)
    }

    /// Flipping one input bit flips about half of the 128 output bits, in
    /// each half, for short and long inputs (seeded, so it repeats).
    @Test(arguments: [0, 1, 7, 8, 31, 32, 33, 64, 100, 1000])
    func oneFlippedBitChangesHalfTheHash(length: Int) {
        var generator = SeededGenerator(seed: UInt64(length) &+ 60)
        var total = 0
        var trials = 0
        var lowest = 128
        for _ in 0..<64 {
            var bytes = (0..<max(length, 1)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if length == 0 { bytes = [] }
            let original = ContentHash(Data(bytes))
            guard !bytes.isEmpty else { break }
            let bit = Int.random(in: 0..<(bytes.count * 8), using: &generator)
            bytes[bit / 8] ^= 1 << UInt8(bit % 8)
            let flipped = ContentHash(Data(bytes))
            let high = (original.high ^ flipped.high).nonzeroBitCount
            let low = (original.low ^ flipped.low).nonzeroBitCount
            total += high + low
            trials += 1
            lowest = min(lowest, high, low)
        }
        guard trials > 0 else { return }
        let average = Double(total) / Double(trials)
        #expect(average > 58 && average < 70, "average \(average) bits of 128")
        #expect(lowest > 12, "a half changed by only \(lowest) bits")
    }

    @Test(arguments: [
        "", "0", "7334f9c57d9577c18442ad72c177df4", "7334F9C57D9577C18442AD72C177DF4E",
        "7334f9c57d9577c18442ad72c177df4g", "+334f9c57d9577c18442ad72c177df4e",
    ])
    func onlyThirtyTwoLowercaseHexDigitsReadAsAHash(text: String) {
        #expect(ContentHash(hex: text) == nil)
    }
}
