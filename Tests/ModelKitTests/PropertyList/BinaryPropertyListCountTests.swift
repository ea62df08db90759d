import Foundation
import Testing

@testable import ModelKit

/// Issue 50: counts, sizes and offsets in a binary property list that would
/// overflow `Int` arithmetic are errors, never traps. Each file is made by
/// hand; each error message is asserted whole.
@Suite struct BinaryPropertyListCountTests {
    /// A file of one object: `marker`, then its count as an 8-byte integer
    /// object (`0x13`), one-byte offsets and references: 51 bytes.
    static func container(_ marker: UInt8, count: UInt64) -> [UInt8] {
        let object = [marker | 0x0F, 0x13] + bigEndian(count, size: 8)
        return file(objects: [object])
    }

    static func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * (size - 1 - $0))) }
    }

    /// `objects` laid out after the header, then the offset table and a
    /// trailer whose fields may be overridden.
    static func file(
        objects: [[UInt8]], offsetSize: UInt8 = 1, referenceSize: UInt8 = 1, objectCount: UInt64? = nil,
        top: UInt64 = 0, tableOffset: UInt64? = nil, header: String = "bplist00"
    ) -> [UInt8] {
        var bytes = Array(header.utf8)
        var offsets: [UInt64] = []
        for object in objects {
            offsets.append(UInt64(bytes.count))
            bytes += object
        }
        let table = UInt64(bytes.count)
        for offset in offsets { bytes += bigEndian(offset, size: Int(max(1, min(offsetSize, 8)))) }
        bytes += [0, 0, 0, 0, 0, 0, offsetSize, referenceSize]
        bytes += bigEndian(objectCount ?? UInt64(objects.count), size: 8)
        bytes += bigEndian(top, size: 8)
        bytes += bigEndian(tableOffset ?? table, size: 8)
        return bytes
    }

    static func message(_ bytes: [UInt8]) -> String {
        do {
            let value = try ModelValue(propertyList: Data(bytes))
            return "read \(value)"
        } catch {
            return String(describing: error)
        }
    }

    @Test func theFileOfTheIssueIsFiftyOneBytesAndAnError() {
        let bytes = Self.container(0xD0, count: 1 << 62)
        #expect(bytes.count == 51)
        #expect(Array(bytes[8..<18]) == [0xDF, 0x13, 0x40, 0, 0, 0, 0, 0, 0, 0])
        #expect(
            Self.message(bytes)
                == "binary property list: a container at byte 8 claims 4611686018427387904 members, more than the file can hold")
    }

    static let huge: [(String, UInt8, UInt64, String)] = {
        var cases: [(String, UInt8, UInt64, String)] = []
        for (kind, marker) in [("array", UInt8(0xA0)), ("set", 0xC0), ("dictionary", 0xD0)] {
            for (name, count) in [
                ("2^62", UInt64(1) << 62), ("2^62 + 1", (1 << 62) + 1), ("2^63 - 1", UInt64(Int64.max)),
                ("2^32", 1 << 32), ("the objects' size + 1", 2),
            ] {
                cases.append(
                    ("\(kind) of \(name)", marker, count,
                     "binary property list: a container at byte 8 claims \(count) members, more than the file can hold"))
            }
            for (name, count) in [("2^63", UInt64(1) << 63), ("2^64 - 1", UInt64.max), ("2^64 - 2", UInt64.max - 1)] {
                cases.append(
                    ("\(kind) of \(name)", marker, count, "binary property list: the object at byte 8 has a damaged length"))
            }
        }
        return cases
    }()

    @Test(arguments: huge)
    func hugeCountsAreErrors(name: String, marker: UInt8, count: UInt64, expected: String) {
        #expect(Self.message(Self.container(marker, count: count)) == expected, "\(name)")
    }

    /// The count of a data, string or UTF-16 string object: compared with what is left, never multiplied.
    @Test(arguments: [
        (UInt8(0x40), "data"), (0x50, "ASCII string"), (0x60, "UTF-16 string"),
    ])
    func hugeScalarLengthsAreErrors(marker: UInt8, kind: String) {
        for count: UInt64 in [1 << 62, UInt64(Int64.max), (1 << 62) + 1] {
            #expect(
                Self.message(Self.container(marker, count: count))
                    == "binary property list: the object at byte 8 runs past the end of the objects", "\(kind) \(count)")
        }
    }

    static let trailers: [(String, [UInt8], String)] = {
        let one: [[UInt8]] = [[0x10, 7]]
        let damaged = "binary property list: the trailer is damaged: its object count, top object or offset table lies outside the file"
        return [
            ("offset size 0", file(objects: one, offsetSize: 0),
             "binary property list: the trailer is damaged: it gives offset size 0 and reference size 1"),
            ("offset size 9", file(objects: one, offsetSize: 9),
             "binary property list: the trailer is damaged: it gives offset size 9 and reference size 1"),
            ("offset size 255", file(objects: one, offsetSize: 255),
             "binary property list: the trailer is damaged: it gives offset size 255 and reference size 1"),
            ("reference size 0", file(objects: one, referenceSize: 0),
             "binary property list: the trailer is damaged: it gives offset size 1 and reference size 0"),
            ("reference size 9", file(objects: one, referenceSize: 9),
             "binary property list: the trailer is damaged: it gives offset size 1 and reference size 9"),
            ("object count 0", file(objects: one, objectCount: 0), damaged),
            ("object count 2^62", file(objects: one, objectCount: 1 << 62), damaged),
            ("object count 2^63 - 1", file(objects: one, objectCount: UInt64(Int64.max)), damaged),
            ("object count 2^64 - 1", file(objects: one, objectCount: .max), damaged),
            ("object count 2^61 with 8-byte offsets", file(objects: one, offsetSize: 8, objectCount: 1 << 61), damaged),
            ("top object 2^64 - 1", file(objects: one, top: .max), damaged),
            ("top object 2^63 - 1", file(objects: one, top: UInt64(Int64.max)), damaged),
            ("table offset 2^64 - 1", file(objects: one, tableOffset: .max), damaged),
            ("table offset 2^63 - 1", file(objects: one, tableOffset: UInt64(Int64.max)), damaged),
            ("table offset 2^62", file(objects: one, tableOffset: 1 << 62), damaged),
            ("table offset in the header", file(objects: one, tableOffset: 7), damaged),
            ("an 8-byte offset of 2^63 - 1",
             Array(file(objects: [[0x10, 7]], offsetSize: 8).prefix(10)) + bigEndian(UInt64(Int64.max), size: 8)
                + Array(file(objects: [[0x10, 7]], offsetSize: 8).suffix(32)),
             "binary property list: object 0 has an offset outside the file's objects"),
            ("an 8-byte offset of 2^64 - 1",
             Array(file(objects: [[0x10, 7]], offsetSize: 8).prefix(10)) + bigEndian(.max, size: 8)
                + Array(file(objects: [[0x10, 7]], offsetSize: 8).suffix(32)),
             "binary property list: object 0 has an offset outside the file's objects"),
            ("an 8-byte reference of 2^63 - 1",
             file(objects: [[0xA1] + bigEndian(UInt64(Int64.max), size: 8)], referenceSize: 8),
             "binary property list: a container at byte 8 refers to object 9223372036854775807, beyond the 1 objects"),
            ("an 8-byte reference of 2^64 - 1",
             file(objects: [[0xA1] + bigEndian(.max, size: 8)], referenceSize: 8),
             "binary property list: a container at byte 8 refers to object 18446744073709551615, beyond the 1 objects"),
            ("a dictionary of 2^62 entries with 8-byte references",
             file(objects: [[0xDF, 0x13] + bigEndian(1 << 62, size: 8)], referenceSize: 8),
             "binary property list: a container at byte 8 claims 4611686018427387904 members, more than the file can hold"),
            ("a 16-byte count", file(objects: [[0xAF, 0x14] + [UInt8](repeating: 0xFF, count: 16)]),
             "binary property list: the object at byte 8 has a damaged length"),
        ]
    }()

    @Test(arguments: trailers)
    func trailerAndOffsetEdgesAreErrors(name: String, bytes: [UInt8], expected: String) {
        #expect(Self.message(bytes) == expected, "\(name)")
    }

    /// Foundation reads any `bplist0` header; ModelKit too, and still refuses other versions.
    @Test(arguments: [
        ("bplist00", "read 7"), ("bplist0x", "read 7"), ("bplist01", "read 7"), ("bplist0\u{7F}", "read 7"),
        ("bplist15", "binary property list: not a bplist0x binary property list"),
        ("bplist1x", "binary property list: not a bplist0x binary property list"),
    ])
    func anyBplist0HeaderIsRead(header: String, expected: String) {
        #expect(Self.message(Self.file(objects: [[0x10, 7]], header: header)) == expected, "\(header)")
    }

    /// The header of the issue: plistlib's TESTDATA with `bplist0x`.
    @Test func plistlibsTestDataReadsWithABplist0xHeader() throws {
        var bytes = try PropertyListFoundationTests.fixture("apple-testdata.bplist")
        bytes[7] = UInt8(ascii: "x")
        let value = try ModelValue(propertyList: Data(bytes))
        #expect(value == (try ModelValue(propertyList: Data(PropertyListFoundationTests.fixture("apple-testdata.bplist")))))
    }
}
