import Foundation
import Testing

@testable import ModelKit

/// A DejalObject document converted to ModelKit's form with no class:
/// `ModelValue.convertedFromDejalObject()` and `Demo convert`.
@Suite struct DejalConversionTests {
    /// What `DejalDocuments.task` becomes.
    static func checkConverted(_ value: ModelValue, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(value["type"] == "Task", sourceLocation: sourceLocation)
        #expect(value["representedClassName"] == nil, sourceLocation: sourceLocation)
        #expect(value["version"] == 2, sourceLocation: sourceLocation)
        #expect(value["colour"] == Color(red: 1, green: 0.5, blue: 0).modelValue, sourceLocation: sourceLocation)
        #expect(value["snooze"] == Interval(2...4, .hours).modelValue, sourceLocation: sourceLocation)
        #expect(value["alarm"] == "07:30:15", sourceLocation: sourceLocation)
        #expect(value["subtasks"]?[0]?["type"] == "Task", sourceLocation: sourceLocation)
        #expect(value["subtasks"]?[0]?["name"] == "Draft", sourceLocation: sourceLocation)
        #expect(value["priority"] == 3, sourceLocation: sourceLocation)
    }

    @Test func aDocumentConvertsWithNoClass() throws {
        let value = try ModelValue(json: Data(DejalDocuments.task.utf8)).convertedFromDejalObject()
        Self.checkConverted(value)
        #expect(value["due"] == .date(ISO8601DateFormatter().date(from: "2026-11-21T14:30:00Z")!))
        #expect(value["attachment"] == .data(Data("hello".utf8)))
        let noDate = try ModelValue(json: Data(DejalDocuments.oldTask(noDate: "1899-12-30T00:00:00Z").utf8))
        #expect(try noDate.convertedFromDejalObject()["due"] == .null)
    }

    @Test func aBadValueClassIsAnErrorNamingItsKeyPath() throws {
        let json = #"{"representedClassName":"Task","subtasks":[{"representedClassName":"Task","due":{"representedClassName":"DejalDate","string":"soon"}}]}"#
        let error = try #require(throws: ModelError.self) {
            try ModelValue(json: Data(json.utf8)).convertedFromDejalObject()
        }
        #expect("\(error)".hasPrefix(#"subtasks[0].due.string: expected a date such as"#), "\(error)")
    }
}

@Suite(.enabled(if: DemoProcess.executable != nil, "the Demo executable is not built: run swift build"))
struct DejalDemoConvertTests {
    @Test(arguments: ["task.json", "task.plist"])
    func convertWritesModelKitJSON(input: String) throws {
        var text = DejalDocuments.task
        if input.hasSuffix("plist") {
            let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
            text = String(decoding: try PropertyListSerialization.data(fromPropertyList: object, format: .xml, options: 0), as: UTF8.self)
        }
        let (outcome, after) = try DemoProcess.run(
            ["convert", input, "out.json"], input: nil, files: [input: text], reading: ["out.json"])
        #expect(outcome.status == 0, "\(outcome.errors)")
        let written = try #require(after["out.json"])
        DejalConversionTests.checkConverted(try ModelValue(json: Data(written.utf8)))
        #expect(written.contains(#""due" : "2026-11-21T14:30:00Z""#) || written.contains(#""due": "2026-11-21T14:30:00Z""#), "\(written)")
    }
}
