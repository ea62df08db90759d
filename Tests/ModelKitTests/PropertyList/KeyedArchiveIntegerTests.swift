import Foundation
import Testing

@testable import ModelKit

/// Integers of up to 128 bits in keyed archives (a binary property list's
/// 16-byte integers): read as big integers, and written back as 16-byte
/// integers, so a model read from an archive writes the archive it came from
/// (found by `Fuzz/run.sh archive`: such a value in the bag came back as a string).
@Suite struct KeyedArchiveIntegerTests {
    typealias S = KeyedArchiveSupport

    static let values: [String] = [
        "-61035001510158178920852843167115694481",  // the fuzz target's
        "170141183460469231731687303715884105727",  // Int128.max
        "-170141183460469231731687303715884105728",  // Int128.min
        "18446744073709551616",  // UInt64.max + 1
        "18446744073709551615",  // UInt64.max
        "-9223372036854775809",  // Int64.min - 1
    ]

    @Test(arguments: values)
    func aWideIntegerInTheBagRoundTrips(_ digits: String) throws {
        let node = ArchiveNode()
        node.name = "root"
        try node.setExtensibleProperty(.bigInteger(digits), forKey: "ghildren")
        let written = try node.keyedArchiveData()
        let back = try ArchiveNode(keyedArchive: written)
        #expect(back.isEquivalent(to: node), "\(back.extensibleProperties)")
        #expect(back.extensibleProperties["ghildren"] == .bigInteger(digits))
        #expect(try back.keyedArchiveData() == written)
        // The number is a 16-byte integer object (marker 0x14) in the file.
        let envelope = try S.envelope(written)
        guard case .array(let objects)? = envelope["$objects"] else {
            Issue.record("no objects")
            return
        }
        #expect(objects.contains(.bigInteger(digits)), "\(objects)")
    }

    @Test func anIntegerPastOneHundredTwentyEightBitsIsWrittenAsItsDigits() throws {
        let digits = "1701411834604692317316873037158841057280"
        let node = ArchiveNode()
        try node.setExtensibleProperty(.bigInteger(digits), forKey: "huge")
        let back = try ArchiveNode(keyedArchive: node.keyedArchiveData())
        #expect(back.extensibleProperties["huge"] == .string(digits))
    }

    /// Python's plistlib, which reads 16-byte integers as signed, reads the
    /// archive's number as the same integer.
    @Test(.enabled(if: PropertyListInteropTests.python != nil, "python3 is missing"))
    func plistlibReadsTheSameInteger() throws {
        let digits = "-61035001510158178920852843167115694481"
        let node = ArchiveNode()
        try node.setExtensibleProperty(.bigInteger(digits), forKey: "n")
        try withTemporaryFolder { folder in
            let file = folder.appendingPathComponent("a.archive")
            try node.keyedArchiveData().write(to: file)
            let script = """
                import plistlib, sys
                p = plistlib.load(open(sys.argv[1], 'rb'))
                print([o for o in p['$objects'] if isinstance(o, int) and not isinstance(o, bool) and abs(o) > 2**64][0])
                """
            let python = try #require(PropertyListInteropTests.python)
            let (status, output) = try PropertyListInteropTests.run(python, ["-c", script, file.path])
            #expect(status == 0, "\(output)")
            #expect(output.trimmingCharacters(in: .whitespacesAndNewlines) == digits)
        }
    }
}
