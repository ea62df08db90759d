import Foundation
import Testing

@testable import ModelKit

/// `Demo schema CLASS [--profile …]`: any class the Demo knows.
@Suite(.enabled(if: DemoProcess.executable != nil, "the Demo executable is not built: run swift build"))
struct DemoSchemaTests {
    @Test(arguments: [
        (["schema", "Note"], "https://json-schema.org/draft/2020-12/schema"),
        (["schema", "Note", "--profile", "openai"], nil),
        (["schema", "--profile", "standard", "Note"], "https://json-schema.org/draft/2020-12/schema"),
        (["schema", "Note", "--profile=openai"], nil),
        (["schema", "--profile=OpenAI", "Note"], nil),
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
                // The saved keys: the Demo registers Note, but no class above or
                // below it, so its type key tells no alternatives apart.
                #expect(schema["required"]?.arrayValue?.count == 9)
                #expect(schema["required"]?[0] == "title")
            }
        }
    }

    /// Todo, which holds no Todos, is described by every profile, rules included.
    @Test(arguments: ["standard", "openai", "anthropic"])
    func schemaPrintsTheTodoSchemaInEveryProfile(profile: String) throws {
        try withTemporaryFolder { folder in
            let outcome = try DemoProcess.run(["schema", "Todo", "--profile=\(profile)"], storeFolder: folder)
            #expect(outcome.status == 0, "\(outcome.errors)")
            #expect(outcome.errors.isEmpty)
            let schema = try ModelValue(json: Data(outcome.output.utf8))
            let properties = profile == "standard" ? schema["$defs"]?["Todo"]?["properties"] : schema["properties"]
            #expect(properties?["done"]?["type"] == "boolean")
            #expect(properties?["priority"]?["type"] == "integer")
            if profile == "standard" {
                #expect(properties?["priority"]?["maximum"] == 5)
            } else {
                #expect(schema["required"]?.arrayValue?.count == 5)
            }
        }
    }

    static let mistakes: [(arguments: [String], status: Int32, error: String)] = [
        (
            ["schema", "Note", "--profile", "anthropic"], 1,
            "Demo: Note cannot be described for Anthropic's structured outputs: Note refers to itself through its properties (a recursive class), which Anthropic's structured outputs do not accept"
        ),
        (["schema", "Book"], 2, "Demo: unknown class 'Book': the Demo knows Note, Todo (see 'Demo schema --help')"),
        (["schema", "Note", "Todo"], 2, "Demo: schema takes one CLASS: Note, Todo (see 'Demo schema --help')"),
        (["schema", "Note", "--profile", "gemini"], 2, "Demo: --profile takes standard, openai or anthropic, not 'gemini' (see 'Demo schema --help')"),
        (["schema", "Note", "--profile=gemini"], 2, "Demo: --profile takes standard, openai or anthropic, not 'gemini' (see 'Demo schema --help')"),
        (["schema", "Note", "--profile"], 2, "Demo: --profile needs a value (see 'Demo schema --help')"),
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
            #expect(help.output.contains("schema CLASS [--profile standard|openai|anthropic]"))
            #expect(help.output.contains("print the JSON Schema of a class the Demo knows: Note, Todo"))
            let outcome = try DemoProcess.run(["schema", "--help"], storeFolder: folder)
            #expect(outcome.output.hasPrefix("Usage: Demo schema CLASS"))
            #expect(outcome.output.contains("a class the Demo knows (Note, Todo)"))
        }
    }
}
