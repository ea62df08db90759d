import Foundation
import Testing

@testable import ModelKit

/// `ModelValue.Object` keeps its keys in order and finds them through a key
/// index once it grows; these tests hold it to a plain model of itself.
@Suite struct ObjectIndexTests {
    /// Random sets, removals and lookups, checked after every step against an
    /// ordered list of pairs, across the size where the index is built and dropped.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func behavesLikeAnOrderedListOfPairs(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var object = ModelValue.Object()
        var model: [(String, Int)] = []
        // Few distinct keys for small objects, many for large ones: both sides of the threshold.
        let keySpace = seed.isMultiple(of: 2) ? 12 : 300
        for step in 0..<4_000 {
            let key = "key\(Int.random(in: 0..<keySpace, using: &generator))" + (step % 7 == 0 ? "é" : "")
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<6:
                object[key] = .int(step)
                if let position = model.firstIndex(where: { $0.0 == key }) {
                    model[position].1 = step
                } else {
                    model.append((key, step))
                }
            case 6..<8:
                let removed = object.removeValue(forKey: key)
                let position = model.firstIndex(where: { $0.0 == key })
                #expect(removed == position.map { .int(model[$0].1) })
                if let position { model.remove(at: position) }
            default:
                #expect(object[key] == model.first(where: { $0.0 == key }).map { .int($0.1) })
            }
        }
        #expect(object.keys == model.map(\.0))
        #expect(object.values == model.map { .int($0.1) })
        for (position, (key, _)) in model.enumerated() { #expect(object.index(forKey: key) == position) }
        #expect(object.index(forKey: "absent") == nil)
    }

    /// Canonically equivalent spellings are two keys, in small and large
    /// objects alike, and survive a round trip.
    @Test(arguments: [0, 20])
    func keysAreToldApartByTheirExactText(padding: Int) throws {
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(composed == decomposed)  // Swift's String equality, which keys do not use
        var object = ModelValue.Object()
        for index in 0..<padding { object["pad\(index)"] = .int(index) }
        object[composed] = 1
        object[decomposed] = 2
        #expect(object.count == padding + 2)
        #expect(object[composed] == 1)
        #expect(object[decomposed] == 2)
        let data = try ModelValue.object(object).jsonData()
        let read = try ModelValue(json: data)
        #expect(read.objectValue?.keys == object.keys)
        #expect(read[composed] == 1)
        #expect(read[decomposed] == 2)
    }

    /// Keys whose hashes all collide still work: the table gives up after a
    /// bounded probe and the object falls back to a `Dictionary`.
    @Test func collidingHashesFallBackToADictionary() throws {
        let keys = (0..<200).map { "k\($0)" }
        var table = KeyTable(capacity: keys.count)
        var gaveUp = false
        for position in keys.indices {
            if case .tooManyCollisions = table.insert(position: position, hash: 42 << 32, in: keys) {
                gaveUp = true
                break
            }
        }
        #expect(gaveUp)
        #expect(table.count == table.probeLimit + 1)

        let hashes = [UInt64](repeating: 7 << 32, count: keys.count)
        let values = keys.indices.map { ModelValue.int($0) }
        let object = try #require(
            hashes.withUnsafeBufferPointer { ModelValue.Object(readKeys: keys, values: values, hashes: $0) })
        for (position, key) in keys.enumerated() { #expect(object[key] == .int(position)) }
        #expect(object["k200"] == nil)

        // A repeated key is found however the hashes collide.
        let repeated = keys + ["k150"]
        let repeatedHashes = [UInt64](repeating: 7 << 32, count: repeated.count)
        let refused = repeatedHashes.withUnsafeBufferPointer {
            ModelValue.Object(readKeys: repeated, values: values + [.null], hashes: $0)
        }
        #expect(refused == nil)
    }

    /// Keys shaped as real documents shape them (counters, numeric ids,
    /// long keys that differ only at the end) spread well under `KeyHash`:
    /// the table never gives up on them, so large objects keep the fast index.
    @Test(arguments: ["k", "", "https://example.com/profile_images/0000000000/", "ü-"])
    func realisticKeysNeverExhaustTheProbeLimit(prefix: String) {
        let keys = (0..<50_000).map { prefix + String($0) }
        var table = KeyTable(capacity: 16)
        for position in keys.indices {
            guard case .inserted = table.insert(position: position, hash: KeyHash.hash(keys[position]), in: keys) else {
                Issue.record("gave up at key \(keys[position])")
                return
            }
        }
        #expect(table.count == keys.count)
        for position in stride(from: 0, to: keys.count, by: 97) {
            #expect(table.position(of: keys[position], hash: KeyHash.hash(keys[position]), in: keys) == position)
        }
        #expect(table.position(of: prefix + "x", hash: KeyHash.hash(prefix + "x"), in: keys) == nil)
    }

    /// Every byte of a key reaches its hash, at every length (the last
    /// bytes are read as one word, in a different way for each length): a
    /// key with one byte changed, or one byte more, hashes differently, and a
    /// `String` hashes as its bytes do.
    @Test func everyByteOfEveryLengthReachesTheHash() {
        var generator = SeededGenerator(seed: 7)
        for length in 0...40 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0x20...0x7E, using: &generator) }
            let hash = (bytes + [0]).withUnsafeBufferPointer { KeyHash.hash($0.baseAddress!, count: length, seed: KeyHash.seed) }
            #expect(KeyHash.hash(String(decoding: bytes, as: UTF8.self)) == hash)
            for position in 0..<length {
                var changed = bytes
                changed[position] ^= 0x01
                #expect(KeyHash.hash(String(decoding: changed, as: UTF8.self)) != hash, "length \(length), byte \(position)")
            }
            #expect(KeyHash.hash(String(decoding: bytes + [0x20], as: UTF8.self)) != hash, "length \(length) + 1")
        }
    }

    /// The reader's key cache returns the right key for every occurrence,
    /// with more distinct keys than the cache has entries, keys that differ
    /// only late, non-ASCII keys and escaped ones.
    @Test(arguments: [10, 20] as [UInt64])
    func readerKeyCacheNeverConfusesKeys(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let alphabet = ["a", "b", "é", "日", "😀", "_", "0"]
        var pool: [String] = []
        for length in 0..<40 {
            for _ in 0..<20 {
                pool.append(String((0..<length).map { _ in Character(alphabet.randomElement(using: &generator)!) }))
            }
        }
        pool = Array(Set(pool)).sorted()
        var objects: [ModelValue] = []
        for _ in 0..<300 {
            var members = ModelValue.Object()
            for _ in 0..<Int.random(in: 0..<30, using: &generator) {
                members[pool.randomElement(using: &generator)!] = .int(Int.random(in: 0..<100, using: &generator))
            }
            objects.append(.object(members))
        }
        let document = ModelValue.array(objects)
        let data = try document.jsonData()
        #expect(try ModelValue(json: data) == document)
        // The same keys spelled with \u escapes read as the same keys.
        let escaped = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\"a", with: "\"\\u0061")
        #expect(try ModelValue(json: Data(escaped.utf8)) == document)
    }
}
