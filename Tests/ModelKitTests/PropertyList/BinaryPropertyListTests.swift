import Foundation
import Testing

@testable import ModelKit

/// ModelKit's own binary property lists: exact keys in order, the same bytes
/// every run, and every damaged or hostile file refused with a clear error.
@Suite struct BinaryPropertyListTests {
    /// A binary property list made by hand from its objects (each a marker
    /// and payload, references one byte), with the root first.
    static func file(_ objects: [[UInt8]], offsetSize: UInt8 = 2, top: UInt64 = 0) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let table = bytes.count
        for offset in offsets {
            if offsetSize == 2 { bytes += [UInt8(offset >> 8), UInt8(offset & 0xFF)] } else { bytes.append(UInt8(offset)) }
        }
        bytes += [0, 0, 0, 0, 0, 0, offsetSize, 1]
        for number in [UInt64(objects.count), top, UInt64(table)] {
            bytes += (0..<8).map { UInt8(truncatingIfNeeded: number >> UInt64(56 - 8 * $0)) }
        }
        return bytes
    }

    static func read(_ bytes: [UInt8]) throws -> ModelValue { try ModelValue(propertyList: Data(bytes)) }

    static func failure(_ bytes: [UInt8]) -> String? {
        do {
            let value = try read(bytes)
            Issue.record("expected an error, read \(value)")
            return nil
        } catch {
            return String(describing: error)
        }
    }

    @Test func keysKeepTheirExactTextAndOrder() throws {
        let value: ModelValue = ["z": 1, "\u{E9}": "precomposed", "e\u{301}": "decomposed", "a": ["y": 2, "x": 3]]
        let back = try ModelValue(propertyList: value.propertyListData(format: .binary))
        #expect(back == value)
        #expect(orderedDescription(back) == orderedDescription(value))
        guard case .object(let members) = back else {
            Issue.record("expected an object")
            return
        }
        #expect(members.keys == ["z", "\u{E9}", "e\u{301}", "a"])
    }

    @Test(arguments: 0..<60 as Range<UInt64>)
    func randomValuesRoundTripToTheSameBytes(seed: UInt64) throws {
        var random = RandomModelValues(seed: seed)
        let value = random.value(allowingNull: true)
        let data = try value.propertyListData(format: .binary)
        let back = try ModelValue(propertyList: data)
        #expect(back == value || back.description == value.description)  // NaN is not equal to itself
        #expect(orderedDescription(back) == orderedDescription(value))
        #expect(try back.propertyListData(format: .binary) == data)
        #expect(try value.propertyListData(format: .binary) == data)
    }

    @Test func equalScalarsAreStoredOnce() throws {
        let word = String(repeating: "repeated ", count: 20)
        let value = ModelValue.array(Array(repeating: .string(word), count: 1_000))
        let data = try value.propertyListData(format: .binary)
        #expect(data.count < 2 * word.utf8.count + 3_000)
        #expect(try ModelValue(propertyList: data) == value)
    }

    @Test func datesAndIntegersAreExact() throws {
        let value: ModelValue = [
            "date": .date(Date(timeIntervalSinceReferenceDate: 785_000_000.123_456_7)), "min": .int(.min),
            "max": .int(.max), "unsigned": .bigInteger("18446744073709551615"),
            "huge": .bigInteger("-123456789012345678901234567890"), "byte": 255, "short": 65_535, "word": 4_294_967_295,
        ]
        #expect(try ModelValue(propertyList: value.propertyListData(format: .binary)) == value)
    }

    @Test(arguments: [PropertyListSerialization.PropertyListFormat.binary, .xml])
    func oneDepthLimitForWritingAndReading(format: PropertyListSerialization.PropertyListFormat) throws {
        func nested(_ depth: Int) -> ModelValue {
            var value: ModelValue = .array([])
            for _ in 1..<depth { value = .array([value]) }
            return value
        }
        let deepest = try nested(512).propertyListData(format: format)
        #expect(try ModelValue(propertyList: deepest) == nested(512))
        do {
            _ = try nested(513).propertyListData(format: format)
            Issue.record("expected an error")
        } catch let error as ModelError {
            #expect(error.code == .nestingTooDeep)
            #expect(error.description.contains("nesting is deeper than the limit of 512 levels"), "\(error)")
        }
    }

    @Test func deeperFilesThanTheLimitAreRefused() {
        // 513 arrays, each holding the next: written by hand, as ModelKit will not write it.
        var objects: [[UInt8]] = (0..<512).map { [0xA1, UInt8(truncatingIfNeeded: $0 + 1)] }
        objects.append([0xA0])
        // One-byte references reach 255 objects only: use two-byte references.
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for (index, _) in objects.enumerated() {
            offsets.append(bytes.count)
            if index < 512 { bytes += [0xA1, UInt8((index + 1) >> 8), UInt8((index + 1) & 0xFF)] } else { bytes += [0xA0] }
        }
        let table = bytes.count
        for offset in offsets { bytes += [UInt8(offset >> 8), UInt8(offset & 0xFF)] }
        bytes += [0, 0, 0, 0, 0, 0, 2, 2]
        for number in [UInt64(objects.count), 0, UInt64(table)] {
            bytes += (0..<8).map { UInt8(truncatingIfNeeded: number >> UInt64(56 - 8 * $0)) }
        }
        let message = Self.failure(bytes)
        #expect(message?.contains("nesting is deeper than the limit of 512 levels") == true, "\(message ?? "")")
    }

    /// Damaged files: each gives a clear error and no crash.
    static let damaged: [(String, [UInt8], String)] = {
        let good = file([[0xA2, 1, 2], [0x51, 0x61], [0x10, 7]])
        var cases: [(String, [UInt8], String)] = []
        cases.append(("truncated", Array(good.dropLast()), "the trailer is damaged"))
        cases.append(("too short", Array("bplist00".utf8) + [0, 0], "is truncated"))
        cases.append(("not bplist00", Array("bplist15".utf8) + Array(good.dropFirst(8)), "not a bplist0x"))
        var sizes = good
        sizes[sizes.count - 26] = 0  // offset size
        cases.append(("offset size zero", sizes, "offset size 0"))
        var count = good
        count[count.count - 17] = 200  // object count
        cases.append(("object count past the file", count, "the trailer is damaged"))
        var top = good
        top[top.count - 9] = 3  // top object
        cases.append(("top object out of range", top, "the trailer is damaged"))
        cases.append(("offset out of range", Array(file([[0xA1, 1], [0x10, 7]]).enumerated()).map { $0.offset == 13 ? 0xFF : $0.element },
            "has an offset outside"))
        cases.append(("reference out of range", file([[0xA2, 1, 9], [0x10, 7]]), "refers to object 9"))
        cases.append(("loop", file([[0xA1, 1], [0xA1, 0]]), "contains itself (a reference loop)"))
        cases.append(("self loop", file([[0xA1, 0]]), "contains itself"))
        cases.append(("string past the end", file([[0x5E, 0x61]]), "runs past the end"))
        cases.append(("data past the end", file([[0x4F, 0x10, 0x40, 1, 2]]), "runs past the end"))
        cases.append(("bad length", file([[0x5F, 0x51]]), "damaged length"))
        cases.append(("unpaired surrogate", file([[0x61, 0xD8, 0x00]]), "unpaired surrogate"))
        cases.append(("high ASCII", file([[0x51, 0xE9]]), "byte above 127"))
        cases.append(("unknown marker", file([[0x70]]), "unknown marker 0x70"))
        cases.append(("UID", file([[0x80, 1]]), "keyed archiver's UID"))
        cases.append(("non-string key", file([[0xD1, 1, 2], [0x10, 1], [0x10, 2]]), "a dictionary key is an integer"))
        cases.append(("repeated key", file([[0xD2, 1, 1, 2, 2], [0x51, 0x6B], [0x10, 2]]), #"the key "k" repeats"#))
        cases.append(("bad real size", file([[0x21, 0, 0]]), "unknown marker 0x21"))
        return cases
    }()

    @Test(arguments: damaged)
    func damagedFilesAreRefusedClearly(_ name: String, _ bytes: [UInt8], _ message: String) {
        let error = Self.failure(bytes)
        #expect(error?.contains(message) == true, "\(name): \(error ?? "no error")")
        #expect(error?.hasPrefix("binary property list") == true, "\(name): \(error ?? "")")
    }

    @Test func errorsNameTheKeyPath() {
        // {"list": [1, loop back to the list]}
        let bytes = Self.file([[0xD1, 1, 2], [0x54] + Array("list".utf8), [0xA2, 3, 2], [0x10, 1]])
        let message = Self.failure(bytes)
        #expect(message?.contains("list[1]") == true, "\(message ?? "")")
    }

    @Test func sharedObjectsThatExpandWithoutLimitAreRefused() {
        // Each array holds the next one twice: 40 levels would expand to 2^40 values.
        var objects: [[UInt8]] = (0..<40).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] }
        objects.append([0x10, 1])
        let message = Self.failure(Self.file(objects))
        #expect(message?.contains("expand to more than") == true, "\(message ?? "")")
    }

    @Test func sharedObjectsReadOnceAreFine() throws {
        // [[1], [1]] with the inner array stored once, as plistlib writes shared objects.
        let value = try Self.read(Self.file([[0xA2, 1, 1], [0xA1, 2], [0x10, 1]]))
        #expect(value == [[1], [1]])
    }

    @Test func bigIntegerMarkersAndNullsReadAsValuesButNotAsKeys() throws {
        let value: ModelValue = ["$null": nil, "$integer:5": .bigInteger("123456789012345678901234567890"), "s": "$null"]
        for format in [PropertyListSerialization.PropertyListFormat.binary, .xml] {
            let back = try ModelValue(propertyList: value.propertyListData(format: format))
            #expect(back == value)
        }
    }
}
