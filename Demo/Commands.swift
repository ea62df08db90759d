import Foundation
import ModelKit

/// The Demo's subcommands: reading the command line, and what the commands share.
enum Commands {
    /// The paths the user typed, by the file URL made from each, so that
    /// errors name a file as it was typed (`../notes/x.json`).
    nonisolated(unsafe) static var typedPaths: [String: String] = [:]

    /// `error`'s sentence with its file named as the user typed it.
    static func sentence(for error: ModelError) -> String {
        guard let file = error.file else { return error.description }
        return error.description(namingFileAs: typedPaths[file.path] ?? file.path)
    }

    /// Runs the command line `arguments` (without the program's name).
    static func run(_ arguments: [String]) throws {
        DemoModels.register()
        guard let first = arguments.first else { return try Tour.run() }
        let rest = Array(arguments.dropFirst())
        guard let command = Command(rawValue: first) else {
            // `Demo --help [COMMAND]` is `Demo help [COMMAND]`.
            if first == "--help" || first == "-h" { return try run(["help"] + rest) }
            if first.hasPrefix("-") { throw UsageError("unknown option '\(first)'", command: nil) }
            throw UsageError("unknown command '\(first)'", command: nil)
        }
        let parsed = Arguments(rest, of: command, valueOptions: command.valueOptions)
        if parsed.wantsHelp { return print(command.usage) }
        let arguments = try parsed.checked()
        let operands = arguments.operands
        switch command {
        case .help:
            try help(operands)
        case .show:
            guard operands.count == 1 else { throw UsageError("show takes one FILE", command: command) }
            try show(Document.Place(operands[0], of: command))
        case .convert:
            guard operands.count == 2 else { throw UsageError("convert takes IN and OUT", command: command) }
            try convert(
                Document.Place(operands[0], of: command), to: Document.Place(operands[1], of: command),
                format: format(arguments, of: command))
        case .set:
            guard operands.count >= 2 else { throw UsageError("set takes FILE and KEY=VALUE", command: command) }
            let place = try Document.Place(operands[0], of: command)
            let assignments = try operands.dropFirst().map { try Assignment(parsing: $0) }
            try set(place, assignments, format: try outputFormat(arguments, for: place, of: command))
        case .edit:
            guard operands.count >= 2 else { throw UsageError("edit takes FILE and KEY=VALUE", command: command) }
            guard operands[0] != "-" else { throw UsageError("edit takes a FILE, not standard input", command: command) }
            let assignments = try operands.dropFirst().map { try Assignment(parsing: $0) }
            let delay = try arguments.options["delay"].map { text in
                guard let seconds = Double(text), seconds >= 0, seconds <= 3600 else {
                    throw UsageError("--delay takes seconds from 0 to 3600, not '\(text)'", command: command)
                }
                return seconds
            } ?? 0
            guard case .file(let url, let typed) = try Document.Place(operands[0], of: command) else { return }
            try edit(url, typed: typed, assignments, prefer: try preferredSide(arguments, of: command) ?? .ours, delay: delay)
        case .watch:
            guard operands.count == 1, operands[0] != "-" else { throw UsageError("watch takes one FILE", command: command) }
            let count = try arguments.options["count"].map { text in
                guard let count = Int(text), count > 0 else {
                    throw UsageError("--count takes a number of merges above 0, not '\(text)'", command: command)
                }
                return count
            }
            guard case .file(let url, let typed) = try Document.Place(operands[0], of: command) else { return }
            try watch(url, typed: typed, count: count)
        case .defaults:
            try defaults(operands)
        case .schema:
            try schema(operands, profile: arguments.options["profile"])
        case .diff:
            guard operands.count == 2 else { throw UsageError("diff takes A and B", command: command) }
            guard operands != ["-", "-"] else {
                throw UsageError("only one of A and B can be - (standard input)", command: command)
            }
            try diff(Document.Place(operands[0], of: command), Document.Place(operands[1], of: command))
        case .merge:
            guard operands.count == 3 else { throw UsageError("merge takes BASE, OURS and THEIRS", command: command) }
            guard operands.filter({ $0 == "-" }).count <= 1 else {
                throw UsageError("only one of BASE, OURS and THEIRS can be - (standard input)", command: command)
            }
            let policy = try preferredSide(arguments, of: command)
            let output = try arguments.options["output"].map { try Document.Place($0, of: command) } ?? .standard
            let identity = arguments.options["identity"] ?? "id"
            guard !identity.isEmpty else { throw UsageError("--identity takes a member name", command: command) }
            try merge(
                operands.map { try Document.Place($0, of: command) }, prefer: policy, identity: identity, to: output)
        case .patch:
            guard operands.count == 2 else { throw UsageError("patch takes FILE and PATCH", command: command) }
            guard operands != ["-", "-"] else {
                throw UsageError("only one of FILE and PATCH can be - (standard input)", command: command)
            }
            let place = try Document.Place(operands[0], of: command)
            try patch(
                place, with: Document.Place(operands[1], of: command),
                format: try outputFormat(arguments, for: place, of: command))
        }
    }

    /// The side `--prefer` names, or `nil` when it is not given.
    static func preferredSide(_ arguments: Arguments, of command: Command) throws -> MergePolicy? {
        switch arguments.options["prefer"] {
        case nil: return nil
        case "ours": return .ours
        case "theirs": return .theirs
        case let other?: throw UsageError("--prefer takes ours or theirs, not '\(other)'", command: command)
        }
    }

    /// `help [COMMAND]`.
    static func help(_ operands: [String]) throws {
        switch operands.count {
        case 0:
            print(Command.overview)
        case 1:
            guard let command = Command(rawValue: operands[0]) else {
                throw UsageError("no help for unknown command '\(operands[0])'", command: nil)
            }
            print(command.usage)
        default:
            throw UsageError("help takes at most one COMMAND", command: .help)
        }
    }

    /// The format `--format` names, or `nil` when it is not given.
    static func format(_ arguments: Arguments, of command: Command) throws -> ModelDocumentFormat? {
        guard let name = arguments.options["format"] else { return nil }
        guard let format = ModelDocumentFormat(pathExtension: name) else {
            throw UsageError("--format takes json, plist, xml, bplist or archive, not '\(name)'", command: command)
        }
        if case .json = format { return .json(.pretty) }
        return format
    }

    /// The format to write a document read from `place` in: `--format`,
    /// which only standard output takes (a file keeps its format), else
    /// `nil` (the document's own format; JSON on standard output).
    static func outputFormat(
        _ arguments: Arguments, for place: Document.Place, of command: Command
    ) throws -> ModelDocumentFormat? {
        let chosen = try format(arguments, of: command)
        if chosen != nil, !place.isStandard {
            throw UsageError("--format is for a FILE of - (standard output); a file keeps its format", command: command)
        }
        return chosen
    }

    /// Writes a summary line: on standard output, unless a document goes there.
    static func report(_ line: String, besides place: Document.Place) {
        if place.isStandard {
            FileHandle.standardError.write(Data((line + "\n").utf8))
        } else {
            print(line)
        }
    }

    static func name(of format: ModelDocumentFormat) -> String {
        switch format {
        case .json: "JSON"
        case .xmlPropertyList: "XML property list"
        case .binaryPropertyList: "binary property list"
        case .keyedArchive: "keyed archive"
        }
    }

    /// A command-line value: JSON when it reads as JSON, else the text itself.
    static func parse(_ text: String) -> ModelValue {
        (try? ModelValue(json: Data(text.utf8))) ?? .string(text)
    }
}
