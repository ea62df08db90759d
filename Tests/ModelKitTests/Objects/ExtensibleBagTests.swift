import Foundation
import Testing

@testable import ModelKit

/// The bag holds members as values or as JSON text; whatever it holds, it
/// behaves as the ordered object of their values, and a member keeps its
/// text until it is set.
@Suite struct ExtensibleBagTests {
    static func text(_ json: String) throws -> RawJSON { try RawJSON(validating: Data(json.utf8)) }

    @Test func membersHeldAsTextReadAsTheirValues() throws {
        var bag = ExtensibleBag()
        let appended = [
            bag.appendIfAbsent(key: "price", text: try Self.text("1.10")),
            bag.appendIfAbsent(key: "name", value: "x"),
            bag.appendIfAbsent(key: "big", text: try Self.text("3.14159265358979323846264338")),
            bag.appendIfAbsent(key: "price", value: 2),
        ]
        #expect(appended == [true, true, true, false])
        #expect(bag.keys == ["price", "name", "big"])
        #expect(bag.value(forKey: "price") == 1.1)
        #expect(bag.object == ["price": 1.1, "name": "x", "big": 3.141592653589793])
        #expect(bag.text(at: 0)?.text == "1.10")
        #expect(bag.text(at: 1) == nil)
        #expect(bag.text(at: 2)?.text == "3.14159265358979323846264338")
    }

    @Test func settingOneMemberLeavesTheOthersText() throws {
        var bag = ExtensibleBag()
        _ = bag.appendIfAbsent(key: "a", text: try Self.text("1.10"))
        _ = bag.appendIfAbsent(key: "b", text: try Self.text(#""caf\u00e9""#))
        _ = bag.appendIfAbsent(key: "c", text: try Self.text("1e2"))
        let replaced = bag.set(5, forKey: "b")
        let removed = bag.set(nil, forKey: "a")
        #expect(replaced == "café")
        #expect(removed == 1.1)
        #expect(bag.keys == ["b", "c"])
        #expect(bag.text(at: 0) == nil)
        #expect(bag.text(at: 1)?.text == "1e2")
        #expect(bag.object == ["b": 5, "c": 100.0])
        _ = bag.set(nil, forKey: "c")
        #expect(!bag.hasText)
    }

    @Test func bagsAreEqualByValueWhateverTheSpelling() throws {
        var spelled = ExtensibleBag()
        _ = spelled.appendIfAbsent(key: "n", text: try Self.text("11e-1"))
        _ = spelled.appendIfAbsent(key: "s", text: try Self.text(#""\u0041""#))
        let plain = ExtensibleBag(["n": 1.1, "s": "A"])
        #expect(spelled == plain)
        #expect(spelled != ExtensibleBag(["n": 1.1, "s": "B"]))
    }

    /// Seeded random edits applied to a bag and to a plain object agree.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomEditsAgreeWithAPlainObject(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        var bag = ExtensibleBag()
        var reference = ModelValue.Object()
        let keys = ["a", "b", "c", "é", "e\u{301}", "f"]
        for _ in 0..<400 {
            let key = keys.randomElement(using: &generator)!
            let number = Int.random(in: -5...5, using: &generator)
            switch Int.random(in: 0..<4, using: &generator) {
            case 0:
                let appended = bag.appendIfAbsent(key: key, text: try Self.text(" \(number).0 "))
                #expect(appended == (reference.index(forKey: key) == nil))
                if appended { reference.appendNew(key: key, value: .double(Double(number))) }
            case 1:
                let appended = bag.appendIfAbsent(key: key, value: .int(number))
                #expect(appended == (reference.index(forKey: key) == nil))
                if appended { reference.appendNew(key: key, value: .int(number)) }
            case 2:
                let old = bag.set(.int(number), forKey: key)
                #expect(old == reference[key])
                reference[key] = .int(number)
            default:
                let old = bag.set(nil, forKey: key)
                let expected = reference.removeValue(forKey: key)
                #expect(old == expected)
            }
            #expect(bag.keys == reference.keys)
            #expect(bag.object.values == reference.values)
        }
    }

    /// A bag in its compact form holding the members of `json`, a flat
    /// object whose keys have no escapes, as ranges of its bytes.
    static func compactBag(_ json: String, hashes: [UInt64]? = nil) -> ExtensibleBag {
        let document = Data(json.utf8)
        let bytes = Array(document)
        var bag = ExtensibleBag()
        bag.beginCompact(document)
        guard case .object(let object) = try? ModelValue(json: document) else { return bag }
        var searchFrom = 1
        for (position, key) in object.keys.enumerated() {
            let quoted = Array("\"\(key)\":".utf8)
            var start = searchFrom
            while Array(bytes[start..<(start + quoted.count)]) != quoted { start += 1 }
            let valueStart = start + quoted.count
            let valueEnd = bytes.withUnsafeBufferPointer { buffer in
                var reader = JSONReader(buffer, options: JSONReadingOptions())
                reader.position = valueStart
                return (try? reader.skipValue())?.upperBound ?? valueStart
            }
            let keyRange = (start + 1)..<(start + 1 + key.utf8.count)
            bag.appendCompact(key: keyRange, hash: hashes?[position] ?? KeyHash.hash(key), value: valueStart..<valueEnd)
            searchFrom = valueEnd
        }
        return bag
    }

    @Test func theCompactFormReadsLikeTheGeneralOne() throws {
        let bag = Self.compactBag(#"{"a":1.10,"b":[1,{"c":"\u0041"}],"d":null}"#)
        #expect(bag.isCompact)
        #expect(bag.keys == ["a", "b", "d"])
        #expect(bag.value(forKey: "b") == [1, ["c": "A"]])
        #expect(bag.value(forKey: "x") == nil)
        #expect(bag.object == ["a": 1.1, "b": [1, ["c": "A"]], "d": nil])
        #expect(bag.text(at: 0)?.text == "1.10")
        #expect(!bag.hasRepeatedKeys())
    }

    @Test func repeatedKeysAreFoundWhateverTheirHashes() throws {
        // Equal hashes with different keys are not a repeat; equal keys are.
        #expect(!Self.compactBag(#"{"a":1,"b":2,"c":3}"#, hashes: [7, 7, 7]).hasRepeatedKeys())
        let json = #"{"a":1,"b":2,"a":3}"#
        var bag = ExtensibleBag()
        let document = Data(json.utf8)
        bag.beginCompact(document)
        bag.appendCompact(key: 2..<3, hash: 1, value: 5..<6)
        bag.appendCompact(key: 8..<9, hash: 1, value: 11..<12)
        bag.appendCompact(key: 14..<15, hash: 1, value: 17..<18)
        #expect(bag.hasRepeatedKeys())
        // Turning it into the general form keeps knowing it.
        bag.set(9, forKey: "z")
        #expect(bag.hasRepeatedKeys())
    }

    @Test func settingAMemberOfTheCompactFormKeepsTheOthersText() throws {
        var bag = Self.compactBag(#"{"a":1.10,"b":"\u0041","c":1e2}"#)
        let old = bag.set(5, forKey: "b")
        #expect(old == "A")
        #expect(!bag.isCompact)
        #expect(bag.text(at: 0)?.text == "1.10")
        #expect(bag.text(at: 1) == nil)
        #expect(bag.text(at: 2)?.text == "1e2")
        #expect(bag.object == ["a": 1.1, "b": 5, "c": 100.0])
    }

    @Test func manyUnknownKeysLoadAndAKeyRepeatedLastIsRefused() throws {
        var members = (0..<10_000).map { #""k\#($0)":\#($0).50"# }
        let note = try Note(json: Data(("{" + members.joined(separator: ",") + "}").utf8))
        #expect(note.extensibleProperties.count == 10_000)
        #expect(try note.jsonString().hasSuffix(#""k9999":9999.50}"#))
        members.append(#""k17":1"#)
        do {
            _ = try Note(json: Data(("{" + members.joined(separator: ",") + "}").utf8))
            Issue.record("expected an error")
        } catch {
            #expect(String(describing: error).contains(#"duplicate key "k17" in object"#), "\(error)")
        }
    }
    /// `repeatsKey` finds a repeated key among few members (pair by pair)
    /// and many (a table), whatever the hashes: equal hashes with different
    /// keys are no repeat, equal keys are.
    @Test(arguments: [3, 12, 13, 40])
    func repeatsKeyComparesTheBytesOfEqualHashes(count: Int) {
        let keys = (0..<count).map { "key\($0)" }
        var document = Data()
        var members: [ExtensibleBag.CompactMember] = []
        for key in keys + ["key0"] {
            let start = document.count
            document.append(contentsOf: Array(key.utf8))
            members.append(ExtensibleBag.CompactMember(key: start..<document.count, value: 0..<0))
        }
        var table: [UInt32] = []
        let bytes = Array(document)
        bytes.withUnsafeBufferPointer { buffer in
            members.withUnsafeBufferPointer { all in
                let distinct = UnsafeBufferPointer(rebasing: all[0..<count])
                for hashes in [(0..<count + 1).map { UInt64($0) }, Array(repeating: UInt64(7), count: count + 1)] {
                    hashes.withUnsafeBufferPointer { hashes in
                        #expect(
                            !ExtensibleBag.repeatsKey(
                                distinct, hashes: UnsafeBufferPointer(rebasing: hashes[0..<count]), in: buffer.baseAddress!,
                                table: &table))
                    }
                }
                // The last member repeats the first key; its hash agrees with the first one's.
                var hashes = (0..<count + 1).map { UInt64($0) }
                hashes[count] = 0
                hashes.withUnsafeBufferPointer { hashes in
                    #expect(ExtensibleBag.repeatsKey(all, hashes: hashes, in: buffer.baseAddress!, table: &table))
                }
            }
        }
    }

    /// Unknown members read straight from the document: a key repeated
    /// among few or many is refused as the `ModelValue` path refuses it, and
    /// a key that cannot stay a range (outside ASCII) after plain ones keeps
    /// its place, before and after, and its repeats are refused too.
    @Test(arguments: [2, 12, 13, 30])
    func unknownMembersKeepTheirOrderAndRefuseARepeatedKey(count: Int) throws {
        var members = (0..<count).map { #""k\#($0)" : [\#($0), "x"]"# }
        let json = "{" + members.joined(separator: ",") + #","é":1,"z":2}"#
        let note = try Note(json: Data(json.utf8))
        let expected = (0..<count).map { #""k\#($0)":[\#($0),"x"]"# }.joined(separator: ",") + #","é":1,"z":2}"#
        #expect(try note.jsonString().hasSuffix(expected))
        #expect(note.extensibleProperties.count == count + 2)
        members.append(#""k\#(count - 1)":0"#)
        for repeated in [members, members.dropLast() + [#""é":0"#]] {
            let document = "{" + repeated.joined(separator: ",") + #","é":1}"#
            do {
                _ = try Note(json: Data(document.utf8))
                Issue.record("expected an error")
            } catch {
                #expect(String(describing: error).contains("duplicate key"), "\(error)")
            }
        }
        // Nested models keep their own members apart from their parent's.
        let nested = try Note(json: Data(#"{"a":1,"child":{"a":2,"b":3},"b":4}"#.utf8))
        #expect(nested.extensibleProperties == ["a": 1, "b": 4])
        #expect(nested.child?.extensibleProperties == ["a": 2, "b": 3])
    }
}
