import Foundation
import ModelKit

// swift run Demo [COMMAND]: a tour of ModelKit, and small tools over its
// documents and its ModelDefaults store. Errors are one line on standard
// error: exit status 2 for a mistake in the command line, 1 for the rest.

do {
    try Commands.run(Array(CommandLine.arguments.dropFirst()))
} catch let error as UsageError {
    FileHandle.standardError.write(Data("Demo: \(error.sentence)\n".utf8))
    exit(2)
} catch let error as Failure {
    FileHandle.standardError.write(Data("Demo: \(error.message)\n".utf8))
    exit(1)
} catch let error as ModelError {
    FileHandle.standardError.write(Data("Demo: \(Commands.sentence(for: error))\n".utf8))
    exit(1)
} catch {
    FileHandle.standardError.write(Data("Demo: \(error)\n".utf8))
    exit(1)
}
