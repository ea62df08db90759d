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
