import Foundation
import Testing

@testable import ModelKit

/// The Demo's command line as a table: each row runs the Demo in a fresh
/// folder holding ``DemoCommandLineTests/fixtures``, with its standard input,
/// and asserts its standard output, standard error and exit status, and what
/// each fixture holds afterwards (unchanged unless the row says otherwise).
@Suite(.enabled(if: DemoProcess.executable != nil, "the Demo executable is not built: run swift build"))
struct DemoCommandLineTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var input = ""
        var output = ""
        var errors = ""
        var status: Int32 = 0
        /// Fixtures expected to hold new text afterwards, by name.
        var changedFiles: [String: String] = [:]

        var testDescription: String { "Demo " + arguments.joined(separator: " ") }
    }

    /// The documents each row starts with.
    static let fixtures: [String: String] = [
        "note.json": #"{"title":"A","children":[]}"#,
        "todo.json": #"{"type":"Todo","title":"T"}"#,
        "book.json": #"{"type":"Book","version":3,"title":"Dune","pages":412}"#,
        "badtodo.json": #"{"type":"Todo","done":"no"}"#,
        "five.json": "5",
        "null.json": "null",
        "array.json": "[1,2]",
        "tree.json": #"{"type":"Note","version":2,"title":"A","children":[{"title":"C","count":1}]}"#,
    ]

    /// tree.json once `set` changed its first child: the Note written whole, its child too.
    static let treeAfterSet =
        #"{"type":"Note","version":2,"title":"A","count":0,"tags":[],"colour":{"red":0.0,"green":0.0,"blue":1.0,"alpha":1.0},"#
        + #""due":"2025-11-16T15:33:20Z","snooze":{"amount":5.0,"unit":"minutes"},"child":null,"children":[{"type":"Note","#
        + #""version":2,"title":"B","count":4,"tags":["x"],"colour":{"red":0.0,"green":0.0,"blue":1.0,"alpha":1.0},"#
        + #""due":"2025-11-16T15:33:20Z","snooze":{"amount":5.0,"unit":"minutes"},"child":null,"children":[],"legacy_name":""}],"#
        + #""legacy_name":""}"#

    static let xmlHeader = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """

    static let cases: [Case] = [
        // show: any valid document, all or nothing on standard output.
        Case(
            arguments: ["show", "book.json"],
            output: """
                file: book.json (JSON)
                class: Book (the Demo knows Note, Todo; shown as it is)
                version: 3
                values:
                  title: "Dune"
                  pages: 412

                """),
        Case(
            arguments: ["show", "-"], input: #"{"type":5,"version":"x"}"#,
            output: """
                file: standard input (JSON)
                class: none (type holds an integer (5), not a class name)
                version: "x"
                values: none

                """),
        Case(
            arguments: ["show", "five.json"],
            output: "file: five.json (JSON)\nvalue: 5 (an integer, not an object: no class, version or keys)\n"),
        Case(
            arguments: ["show", "null.json"],
            output: "file: null.json (JSON)\nvalue: null (null, not an object: no class, version or keys)\n"),
        Case(
            arguments: ["show", "array.json"],
            output: "file: array.json (JSON)\nvalue: [1,2] (an array, not an object: no class, version or keys)\n"),
        Case(
            arguments: ["show", "badtodo.json"],
            errors: "Demo: badtodo.json, in done: expected Bool, found a string (\"no\")\n", status: 1),
        Case(
            arguments: ["show", "-"], input: #"{"type":"Todo","title":"Call","done":true}"#,
            output: """
                file: standard input (JSON)
                class: Todo
                version: 1 (none in the document)
                values:
                  title: "Call"
                  done: true
                  priority: 3
                  due: null
                  tags: []
                changed keys: none
                extensible properties: none

                """),
        Case(
            arguments: ["show", "-"],
            input: xmlHeader + "<dict>\n\t<key>type</key>\n\t<string>Todo</string>\n\t<key>priority</key>\n\t<integer>1</integer>\n</dict>\n</plist>\n",
            output: """
                file: standard input (XML property list)
                class: Todo
                version: 1 (none in the document)
                values:
                  title: "Untitled"
                  done: false
                  priority: 1
                  due: null
                  tags: []
                changed keys: none
                extensible properties: none

                """),
        Case(arguments: ["show", "-"], errors: "Demo: standard input: it is empty\n", status: 1),
        Case(
            arguments: ["show", "-"], input: "hello",
            errors: "Demo: standard input, JSON at line 1, column 1 (byte 0): expected a value, found 'h'\n", status: 1),

        // set: dotted paths that must resolve, values of the declared type.
        Case(
            arguments: ["set", "note.json", "children.0.title=x"],
            errors: "Demo: children.0.title: children has no element 0 (it is empty)\n", status: 1),
        Case(
            arguments: ["set", "note.json", "title=B", "children.x.title=1"],
            errors: "Demo: children.x.title: children is an array, and 'x' is not an index (0, 1, …)\n", status: 1),
        Case(
            arguments: ["set", "note.json", "child.title=x"], errors: "Demo: child.title: child is null\n", status: 1),
        Case(
            arguments: ["set", "note.json", "foo.bar=1"],
            errors: "Demo: foo.bar: the document has no key 'foo'\n", status: 1),
        Case(
            arguments: ["set", "note.json", "title.x=1"],
            errors: "Demo: title.x: title is a string (\"A\"), which has no key 'x'\n", status: 1),
        Case(
            arguments: ["set", "tree.json", "children.0.count=4", "children.0.title=B", "children.0.tags=[\"x\"]"],
            output: "changed: children.0.count, children.0.tags, children.0.title\n",
            changedFiles: ["tree.json": treeAfterSet]),
        Case(
            // A Color from hex text, null for an optional Date, a property's name for its key, an element of [String].
            arguments: ["set", "note.json", "colour=#FF8000", "due=null", "renamed=r", "tags=[\"a\",\"b\"]", "tags.1=9"],
            output: "changed: colour, due, renamed, tags, tags.1\n",
            changedFiles: [
                "note.json":
                    #"{"type":"Note","version":2,"title":"A","count":0,"tags":["a","9"],"colour":{"red":1.0,"green":0.5019607843137255,"#
                    + #""blue":0.0,"alpha":1.0},"due":null,"snooze":{"amount":5.0,"unit":"minutes"},"child":null,"children":[],"#
                    + #""legacy_name":"r"}"#
            ]),
        Case(
            arguments: ["set", "tree.json", #"children.0={"title":"D"}"#, "children.0.count=x"],
            errors: "Demo: children[0].count: expected Int, found a string (\"x\")\n", status: 1),
        Case(
            arguments: ["set", "tree.json", #"children.1={"title":"D"}"#],
            errors: "Demo: children.1: children has no element 1 (it has 1 element)\n", status: 1),
        Case(
            arguments: ["set", "tree.json", "colour.red=2"],
            errors: "Demo: colour.red: expected a number from 0 to 1, found 2\n", status: 1),
        Case(
            arguments: ["set", "-", "children.0.count=many"],
            input: #"{"title":"A","children":[{"title":"C"}]}"#,
            errors: "Demo: children[0].count: expected Int, found a string (\"many\")\n", status: 1),
        Case(
            arguments: ["set", "-", "children.0.type=Other"], input: #"{"children":[{}]}"#,
            errors:
                "Demo: children.0.type: 'type' is metadata (the document's class name), not a key to set; the library writes it\n",
            status: 1),
        Case(
            arguments: ["set", "todo.json", "title=123", "done=true", "priority=5", "due=2026-01-02T03:04:05Z"],
            output: "changed: done, due, priority, title\n",
            changedFiles: [
                "todo.json": #"{"type":"Todo","version":1,"title":"123","done":true,"priority":5,"due":"2026-01-02T03:04:05Z","tags":[]}"#
            ]),
        Case(
            arguments: ["set", "todo.json", #"title="123""#, "tags=[\"a\"]", "tags.0=7", "extra=[1,\"a\"]", "note=hello"],
            output: "changed: extra, note, tags, tags.0, title\n",
            changedFiles: [
                "todo.json":
                    #"{"type":"Todo","version":1,"title":"123","done":false,"priority":3,"due":null,"tags":["7"],"extra":[1,"a"],"note":"hello"}"#
            ]),
        Case(arguments: ["set", "todo.json", "title=T"], output: "changed: nothing\n", changedFiles: [
            "todo.json": #"{"type":"Todo","version":1,"title":"T","done":false,"priority":3,"due":null,"tags":[]}"#
        ]),
        Case(
            arguments: ["set", "todo.json", "done=true", "priority=9"],
            errors: "Demo: priority: must be at most 5, found 9\n", status: 1),
        Case(
            arguments: ["set", "todo.json", "done=yes"],
            errors: "Demo: done: expected Bool, found a string (\"yes\")\n", status: 1),
        Case(
            arguments: ["set", "todo.json", "priority=high"],
            errors: "Demo: priority: expected Int, found a string (\"high\")\n", status: 1),
        Case(
            arguments: ["set", "todo.json", "priority=true"],
            errors: "Demo: priority: expected Int, found a boolean (true)\n", status: 1),
        Case(
            arguments: ["set", "todo.json", "due=tomorrow"],
            errors: "Demo: due: expected an ISO 8601 date such as \"2025-11-16T15:33:20Z\", found a string (\"tomorrow\")\n",
            status: 1),
        Case(
            // Not a class the Demo knows: JSON where it is JSON, else text (0553… is not a JSON number).
            arguments: ["set", "book.json", "pages=500", "title=Foundation", "isbn=0553293354"],
            output: "changed: isbn, pages, title\n",
            changedFiles: ["book.json": #"{"type":"Book","version":3,"title":"Foundation","pages":500,"isbn":"0553293354"}"#]),
        Case(
            arguments: ["set", "book.json", "title=X", "author.name=Y"],
            errors: "Demo: author.name: the document has no key 'author'\n", status: 1),
        Case(
            arguments: ["set", "five.json", "a=1"],
            errors: "Demo: a: the document is an integer (5), which has no key 'a'\n", status: 1),
        Case(
            arguments: ["set", "array.json", "1=[3]"], output: "changed: 1\n", changedFiles: ["array.json": "[1,[3]]"]),
        Case(
            arguments: ["set", "array.json", "2=3"],
            errors: "Demo: 2: the document has no element 2 (it has 2 elements)\n", status: 1),
        Case(
            arguments: ["set", "-", "title=x"], input: #"{"type":"Todo"}"#,
            output: """
                {
                  "type": "Todo",
                  "version": 1,
                  "title": "x",
                  "done": false,
                  "priority": 3,
                  "due": null,
                  "tags": []
                }

                """,
            errors: "changed: title\n"),
        Case(
            arguments: ["set", "-", "--format=xml", "a=1"], input: "{}",
            output: xmlHeader + """
                <dict>
                	<key>type</key>
                	<string>Note</string>
                	<key>version</key>
                	<integer>2</integer>
                	<key>title</key>
                	<string>Untitled</string>
                	<key>count</key>
                	<integer>0</integer>
                	<key>tags</key>
                	<array/>
                	<key>colour</key>
                	<dict>
                		<key>red</key>
                		<real>0</real>
                		<key>green</key>
                		<real>0</real>
                		<key>blue</key>
                		<real>1</real>
                		<key>alpha</key>
                		<real>1</real>
                	</dict>
                	<key>due</key>
                	<date>2025-11-16T15:33:20Z</date>
                	<key>snooze</key>
                	<dict>
                		<key>amount</key>
                		<real>5</real>
                		<key>unit</key>
                		<string>minutes</string>
                	</dict>
                	<key>child</key>
                	<string>$null</string>
                	<key>children</key>
                	<array/>
                	<key>legacy_name</key>
                	<string></string>
                	<key>a</key>
                	<integer>1</integer>
                </dict>
                </plist>

                """,
            errors: "changed: a\n"),

        // convert, diff and patch with standard input and output.
        Case(
            arguments: ["convert", "-", "-"], input: "[1,2]", output: "[\n  1,\n  2\n]\n",
            errors: "wrote standard output (JSON, 13 bytes)\n"),
        Case(
            arguments: ["convert", "five.json", "-", "--format", "xml"],
            output: xmlHeader + "<integer>5</integer>\n</plist>\n",
            errors: "wrote standard output (XML property list, 194 bytes)\n"),
        Case(
            arguments: ["convert", "five.json", "-", "--format=xml"],
            output: xmlHeader + "<integer>5</integer>\n</plist>\n",
            errors: "wrote standard output (XML property list, 194 bytes)\n"),
        Case(
            arguments: ["convert", "-", "copy.plist"], input: "null", output: "wrote copy.plist (XML property list, 196 bytes)\n"),
        Case(
            arguments: ["diff", "-", "book.json"], input: #"{"type":"Book","version":3,"title":"Dune","pages":411}"#,
            output: "[\n  {\"op\":\"replace\",\"path\":\"/pages\",\"value\":412}\n]\n"),
        Case(
            arguments: ["patch", "book.json", "-"], input: #"[{"op":"replace","path":"/pages","value":1}]"#,
            output: "applied 1 operation to book.json\n",
            changedFiles: ["book.json": #"{"type":"Book","version":3,"title":"Dune","pages":1}"#]),
        Case(
            arguments: ["patch", "book.json", "-"], input: #"[{"op":"test","path":"/pages","value":2}]"#,
            errors: "Demo: standard input: operation 0 (test /pages): found 412, expected 2\n", status: 1),
        Case(
            arguments: ["patch", "-", "--format", "json", "/dev/null"], input: "{}",
            errors: "Demo: /dev/null: the file is empty\n", status: 1),
        Case(
            arguments: ["patch", "-", "patch.json"], input: "{}", errors: "Demo: patch.json: no such file\n", status: 1),

        // defaults: a missing key is the same failure for get and remove.
        Case(arguments: ["defaults", "get", "absent"], errors: "Demo: no such key 'absent'\n", status: 1),
        Case(arguments: ["defaults", "remove", "absent"], errors: "Demo: no such key 'absent'\n", status: 1),

        // Usage errors: status 2, whatever the command.
        Case(arguments: ["--bogus"], errors: "Demo: unknown option '--bogus' (see 'Demo --help')\n", status: 2),
        Case(arguments: ["-x"], errors: "Demo: unknown option '-x' (see 'Demo --help')\n", status: 2),
        Case(
            arguments: ["show", "--bogus"], errors: "Demo: unknown option '--bogus' (see 'Demo show --help')\n", status: 2),
        Case(arguments: ["show", "-x", "note.json"], errors: "Demo: unknown option '-x' (see 'Demo show --help')\n", status: 2),
        Case(
            arguments: ["show", "note.json", "--format=json"],
            errors: "Demo: unknown option '--format' (see 'Demo show --help')\n", status: 2),
        Case(
            arguments: ["show", "note.json", "--help=x"], errors: "Demo: --help takes no value (see 'Demo show --help')\n",
            status: 2),
        Case(
            arguments: ["convert", "five.json", "out.txt"],
            errors:
                "Demo: cannot choose a format from the extension of 'out.txt'; use .json, .plist, .xml, .bplist or .archive, or --format (see 'Demo convert --help')\n",
            status: 2),
        Case(
            arguments: ["convert", "five.json", "-", "--format"],
            errors: "Demo: --format needs a value (see 'Demo convert --help')\n", status: 2),
        Case(
            arguments: ["convert", "five.json", "-", "--format=yaml"],
            errors: "Demo: --format takes json, plist, xml, bplist or archive, not 'yaml' (see 'Demo convert --help')\n", status: 2),
        Case(
            arguments: ["convert", "five.json", "-", "--format=xml", "--format=json"],
            errors: "Demo: --format is given twice (see 'Demo convert --help')\n", status: 2),
        Case(
            arguments: ["set", "todo.json", "--format=json", "done=true"],
            errors:
                "Demo: --format is for a FILE of - (standard output); a file keeps its format (see 'Demo set --help')\n",
            status: 2),
        Case(
            arguments: ["set", "todo.json", "a..b=1"],
            errors:
                "Demo: 'a..b' has an empty step: write KEY or a dotted path such as child.title (see 'Demo set --help')\n",
            status: 2),
        Case(
            arguments: ["diff", "-", "-"],
            errors: "Demo: only one of A and B can be - (standard input) (see 'Demo diff --help')\n", status: 2),
        Case(
            arguments: ["patch", "-", "-"],
            errors: "Demo: only one of FILE and PATCH can be - (standard input) (see 'Demo patch --help')\n", status: 2),
        Case(
            arguments: ["schema", "Book"],
            errors: "Demo: unknown class 'Book': the Demo knows Note, Todo (see 'Demo schema --help')\n", status: 2),
        Case(
            arguments: ["schema"], errors: "Demo: schema takes one CLASS: Note, Todo (see 'Demo schema --help')\n",
            status: 2),
        Case(
            arguments: ["help", "show", "set"], errors: "Demo: help takes at most one COMMAND (see 'Demo help --help')\n",
            status: 2),
    ]
        + ["show", "convert", "set", "defaults", "schema", "diff", "patch", "merge", "help"].flatMap { command in
            [
                Case(
                    arguments: [command, "--bogus"],
                    errors: "Demo: unknown option '--bogus' (see 'Demo \(command) --help')\n", status: 2),
                Case(
                    arguments: [command, "-x"], errors: "Demo: unknown option '-x' (see 'Demo \(command) --help')\n",
                    status: 2),
            ]
        }

    @Test(arguments: cases)
    func eachCommandLineHasItsOutputErrorsAndStatus(_ row: Case) throws {
        let (outcome, after) = try DemoProcess.run(row.arguments, input: row.input, files: Self.fixtures)
        #expect(outcome.output == row.output)
        #expect(outcome.errors == row.errors)
        #expect(outcome.status == row.status)
        for (name, text) in Self.fixtures { #expect(after[name] == row.changedFiles[name] ?? text, "\(name)") }
    }

    /// `help --help`, `help COMMAND` and `COMMAND --help` (or `-h`, anywhere
    /// among the arguments) print the help and exit 0, even beside a mistake.
    @Test(arguments: [
        (["help", "--help"], "Usage: Demo help [COMMAND]"),
        (["help", "-h"], "Usage: Demo help [COMMAND]"),
        (["help"], "Usage: Demo [COMMAND] [ARGUMENTS]"),
        (["-h"], "Usage: Demo [COMMAND] [ARGUMENTS]"),
        (["--help", "set"], "Usage: Demo set FILE KEY=VALUE..."),
        (["help", "patch"], "Usage: Demo patch FILE PATCH"),
        (["show", "--bogus", "--help"], "Usage: Demo show FILE"),
        (["convert", "-h"], "Usage: Demo convert IN OUT"),
        (["diff", "a", "--help"], "Usage: Demo diff A B"),
        (["defaults", "get", "--help"], "Usage: Demo defaults"),
        (["schema", "--help"], "Usage: Demo schema CLASS"),
    ])
    func helpIsAskedForTheSameWayEverywhere(arguments: [String], prefix: String) throws {
        try withTemporaryFolder { folder in
            let outcome = try DemoProcess.run(arguments, input: "", storeFolder: folder, currentDirectory: folder)
            #expect(outcome.status == 0)
            #expect(outcome.errors.isEmpty)
            #expect(outcome.output.hasPrefix(prefix + "\n") || outcome.output.hasPrefix(prefix + " "), "\(outcome.output)")
        }
    }

    /// A value that starts with `-` is an option unless it is a number or
    /// follows `--`.
    @Test func negativeNumbersAndValuesAfterTwoDashesAreOperands() throws {
        try withTemporaryFolder { folder in
            #expect(try DemoProcess.run(["defaults", "set", "n", "-5"], storeFolder: folder).status == 0)
            #expect(try DemoProcess.run(["defaults", "get", "n"], storeFolder: folder).output == "-5\n")
            let dashed = try DemoProcess.run(["defaults", "set", "--", "d", "-x"], storeFolder: folder)
            #expect(dashed.status == 0, "\(dashed.errors)")
            #expect(try DemoProcess.run(["defaults", "get", "d"], storeFolder: folder).output == "\"-x\"\n")
            let refused = try DemoProcess.run(["defaults", "set", "d", "-x"], storeFolder: folder)
            #expect(refused.status == 2)
            #expect(refused.errors == "Demo: unknown option '-x' (see 'Demo defaults --help')\n")
            #expect(try DemoProcess.run(["defaults", "remove", "n"], storeFolder: folder).status == 0)
            let gone = try DemoProcess.run(["defaults", "get", "n"], storeFolder: folder)
            #expect(gone.status == 1 && gone.errors == "Demo: no such key 'n'\n")
        }
    }
}
