import Foundation
import Testing
@testable import ModelKit

@Suite struct XMLPropertyListWriterTests {
    @Test func smallDocumentIsWrittenInApplesLayout() throws {
        let value: ModelValue = [
            "name": "a < b & c > d", "count": 3, "ratio": 0.1, "ok": true, "none": nil,
            "when": .date(Date(timeIntervalSince1970: 1_763_307_200.25)), "bytes": .data(Data([0, 1, 2])),
            "big": .bigInteger("-123456789012345678901234567890"), "empty": [], "nested": ["inner": [1.5, "x"]],
        ]
        let expected = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>name</key>
            \t<string>a &lt; b &amp; c &gt; d</string>
            \t<key>count</key>
            \t<integer>3</integer>
            \t<key>ratio</key>
            \t<real>0.1</real>
            \t<key>ok</key>
            \t<true/>
            \t<key>none</key>
            \t<string>$null</string>
            \t<key>when</key>
            \t<date>2025-11-16T15:33:20Z</date>
            \t<key>bytes</key>
            \t<data>
            \tAAEC
            \t</data>
            \t<key>big</key>
            \t<string>$integer:-123456789012345678901234567890</string>
            \t<key>empty</key>
            \t<array/>
            \t<key>nested</key>
            \t<dict>
            \t\t<key>inner</key>
            \t\t<array>
            \t\t\t<real>1.5</real>
            \t\t\t<string>x</string>
            \t\t</array>
            \t</dict>
            </dict>
            </plist>

            """
        #expect(String(decoding: try value.propertyListData(format: .xml), as: UTF8.self) == expected)
    }

    /// Where Foundation loses nothing (sorted keys, whole seconds, reals
    /// whose shortest text is also `%.17g`'s), the bytes are Foundation's.
    @Test func outputMatchesFoundationByteForByte() throws {
        let value: ModelValue = [
            "a": [.data(Data(repeating: 7, count: 100)), [:], [], ["deep": [.data(Data(repeating: 1, count: 100))]]],
            "b": 1.0, "c": 1.5, "d": .date(Date(timeIntervalSince1970: 1_000_000_000)), "e": .data(Data()),
            "f": .double(.infinity), "g": .double(-.infinity), "h": .double(.nan), "i": -5, "j": false,
            "k": "x<&>\"'\n\té", "l": .bigInteger("18446744073709551615"),
            "m": .data(Data(repeating: 9, count: 57)),
        ]
        let ours = try value.propertyListData(format: .xml)
        let foundation = try PropertyListSerialization.data(
            fromPropertyList: PropertyListBridge.propertyListObject(from: value), format: .xml, options: 0)
        #expect(String(decoding: ours, as: UTF8.self) == String(decoding: foundation, as: UTF8.self))
    }

    @Test(arguments: 0..<100 as Range<UInt64>)
    func foundationReadsWhatIsWritten(seed: UInt64) throws {
        var random = RandomModelValues(seed: seed)
        let value = Self.foundationReadable(random.value(allowingNull: false))
        let data = try value.propertyListData(format: .xml)
        let object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        #expect(try PropertyListBridge.modelValue(from: object) == value.sortedRecursively)
    }

    @Test func plutilAcceptsWhatIsWritten() throws {
        let tool = ["/usr/bin/plutil", "/usr/local/bin/plutil"].first { FileManager.default.isExecutableFile(atPath: $0) }
            ?? ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":")
            .map { "\($0)/plutil" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let tool else {
            Issue.record("plutil not found")
            return
        }
        var random = RandomModelValues(seed: 7)
        let values = (0..<10).map { _ in Self.foundationReadable(random.value(allowingNull: false)) }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("modelkit-\(UUID().uuidString).plist")
        defer { try? FileManager.default.removeItem(at: url) }
        try ModelValue.array(values).propertyListData(format: .xml).write(to: url)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["-lint", url.path]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test(arguments: [
        (ModelValue.array(["ok", "bell\u{7}"]), "[1]: expected text that XML 1.0 can carry, found a string containing U+0007"),
        (ModelValue.object(["outer": ["in\u{0}side": 1]]), "outer[\"in\\u0000side\"]: expected text that XML 1.0 can carry, found a string containing U+0000"),
        (ModelValue.object(["k": "\u{FFFE}"]), "k: expected text that XML 1.0 can carry, found a string containing U+FFFE"),
    ] as [(ModelValue, String)])
    func controlCharactersAreRejectedWithTheirKeyPath(value: ModelValue, message: String) throws {
        let error = #expect(throws: ModelError.self) { try value.propertyListData(format: .xml) }
        #expect(error?.code == .notRepresentable)
        #expect(error?.description == message)
    }

    @Test func carriageReturnsAreWrittenAsReferences() throws {
        let text = String(decoding: try ModelValue.string("a\r\nb").propertyListData(format: .xml), as: UTF8.self)
        #expect(text.contains("<string>a&#13;\nb</string>"))
    }

    @Test func nestingPastTheLimitIsNotWritten() throws {
        var value = ModelValue.array([1])
        for _ in 1..<PropertyListBridge.maximumDepth { value = .array([value]) }
        #expect(try ModelValue(propertyList: value.propertyListData(format: .xml)) == value)
        value = .array([value])
        let error = #expect(throws: ModelError.self) { try value.propertyListData(format: .xml) }
        #expect(error?.code == .nestingTooDeep)
        #expect(error?.keyPath.components.count == PropertyListBridge.maximumDepth)
    }

    /// The value with what Foundation's reader cannot read replaced:
    /// fractional dates, integers past UInt64, and NaN (which never equals).
    static func foundationReadable(_ value: ModelValue) -> ModelValue {
        switch value {
        case .date(let date): .date(Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate.rounded(.down)))
        case .bigInteger(let digits): UInt64(digits).map { _ in value } ?? .string(digits)
        case .double(let number) where number.isNaN: .double(0)
        case .array(let elements): .array(elements.map(foundationReadable))
        case .object(let members): .object(ModelValue.Object(members.map { ($0.key, foundationReadable($0.value)) }))
        default: value
        }
    }
}

extension ModelValue {
    /// This value with every object's keys sorted, as Foundation's reader returns them.
    fileprivate var sortedRecursively: ModelValue {
        switch self {
        case .array(let elements): .array(elements.map(\.sortedRecursively))
        case .object(let members): .object(ModelValue.Object(members.sortedByKey().map { ($0.key, $0.value.sortedRecursively) }))
        default: self
        }
    }
}
