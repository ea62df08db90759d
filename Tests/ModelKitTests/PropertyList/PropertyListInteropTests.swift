import Foundation
import Testing

@testable import ModelKit

/// Other tools are the judges of ModelKit's property lists: `plutil -lint`
/// accepts what ModelKit writes, and Python's `plistlib` reads it to the same
/// values (it reads each file and writes it again as a binary property list;
/// ModelKit reads that back and must find what it wrote). Tests skip politely where a tool is missing.
@Suite struct PropertyListInteropTests {
    static let plutil = executable("plutil")
    static let python = executable("python3")

    static func executable(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let url = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }

    /// Runs `tool` with `arguments`; returns its exit status and output.
    static func run(_ tool: URL, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    /// A temporary folder for `body`, removed afterwards whatever happens.
    static func withFolder<Result>(_ body: (URL) throws -> Result) throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ModelKitInterop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(folder)
    }

    static let rewrite = """
        import plistlib, sys
        for path in sys.argv[1:]:
            with open(path, "rb") as f:
                data = f.read()
            value = plistlib.loads(data)
            # Binary, whatever was read: plistlib's own XML writer drops carriage returns.
            with open(path + ".py", "wb") as f:
                f.write(plistlib.dumps(value, fmt=plistlib.FMT_BINARY, sort_keys=False))
        """

    /// Values for the other tools: every scalar kind, unicode keys (canonically
    /// equivalent pairs among them), big integers, dates with and without
    /// fractions, deep and empty containers; no NaN, which equals nothing.
    static func interopValues() -> [ModelValue] {
        var random = RandomModelValues(seed: 2026)
        var values: [ModelValue] = [
            ["\u{E9}": "precomposed", "e\u{301}": "decomposed", "b": 1, "a": 2],
            ["big": .bigInteger("123456789012345678901234567890"), "unsigned": .bigInteger("18446744073709551615"),
             "min": .int(.min), "negative": .bigInteger("-123456789012345678901234567890")],
            ["when": .date(Date(timeIntervalSinceReferenceDate: 785_000_000.25)), "empty": [], "none": [:]],
            ["markers": ["$null", "$$null", "$integer:5", nil]],
            .array([]), .object(ModelValue.Object()),
            ModelValue.array((0..<20).map { .int($0) }),
        ]
        var deep: ModelValue = "bottom"
        for _ in 0..<100 { deep = ["level": deep] }
        values.append(deep)
        for _ in 0..<40 {
            var value = random.value(allowingNull: true)
            value = value.replacingNaN()
            values.append(value)
        }
        return values
    }

    @Test(arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
    func otherToolsReadWhatModelKitWrites(format: PropertyListSerialization.PropertyListFormat) throws {
        guard let plutil = Self.plutil, let python = Self.python else { return }  // skip politely
        try Self.withFolder { folder in
            let values = Self.interopValues()
            var paths: [String] = []
            for (index, value) in values.enumerated() {
                let url = folder.appendingPathComponent("value\(index).plist")
                try value.propertyListData(format: format).write(to: url)
                paths.append(url.path)
            }
            let lint = try Self.run(plutil, ["-lint"] + paths)
            #expect(lint.status == 0, "\(lint.output)")
            let script = folder.appendingPathComponent("rewrite.py")
            try Self.rewrite.write(to: script, atomically: true, encoding: .utf8)
            let rewritten = try Self.run(python, [script.path] + paths)
            #expect(rewritten.status == 0, "\(rewritten.output)")
            for (index, value) in values.enumerated() {
                let back = try ModelValue(propertyList: Data(contentsOf: URL(fileURLWithPath: paths[index] + ".py")))
                let expected = format == .xml ? value.withWholeSecondDates() : value
                #expect(back == expected, "value \(index)")
                #expect(orderedDescription(back) == orderedDescription(expected), "order of value \(index)")
            }
        }
    }

    /// Files written by plistlib, committed with the script that made them.
    static let plistlibFixture: ModelValue = [
        "title": "Fixture", "count": 42, "negative": -7, "large": .int(Int(Int64.max)),
        "unsigned": .bigInteger("18446744073709551615"), "ratio": 0.1, "flags": [true, false],
        "when": .date(Date(timeIntervalSince1970: 1_763_307_200)), "bytes": .data(Data([0, 1, 0xFE, 0xFF])),
        "unicode": "caf\u{E9} \u{1F389}", "\u{E9}": "precomposed", "e\u{301}": "decomposed",
        "long": .string(String(repeating: "x", count: 40)),
        "nested": ["empty": [], "none": [:], "list": [1, 2.5, "three"]],
    ]

    @Test(arguments: ["plistlib.plist", "plistlib.bplist"])
    func filesWrittenByPlistlibReadToTheirValuesInOrder(name: String) throws {
        var url = URL(fileURLWithPath: #filePath)
        url.deleteLastPathComponent()
        let value = try ModelValue(propertyList: Data(contentsOf: url.appendingPathComponent("Fixtures/\(name)")))
        #expect(value == Self.plistlibFixture)
        #expect(orderedDescription(value) == orderedDescription(Self.plistlibFixture))
    }
}

extension ModelValue {
    /// This value with dates cut to whole seconds, as XML property lists hold them.
    func withWholeSecondDates() -> ModelValue {
        switch self {
        case .date(let date): return .date(wholeSeconds(date))
        case .array(let elements): return .array(elements.map { $0.withWholeSecondDates() })
        case .object(let members):
            return .object(ModelValue.Object(members.map { ($0.key, $0.value.withWholeSecondDates()) }))
        default: return self
        }
    }

    /// This value with NaN replaced by zero (NaN equals nothing, not even itself).
    func replacingNaN() -> ModelValue {
        switch self {
        case .double(let number) where number.isNaN: return .double(0)
        case .array(let elements): return .array(elements.map { $0.replacingNaN() })
        case .object(let members): return .object(ModelValue.Object(members.map { ($0.key, $0.value.replacingNaN()) }))
        default: return self
        }
    }
}
