import Foundation
import ModelKit

/// The Demo's commands, each with its help text and the options that take a value.
enum Command: String, CaseIterable {
    case show, convert, set, edit, watch, defaults, schema, diff, patch, merge, help

    /// The options this command takes, each with a value (`--profile openai`
    /// or `--profile=openai`); every command also takes `--help` and `-h`.
    var valueOptions: Set<String> {
        switch self {
        case .convert, .set, .patch: ["format"]
        case .schema: ["profile"]
        case .merge: ["prefer", "output", "identity"]
        case .edit: ["prefer", "delay"]
        case .watch: ["count"]
        case .show, .defaults, .diff, .help: []
        }
    }

    /// The list of commands, `Demo --help`.
    static let overview = """
        Usage: Demo [COMMAND] [ARGUMENTS]

        With no command, prints a tour of ModelKit.

        Commands:
          show FILE                 print a document: as the Demo's class it names, else as it is
          convert IN OUT            convert a document between JSON (.json), XML (.plist, .xml) and binary (.bplist) property lists and keyed archives (.archive)
          set FILE KEY=VALUE...     change keys (or dotted key paths) of a document, saving it atomically
          edit FILE KEY=VALUE... [--prefer ours|theirs] [--delay SECONDS]
                                    change keys of a Note or Todo document and save it through a ModelDocument,
                                    merging with whatever another program saved meanwhile
          watch FILE [--count N]    print each change another program saves to a Note or Todo document as it
                                    merges into the open document
          defaults [list|get KEY|set KEY VALUE|remove KEY]
                                    read and change the standard ModelDefaults store
          schema CLASS [--profile standard|openai|anthropic]
                                    print the JSON Schema of a class the Demo knows: \(DemoModels.names)
          diff A B                  print the JSON Patch (RFC 6902) that turns document A into document B
          patch FILE PATCH          apply a JSON Patch (an array) or a JSON Merge Patch (an object) to FILE
          merge BASE OURS THEIRS [--prefer ours|theirs] [--identity KEY] [-o FILE]
                                    merge two versions of a document edited apart since BASE
          help [COMMAND]            print this help, or a command's

        A document argument of - is standard input where a command reads it,
        standard output where it writes it. Input in any format is detected
        from its content; output is JSON unless --format says otherwise.
        Options take a value as --name VALUE or --name=VALUE; -- ends the
        options. Exit status: 0 done, 1 a bad document or a command that
        failed, 2 a mistake in the command line.

        Run 'Demo COMMAND --help' for a command's details.
        """

    /// The command's help, `Demo COMMAND --help`.
    var usage: String {
        switch self {
        case .show:
            """
            Usage: Demo show FILE

            Reads FILE (JSON, XML or binary property list, detected from its
            content; - reads standard input) and prints it. A document that names
            a class the Demo knows under "type" (\(DemoModels.names); none named
            means Note) is read as that class: its data version, its saved values
            in order, its changed keys and its extensible properties (keys the
            class does not save). Any other document is shown as it is: an object
            with its class name, its version and each key and value; anything
            else (a number, null, an array) as its value. A document the class
            cannot read (a value of the wrong type) is an error, and nothing is
            printed on standard output.
            """
        case .convert:
            """
            Usage: Demo convert IN OUT [--format json|plist|xml|bplist|archive]

            Reads the document IN (any format; - reads standard input) and writes
            it to OUT in the format --format names, else in the format of OUT's
            extension: .json, .plist or .xml (XML property list), .bplist (binary
            property list). JSON is pretty-printed. An OUT of - writes standard
            output, as JSON unless --format says otherwise. The write is atomic.
            Any document converts, not only the Demo's classes; property lists
            have no null, so null is written as "$null". A DejalObject file (JSON
            or a property list whose root has a representedClassName) is written
            in ModelKit's form: each class name under "type", and DejalColor,
            DejalDate, DejalInterval, DejalTime and DejalData as ModelKit's values.
            """
        case .set:
            """
            Usage: Demo set FILE KEY=VALUE... [--format json|plist|xml|bplist|archive]

            Loads FILE, sets each KEY to VALUE and saves FILE in its own format,
            atomically, then prints the keys that changed. A FILE of - reads
            standard input and writes the document to standard output, as JSON
            unless --format says otherwise (--format is for - only), and prints
            the keys that changed on standard error. All or nothing: one bad
            KEY=VALUE changes nothing.

            KEY is a key or a dotted key path through nested models, arrays and
            objects: child.title, children.0.title (element 0 of children). Every
            step must name something that exists, except that the last may add
            a key: a path through a missing key or a null, or to an element past
            an array's end, is refused, naming the path and why. "type" and
            "version" are metadata that the library writes.

            A document of a class the Demo knows (see 'Demo show --help') is
            read as that class, and VALUE is taken as the declared type of KEY
            where the text says so unambiguously: title=123 on a String sets
            "123", count=5 on an Int 5, done=true on a Bool true,
            due=2026-01-02T03:04:05Z on a Date that date, colour=#FF8000 on a
            Color that colour. VALUE is tried first as JSON (12, true, ["a","b"],
            "text", null), then as text; a VALUE that is neither of the declared
            type is refused, naming the key, the type and what was found. Keys the
            class does not save become extensible properties, and for them, as
            for every key of any other document, VALUE is JSON when it reads as
            JSON, else text.
            """
        case .defaults:
            """
            Usage: Demo defaults [list | get KEY | set KEY VALUE | remove KEY]

            Reads and changes the standard ModelDefaults store. Its file is
            defaults.plist in $\(ModelDefaults.directoryEnvironmentVariable) when that is set, else in the
            platform's place for settings ($XDG_CONFIG_HOME/Demo or $HOME/.config/Demo on Linux).
            VALUE is read as JSON when it is JSON, else as text; write -- before a
            VALUE that starts with - and is not a number.

              list            every key and its value, sorted by key (the default)
              get KEY         the value of KEY as JSON
              set KEY VALUE   stores VALUE under KEY and saves
              remove KEY      removes KEY and saves

            get and remove of a key the store does not hold fail alike: exit
            status 1 and "no such key".
            """
        case .schema:
            """
            Usage: Demo schema CLASS [--profile standard|openai|anthropic]

            Prints the JSON Schema of CLASS, a class the Demo knows (\(DemoModels.names)),
            pretty-printed: standard (JSON Schema draft 2020-12, the default), or
            the subset that OpenAI's or Anthropic's structured outputs accept. A
            profile that cannot describe the class (Anthropic refuses recursive
            classes, and Note holds Notes) is an error saying why.
            """
        case .diff:
            """
            Usage: Demo diff A B

            Reads the documents A and B (any format; one of them may be -,
            standard input) and prints the JSON Patch (RFC 6902) that turns A into
            B, one operation per line; an empty patch ([]) when they are equal.
            """
        case .patch:
            """
            Usage: Demo patch FILE PATCH [--format json|plist|xml|bplist|archive]

            Applies PATCH to the document FILE and saves FILE in its own format,
            durably. PATCH is a JSON Patch (RFC 6902, an array of operations) or a
            JSON Merge Patch (RFC 7396, an object). All or nothing: an operation
            that fails (a test that does not hold, a path that names nothing)
            changes nothing and names the operation. One of FILE and PATCH may be
            -, standard input; a FILE of - writes the patched document to standard
            output, as JSON unless --format says otherwise (--format is for -
            only), and prints what it applied on standard error.
            """
        case .merge:
            """
            Usage: Demo merge BASE OURS THEIRS [--prefer ours|theirs] [--identity KEY] [-o FILE]

            Merges OURS and THEIRS, two versions of a document both made from
            BASE, by key path: every change either side made is kept. Three
            documents of one class the Demo knows (see 'Demo show --help') are
            read as that class (older versions upgraded first) and the merge is
            validated (arrays of models matched by their class's identity key);
            any other documents merge as they are, their arrays of objects
            matched by the member KEY ("id" unless --identity says otherwise)
            where every element of the three versions has a distinct one, else
            by position. Writes the merge
            to standard output as JSON, or to FILE with -o (--output), in the
            format of its extension, atomically; prints each conflict (a value
            both sides changed differently, one side removed and the other
            changed, or array edits at the same place) on standard error.
            Without --prefer, a conflict keeps our value and is left
            unresolved: the merge is written, and the exit status is 1. With
            --prefer ours or --prefer theirs, conflicts are settled by that side
            and the exit status is 0. One of the three may be -, standard input.
            """
        case .edit:
            """
            Usage: Demo edit FILE KEY=VALUE... [--prefer ours|theirs] [--delay SECONDS]

            Opens FILE, a document of a class the Demo knows (\(DemoModels.names)),
            as a ModelDocument, sets each KEY (or dotted key path) to VALUE as
            'Demo set' does, and saves it. Where another program saved FILE
            since it was opened, the save merges three ways: every change
            either side made is kept, and a key both changed differently is a
            conflict settled by --prefer (ours unless it says theirs), printed
            with both values. --delay waits SECONDS between the edit and the
            save, to change FILE meanwhile and see the merge. The save holds
            the lock beside FILE (.FILE.modelkit-lock) that every ModelKit
            writer of the document takes, and is atomic and durable. A FILE
            deleted meanwhile is an error, not created again.
            """
        case .watch:
            """
            Usage: Demo watch FILE [--count N]

            Opens FILE, a document of a class the Demo knows (\(DemoModels.names)),
            as a ModelDocument and watches it: each time another program saves
            it, the new version is merged into the open document (never a
            half-written one) and printed as the JSON Patch the merge made, with
            its conflicts. Runs until interrupted, or until N merges with
            --count.
            """
        case .help:
            """
            Usage: Demo help [COMMAND]

            Prints the list of commands, or the details of COMMAND (the same
            text as 'Demo COMMAND --help').
            """
        }
    }
}
