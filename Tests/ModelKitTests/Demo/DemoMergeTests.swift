import Foundation
import Testing

@testable import ModelKit

/// `Demo merge`: the merge on standard output (or a file), the conflicts on
/// standard error, status 1 while conflicts are unresolved and 2 for a
/// mistake in the command line.
@Suite(.enabled(if: DemoProcess.executable != nil, "the Demo executable is not built: run swift build"))
struct DemoMergeTests {
    typealias Case = DemoCommandLineTests.Case

    static let fixtures: [String: String] = [
        "base.json": #"{"type":"Book","a":1,"b":1,"c":[1,2,3]}"#,
        "ours.json": #"{"type":"Book","a":2,"b":1,"c":[0,1,2,3]}"#,
        "theirs.json": #"{"type":"Book","a":3,"b":5,"c":[1,2,3,4]}"#,
        "clean.json": #"{"type":"Book","a":1,"b":5,"c":[1,2,3,4]}"#,
        // Todos: a version-less base, their title, our priority.
        "todo-base.json": #"{"type":"Todo","title":"Call","priority":3}"#,
        "todo-ours.json": #"{"type":"Todo","title":"Call","priority":1}"#,
        "todo-theirs.json": #"{"type":"Todo","version":1,"title":"Call Ada","priority":3}"#,
        "todo-bad.json": #"{"type":"Todo","title":"","priority":3}"#,
        // Two laptops each add a book; one also dates the second book.
        "books-base.json": #"{"books":[{"id":"a","title":"A"},{"id":"b","title":"B"}]}"#,
        "books-ours.json": #"{"books":[{"id":"a","title":"A"},{"id":"b","title":"B"},{"id":"c","title":"C"}]}"#,
        "books-theirs.json":
            #"{"books":[{"id":"a","title":"A"},{"id":"b","title":"B","date":"2026-01-01"},{"id":"d","title":"D"}]}"#,
        // The same, identified by "isbn".
        "isbn-base.json": #"[{"isbn":1,"n":"A"},{"isbn":2,"n":"B"}]"#,
        "isbn-ours.json": #"[{"isbn":1,"n":"A"},{"isbn":2,"n":"B"},{"isbn":3,"n":"C"}]"#,
        "isbn-theirs.json": #"[{"isbn":1,"n":"A"},{"isbn":2,"n":"B2"},{"isbn":4,"n":"D"}]"#,
    ]

    static let mergedBooks =
        "{\n  \"books\": [\n    {\n      \"id\": \"a\",\n      \"title\": \"A\"\n    },\n"
        + "    {\n      \"id\": \"b\",\n      \"title\": \"B\",\n      \"date\": \"2026-01-01\"\n    },\n"
        + "    {\n      \"id\": \"d\",\n      \"title\": \"D\"\n    },\n"
        + "    {\n      \"id\": \"c\",\n      \"title\": \"C\"\n    }\n  ]\n}"

    static let cases: [Case] = [
        Case(arguments: ["merge", "base.json", "ours.json", "clean.json"], output: "{\n  \"type\": \"Book\",\n  \"a\": 2,\n  \"b\": 5,\n  \"c\": [\n    0,\n    1,\n    2,\n    3,\n    4\n  ]\n}\n"),
        Case(
            arguments: ["merge", "base.json", "ours.json", "theirs.json"],
            output: "{\n  \"type\": \"Book\",\n  \"a\": 2,\n  \"b\": 5,\n  \"c\": [\n    0,\n    1,\n    2,\n    3,\n    4\n  ]\n}\n",
            errors: "conflict (unresolved): a: base 1, ours 2, theirs 3\n"
                + "Demo: 1 conflict left unresolved (our values kept); --prefer ours or --prefer theirs settles them\n",
            status: 1),
        Case(
            arguments: ["merge", "base.json", "ours.json", "theirs.json", "--prefer", "theirs"],
            output: "{\n  \"type\": \"Book\",\n  \"a\": 3,\n  \"b\": 5,\n  \"c\": [\n    0,\n    1,\n    2,\n    3,\n    4\n  ]\n}\n",
            errors: "conflict (settled by theirs): a: base 1, ours 2, theirs 3\n"),
        Case(
            arguments: ["merge", "base.json", "-", "theirs.json", "--prefer=ours", "-o", "out.json"],
            input: #"{"type":"Book","a":1,"b":1,"c":[]}"#, output: "wrote out.json\n",
            errors: "conflict (settled by ours): c[0] (overlapping array edits): base [1,2,3], ours [], theirs [1,2,3,4]\n",
            changedFiles: ["out.json": "{\n  \"type\": \"Book\",\n  \"a\": 3,\n  \"b\": 5,\n  \"c\": []\n}"]),
        Case(
            arguments: ["merge", "todo-base.json", "todo-ours.json", "todo-theirs.json", "--output", "todo.json"],
            output: "wrote todo.json\n",
            changedFiles: [
                "todo.json": "{\n  \"type\": \"Todo\",\n  \"version\": 1,\n  \"title\": \"Call Ada\",\n  \"done\": false,\n"
                    + "  \"priority\": 1,\n  \"due\": null,\n  \"tags\": []\n}"
            ]),
        Case(
            arguments: ["merge", "todo-base.json", "todo-ours.json", "todo-bad.json"],
            errors: "Demo: todo-bad.json, in title: must not be empty\n", status: 1),
        // Objects in arrays match by "id": both books and the date, no conflict, no Note defaults.
        Case(
            arguments: ["merge", "books-base.json", "books-ours.json", "books-theirs.json", "--prefer", "ours", "-o", "m.json"],
            output: "wrote m.json\n", changedFiles: ["m.json": mergedBooks]),
        Case(
            arguments: ["merge", "books-base.json", "books-ours.json", "books-theirs.json"],
            output: mergedBooks + "\n"),
        // By another member with --identity; by position, a reported conflict, without one.
        Case(
            arguments: ["merge", "isbn-base.json", "isbn-ours.json", "isbn-theirs.json", "--identity", "isbn"],
            output: "[\n  {\n    \"isbn\": 1,\n    \"n\": \"A\"\n  },\n  {\n    \"isbn\": 2,\n    \"n\": \"B2\"\n  },\n"
                + "  {\n    \"isbn\": 4,\n    \"n\": \"D\"\n  },\n  {\n    \"isbn\": 3,\n    \"n\": \"C\"\n  }\n]\n"),
        Case(
            arguments: ["merge", "isbn-base.json", "isbn-ours.json", "isbn-theirs.json", "--prefer", "ours"],
            output: "[\n  {\n    \"isbn\": 1,\n    \"n\": \"A\"\n  },\n  {\n    \"isbn\": 2,\n    \"n\": \"B\"\n  },\n"
                + "  {\n    \"isbn\": 3,\n    \"n\": \"C\"\n  }\n]\n",
            errors: #"conflict (settled by ours): [1] (overlapping array edits): base [{"isbn":2,"n":"B"}], ours [{"isbn":2,"n":"B"},{"isbn":3,"n":"C"}], theirs [{"isbn":2,"n":"B2"},{"isbn":4,"n":"D"}]"#
                + "\n"),
        Case(
            arguments: ["merge", "isbn-base.json", "isbn-ours.json", "isbn-theirs.json", "--identity="],
            errors: "Demo: --identity takes a member name (see 'Demo merge --help')\n", status: 2),
        Case(
            arguments: ["merge", "base.json", "ours.json"],
            errors: "Demo: merge takes BASE, OURS and THEIRS (see 'Demo merge --help')\n", status: 2),
        Case(
            arguments: ["merge", "-", "ours.json", "-"],
            errors: "Demo: only one of BASE, OURS and THEIRS can be - (standard input) (see 'Demo merge --help')\n",
            status: 2),
        Case(
            arguments: ["merge", "base.json", "ours.json", "theirs.json", "--prefer", "mine"],
            errors: "Demo: --prefer takes ours or theirs, not 'mine' (see 'Demo merge --help')\n", status: 2),
        Case(
            arguments: ["merge", "base.json", "ours.json", "theirs.json", "-o"],
            errors: "Demo: --output needs a value (see 'Demo merge --help')\n", status: 2),
        Case(
            arguments: ["merge", "base.json", "ours.json", "missing.json"],
            errors: "Demo: missing.json: no such file\n", status: 1),
    ]

    @Test(arguments: cases)
    func mergeWritesTheMergeAndReportsConflicts(_ row: Case) throws {
        let (outcome, after) = try DemoProcess.run(
            row.arguments, input: row.input, files: Self.fixtures, reading: Array(row.changedFiles.keys))
        #expect(outcome.output == row.output)
        #expect(outcome.errors == row.errors)
        #expect(outcome.status == row.status)
        for (name, text) in Self.fixtures { #expect(after[name] == text, "\(name)") }
        for (name, text) in row.changedFiles { #expect(after[name] == text, "\(name)") }
    }

    @Test func helpDescribesMerge() throws {
        try withTemporaryFolder { folder in
            let outcome = try DemoProcess.run(["merge", "--help"], input: "", storeFolder: folder, currentDirectory: folder)
            #expect(outcome.status == 0)
            #expect(
                outcome.output.hasPrefix("Usage: Demo merge BASE OURS THEIRS [--prefer ours|theirs] [--identity KEY] [-o FILE]\n"))
        }
    }
}

/// `Demo set FILE` and `Demo patch FILE` write the file back in its own
/// layout: pretty stays pretty, one line stays one line; unknown members
/// keep their digits either way.
@Suite(.enabled(if: DemoProcess.executable != nil, "the Demo executable is not built: run swift build"))
struct DemoLayoutTests {
    static let pretty = "{\n  \"type\": \"Todo\",\n  \"title\": \"x\",\n  \"w\": 1.10\n}\n"
    static let compact = #"{"type":"Todo","title":"x","w":1.10}"#

    @Test(arguments: [
        (["set", "t.json", "title=y"], true),
        (["set", "t.json", "title=y"], false),
        (["patch", "t.json", "p.json"], true),
        (["patch", "t.json", "p.json"], false),
    ])
    func aFileKeepsItsLayout(_ arguments: [String], pretty: Bool) throws {
        let files = ["t.json": pretty ? Self.pretty : Self.compact, "p.json": #"{"title":"y"}"#]
        let (outcome, after) = try DemoProcess.run(arguments, input: nil, files: files, reading: ["t.json"])
        #expect(outcome.status == 0, "\(outcome.errors)")
        let written = try #require(after["t.json"])
        #expect(written.contains(pretty ? "\n  \"title\": \"y\",\n" : #""title":"y","#), "\(written)")
        #expect(written.contains(pretty ? "\"w\": 1.10" : #""w":1.10"#), "\(written)")
        #expect(written.contains("\n") == pretty || written.hasSuffix("}") == !pretty)
    }
}
