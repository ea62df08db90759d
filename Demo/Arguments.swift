import Foundation

/// A command's arguments split into operands and options.
///
/// Every command reads its arguments the same way: `--help` or `-h` asks
/// for the command's help; an option that takes a value is written
/// `--name value` or `--name=value`; `-` alone is an operand (standard input
/// or output); a negative number (`-5`, `-0.5`) is an operand; `--` ends
/// the options, so that what follows is taken as operands even when it
/// starts with `-`; `-o` is `--output` for a command that takes it. Any other argument that starts with `-` is an unknown
/// option, a usage error.
struct Arguments {
    var operands: [String] = []
    /// The value of each option given, by its name without the dashes.
    var options: [String: String] = [:]
    var wantsHelp = false
    /// The first mistake found, thrown by ``checked()`` unless help was asked for.
    private var problem: UsageError?

    /// Splits `arguments` of `command`, which takes the options named in
    /// `valueOptions` (without their dashes), each with a value.
    init(_ arguments: [String], of command: Command?, valueOptions: Set<String> = []) {
        var index = 0
        var endOfOptions = false
        func fail(_ message: String) {
            if problem == nil { problem = UsageError(message, command: command) }
        }
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if endOfOptions || argument == "-" || !argument.hasPrefix("-") || Double(argument) != nil {
                operands.append(argument)
                continue
            }
            if argument == "--" {
                endOfOptions = true
                continue
            }
            if argument == "--help" || argument == "-h" {
                wantsHelp = true
                continue
            }
            let short = Self.shortOptions[argument]
            guard argument.hasPrefix("--") || short.map(valueOptions.contains) == true else {
                fail("unknown option '\(argument)'")
                continue
            }
            let body = short.map { Substring($0) } ?? argument.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            let attached = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
            if name == "help" {
                // `--help=x`: help takes no value.
                fail("--help takes no value")
                continue
            }
            guard valueOptions.contains(name) else {
                fail("unknown option '--\(name)'")
                continue
            }
            let value: String
            if let attached {
                value = attached
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                fail("--\(name) needs a value")
                continue
            }
            if options[name] != nil { fail("--\(name) is given twice") }
            options[name] = value
        }
    }

    /// The one-letter forms of options (`-o FILE` for `--output FILE`),
    /// for the commands that take the long one.
    static let shortOptions: [String: String] = ["-o": "output"]

    /// Throws the first mistake found.
    func checked() throws -> Arguments {
        if let problem { throw problem }
        return self
    }
}
