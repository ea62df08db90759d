import Foundation

/// A command that could not do what was asked with the input it was given
/// (a key that is not there, a path that names nothing): one line, exit
/// status 1. Failures of the library are ``ModelError``s instead.
struct Failure: Error {
    let message: String

    init(_ message: String) { self.message = message }
}
