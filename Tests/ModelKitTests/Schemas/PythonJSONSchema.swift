import Foundation

@testable import ModelKit

/// Python's `jsonschema` package as a judge of schemas and documents, run
/// as a child process. Tests that need it are skipped where `python3` or
/// the package is missing.
enum PythonJSONSchema {
    /// Whether `python3 -c "import jsonschema"` succeeds here.
    static let isAvailable: Bool = (try? run(["-c", "import jsonschema"], input: Data()))?.status == 0

    /// What the judge said: the schema's error, if `check_schema` refused
    /// it, and whether each document is valid.
    struct Verdict: Equatable {
        var schemaError: String?
        var valid: [Bool]
    }

    private static let script = """
        import json, sys
        from jsonschema import Draft202012Validator
        from jsonschema.exceptions import SchemaError
        request = json.load(sys.stdin)
        try:
            Draft202012Validator.check_schema(request["schema"])
        except SchemaError as error:
            print(json.dumps({"schemaError": error.message, "valid": []}))
            sys.exit(0)
        validator = Draft202012Validator(request["schema"])
        print(json.dumps({"schemaError": None, "valid": [validator.is_valid(json.loads(d)) for d in request["documents"]]}))
        """

    /// Checks `schema` with `Draft202012Validator.check_schema`, then each document against it.
    static func judge(schema: ModelValue, documents: [Data]) throws -> Verdict {
        let request: ModelValue = [
            "schema": schema,
            "documents": .array(documents.map { .string(String(decoding: $0, as: UTF8.self)) }),
        ]
        let outcome = try run(["-c", script], input: try request.jsonData())
        guard outcome.status == 0, let answer = try? ModelValue(json: outcome.output) else {
            throw ModelError.invalidValue(
                "python3 failed (\(outcome.status)): \(String(decoding: outcome.error, as: UTF8.self))")
        }
        return Verdict(
            schemaError: answer["schemaError"]?.stringValue,
            valid: (answer["valid"]?.arrayValue ?? []).map { $0.boolValue ?? false })
    }

    private static func run(_ arguments: [String], input: Data) throws -> (status: Int32, output: Data, error: Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // Written and read on other threads, so that no pipe fills up.
        let group = DispatchGroup()
        let errorData = UncheckedBox(Data())
        DispatchQueue.global().async(group: group) {
            stdin.fileHandleForWriting.write(input)
            try? stdin.fileHandleForWriting.close()
        }
        DispatchQueue.global().async(group: group) {
            errorData.value = stderr.fileHandleForReading.readDataToEndOfFile()
        }
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        group.wait()
        return (process.terminationStatus, output, errorData.value)
    }
}

/// A value handed between threads that are joined before it is read.
final class UncheckedBox<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
