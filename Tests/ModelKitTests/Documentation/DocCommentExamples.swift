import Foundation

/// The ```swift examples of the doc comments (`///`) in Sources/ModelKit and
/// of the DocC articles in Sources/ModelKit/ModelKit.docc, made into Swift
/// files that `swiftc` type-checks against the built module (see
/// `DocCommentExampleTests`). An article's `import` lines are left out (the
/// files import what the examples need).
///
/// An example is compiled as it stands, in one of three ways:
/// - statements and local declarations, in a function of its own whose
///   parameters are the values examples use without making them (`note`,
///   `store`, `url`, …; see ``DocCommentExamples/parameters``);
/// - members of a model class (an example whose first line starts with
///   `override`, `@Saved` or `static`), in a local subclass of
///   `DocExampleModel`, which has the properties such examples use;
/// - an example with a top-level `extension`, in a file of its own: its
///   type declarations and extensions at file scope, its statements in a
///   function.
/// The types examples use without declaring them (`Note`, `Book`, `Photo`,
/// …, and the key `ModelDefaults.Keys.volume`) are
/// ``DocCommentExamples/scaffold``'s, but for those an example declares. Each example's lines are
/// marked with `#sourceLocation`, so the compiler's messages name the line
/// of the doc comment in Sources/ModelKit.
enum DocCommentExamples {
    /// One ```swift block of a doc comment.
    struct Example {
        /// The file, relative to the package's root.
        var file: String
        /// The line of the example's first line of code (1-based).
        var line: Int
        var lines: [String]
    }

    /// The package's root folder.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Every ```swift block of a `///` comment in Sources/ModelKit and of an
    /// article in its DocC catalog, in file order; an unclosed block is an
    /// error.
    static func examples() throws -> [Example] {
        let sources = packageRoot.appendingPathComponent("Sources/ModelKit")
        guard let walker = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil) else {
            throw DocExampleError("cannot list \(sources.path)")
        }
        let files = walker.compactMap { $0 as? URL }.filter { ["swift", "md"].contains($0.pathExtension) }
            .map { String($0.path.dropFirst(packageRoot.path.count + 1)) }.sorted()
        var examples: [Example] = []
        for file in files {
            let text = try String(contentsOf: packageRoot.appendingPathComponent(file), encoding: .utf8)
            examples += try file.hasSuffix(".md") ? articleExamples(in: text, file: file) : Self.examples(in: text, file: file)
        }
        return examples
    }

    /// The ```swift blocks of an article's `text`, with `import` lines
    /// made empty.
    static func articleExamples(in text: String, file: String) throws -> [Example] {
        var examples: [Example] = []
        var current: Example?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if current == nil {
                if line == "```swift" { current = Example(file: file, line: index + 2, lines: []) }
            } else if line == "```" {
                examples.append(current!)
                current = nil
            } else {
                current!.lines.append(line.hasPrefix("import ") ? "" : String(line))
            }
        }
        if let open = current { throw DocExampleError("\(file):\(open.line - 1): the ```swift block has no closing ```") }
        return examples
    }

    /// The ```swift blocks of the `///` comments of one file's `text`.
    static func examples(in text: String, file: String) throws -> [Example] {
        var examples: [Example] = []
        var current: Example?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("///") else {
                if let open = current {
                    throw DocExampleError("\(file):\(open.line - 1): the ```swift block has no closing ```")
                }
                continue
            }
            var content = trimmed.dropFirst(3)
            if content.first == " " { content = content.dropFirst() }
            if current == nil {
                if content == "```swift" { current = Example(file: file, line: index + 2, lines: []) }
            } else if content.drop(while: { $0 == " " }) == "```" {
                examples.append(current!)
                current = nil
            } else {
                current!.lines.append(String(content))
            }
        }
        return examples
    }

    /// How an example is compiled.
    enum Form: Equatable { case statements, members, fileScope }

    static func form(of example: Example) -> Form {
        if example.lines.contains(where: { $0.hasPrefix("extension ") }) { return .fileScope }
        let first = example.lines.first { !$0.trimmingCharacters(in: .whitespaces).isEmpty && !$0.hasPrefix("//") }
        if let first, ["override ", "@Saved", "static "].contains(where: { first.hasPrefix($0) }) { return .members }
        return .statements
    }

    /// The values examples use without making them, as parameters of each
    /// example's function.
    static let parameters = """
        note: Note, store: ModelDefaults, history: ModelHistory, folder: Folder, family: Note,
        books: [Book], newBook: Book, thumbnails: Note, settings: Settings, todos: [Todo], url: URL,
        documentURL: URL, cacheURL: URL, data: Data, bodyFromServer: Data, bytes: [UInt8],
        base: Note, mine: Note, other: Note, fromServer: Note, document: ModelDocument<Note>
        """

    /// The types examples use without declaring them.
    static let scaffold: [(name: String, declaration: String)] = [
        ("Note", """
            final class Note: ModelObject, @unchecked Sendable {
                @Saved var title = "Untitled"
                @Saved var count = 0
                @Saved var tags: [String] = []
                @Saved var due: Date? = nil
                @Saved var child: Note? = nil
                @Saved var children: [Note] = []
            }
            """),
        ("Settings", "final class Settings: ModelObject, @unchecked Sendable { @Saved var volume = 0.8 }"),
        ("Todo", "final class Todo: ModelObject, @unchecked Sendable { @Saved var title = \"\" }"),
        ("Book", "final class Book: ModelObject, @unchecked Sendable { @Saved var title = \"\" }"),
        ("Folder", "final class Folder: ModelObject, @unchecked Sendable { @Saved var notes: [Note] = [] }"),
        ("Attachment", "class Attachment: ModelObject, @unchecked Sendable { @Saved var name = \"\" }"),
        ("Photo", "final class Photo: Attachment, @unchecked Sendable { @Saved var width = 0 }"),
        ("Video", "final class Video: Attachment, @unchecked Sendable { @Saved var seconds = 0.0 }"),
        ("Account", """
            final class Account: ModelObject, @unchecked Sendable {
                @Saved var balance = 0
                @Saved var history: [Int] = []
            }
            """),
        ("User", "struct User: Decodable { var name: String }"),
        ("Point", """
            struct Point: ModelValueConvertible {
                var x = 0.0, y = 0.0
                init(modelValue: ModelValue) throws { x = 0; y = 0 }
                var modelValue: ModelValue { [.double(x), .double(y)] }
            }
            """),
        ("ModelDefaults.Keys", """
            extension ModelDefaults.Keys {
                static let volume = Key<Double>("volume", default: 0.8)
            }
            """),
        ("DocExampleModel", """
            /// What the examples of a model's members use.
            class DocExampleModel: ModelObject, @unchecked Sendable {
                @Saved var due = Date()
                @Saved var count = 0
                @Saved var email = ""
                @Saved var age = 0
                @Saved var hasDrivingLicence = false
                @Saved var firstName = ""
                @Saved var lastName = ""
                var fullName: String { firstName + " " + lastName }
            }
            """),
    ]

    static let imports = "import Foundation\nimport Observation\n@testable import ModelKit\n"

    /// The source of the examples that compile together (`.statements` and
    /// `.members`), in one file.
    static func sharedSource(_ examples: [Example], absoluteRoot: String) -> String {
        var source = imports + "\n" + scaffold.map(\.declaration).joined(separator: "\n\n") + "\n"
        for (number, example) in examples.enumerated() where form(of: example) != .fileScope {
            source += function(example, number: number, absoluteRoot: absoluteRoot)
        }
        return source
    }

    /// The source of an example with a top-level `extension`, in a file of
    /// its own.
    static func fileScopeSource(_ example: Example, number: Int, absoluteRoot: String) -> String {
        var declarations: [(line: Int, lines: [String])] = []
        var statements: [(line: Int, text: String)] = []
        var depth = 0
        for (offset, line) in example.lines.enumerated() {
            let starts = ["extension ", "struct ", "enum ", "final class ", "class ", "protocol "]
            if depth == 0, starts.contains(where: { line.hasPrefix($0) }) {
                declarations.append((example.line + offset, []))
            }
            if depth > 0 || starts.contains(where: { line.hasPrefix($0) }) {
                declarations[declarations.count - 1].lines.append(line)
                depth += line.filter { $0 == "{" }.count - line.filter { $0 == "}" }.count
            } else {
                statements.append((example.line + offset, line))
            }
        }
        // The types the example declares replace the scaffold's, and its
        // extensions the scaffold's extensions of the same type.
        var declared: Set<String> = [], extended: Set<String> = []
        for declaration in declarations {
            guard let first = declaration.lines.first else { continue }
            let words = first.split(whereSeparator: { " :{<".contains($0) })
            guard let name = words.first(where: { !["extension", "struct", "enum", "final", "class", "protocol"].contains($0) })
            else { continue }
            if first.hasPrefix("extension ") { extended.insert(String(name)) } else { declared.insert(String(name)) }
        }
        let kept = scaffold.filter { entry in
            !declared.contains(entry.name) && !(entry.declaration.hasPrefix("extension ") && extended.contains(entry.name))
        }
        var source = imports + "\n" + kept.map(\.declaration).joined(separator: "\n\n") + "\n"
        let file = absoluteRoot + "/" + example.file
        for declaration in declarations {
            source += "#sourceLocation(file: \"\(file)\", line: \(declaration.line))\n"
            source += declaration.lines.joined(separator: "\n") + "\n#sourceLocation()\n"
        }
        source += "func docExample\(number)(\(parameters)) async throws {\n"
        for statement in statements {
            source += "#sourceLocation(file: \"\(file)\", line: \(statement.line))\n\(statement.text)\n"
        }
        return source + (statements.isEmpty ? "" : "#sourceLocation()\n") + "}\n"
    }

    /// An example of `.statements` or `.members` form as a function.
    private static func function(_ example: Example, number: Int, absoluteRoot: String) -> String {
        var source = "\nfunc docExample\(number)(\(parameters)) async throws {\n"
        let isMembers = form(of: example) == .members
        if isMembers { source += "final class DocExample\(number): DocExampleModel, @unchecked Sendable {\n" }
        source += "#sourceLocation(file: \"\(absoluteRoot)/\(example.file)\", line: \(example.line))\n"
        source += example.lines.joined(separator: "\n") + "\n#sourceLocation()\n"
        if isMembers { source += "}\n" }
        return source + "}\n"
    }
}

/// A failure of the doc-comment examples' checker.
struct DocExampleError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
