import Foundation
import Testing

/// `swiftc` and the built ModelKit module, found beside the test executable;
/// the tests that compile code are skipped where either is missing.
enum DocExampleCompiler {
    /// The folder holding `ModelKit.swiftmodule`: `Modules` beside the test
    /// executable (SwiftPM 6) or the executable's own folder.
    static let moduleFolder: URL? = {
        var executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        #if os(Linux)
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            executable = URL(fileURLWithPath: path)
        }
        #endif
        var folder = executable.deletingLastPathComponent()
        for _ in 0..<4 {
            for candidate in [folder.appendingPathComponent("Modules"), folder]
            where FileManager.default.fileExists(atPath: candidate.appendingPathComponent("ModelKit.swiftmodule").path) {
                return candidate
            }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }()

    static let isAvailable = moduleFolder != nil && (try? swiftc(["--version"]))?.status == 0

    /// Runs `swiftc` with `arguments`.
    static func swiftc(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Type-checks `files` (each alone, as a library) against the built
    /// module in Swift 6 mode; returns the diagnostics of each that failed
    /// or warned.
    static func typeCheck(_ sources: [String]) throws -> [String] {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("ModelKitDocExamples-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var problems: [String] = []
        for (index, source) in sources.enumerated() {
            let file = folder.appendingPathComponent("examples\(index).swift")
            try source.write(to: file, atomically: true, encoding: .utf8)
            let result = try swiftc([
                "-typecheck", "-parse-as-library", "-swift-version", "6", "-I", moduleFolder!.path, file.path,
            ])
            let warnings = result.output.split(separator: "\n").filter { line in
                line.contains(": warning: ") && !tolerated.contains { line.contains($0) }
            }
            if result.status != 0 || !warnings.isEmpty {
                problems.append(result.output)
            }
        }
        return problems
    }

    /// Warnings an example may give: a value it makes only to show how.
    static let tolerated = ["was never used", "was never mutated"]
}

@Suite struct DocCommentExampleTests {
    @Test func everySwiftBlockOfADocCommentIsFound() throws {
        let examples = try DocCommentExamples.examples()
        #expect(examples.count > 100)
        let saved = examples.filter { $0.file == "Sources/ModelKit/Model/Saved.swift" }
        #expect(saved.first?.lines.first == "final class Note: ModelObject, @unchecked Sendable {")
        let article = examples.first { $0.file == "Sources/ModelKit/ModelKit.docc/GettingStarted.md" }
        #expect(article?.lines.prefix(3) == ["", "", "final class Note: ModelObject, @unchecked Sendable {"])
        #expect(throws: DocExampleError.self) {
            try DocCommentExamples.examples(in: "/// ```swift\n/// let x = 1\nlet y = 2\n", file: "x.swift")
        }
    }

    @Test func eachExampleHasTheFormItIsCompiledIn() {
        func form(_ lines: [String]) -> DocCommentExamples.Form {
            DocCommentExamples.form(of: .init(file: "x.swift", line: 1, lines: lines))
        }
        #expect(form(["let note = Note()"]) == .statements)
        #expect(form(["// a comment", "override class var version: Int { 2 }"]) == .members)
        #expect(form(["@Saved(rules: .range(0...150)) var age = 0"]) == .members)
        #expect(form(["struct A: Codable {}", "extension A: ModelValueConvertible {}"]) == .fileScope)
    }

    @Test(.enabled(if: DocExampleCompiler.isAvailable, "swiftc or the built ModelKit module is not found"))
    func everyDocCommentExampleCompilesWithoutWarnings() throws {
        let examples = try DocCommentExamples.examples()
        let root = DocCommentExamples.packageRoot.path
        var sources = [DocCommentExamples.sharedSource(examples, absoluteRoot: root)]
        for (number, example) in examples.enumerated() where DocCommentExamples.form(of: example) == .fileScope {
            sources.append(DocCommentExamples.fileScopeSource(example, number: number, absoluteRoot: root))
        }
        let problems = try DocExampleCompiler.typeCheck(sources)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// `@Saved` outside a `ModelObject` subclass: what the compiler says, as
    /// `Saved`'s documentation quotes it.
    @Test(.enabled(if: DocExampleCompiler.isAvailable, "swiftc or the built ModelKit module is not found"))
    func savedOutsideAModelObjectIsRefused() throws {
        let plainClass = "import ModelKit\nfinal class Plain {\n    @Saved var count = 0\n}\n"
        let problems = try DocExampleCompiler.typeCheck([plainClass])
        #expect(problems.count == 1)
        #expect(
            problems.first?.contains(
                "error: static subscript 'subscript(_enclosingInstance:wrapped:storage:)' requires that 'Plain' "
                    + "inherit from 'ModelObject'") == true, "\(problems)")
        let plainStruct = "import ModelKit\nstruct Plain {\n    @Saved var count = 0\n}\n"
        let structProblems = try DocExampleCompiler.typeCheck([plainStruct])
        #expect(
            structProblems.first?.contains(
                ":3:5: error: 'wrappedValue' is unavailable: @Saved can only be used on properties of ModelObject "
                    + "subclasses") == true, "\(structProblems)")
    }
}
