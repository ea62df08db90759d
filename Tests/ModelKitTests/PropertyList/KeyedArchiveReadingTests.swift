import Foundation
import Testing
@testable import ModelKit

/// `ModelValue(keyedArchive:)`: Foundation's archives of plain objects, and
/// hostile ones.
@Suite struct KeyedArchiveReadingTests {
    typealias Support = KeyedArchiveSupport

    // MARK: - Foundation's archives

    @Test(.enabled(if: KeyedArchiveSupport.hasFoundationArchiver, "Foundation's NSKeyedArchiver is missing"))
    func foundationObjectsReadAsValues() throws {
        let uuid = UUID()
        let base = URL(string: "http://example.com/a/")!
        let root: [String: Any] = [
            "string": "hi", "int": 3, "double": 2.5, "bool": true, "negative": -7,
            "date": Date(timeIntervalSinceReferenceDate: 10.25), "data": Data([1, 2, 3]),
            // Not 1 beside true: Foundation's archiver writes equal NSNumbers once.
            "array": NSMutableArray(array: ["x", 4]), "set": NSSet(array: ["a"]),
            "ordered": NSOrderedSet(array: ["p", "q"]),
            "url": NSURL(string: "b/c", relativeTo: base)!, "plainURL": URL(string: "file:///tmp/x")!,
            "uuid": uuid, "null": NSNull(), "mutableString": NSMutableString(string: "mut"),
            "mutableData": NSMutableData(bytes: [9], length: 1),
            "nested": ["inner": [["deep": [5, 6]]], "empty": [String: Int]()],
        ]
        let value = try ModelValue(keyedArchive: Support.archive(root))
        #expect(value["string"] == "hi")
        #expect(value["int"] == .int(3))
        #expect(value["negative"] == .int(-7))
        #expect(value["double"] == .double(2.5))
        #expect(value["bool"] == .bool(true))
        #expect(value["date"] == .date(Date(timeIntervalSinceReferenceDate: 10.25)))
        #expect(value["data"] == .data(Data([1, 2, 3])))
        #expect(value["array"] == ["x", 4])
        #expect(value["set"] == ["a"])
        #expect(value["ordered"] == ["p", "q"])
        #expect(value["url"] == "http://example.com/a/b/c")
        #expect(value["plainURL"] == "file:///tmp/x")
        #expect(value["uuid"] == .string(uuid.uuidString))
        #expect(value["null"] == .null)
        #expect(value["mutableString"] == "mut")
        #expect(value["mutableData"] == .data(Data([9])))
        #expect(value["nested"] == ["inner": [["deep": [5, 6]]], "empty": [:]])
        if case .object(let members) = value { #expect(members.count == root.count) }
    }

    @Test(.enabled(if: KeyedArchiveSupport.hasFoundationArchiver, "Foundation's NSKeyedArchiver is missing"))
    func aSharedObjectIsCopiedIntoEachPlace() throws {
        let shared = NSMutableArray(array: ["x", 2])
        let data = try Support.archive([shared, ["again": shared]] as NSArray)
        // Foundation writes the shared array once.
        guard case .array(let objects)? = try Support.envelope(data)["$objects"] else {
            Issue.record("no $objects")
            return
        }
        #expect(objects.filter { $0 == "x" }.count == 1)
        #expect(try ModelValue(keyedArchive: data) == [["x", 2], ["again": ["x", 2]]])
    }

    @Test func anXMLArchiveReadsAsABinaryOne() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
              <key>$archiver</key><string>NSKeyedArchiver</string>
              <key>$version</key><integer>100000</integer>
              <key>$top</key><dict><key>root</key><dict><key>CF$UID</key><integer>1</integer></dict></dict>
              <key>$objects</key><array>
                <string>$null</string>
                <dict>
                  <key>$class</key><dict><key>CF$UID</key><integer>4</integer></dict>
                  <key>NS.keys</key><array><dict><key>CF$UID</key><integer>2</integer></dict></array>
                  <key>NS.objects</key><array><dict><key>CF$UID</key><integer>3</integer></dict></array>
                </dict>
                <string>name</string>
                <string>$null</string>
                <dict><key>$classname</key><string>NSDictionary</string>
                  <key>$classes</key><array><string>NSDictionary</string><string>NSObject</string></array></dict>
              </array>
            </dict></plist>
            """
        // A string "$null" other than the first object is the string itself.
        #expect(try ModelValue(keyedArchive: Data(xml.utf8)) == ["name": "$null"])
    }

    @Test func theTopKeysReadAsAnObjectWithoutRoot() throws {
        let data = try Support.archive(objects: ["a", 7], top: ["first": Support.uid(1), "second": Support.uid(2)])
        #expect(try ModelValue(keyedArchive: data) == ["first": "a", "second": 7])
    }

    /// The readers of ordinary property lists still refuse UIDs.
    @Test func anOrdinaryPropertyListReaderStillRefusesUIDs() throws {
        let data = try Support.archive(objects: ["a"])
        #expect(
            Support.message { try ModelValue(propertyList: data) }
                == "binary property list, in $top.root: the object at byte 81 is a keyed archiver's UID, "
                + "which ModelKit does not read")
    }

    // MARK: - Hostile archives

    static let array = Support.classDescription("NSArray")

    static let hostileArchives: [(name: String, objects: [ModelValue], expected: String)] = [
        ("an unknown class",
         [["$class": Support.uid(2), "NS.objects": [Support.uid(3)]], Support.classDescription("NSArray"),
          ["$class": Support.uid(4)], Support.classDescription("MyApp.Gadget")],
         "[0]: the archive holds an object of class \"MyApp.Gadget\", which is not a Foundation class that "
            + "ModelKit reads (NSString, NSNumber, NSDate, NSData, NSArray, NSDictionary, NSSet, NSOrderedSet, "
            + "NSNull, NSURL, NSUUID)"),
        ("a cycle",
         [["$class": Support.uid(2), "NS.objects": [Support.uid(3)]], Support.classDescription("NSArray"),
          ["$class": Support.uid(2), "NS.objects": [Support.uid(4), Support.uid(1)]], "x"],
         "[0][1]: the NSArray object 1 contains itself (a cycle), which a value cannot hold"),
        ("a UID out of range",
         [["$class": Support.uid(2), "NS.objects": [Support.uid(3), Support.uid(99)]], Support.classDescription("NSArray"),
          "a"],
         "keyed archive, in [1]: a reference to object 99 lies beyond the 4 objects of the archive"),
        ("an element that is not a reference",
         [["$class": Support.uid(2), "NS.objects": ["a"]], Support.classDescription("NSArray")],
         "keyed archive: the NS.objects of an NSArray holds a string (\"a\"), not a reference"),
        ("a $class that is not a class",
         [["$class": Support.uid(2), "NS.objects": []], "NSArray"],
         "keyed archive: the $class of object 1 refers to object 2, which is not a class (a dictionary with a $classname)"),
        ("a $class that is not a reference",
         [["$class": "NSArray", "NS.objects": []]],
         "keyed archive: the $class of object 1 is a string (\"NSArray\"), not a reference"),
        ("a $class out of range",
         [["$class": Support.uid(7), "NS.objects": []]],
         "keyed archive: the $class of object 1 refers to object 7, which is not a class (a dictionary with a $classname)"),
        ("an array without its objects",
         [["$class": Support.uid(2)], Support.classDescription("NSMutableArray")],
         "keyed archive: the NSMutableArray object has no NS.objects array"),
        ("a dictionary key that is not a string",
         [["$class": Support.uid(2), "NS.keys": [Support.uid(3)], "NS.objects": [Support.uid(3)]],
          Support.classDescription("NSDictionary"), 5],
         "keyed archive: a dictionary key is an integer (5), not a string"),
        ("a short UUID",
         [["$class": Support.uid(2), "NS.uuidbytes": .data(Data([1, 2]))], Support.classDescription("NSUUID")],
         "keyed archive: the NSUUID object has no NS.uuidbytes of 16 bytes"),
    ]

    @Test(arguments: Self.hostileArchives)
    func aHostileArchiveIsAnError(name: String, objects: [ModelValue], expected: String) throws {
        let data = try Support.archive(objects: objects)
        #expect(Support.message { try ModelValue(keyedArchive: data) } == expected, "\(name)")
    }

    static let damagedEnvelopes: [(name: String, envelope: ModelValue, expected: String)] = [
        ("no $top", ["$archiver": "NSKeyedArchiver", "$objects": ["$null"]],
         "keyed archive: the archive has no $top dictionary of root objects"),
        ("another $archiver", ["$archiver": "MyArchiver", "$top": [:], "$objects": ["$null"]],
         "keyed archive: the $archiver is \"MyArchiver\", not \"NSKeyedArchiver\""),
        ("no $archiver", ["$top": [:], "$objects": ["$null"]],
         "keyed archive: the property list has no $archiver: it is not a keyed archive"),
        ("no $objects", ["$archiver": "NSKeyedArchiver", "$top": [:]],
         "keyed archive: the archive has no $objects array"),
        ("another $version", ["$archiver": "NSKeyedArchiver", "$version": 5, "$top": [:], "$objects": ["$null"]],
         "keyed archive: the $version is an integer (5), not 100000"),
        ("no $null first", ["$archiver": "NSKeyedArchiver", "$top": [:], "$objects": ["x"]],
         "keyed archive: the archive's first object is a string (\"x\"), not \"$null\""),
        ("not a dictionary", ["NSKeyedArchiver"],
         "keyed archive: expected a keyed archive (a dictionary with $archiver, $top and $objects), found an array of 1 element"),
    ]

    @Test(arguments: Self.damagedEnvelopes)
    func aDamagedEnvelopeIsAnError(name: String, envelope: ModelValue, expected: String) throws {
        let data = try BinaryPropertyListWriter.data(from: envelope, writingUIDs: true)
        #expect(Support.message { try ModelValue(keyedArchive: data) } == expected, "\(name)")
    }

    @Test func theWrongArchiverIsNamed() throws {
        let data = try Support.archive(objects: ["a"], archiver: "NSArchiver")
        #expect(
            Support.message { try ModelValue(keyedArchive: data) }
                == "keyed archive: the $archiver is \"NSArchiver\", not \"NSKeyedArchiver\"")
    }

    /// Each array refers twice to the next: 60 objects would expand to 2^60 values.
    @Test func sharedObjectsThatExpandPastTheLimitAreRefused() throws {
        var objects: [ModelValue] = [Support.classDescription("NSArray")]
        for level in 0..<60 {
            let next = Support.uid(level + 3)
            objects.append(["$class": Support.uid(1), "NS.objects": [next, next]])
        }
        objects.append("leaf")
        let data = try Support.archive(objects: objects, top: ["root": Support.uid(2)])
        #expect(data.count < 2000)
        let message = Support.message { try ModelValue(keyedArchive: data) }
        let limit = 256 * data.count
        #expect(
            message.hasSuffix(
                "[1][1][0][1]: the archive's shared objects expand to more than \(limit) values, the limit for an "
                    + "archive of this size"), "\(message)")
        let error = #expect(throws: ModelError.self) { try ModelValue(keyedArchive: data) }
        #expect(error?.code == .limitExceeded)
    }

    @Test func nestingPastTheLimitIsRefused() throws {
        var objects: [ModelValue] = [Support.classDescription("NSArray")]
        for level in 0..<600 {
            objects.append(["$class": Support.uid(1), "NS.objects": [Support.uid(level + 3)]])
        }
        objects.append("leaf")
        let data = try Support.archive(objects: objects, top: ["root": Support.uid(2)])
        let message = Support.message { try ModelValue(keyedArchive: data) }
        #expect(message.hasPrefix("keyed archive, in [0][0][0]"), "\(message)")
        #expect(message.hasSuffix("]: nesting is deeper than the limit of 512 levels"), "\(message)")
        let error = #expect(throws: ModelError.self) { try ModelValue(keyedArchive: data) }
        #expect(error?.code == .nestingTooDeep)
        #expect(error?.keyPath.components.count == 512)
    }

    /// A container claiming more members than the file holds is the
    /// property-list reader's error.
    @Test func aHugeCountIsAnError() throws {
        var bytes = [UInt8](try Support.archive(objects: [["$class": Support.uid(2), "NS.objects": []], Self.array]))
        // The empty NS.objects array (0xA0) claims 2^62 members instead.
        let trailer = bytes.count - 32
        let tableOffset = bytes[(trailer + 24)...].reduce(0) { $0 << 8 | Int($1) }
        guard let at = bytes[..<tableOffset].lastIndex(of: 0xA0) else {
            Issue.record("no empty array")
            return
        }
        bytes[at] = 0xAF
        bytes.insert(contentsOf: [0x13, 0x40, 0, 0, 0, 0, 0, 0, 0], at: at + 1)
        let message = Support.message { try ModelValue(keyedArchive: Data(bytes)) }
        #expect(message.hasPrefix("binary property list"), "\(message)")
    }

    @Test func randomDamageIsAnErrorNeverACrash() throws {
        let base = try [UInt8](Support.archive(objects: [
            ["$class": Support.uid(2), "NS.objects": [Support.uid(3), Support.uid(4)]], Self.array,
            ["$class": Support.uid(5), "NS.time": 3.5], "text", Support.classDescription("NSDate"),
        ]))
        var generator = SeededGenerator(seed: 52)
        for _ in 0..<3000 {
            var bytes = base
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                bytes[Int.random(in: 8..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            _ = try? ModelValue(keyedArchive: Data(bytes))
        }
    }
}
