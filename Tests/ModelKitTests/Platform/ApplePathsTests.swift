import Foundation
import Testing

@testable import ModelKit

/// The Apple platforms' standard-library paths, taken on Linux by a build
/// with `-D MODELKIT_APPLE_PATHS` (`.ci/run` runs the whole suite so, with
/// `MODELKIT_EXPECT_APPLE_PATHS=1`): this suite fails when the switch did
/// not reach the build that CI meant to have it.
@Suite struct ApplePathsTests {
    static var expected: Bool { ProcessInfo.processInfo.environment["MODELKIT_EXPECT_APPLE_PATHS"] == "1" }

    @Test func theBuildTakesThePathsItWasMeantTo() {
        #expect(Platform.takesApplePaths == Self.expected)
        #if !canImport(ObjectiveC)
            #expect(Platform.movesCellsBitwise == !Self.expected)
        #endif
    }

    /// Numbers that the `Float80` path reads on x86_64 Linux, read the same
    /// by the path Apple devices (arm64) take: the decimal text of the
    /// double read back (shortest round trip) equals Foundation's.
    @Test(arguments: [
        "1.7976931348623157e308", "2.2250738585072014e-308", "123456789012345678e-27", "9007199254740993e10",
        "0.1", "3.141592653589793238462643383279", "18446744073709551615e5", "4.9e-324", "1e23", "8.41e21",
    ])
    func numbersReadTheSameOnEitherPath(text: String) throws {
        let value = try ModelValue(json: Data("[\(text)]".utf8))
        let expected = try #require(Double(text))
        #expect(value == .array([.double(expected)]) || value == .array([.int(Int(expected))]), "\(text)")
    }

    /// Strings made by the pre-26 path are the same strings.
    @Test func stringsReadTheSameOnEitherPath() throws {
        for text in ["plain", "héllo", "日本語のテキスト", "emoji 🎉 and more", String(repeating: "ü", count: 300)] {
            let json = try ModelValue.string(text).jsonData()
            #expect(try ModelValue(json: json) == .string(text))
        }
        #expect(throws: ModelError.self) { try ModelValue(json: Data([0x22, 0xC0, 0x80, 0x22])) }
    }
}
