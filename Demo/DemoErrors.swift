import Foundation

/// A mistake in the command line: one line that points to the command's
/// help, exit status 2.
struct UsageError: Error {
    let message: String
    /// The command whose help to point to; `nil` for the list of commands.
    let command: Command?

    init(_ message: String, command: Command?) {
        self.message = message
        self.command = command
    }

    /// `show takes one FILE (see 'Demo show --help')`.
    var sentence: String {
        "\(message) (see 'Demo \(command.map { $0.rawValue + " " } ?? "")--help')"
    }
}

/// A command that could not do what was asked with the input it was given
/// (a key that is not there, a path that names nothing): one line, exit
/// status 1. Failures of the library are ``ModelError``s instead.
struct Failure: Error {
    let message: String

    init(_ message: String) { self.message = message }
}
