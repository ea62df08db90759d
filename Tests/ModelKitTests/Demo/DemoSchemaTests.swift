import Foundation
import Testing

@testable import ModelKit

/// `Demo schema Note [--profile …]`.
@Suite(.enabled(if: DemoProcess.executable != nil, "the Demo executable is not built: run swift build"))
struct DemoSchemaTests {
    @Test(arguments: [
        (["schema", "Note"], "https://json-schema.org/draft/2020-12/schema"),
        (["schema", "Note", "--profile", "openai"], nil),
        (["schema", "--profile", "standard", "Note"], "https://json-schema.org/draft/2020-12/schema"),
    ] as [([String], String?)])
    func schemaPrintsTheNoteSchema(arguments: [String], dialect: String?) throws {
        try withTemporaryFolder { folder in
            let outcome = try DemoProcess.run(arguments, storeFolder: folder)
            #expect(outcome.status == 0)
            #expect(outcome.errors.isEmpty)
            let schema = try ModelValue(json: Data(outcome.output.utf8))
            #expect(schema["$schema"]?.stringValue == dialect)
            if dialect == nil {
                #expect(schema["additionalProperties"] == .bool(false))
                #expect(schema["required"]?.arrayValue?.count == 9)
            }
        }
    }

    static let mistakes: [(arguments: [String], status: Int32, error: String)] = [
        (
            ["schema", "Note", "--profile", "anthropic"], 1,
            "Demo: Note cannot be described for Anthropic's structured outputs: Note refers to itself through its properties (a recursive class), which Anthropic's structured outputs do not accept"
        ),
        (["schema", "Book"], 2, "Demo: schema takes the class name Note (see 'Demo schema --help')"),
        (["schema", "Note", "--profile", "gemini"], 2, "Demo: --profile takes standard, openai or anthropic (see 'Demo schema --help')"),
    ]

    @Test(arguments: 0..<mistakes.count)
    func mistakesAreOneLineErrors(index: Int) throws {
        let (arguments, status, error) = Self.mistakes[index]
        try withTemporaryFolder { folder in
            let outcome = try DemoProcess.run(arguments, storeFolder: folder)
            #expect(outcome.status == status)
            #expect(outcome.errors == error + "\n")
            #expect(outcome.output.isEmpty)
        }
    }

    @Test func schemaHasHelp() throws {
        try withTemporaryFolder { folder in
            let help = try DemoProcess.run(["--help"], storeFolder: folder)
            #expect(help.output.contains("schema Note [--profile standard|openai|anthropic]"))
            let outcome = try DemoProcess.run(["schema", "--help"], storeFolder: folder)
            #expect(outcome.output.hasPrefix("Usage: Demo schema Note"))
        }
    }
}
