import Foundation
import ModelKit

/// A mistake in the command line: one line that points to the command's help, exit status 2.
struct UsageError: Error {
    let message: String
    let usage: String

    /// The command whose help to point to.
    var command: String {
        switch usage {
        case Commands.showUsage: "show"
        case Commands.convertUsage: "convert"
        case Commands.setUsage: "set"
        case Commands.defaultsUsage: "defaults"
        case Commands.schemaUsage: "schema"
        case Commands.diffUsage: "diff"
        case Commands.patchUsage: "patch"
        default: ""
        }
    }
}

/// The Demo's subcommands.
enum Commands {
    /// The paths the user typed, by the file URL made from each, so that
    /// errors name a file as it was typed (`../notes/x.json`).
    nonisolated(unsafe) static var typedPaths: [String: String] = [:]

    /// A file URL for a path the user typed; an empty path is a mistake.
    static func file(_ path: String, usage: String) throws -> URL {
        guard !path.isEmpty else { throw UsageError(message: "a FILE cannot be an empty path", usage: usage) }
        let url = URL(fileURLWithPath: path)
        typedPaths[url.path] = path
        return url
    }

    /// `error`'s sentence with its file named as the user typed it.
    static func sentence(for error: ModelError) -> String {
        guard let file = error.file else { return error.description }
        return error.description(namingFileAs: typedPaths[file.path] ?? file.path)
    }

    static let usage = """
        Usage: Demo [COMMAND] [ARGUMENTS]

        With no command, prints a tour of ModelKit.

        Commands:
          show FILE                 print a JSON or property-list document as the Demo's Note model reads it
          convert IN OUT            convert a document between JSON (.json), XML (.plist, .xml) and binary (.bplist) property lists
          set FILE KEY=VALUE...     change saved keys or extensible properties of a Note document, saving it atomically
          defaults [list|get KEY|set KEY VALUE|remove KEY]
                                    read and change the standard ModelDefaults store
          schema Note [--profile standard|openai|anthropic]
                                    print the JSON Schema of the Demo's Note model
          diff A B                  print the JSON Patch (RFC 6902) that turns document A into document B
          patch FILE PATCH          apply a JSON Patch (an array) or a JSON Merge Patch (an object) to FILE
          help                      print this help

        Run 'Demo COMMAND --help' for a command's details.
        """

    static let showUsage = """
        Usage: Demo show FILE

        Reads FILE (JSON, XML or binary property list, detected from its content)
        as a Note and prints its data version, its saved values in order, its
        changed keys and its extensible properties (keys Note does not save).
        """

    static let convertUsage = """
        Usage: Demo convert IN OUT

        Reads the document IN (any format) and writes it to OUT in the format
        of OUT's extension: .json, .plist or .xml (XML property list), .bplist
        (binary property list). The write is atomic. Any document converts, not
        only notes; property lists have no null, so null is written as "$null".
        """

    static let setUsage = """
        Usage: Demo set FILE KEY=VALUE...

        Loads FILE as a Note, sets each KEY to VALUE and saves FILE in its own
        format, atomically. VALUE is read as JSON when it is JSON (12, true,
        ["a","b"], "text"), else as a string. Keys Note saves must get a value
        of their type; other keys become extensible properties. All or nothing:
        one bad value changes nothing.
        """

    static let defaultsUsage = """
        Usage: Demo defaults [list | get KEY | set KEY VALUE | remove KEY]

        Reads and changes the standard ModelDefaults store. Its file is
        defaults.plist in $\(ModelDefaults.directoryEnvironmentVariable) when that is set, else in the
        platform's place for settings ($XDG_CONFIG_HOME/Demo or $HOME/.config/Demo on Linux).
        VALUE is read as JSON when it is JSON, else as a string.

          list            every key and its value, sorted by key (the default)
          get KEY         the value of KEY as JSON; exit status 1 when absent
          set KEY VALUE   stores VALUE under KEY and saves
          remove KEY      removes KEY and saves
        """

    static let diffUsage = """
        Usage: Demo diff A B

        Reads the documents A and B (any format) and prints the JSON Patch
        (RFC 6902) that turns A into B, one operation per line; an empty patch
        ([]) when they are equal.
        """

    static let patchUsage = """
        Usage: Demo patch FILE PATCH

        Applies PATCH to the document FILE and saves FILE in its own format,
        durably. PATCH is a JSON Patch (RFC 6902, an array of operations) or a
        JSON Merge Patch (RFC 7396, an object). All or nothing: an operation
        that fails (a test that does not hold, a path that names nothing)
        changes nothing and names the operation.
        """

    static let schemaUsage = """
        Usage: Demo schema Note [--profile standard|openai|anthropic]

        Prints the JSON Schema of the Demo's Note class, pretty-printed:
        standard (JSON Schema draft 2020-12, the default), or the subset that
        OpenAI's or Anthropic's structured outputs accept. A profile that
        cannot describe the class (Anthropic refuses recursive classes, and
        Note holds Notes) is an error saying why.
        """

    /// Runs the command line `arguments` (without the program's name).
    static func run(_ arguments: [String]) throws {
        guard let command = arguments.first else { return try Tour.run() }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "help", "--help", "-h":
            switch rest.first {
            case nil: print(usage)
            case "show": print(showUsage)
            case "convert": print(convertUsage)
            case "set": print(setUsage)
            case "defaults": print(defaultsUsage)
            case "schema": print(schemaUsage)
            case "diff": print(diffUsage)
            case "patch": print(patchUsage)
            case let other?: throw UsageError(message: "no help for unknown command '\(other)'", usage: usage)
            }
        case "show":
            if wantsHelp(rest) { return print(showUsage) }
            guard rest.count == 1 else { throw UsageError(message: "show takes one FILE", usage: showUsage) }
            try show(file(rest[0], usage: showUsage))
        case "convert":
            if wantsHelp(rest) { return print(convertUsage) }
            guard rest.count == 2 else { throw UsageError(message: "convert takes IN and OUT", usage: convertUsage) }
            try convert(file(rest[0], usage: convertUsage), to: file(rest[1], usage: convertUsage))
        case "set":
            if wantsHelp(rest) { return print(setUsage) }
            guard rest.count >= 2 else { throw UsageError(message: "set takes FILE and KEY=VALUE", usage: setUsage) }
            try set(file(rest[0], usage: setUsage), assignments: Array(rest.dropFirst()))
        case "defaults":
            if wantsHelp(rest) { return print(defaultsUsage) }
            try defaults(rest)
        case "schema":
            if wantsHelp(rest) { return print(schemaUsage) }
            try schema(rest)
        case "diff":
            if wantsHelp(rest) { return print(diffUsage) }
            guard rest.count == 2 else { throw UsageError(message: "diff takes A and B", usage: diffUsage) }
            try diff(file(rest[0], usage: diffUsage), file(rest[1], usage: diffUsage))
        case "patch":
            if wantsHelp(rest) { return print(patchUsage) }
            guard rest.count == 2 else { throw UsageError(message: "patch takes FILE and PATCH", usage: patchUsage) }
            try patch(file(rest[0], usage: patchUsage), with: file(rest[1], usage: patchUsage))
        default:
            throw UsageError(message: "unknown command '\(command)'", usage: usage)
        }
    }

    /// `schema Note [--profile NAME]`.
    static func schema(_ arguments: [String]) throws {
        var profile = JSONSchemaProfile.standard
        var names: [String] = []
        var index = 0
        while index < arguments.count {
            if arguments[index] == "--profile" {
                guard index + 1 < arguments.count,
                    let chosen = JSONSchemaProfile.allCases.first(where: {
                        $0.rawValue.lowercased() == arguments[index + 1].lowercased()
                    })
                else { throw UsageError(message: "--profile takes standard, openai or anthropic", usage: schemaUsage) }
                profile = chosen
                index += 2
            } else {
                names.append(arguments[index])
                index += 1
            }
        }
        guard names == ["Note"] else {
            throw UsageError(message: "schema takes the class name Note", usage: schemaUsage)
        }
        let schema = try Note.jsonSchema(profile)
        print(try schema.jsonString(options: .pretty))
    }

    static func wantsHelp(_ arguments: [String]) -> Bool {
        arguments.contains("--help") || arguments.contains("-h")
    }

    /// A command-line value: JSON when it reads as JSON, else the text itself.
    static func parse(_ text: String) -> ModelValue {
        (try? ModelValue(json: Data(text.utf8))) ?? .string(text)
    }

    // MARK: - show

    static func show(_ url: URL) throws {
        let raw = try ModelValue(contentsOf: url)
        let data = try Data(contentsOf: url)
        let format = ModelDocumentFormat(detecting: data).map(name(of:)) ?? "unknown"
        print("file: \(typedPaths[url.path] ?? url.path) (\(format))")
        guard case .object(let members) = raw else {
            // Any value may stand at the top of a document; only an object is a Note.
            print("value: \(try raw.jsonString())")
            print("not a Note: a Note is an object of keys and values")
            return
        }
        let note = try Note(contentsOf: url)
        let loaded: String
        if case .int(let version)? = members[Note.versionKey ?? "version"] {
            loaded = version < Note.version ? "\(version), upgraded to \(Note.version)" : "\(version)"
        } else {
            loaded = "\(Note.version) (none in the file)"
        }
        print("version: \(loaded)")
        print("values:")
        guard case .object(let saved) = note.modelValue else { return }
        let bag = Set(note.extensibleProperties.keys)
        for (key, value) in saved where key != Note.typeKey && key != Note.versionKey && !bag.contains(key) {
            print("  \(key): \(try value.jsonString())")
        }
        let changed = note.changedKeys.sorted()
        print("changed keys: \(changed.isEmpty ? "none" : changed.joined(separator: ", "))")
        if note.extensibleProperties.isEmpty {
            print("extensible properties: none")
        } else {
            print("extensible properties:")
            for (key, value) in saved where bag.contains(key) { print("  \(key): \(try value.jsonString())") }
        }
    }

    static func name(of format: ModelDocumentFormat) -> String {
        switch format {
        case .json: "JSON"
        case .xmlPropertyList: "XML property list"
        case .binaryPropertyList: "binary property list"
        }
    }

    // MARK: - convert

    static func convert(_ input: URL, to output: URL) throws {
        guard let format = ModelDocumentFormat(pathExtension: output.pathExtension) else {
            throw UsageError(
                message: "cannot choose a format from the extension of '\(typedPaths[output.path] ?? output.path)'; "
                    + "use .json, .plist, .xml or .bplist",
                usage: convertUsage)
        }
        let value = try ModelValue(contentsOf: input)
        let chosen: ModelDocumentFormat = if case .json = format { .json(.pretty) } else { format }
        try value.write(to: output, format: chosen)
        let size = (try? FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int) ?? 0
        print("wrote \(typedPaths[output.path] ?? output.path) (\(name(of: format)), \(size) bytes)")
    }

    // MARK: - diff and patch

    static func diff(_ a: URL, _ b: URL) throws {
        let patch = JSONPatch.difference(from: try ModelValue(contentsOf: a), to: try ModelValue(contentsOf: b))
        guard !patch.isEmpty else { return print("[]") }
        guard case .array(let operations) = patch.modelValue else { return }
        print("[")
        for (index, operation) in operations.enumerated() {
            print("  " + (try operation.jsonString()) + (index < operations.count - 1 ? "," : ""))
        }
        print("]")
    }

    static func patch(_ url: URL, with patchURL: URL) throws {
        let target = try ModelValue(contentsOf: url)
        let patchValue = try ModelValue(contentsOf: patchURL)
        let result: ModelValue
        let summary: String
        do {
            if case .object = patchValue {
                result = try JSONMergePatch(patchValue).applied(to: target)
                summary = "a merge patch"
            } else {
                let patch = try JSONPatch(modelValue: patchValue)
                result = try patch.applied(to: target)
                summary = patch.operations.count == 1 ? "1 operation" : "\(patch.operations.count) operations"
            }
        } catch var error as ModelError {
            error.file = patchURL
            throw error
        }
        let format = ModelDocumentFormat(detecting: try Data(contentsOf: url)) ?? .json
        try result.write(to: url, format: format)
        print("applied \(summary) to \(typedPaths[url.path] ?? url.path)")
    }

    // MARK: - set

    static func set(_ url: URL, assignments: [String]) throws {
        var changes = ModelValue.Object()
        for assignment in assignments {
            guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
                throw UsageError(message: "expected KEY=VALUE, found '\(assignment)'", usage: setUsage)
            }
            let key = String(assignment[..<equals])
            if key == Note.versionKey || key == Note.typeKey {
                throw UsageError(
                    message: "'\(key)' is metadata (the document's \(key == Note.versionKey ? "data version" : "class name")), "
                        + "not a key Note saves; the library writes it",
                    usage: setUsage)
            }
            changes[key] = parse(String(assignment[assignment.index(after: equals)...]))
        }
        let note = try Note(contentsOf: url)
        let format = ModelDocumentFormat(detecting: try Data(contentsOf: url)) ?? .json
        try note.update(from: .object(changes))
        let changed = note.changedKeys.sorted()
        try note.write(to: url, format: format)
        print("changed: \(changed.isEmpty ? "nothing" : changed.joined(separator: ", "))")
    }

    // MARK: - defaults

    static func defaults(_ arguments: [String]) throws {
        let store = ModelDefaults.standard
        if let problem = store.loadError { throw problem }
        switch arguments.first ?? "list" {
        case "list":
            guard arguments.count <= 1 else { throw UsageError(message: "list takes no arguments", usage: defaultsUsage) }
            if store.keys.isEmpty { print("the store is empty (\(store.url.path))") }
            for key in store.keys.sorted() {
                print("\(key) = \(try store.modelValue(forKey: key)!.jsonString())")
            }
        case "get":
            guard arguments.count == 2 else { throw UsageError(message: "get takes KEY", usage: defaultsUsage) }
            guard let value = store.modelValue(forKey: arguments[1]) else {
                FileHandle.standardError.write(Data("Demo: no value for '\(arguments[1])'\n".utf8))
                exit(1)
            }
            print(try value.jsonString())
        case "set":
            guard arguments.count == 3 else { throw UsageError(message: "set takes KEY and VALUE", usage: defaultsUsage) }
            store.set(parse(arguments[2]), forKey: arguments[1])
            try store.save()
        case "remove":
            guard arguments.count == 2 else { throw UsageError(message: "remove takes KEY", usage: defaultsUsage) }
            store.removeValue(forKey: arguments[1])
            try store.save()
        default:
            throw UsageError(message: "unknown defaults command '\(arguments[0])'", usage: defaultsUsage)
        }
    }
}
