import Foundation
import Testing

@testable import ModelKit

/// The Demo executable, run as a newcomer would: its tour, its commands,
/// their help, and one-line errors with a non-zero status.
@Suite(.enabled(if: DemoProcess.executable != nil, "the Demo executable is not built: run swift build"))
struct DemoTests {
    @Test func twoToursInARowCountTheirRunsAndPrintTheSameTextOtherwise() throws {
        try withTemporaryFolder { folder in
            let first = try DemoProcess.run([], storeFolder: folder)
            let second = try DemoProcess.run([], storeFolder: folder)
            #expect(first.status == 0)
            #expect(second.status == 0)
            #expect(first.errors.isEmpty)
            #expect(first.output.contains("run #1 ("))
            #expect(second.output.contains("run #2 ("))
            #expect(first.output.replacingOccurrences(of: "run #1", with: "run #N")
                == second.output.replacingOccurrences(of: "run #2", with: "run #N"))
            for shown in [
                "title: Untitled | count: 0 | colour: #0000FF", "hasChanges: true | changedKeys: [\"colour\", \"tags\", \"title\"]",
                "\"version\": 2", "count: 7", "extensibleProperties: [\"priority\", \"reminder\"]", "\"priority\":1.10",
                "children[0].count: expected Int, found a string (\"three\")",
                "undo: Rename | title: Shopping | child: Oat milk | tags: [\"home\", \"shop\"]",
                "undone: title: Groceries | child: Milk | redo: Rename",
                "undone: tags: [\"home\"] | canUndo: false",
                "redone: tags: [\"home\", \"shop\"] | canRedo: true",
            ] {
                #expect(first.output.contains(shown), "\(shown)")
            }
        }
    }

    @Test func helpListsEveryCommandAndEachCommandHasHelp() throws {
        try withTemporaryFolder { folder in
            let help = try DemoProcess.run(["--help"], storeFolder: folder)
            #expect(help.status == 0)
            for command in ["show FILE", "convert IN OUT", "set FILE KEY=VALUE", "defaults [list|get KEY|set KEY VALUE|remove KEY]"] {
                #expect(help.output.contains(command), "\(command)")
            }
            for command in ["show", "convert", "set", "defaults"] {
                let outcome = try DemoProcess.run([command, "--help"], storeFolder: folder)
                #expect(outcome.status == 0)
                #expect(outcome.output.hasPrefix("Usage: Demo \(command)"), "\(command)")
            }
        }
    }

    static let mistakes: [(arguments: [String], status: Int32, error: String)] = [
        (["frob"], 2, "Demo: unknown command 'frob' (see 'Demo --help')"),
        (["show"], 2, "Demo: show takes one FILE (see 'Demo show --help')"),
        (["convert", "a.json"], 2, "Demo: convert takes IN and OUT (see 'Demo convert --help')"),
        (["set", "FILE"], 2, "Demo: set takes FILE and KEY=VALUE (see 'Demo set --help')"),
        (["set", "FILE", "novalue"], 2, "Demo: expected KEY=VALUE, found 'novalue' (see 'Demo set --help')"),
        (["defaults", "get"], 2, "Demo: get takes KEY (see 'Demo defaults --help')"),
        (["defaults", "frob"], 2, "Demo: unknown defaults command 'frob' (see 'Demo defaults --help')"),
        (["defaults", "get", "absent"], 1, "Demo: no such key 'absent'"),
        (["show", "/no/such/file.json"], 1, "Demo: /no/such/file.json: no such file"),
        (["show", ""], 2, "Demo: a FILE cannot be an empty path (see 'Demo show --help')"),
        (["help", "frob"], 2, "Demo: no help for unknown command 'frob' (see 'Demo --help')"),
        (["convert", "/no/such/in.json", "out.json"], 1, "Demo: /no/such/in.json: no such file"),
        (["set", "FILE", "version=7"], 2,
            "Demo: 'version' is metadata (the document's data version), not a key to set; the library writes it (see 'Demo set --help')"),
        (["set", "FILE", "type=Other"], 2,
            "Demo: 'type' is metadata (the document's class name), not a key to set; the library writes it (see 'Demo set --help')"),
    ]

    @Test(arguments: 0..<mistakes.count)
    func badArgumentsAreOneLineOnStandardErrorAndAStatus(index: Int) throws {
        let (arguments, status, error) = Self.mistakes[index]
        try withTemporaryFolder { folder in
            let outcome = try DemoProcess.run(arguments, storeFolder: folder)
            #expect(outcome.status == status, "\(arguments)")
            #expect(outcome.errors == error + "\n", "\(arguments)")
            #expect(outcome.output.isEmpty)
        }
    }

    @Test func badFilesAreOneLineErrors() throws {
        try withTemporaryFolder { folder in
            let cases: [(String, String, String)] = [
                ("broken.json", "{\"title\": \"A\",\n \"count\": 1 2}", "Demo: broken.json, JSON at line 2, column 13 (byte 27): expected ',' or '}' after object member, found '2'"),
                ("typed.json", #"{"count":"three"}"#, #"Demo: typed.json, in count: expected Int, found a string ("three")"#),
                ("text.json", "hello\n", #"Demo: text.json: expected JSON or a property list, found text that starts "hello""#),
                ("binary.json", "\u{1}\u{2}abc", "Demo: binary.json: expected JSON or a property list, found binary data that starts 01 02 61 62 63"),
                ("empty.json", "", "Demo: empty.json: the file is empty"),
            ]
            for (name, content, message) in cases {
                let url = folder.appendingPathComponent(name)
                try Data(content.utf8).write(to: url)
                // Named as typed: relative to the Demo's current folder.
                let outcome = try DemoProcess.run(["show", name], storeFolder: folder, currentDirectory: folder)
                #expect(outcome.status == 1, "\(name)")
                #expect(outcome.errors == message + "\n", "\(name)")
            }
            let outcome = try DemoProcess.run(["show", folder.path], storeFolder: folder)
            #expect(outcome.errors.hasSuffix(": this is a folder, not a file\n"))
        }
    }

    @Test func showPrintsVersionValuesChangedKeysAndExtensibleProperties() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("old.json")
            try Data(#"{"type":"Note","version":1,"title":"Old","number":7,"extra":{"b":1.10}}"#.utf8).write(to: url)
            let outcome = try DemoProcess.run(["show", "old.json"], storeFolder: folder, currentDirectory: folder)
            #expect(outcome.status == 0)
            #expect(
                outcome.output == """
                    file: old.json (JSON)
                    class: Note
                    version: 1, upgraded to 2
                    values:
                      title: "Old"
                      count: 7
                      tags: []
                      colour: {"red":0.0,"green":0.0,"blue":1.0,"alpha":1.0}
                      due: "2025-11-16T15:33:20Z"
                      snooze: {"amount":5.0,"unit":"minutes"}
                      child: null
                      children: []
                      legacy_name: ""
                    changed keys: none
                    extensible properties:
                      extra: {"b":1.1}

                    """)
        }
    }

    @Test func setEditsAFileInItsFormatAndConvertChangesTheFormat() throws {
        try withTemporaryFolder { folder in
            let json = folder.appendingPathComponent("note.json")
            try Data(#"{"title":"A","future":[1.10,"x"]}"#.utf8).write(to: json)
            let set = try DemoProcess.run(["set", json.path, "count=5", "title=Hello", "added=true"], storeFolder: folder)
            #expect(set.status == 0)
            #expect(set.output == "changed: added, count, title\n")
            let edited = try Note(contentsOf: json)
            #expect(edited.title == "Hello")
            #expect(edited.count == 5)
            #expect(edited.extensibleProperty(forKey: "added") == true)
            // The member it did not touch keeps its text.
            #expect(try String(contentsOf: json, encoding: .utf8).contains(#""future":[1.10,"x"]"#))

            let bad = try DemoProcess.run(["set", json.path, "count=many"], storeFolder: folder)
            #expect(bad.status == 1)
            #expect(bad.errors == #"Demo: count: expected Int, found a string ("many")"# + "\n")
            #expect(try Note(contentsOf: json).count == 5)

            for name in ["note.plist", "note.bplist", "note.archive", "back.json", "archived.json"] {
                let source =
                    switch name {
                    case "back.json": folder.appendingPathComponent("note.bplist")
                    case "archived.json": folder.appendingPathComponent("note.archive")
                    default: json
                    }
                let out = folder.appendingPathComponent(name)
                let convert = try DemoProcess.run(["convert", source.path, out.path], storeFolder: folder)
                #expect(convert.status == 0, "\(name): \(convert.errors)")
                #expect(try Note(contentsOf: out).isEquivalent(to: edited), "\(name)")
            }
        }
    }

    @Test func setKeepsABinaryPropertyListBinary() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("note.bplist")
            let note = Note()
            note.title = "Plist"
            try note.setExtensibleProperty(["kept": 1], forKey: "future")
            try note.write(to: url)
            let outcome = try DemoProcess.run(["set", url.path, "count=3", "tags=[\"a\"]"], storeFolder: folder)
            #expect(outcome.status == 0, "\(outcome.errors)")
            #expect(outcome.output == "changed: count, tags\n")
            let data = try Data(contentsOf: url)
            #expect(ModelDocumentFormat(detecting: data) == .binaryPropertyList)
            let edited = try Note(contentsOf: url)
            #expect(edited.count == 3)
            #expect(edited.tags == ["a"])
            #expect(edited.title == "Plist")
            #expect(edited.extensibleProperty(forKey: "future") == ["kept": 1])
            let shown = try DemoProcess.run(["show", "note.bplist"], storeFolder: folder, currentDirectory: folder)
            // Saved by the Demo's Note, which is at version 2.
            #expect(shown.output.hasPrefix("file: note.bplist (binary property list)\nclass: Note\nversion: 2\n"))
        }
    }

    @Test func defaultsCommandsReadAndChangeTheStandardStore() throws {
        try withTemporaryFolder { folder in
            #expect(try DemoProcess.run(["defaults", "set", "volume", "0.5"], storeFolder: folder).status == 0)
            #expect(try DemoProcess.run(["defaults", "set", "name", "Ada"], storeFolder: folder).status == 0)
            #expect(try DemoProcess.run(["defaults", "get", "volume"], storeFolder: folder).output == "0.5\n")
            #expect(try DemoProcess.run(["defaults"], storeFolder: folder).output == "name = \"Ada\"\nvolume = 0.5\n")
            #expect(try DemoProcess.run(["defaults", "remove", "name"], storeFolder: folder).status == 0)
            #expect(try DemoProcess.run(["defaults", "list"], storeFolder: folder).output == "volume = 0.5\n")
            let store = try ModelDefaults(
                url: folder.appendingPathComponent("defaults.plist"), autosaveDelay: nil, watchInterval: nil)
            #expect(store.double(forKey: "volume") == 0.5)
            // A corrupt store is reported, not replaced.
            try Data("garbage".utf8).write(to: store.url)
            let outcome = try DemoProcess.run(["defaults", "set", "x", "1"], storeFolder: folder)
            #expect(outcome.status == 1)
            #expect(outcome.errors.hasPrefix("Demo: \(folder.path)/defaults.plist, property list at line 1, column 1"))
            #expect(try String(contentsOf: store.url, encoding: .utf8) == "garbage")
        }
    }

    /// Every valid document shows and converts, whatever stands at its top.
    @Test(arguments: [
        ("5", "5 (an integer"), ("null", "null (null"), (#""text""#, #""text" (a string"#), ("[1,2]", "[1,2] (an array"),
    ])
    func showAndConvertHandleEveryValidDocument(content: String, shown: String) throws {
        try withTemporaryFolder { folder in
            try Data(content.utf8).write(to: folder.appendingPathComponent("top.json"))
            let show = try DemoProcess.run(["show", "top.json"], storeFolder: folder, currentDirectory: folder)
            #expect(show.status == 0 && show.errors.isEmpty, "\(show.errors)")
            #expect(show.output == "file: top.json (JSON)\nvalue: \(shown), not an object: no class, version or keys)\n")
            let convert = try DemoProcess.run(["convert", "top.json", "top.bplist"], storeFolder: folder, currentDirectory: folder)
            #expect(convert.status == 0 && convert.errors.isEmpty, "\(convert.errors)")
            #expect(convert.output.hasPrefix("wrote top.bplist (binary property list, "))
        }
    }

    @Test func convertFailuresNameThePathAsTyped() throws {
        try withTemporaryFolder { folder in
            try Data(#"{"title":"x"}"#.utf8).write(to: folder.appendingPathComponent("note.json"))
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent("out.json"), withIntermediateDirectories: false)
            let cases: [([String], String)] = [
                (["convert", "note.json", "/nonexistent/dir/out.json"], "Demo: /nonexistent/dir/out.json: no such folder: /nonexistent/dir"),
                (["convert", "note.json", "out.json"], "Demo: out.json: this is a folder, not a file"),
                (["convert", "note.json", "sub/../missing/x.plist"], "Demo: sub/../missing/x.plist: no such folder: \(folder.path)/missing"),
            ]
            for (arguments, message) in cases {
                let outcome = try DemoProcess.run(arguments, storeFolder: folder, currentDirectory: folder)
                #expect(outcome.status == 1, "\(arguments)")
                #expect(outcome.errors == message + "\n", "\(arguments)")
            }
        }
    }

    @Test func helpNamesACommandsHelpAndAnEmptyStoreSaysSo() throws {
        try withTemporaryFolder { folder in
            let help = try DemoProcess.run(["help", "show"], storeFolder: folder)
            #expect(help.status == 0 && help.output.hasPrefix("Usage: Demo show FILE"))
            let list = try DemoProcess.run(["defaults", "list"], storeFolder: folder)
            #expect(list.status == 0)
            #expect(list.output == "the store is empty (\(folder.path)/defaults.plist)\n")
        }
    }

    @Test func theTourSaysWhenItsStoreCannotBeRead() throws {
        try withTemporaryFolder { folder in
            try Data("garbage".utf8).write(to: folder.appendingPathComponent("defaults.plist"))
            let tour = try DemoProcess.run([], storeFolder: folder)
            #expect(tour.status == 0)
            #expect(
                tour.output.hasSuffix(
                    "the store could not be read, so the counter is not kept: defaults.plist, property list at line 1, "
                        + "column 1 (byte 0): expected <plist> or a value, found text \"garbage\"\n"))
            #expect(try String(contentsOf: folder.appendingPathComponent("defaults.plist"), encoding: .utf8) == "garbage")
        }
    }

    @Test func diffPrintsThePatchAndPatchAppliesItAllOrNothing() throws {
        try withTemporaryFolder { folder in
            try Data(#"{"title":"A","tags":["x"],"count":1}"#.utf8).write(to: folder.appendingPathComponent("a.json"))
            let b = ModelValue.object(["title": "B", "tags": ["x", "y"], "count": 1])
            try b.write(to: folder.appendingPathComponent("b.plist"))
            let diff = try DemoProcess.run(["diff", "a.json", "b.plist"], storeFolder: folder, currentDirectory: folder)
            #expect(diff.status == 0 && diff.errors.isEmpty, "\(diff.errors)")
            #expect(
                diff.output == """
                    [
                      {"op":"replace","path":"/title","value":"B"},
                      {"op":"add","path":"/tags/1","value":"y"}
                    ]

                    """)
            try Data(diff.output.utf8).write(to: folder.appendingPathComponent("p.json"))
            let patch = try DemoProcess.run(["patch", "a.json", "p.json"], storeFolder: folder, currentDirectory: folder)
            #expect(patch.status == 0 && patch.output == "applied 2 operations to a.json\n", "\(patch.errors)")
            #expect(try ModelValue(contentsOf: folder.appendingPathComponent("a.json")).isJSONEqual(to: b))
            let same = try DemoProcess.run(["diff", "a.json", "b.plist"], storeFolder: folder, currentDirectory: folder)
            #expect(same.output == "[]\n")
            // A failing test operation changes nothing and names the operation.
            let before = try Data(contentsOf: folder.appendingPathComponent("a.json"))
            try Data(#"[{"op":"replace","path":"/count","value":2},{"op":"test","path":"/title","value":"C"}]"#.utf8)
                .write(to: folder.appendingPathComponent("bad.json"))
            let failed = try DemoProcess.run(["patch", "a.json", "bad.json"], storeFolder: folder, currentDirectory: folder)
            #expect(failed.status == 1)
            #expect(failed.errors.hasPrefix("Demo: bad.json: operation 1 (test /title)"), "\(failed.errors)")
            #expect(try Data(contentsOf: folder.appendingPathComponent("a.json")) == before)
            // A merge patch.
            try Data(#"{"count":null,"title":"M"}"#.utf8).write(to: folder.appendingPathComponent("m.json"))
            let merged = try DemoProcess.run(["patch", "a.json", "m.json"], storeFolder: folder, currentDirectory: folder)
            #expect(merged.output == "applied a merge patch to a.json\n")
            #expect(try String(contentsOf: folder.appendingPathComponent("a.json"), encoding: .utf8) == #"{"title":"M","tags":["x","y"]}"#)
        }
    }
}
