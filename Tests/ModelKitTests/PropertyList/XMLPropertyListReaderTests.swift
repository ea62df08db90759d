import Foundation
import Testing
@testable import ModelKit

@Suite struct XMLPropertyListReaderTests {
    static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">

        """

    @Test(arguments: [
        ("<plist><integer>0x1F</integer></plist>", ModelValue.int(31)),
        ("<integer>-0x10</integer>", .int(-16)),
        ("<integer>+007</integer>", .int(7)),
        ("<integer>-9223372036854775808</integer>", .int(.min)),
        ("<integer>9223372036854775808</integer>", .bigInteger("9223372036854775808")),
        ("<integer>-000123456789012345678901234567890</integer>", .bigInteger("-123456789012345678901234567890")),
        ("<integer>0xFFFFFFFFFFFFFFFFFF</integer>", .bigInteger("4722366482869645213695")),
        ("<real>1</real>", .double(1)),
        ("<real>-2.5e-3</real>", .double(-0.0025)),
        ("<real>+infinity</real>", .double(.infinity)),
        ("<real>-Inf</real>", .double(-.infinity)),
        ("<real>.5</real>", .double(0.5)),
        ("<string>a &amp; b &lt;&gt; &quot;&apos; &#233;&#x1F389;</string>", .string("a & b <> \"' é🎉")),
        ("<string><![CDATA[<not> &amp; markup]]> and more</string>", .string("<not> &amp; markup and more")),
        ("<string>a<!-- note -->b</string>", .string("ab")),
        ("<string>$null</string>", .null),
        ("<string>$$null</string>", .string("$null")),
        ("<string>$$$null</string>", .string("$$null")),
        ("<string>$nul</string>", .string("$nul")),
        ("<string/>", .string("")),
        ("<string>line\r\nend</string>", .string("line\r\nend")),
        ("<data>AAEC\n\t/v8=\n</data>", .data(Data([0, 1, 2, 254, 255]))),
        ("<data>AQ</data>", .data(Data([1]))),
        ("<data/>", .data(Data())),
        ("<true></true>", .bool(true)),
        ("<array><false/><dict/><array/></array>", .array([.bool(false), .object([:]), .array([])])),
        ("<dict><key>b</key><integer>1</integer><key>a</key><integer>2</integer></dict>", .object(["b": 1, "a": 2])),
        ("<dict><key/><string>empty key</string></dict>", .object(["": "empty key"])),
        ("<!-- c --><?pi x?><plist version='1.0'>\n<!-- c -->\n<true/>\n</plist>\n<!-- end -->\n", .bool(true)),
        ("<date>2001-01-01T00:00:00Z</date>", .date(Date(timeIntervalSinceReferenceDate: 0))),
    ])
    func acceptedDocumentsRead(document: String, expected: ModelValue) throws {
        let value = try ModelValue(propertyList: Data((Self.header + document).utf8))
        #expect(value == expected)
        #expect(orderedDescription(value) == orderedDescription(expected))
    }

    /// Each malformed document, its code, and the full message (the header
    /// puts the document on line 3).
    @Test(arguments: [
        ("", "malformedDocument", "line 3, column 1 (byte 142): expected <plist> or a value, found the end of the document"),
        ("<plist></plist>", "malformedDocument", "line 3, column 8 (byte 149): expected a value inside <plist>, found </plist>"),
        ("<plist/>", "malformedDocument", "line 3, column 1 (byte 142): expected <plist> with a value inside, found <plist/>"),
        ("<plist><true/><true/></plist>", "malformedDocument", "line 3, column 15 (byte 156): expected </plist>, found <true/>"),
        ("<true/>junk", "malformedDocument", "line 3, column 8 (byte 149): expected the end of the document, found text \"junk\""),
        ("<array><string>a</string>junk</array>", "malformedDocument", "line 3, column 26 (byte 167), in [1]: expected a value or </array>, found text \"junk\""),
        ("<array>\n\t<integer>1</integer>\n\t<integer>x</integer>\n</array>", "malformedDocument", "line 5, column 11 (byte 182), in [1]: expected an integer (decimal digits, or hexadecimal after 0x), found \"x\""),
        ("<dict><key>items</key><array><dict><key>name</key><date>soon</date></dict></array></dict>", "malformedDocument", "line 3, column 57 (byte 198), in items[0].name: expected a date (such as 2025-11-16T15:33:20Z or 2025-11-16T15:33:20.25Z), found \"soon\""),
        ("<dict><string>a</string></dict>", "malformedDocument", "line 3, column 7 (byte 148): expected <key> or </dict>, found <string>"),
        ("<dict><key>a</key></dict>", "malformedDocument", "line 3, column 19 (byte 160), in a: expected a value for key \"a\", found </dict>"),
        ("<dict><key>a</key><true/><key>a</key><false/></dict>", "malformedDocument", "line 3, column 26 (byte 167): expected a key not already in this <dict>, found \"a\" again"),
        ("<array><true/></dict>", "malformedDocument", "line 3, column 15 (byte 156), in [1]: expected a value or </array>, found </dict>"),
        ("<array><true/>", "malformedDocument", "line 3, column 15 (byte 156), in [1]: expected a value or </array>, found the end of the document"),
        ("<string>a &foo; b</string>", "malformedDocument", "line 3, column 11 (byte 152): expected an entity (&amp;, &lt;, &gt;, &quot;, &apos;, &#…; or &#x…;), found \"&foo;\""),
        ("<string>a & b</string>", "malformedDocument", "line 3, column 11 (byte 152): expected an entity (&amp;, &lt;, &gt;, &quot;, &apos;, &#…; or &#x…;), found \"& b</string>\""),
        ("<string>&#1;</string>", "malformedDocument", "line 3, column 9 (byte 150): expected a reference to a character XML allows, found one to U+0001"),
        ("<string>a\u{1}</string>", "malformedDocument", "line 3, column 10 (byte 151): expected text, found the control character U+0001, which XML does not allow"),
        ("<string>a<b/></string>", "malformedDocument", "line 3, column 10 (byte 151): expected text or </string>, found <b/>"),
        ("<string>abc", "malformedDocument", "line 3, column 9 (byte 150): expected </string>, found the end of the document"),
        ("<string>a</key>", "malformedDocument", "line 3, column 10 (byte 151): expected </string>, found </key>"),
        ("<integer></integer>", "malformedDocument", "line 3, column 10 (byte 151): expected an integer (decimal digits, or hexadecimal after 0x), found nothing"),
        ("<integer>12abc</integer>", "malformedDocument", "line 3, column 10 (byte 151): expected an integer (decimal digits, or hexadecimal after 0x), found \"12abc\""),
        ("<integer>12 </integer>", "malformedDocument", "line 3, column 10 (byte 151): expected an integer (decimal digits, or hexadecimal after 0x), found \"12 \""),
        ("<real>0x1p3</real>", "malformedDocument", "line 3, column 7 (byte 148): expected a real number (such as 1.5, -2e-7, nan or +infinity), found \"0x1p3\""),
        ("<real/>", "malformedDocument", "line 3, column 8 (byte 149): expected a real number (such as 1.5, -2e-7, nan or +infinity), found nothing"),
        ("<date>2025-1-01T00:00:00Z</date>", "malformedDocument", "line 3, column 7 (byte 148): expected a date (such as 2025-11-16T15:33:20Z or 2025-11-16T15:33:20.25Z), found \"2025-1-01T00:00:00Z\""),
        ("<data>AAEC!v8=</data>", "malformedDocument", "line 3, column 11 (byte 152): expected base64 data, found \"AAEC!v8=\""),
        ("<data>A===</data>", "malformedDocument", "line 3, column 8 (byte 149): expected base64 data, found \"A===\""),
        ("<true>x</true>", "malformedDocument", "line 3, column 7 (byte 148): expected </true>, found text \"x\""),
        ("<foo/>", "malformedDocument", "line 3, column 1 (byte 142): expected a value, found <foo/>"),
        ("<key>a</key>", "malformedDocument", "line 3, column 1 (byte 142): expected a value, found <key>"),
        ("<string attr>", "malformedDocument", "line 3, column 13 (byte 154): expected '=' after the attribute name, found text \">\""),
        ("<!-- never closed", "malformedDocument", "line 3, column 1 (byte 142): expected '-->' closing the comment, found the end of the document"),
        ("<string><![CDATA[open</string>", "malformedDocument", "line 3, column 9 (byte 150): expected ']]>' closing the CDATA section, found the end of the document"),
        ("<string>caf\u{E9}\u{FFFF}</string>", "malformedDocument", "line 3, column 13 (byte 155): expected text, found U+FFFF, which XML does not allow"),
    ])
    func malformedDocumentsAreRejectedWithTheirPlace(document: String, code: String, message: String) throws {
        let error = #expect(throws: ModelError.self) {
            try ModelValue(propertyList: Data((Self.header + document).utf8))
        }
        #expect(error?.code.rawValue == code)
        #expect(error?.description == "property list at " + message)
    }

    @Test(arguments: [
        ([0x3C, 0x73, 0x74, 0x72, 0x69, 0x6E, 0x67, 0x3E, 0x61, 0xFF, 0x3C, 0x2F, 0x73, 0x74, 0x72, 0x69, 0x6E, 0x67, 0x3E] as [UInt8], "line 1, column 10 (byte 9): expected UTF-8 text, found the invalid byte 0xFF"),
        ([0x3C, 0x73, 0x74, 0x72, 0x69, 0x6E, 0x67, 0x3E, 0xC3, 0x3C, 0x2F], "line 1, column 9 (byte 8): expected UTF-8 text, found the invalid byte 0xC3"),
        ([0xED, 0xA0, 0x80], "line 1, column 1 (byte 0): expected UTF-8 text, found the invalid byte 0xED"),
        ([0x3C, 0x21, 0x2D, 0x2D, 0xC0, 0xAF, 0x2D, 0x2D, 0x3E], "line 1, column 5 (byte 4): expected UTF-8 text, found the invalid byte 0xC0"),
        ([0xFE, 0x3C], "line 1, column 1 (byte 0): expected UTF-8 text, found the invalid byte 0xFE"),
    ])
    func invalidUTF8IsReportedWhereItIs(bytes: [UInt8], message: String) throws {
        let error = #expect(throws: ModelError.self) { try ModelValue(propertyList: Data(bytes)) }
        #expect(error?.code == .invalidUTF8)
        #expect(error?.description == "property list at " + message)
    }

    @Test func aByteOrderMarkIsSkipped() throws {
        let document = [0xEF, 0xBB, 0xBF] + Array(Self.header.utf8) + Array("<string>x</string>".utf8)
        #expect(try ModelValue(propertyList: Data(document)) == "x")
    }

    @Test func deepNestingIsRejectedWithoutRecursion() throws {
        let depth = 200_000
        let document = String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth)
        let error = #expect(throws: ModelError.self) { try ModelValue(propertyList: Data(document.utf8)) }
        #expect(error?.code == .nestingTooDeep)
        #expect(error?.location == ModelError.Location(line: 1, column: 512 * 7 + 1, byteOffset: 512 * 7))
        #expect(error?.keyPath.components.count == 512)
        let dictionaries = String(repeating: "<dict><key>k</key>", count: depth)
        let second = #expect(throws: ModelError.self) { try ModelValue(propertyList: Data(dictionaries.utf8)) }
        #expect(second?.code == .nestingTooDeep)
    }

    @Test func nestingUpToTheLimitIsRead() throws {
        let limit = PropertyListBridge.maximumDepth
        let document = String(repeating: "<array>", count: limit) + String(repeating: "</array>", count: limit)
        var value = try ModelValue(propertyList: Data(document.utf8))
        var depth = 0
        while case .array(let elements) = value {
            depth += 1
            guard let first = elements.first else { break }
            value = first
        }
        #expect(depth == limit)
    }
}
