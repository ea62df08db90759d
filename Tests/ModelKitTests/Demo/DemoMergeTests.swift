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
    ]

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
            #expect(outcome.output.hasPrefix("Usage: Demo merge BASE OURS THEIRS [--prefer ours|theirs] [-o FILE]\n"))
        }
    }
}
