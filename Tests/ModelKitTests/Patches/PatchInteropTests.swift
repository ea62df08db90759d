import Foundation
import Testing

@testable import ModelKit

/// Python's `jsonpatch` package is the judge of the patches ModelKit writes:
/// it applies them to the same documents and must get the same results.
/// The tests skip where python3 or the package is missing.
@Suite struct PatchInteropTests {
    /// python3, when it can import `jsonpatch`.
    static let python: URL? = {
        guard let python = PropertyListInteropTests.executable("python3"),
            let (status, _) = try? PropertyListInteropTests.run(python, ["-c", "import jsonpatch"]), status == 0
        else { return nil }
        return python
    }()

    /// Reads `cases.json` (an array of [document, patch] pairs), applies each
    /// patch with jsonpatch, and writes the results, or an error string, to `results.json`.
    static let script = """
        import json, sys, jsonpatch
        with open(sys.argv[1], encoding="utf-8") as f:
            cases = json.load(f)
        results = []
        for document, patch in cases:
            try:
                results.append({"result": jsonpatch.apply_patch(document, patch)})
            except Exception as error:
                results.append({"error": repr(error)})
        with open(sys.argv[2], "w", encoding="utf-8") as f:
            json.dump(results, f)
        """

    /// What jsonpatch makes of each (document, patch) pair.
    static func pythonResults(_ cases: [(ModelValue, JSONPatch)], python: URL) throws -> [ModelValue] {
        try withTemporaryFolder { folder in
            let input = folder.appendingPathComponent("cases.json")
            let output = folder.appendingPathComponent("results.json")
            let script = folder.appendingPathComponent("apply.py")
            try Data(Self.script.utf8).write(to: script)
            try ModelValue.array(cases.map { .array([$0.0, $0.1.modelValue]) }).jsonData().write(to: input)
            let (status, text) = try PropertyListInteropTests.run(python, [script.path, input.path, output.path])
            try #require(status == 0, "python3 failed: \(text)")
            guard case .array(let results) = try ModelValue(json: Data(contentsOf: output)) else { return [] }
            return results
        }
    }

    @Test(.enabled(if: python != nil, "needs python3 with the jsonpatch package"), arguments: [11, 12] as [UInt64])
    func jsonpatchAppliesModelKitsDifferencesToTheSameResults(seed: UInt64) throws {
        guard let python = Self.python else { return }
        var trees = RandomTrees(seed: seed)
        // jsonpatch 1.33 refuses to replace a member named "-" (it takes it
        // for the end of an array even in an object), so no key is "-" here.
        trees.keys.removeAll { $0 == "-" }
        let pairs = trees.pairs(300)
        let cases = pairs.map { ($0.0, JSONPatch.difference(from: $0.0, to: $0.1)) }
        let results = try Self.pythonResults(cases, python: python)
        try #require(results.count == pairs.count)
        for ((_, expected), result) in zip(pairs, results) {
            #expect(result["result"] == expected, "\(result)")
        }
    }

    /// Reads `pairs.json` (an array of [source, target] pairs) and writes
    /// jsonpatch's difference of each to `patches.json`, with whether
    /// jsonpatch itself gets the target by applying it: jsonpatch 1.33's
    /// make_patch sometimes writes a move into the moved value's own child,
    /// or an index past the end, and takes `false` for `0` (Python's
    /// `False == 0`); those patches are its own bugs and are not judged.
    static let differenceScript = """
        import json, sys, jsonpatch
        with open(sys.argv[1], encoding="utf-8") as f:
            pairs = json.load(f)
        def same(a, b):
            return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
        out = []
        for a, b in pairs:
            patch = jsonpatch.make_patch(a, b)
            try:
                valid = same(patch.apply(a), b)
            except Exception:
                valid = False
            out.append({"patch": patch.patch, "valid": valid})
        with open(sys.argv[2], "w", encoding="utf-8") as f:
            json.dump(out, f)
        """

    @Test(.enabled(if: python != nil, "needs python3 with the jsonpatch package"), arguments: [13, 14] as [UInt64])
    func modelKitAppliesJsonpatchsDifferencesToTheSameResults(seed: UInt64) throws {
        guard let python = Self.python else { return }
        var trees = RandomTrees(seed: seed)
        trees.keys.removeAll { $0 == "-" }
        // Every pair differs somewhere only by Unicode normalisation too.
        let pairs = trees.pairs(300).map { pair -> (ModelValue, ModelValue) in
            (.object(["s": "\u{E9}", "v": pair.0]), .object(["s": "e\u{301}", "v": pair.1]))
        }
        let patches: ModelValue = try withTemporaryFolder { folder in
            let input = folder.appendingPathComponent("pairs.json")
            let output = folder.appendingPathComponent("patches.json")
            let script = folder.appendingPathComponent("difference.py")
            try Data(Self.differenceScript.utf8).write(to: script)
            try ModelValue.array(pairs.map { .array([$0.0, $0.1]) }).jsonData().write(to: input)
            let (status, text) = try PropertyListInteropTests.run(python, [script.path, input.path, output.path])
            try #require(status == 0, "python3 failed: \(text)")
            return try ModelValue(json: Data(contentsOf: output))
        }
        guard case .array(let list) = patches else { Issue.record("no patches"); return }
        try #require(list.count == pairs.count)
        var judged = 0
        for ((source, target), entry) in zip(pairs, list) where entry["valid"] == true {
            let patch = try #require(entry["patch"])
            let result = try JSONPatch(modelValue: patch).applied(to: source)
            #expect(result == target, "\(source) -> \(target) by \(patch)")
            judged += 1
        }
        // jsonpatch's own mistakes are rare: most pairs are judged.
        #expect(judged > pairs.count * 3 / 4, "\(judged) of \(pairs.count)")
    }

    @Test(.enabled(if: python != nil, "needs python3 with the jsonpatch package"))
    func jsonpatchAgreesOnEveryOperation() throws {
        guard let python = Self.python else { return }
        let document: ModelValue = ["a": ["b": [1, 2, 3]], "m~n": "x", "a/b": 2.5, "list": []]
        let patch = try JSONPatch(json: """
            [{"op":"test","path":"/a/b/0","value":1.0},{"op":"move","from":"/a/b/0","path":"/list/-"},
             {"op":"copy","from":"/m~0n","path":"/list/0"},{"op":"replace","path":"/a~1b","value":null},
             {"op":"remove","path":"/a/b/1"},{"op":"add","path":"/a/c","value":{"d":[true]}}]
            """)
        let ours = try patch.applied(to: document)
        let results = try Self.pythonResults([(document, patch)], python: python)
        #expect(results.first?["result"] == ours)
        #expect(ours == ["a": ["b": [2], "c": ["d": [true]]], "m~n": "x", "a/b": nil, "list": ["x", 1]])
    }
}
