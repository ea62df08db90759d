import Foundation
import Testing

@testable import ModelKit

/// One three-way merge of JSON documents and what it must give under `.ours`.
struct MergeCase: CustomStringConvertible, Sendable {
    let description: String
    let base: String
    let ours: String
    let theirs: String
    let merged: String
    let conflicts: [String]

    init(_ description: String, _ base: String, _ ours: String, _ theirs: String, _ merged: String, _ conflicts: [String] = []) {
        self.description = description
        self.base = base
        self.ours = ours
        self.theirs = theirs
        self.merged = merged
        self.conflicts = conflicts
    }
}

@Suite struct ModelValueMergeTests {
    static let clean: [MergeCase] = [
        MergeCase("different keys", #"{"a":1,"b":1}"#, #"{"a":2,"b":1}"#, #"{"a":1,"b":3}"#, #"{"a":2,"b":3}"#),
        MergeCase("different keys deep inside",
            #"{"x":{"y":{"a":1,"b":1}}}"#, #"{"x":{"y":{"a":2,"b":1}}}"#, #"{"x":{"y":{"a":1,"b":3}}}"#,
            #"{"x":{"y":{"a":2,"b":3}}}"#),
        MergeCase("the same edit on both sides", #"{"a":1}"#, #"{"a":2}"#, #"{"a":2}"#, #"{"a":2}"#),
        MergeCase("a change on one side only", #"{"a":1,"b":[1]}"#, #"{"a":1,"b":[1]}"#, #"{"a":5,"b":[]}"#, #"{"a":5,"b":[]}"#),
        MergeCase("keys added on both sides, ours first", #"{}"#, #"{"o":1}"#, #"{"t":2}"#, #"{"o":1,"t":2}"#),
        MergeCase("a key removed on one side, unchanged on the other",
            #"{"a":1,"b":2}"#, #"{"b":2}"#, #"{"a":1,"b":3}"#, #"{"b":3}"#),
        MergeCase("a key removed on both sides", #"{"a":1,"b":2}"#, #"{"b":2}"#, #"{"b":2,"c":0}"#, #"{"b":2,"c":0}"#),
        MergeCase("an insertion on one side, an edit elsewhere on the other",
            #"{"l":["a","b","c","d"]}"#, #"{"l":["x","a","b","c","d"]}"#, #"{"l":["a","b","c","D"]}"#,
            #"{"l":["x","a","b","c","D"]}"#),
        MergeCase("a removal on one side, an edit elsewhere on the other",
            #"{"l":[1,2,3,4,5]}"#, #"{"l":[1,3,4,5]}"#, #"{"l":[1,2,3,4,50]}"#, #"{"l":[1,3,4,50]}"#),
        MergeCase("insertions at both ends", #"[1,2,3]"#, #"[0,1,2,3]"#, #"[1,2,3,4]"#, #"[0,1,2,3,4]"#),
        MergeCase("objects in an array edited by position in different keys",
            #"[{"t":"a","n":1},{"t":"b","n":1}]"#, #"[{"t":"A","n":1},{"t":"b","n":1}]"#,
            #"[{"t":"a","n":2},{"t":"b","n":1}]"#, #"[{"t":"A","n":2},{"t":"b","n":1}]"#),
        MergeCase("an element changed in different keys beside an insertion",
            #"[{"t":"a","n":1},{"t":"b","n":1},9]"#, #"[{"t":"a","n":1},{"t":"B","n":1},9]"#,
            #"[{"t":"a","n":1},{"t":"b","n":2},9,10]"#, #"[{"t":"a","n":1},{"t":"B","n":2},9,10]"#),
        MergeCase("both sides removed the same element", #"[1,2,3]"#, #"[1,3]"#, #"[1,3]"#, #"[1,3]"#),
        MergeCase("scalars at the root, one side changed", #"1"#, #"1"#, #""x""#, #""x""#),
    ]

    static let conflicting: [MergeCase] = [
        MergeCase("both sides changed a value differently",
            #"{"items":[{"title":"a"},{"title":"a"},{"title":"a"}]}"#,
            #"{"items":[{"title":"a"},{"title":"a"},{"title":"b"}]}"#,
            #"{"items":[{"title":"a"},{"title":"a"},{"title":"c"}]}"#,
            #"{"items":[{"title":"a"},{"title":"a"},{"title":"b"}]}"#,
            [#"items[2].title: base "a", ours "b", theirs "c""#]),
        MergeCase("both sides added a key differently", #"{}"#, #"{"k":1}"#, #"{"k":2}"#, #"{"k":1}"#,
            [#"k: base absent, ours 1, theirs 2"#]),
        MergeCase("we removed what they edited", #"{"k":1,"z":0}"#, #"{"z":0}"#, #"{"k":2,"z":0}"#, #"{"z":0}"#,
            [#"k: base 1, ours absent, theirs 2"#]),
        MergeCase("they removed what we edited", #"{"k":{"a":1}}"#, #"{"k":{"a":2}}"#, #"{}"#, #"{"k":{"a":2}}"#,
            [#"k: base {"a":1}, ours {"a":2}, theirs absent"#]),
        MergeCase("a value that became another kind", #"{"k":[1]}"#, #"{"k":{"a":1}}"#, #"{"k":[2]}"#,
            #"{"k":{"a":1}}"#, [#"k: base [1], ours {"a":1}, theirs [2]"#]),
        MergeCase("insertions at the same place", #"[1,2]"#, #"[1,"o",2]"#, #"[1,"t",2]"#, #"[1,"o",2]"#,
            [#"[1] (overlapping array edits): base [], ours ["o"], theirs ["t"]"#]),
        MergeCase("a removal overlapping an edit", #"[1,2,3,4]"#, #"[1,4]"#, #"[1,2,30,4]"#, #"[1,4]"#,
            [#"[1] (overlapping array edits): base [2,3], ours [], theirs [2,30]"#]),
        MergeCase("1 and 1.0 are different values", #"{"n":0}"#, #"{"n":1}"#, #"{"n":1.0}"#, #"{"n":1}"#,
            [#"n: base 0, ours 1, theirs 1.0"#]),
        MergeCase("two conflicts and a clean change", #"{"a":0,"b":0,"c":0}"#, #"{"a":1,"b":1,"c":0}"#,
            #"{"a":2,"b":2,"c":3}"#, #"{"a":1,"b":1,"c":3}"#,
            ["a: base 0, ours 1, theirs 2", "b: base 0, ours 1, theirs 2"]),
    ]

    @Test(arguments: clean + conflicting)
    func mergesAsTheRulesSay(_ example: MergeCase) throws {
        let base = try readJSON(example.base), ours = try readJSON(example.ours), theirs = try readJSON(example.theirs)
        let result = try ModelValue.merge(base: base, ours: ours, theirs: theirs)
        #expect(try result.merged.jsonString() == example.merged)
        #expect(result.conflicts.map(\.description) == example.conflicts)
        #expect(result.isClean == example.conflicts.isEmpty)
        // The other side's policy keeps their values; without conflicts the sides may swap.
        let swapped = try ModelValue.merge(base: base, ours: theirs, theirs: ours, policy: .theirs)
        #expect(swapped.merged == result.merged)
        #expect(swapped.conflicts.count == example.conflicts.count)
    }

    @Test(arguments: conflicting)
    func failThrowsListingEveryConflict(_ example: MergeCase) throws {
        let base = try readJSON(example.base), ours = try readJSON(example.ours), theirs = try readJSON(example.theirs)
        do {
            _ = try ModelValue.merge(base: base, ours: ours, theirs: theirs, policy: .fail)
            Issue.record("no error")
        } catch let error as ModelError {
            #expect(error.code == .mergeConflict)
            let count = example.conflicts.count == 1 ? "1 conflict" : "\(example.conflicts.count) conflicts"
            #expect(error.description == "the merge has \(count): " + example.conflicts.joined(separator: "; "))
            #expect(error.mergeConflicts.map(\.description) == example.conflicts)
        }
    }

    @Test(arguments: clean)
    func failDoesNotThrowWithoutConflicts(_ example: MergeCase) throws {
        let result = try ModelValue.merge(
            base: readJSON(example.base), ours: readJSON(example.ours), theirs: readJSON(example.theirs), policy: .fail)
        #expect(try result.merged.jsonString() == example.merged)
    }

    @Test func theirsPolicyKeepsTheirValues() throws {
        let result = try ModelValue.merge(
            base: ["a": 0, "l": [1, 2], "gone": 1], ours: ["a": 1, "l": [1, "o", 2], "gone": 2],
            theirs: ["a": 2, "l": [1, "t", 2]], policy: .theirs)
        #expect(try result.merged.jsonString() == #"{"a":2,"l":[1,"t",2]}"#)
        #expect(result.conflicts.map(\.kind) == [.changedOnBothSides, .overlappingElements, .removedOnOneSide])
    }

    @Test func aResolvingClosureDecidesEachValue() throws {
        let result = try ModelValue.merge(
            base: ["title": "a", "n": 1, "l": [1, 2], "drop": 0], ours: ["title": "b", "n": 2, "l": [1, "o", 2], "drop": 1],
            theirs: ["title": "c", "n": 3, "l": [1, "t", 2], "drop": 2],
            policy: .resolve { (conflict: MergeConflict) -> ModelValue? in
                switch conflict.path.description {
                case "title":
                    let joined = (conflict.ours?.stringValue ?? "") + "+" + (conflict.theirs?.stringValue ?? "")
                    return ModelValue.string(joined)
                case "n": return conflict.theirs
                case "l[1]": return ModelValue.array([.string("o"), .string("t")])
                default: return nil
                }
            })
        #expect(try result.merged.jsonString() == #"{"title":"b+c","n":3,"l":[1,"o","t",2]}"#)
        #expect(result.conflicts.map(\.path.description) == ["title", "n", "l[1]", "drop"])
    }

    @Test func anErrorFromTheClosureEndsTheMerge() throws {
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try ModelValue.merge(base: ["a": 0], ours: ["a": 1], theirs: ["a": 2], policy: .resolve { _ in throw Refused() })
        }
    }

    @Test func aResolutionCannotRemoveTheWholeDocument() throws {
        #expect {
            try ModelValue.merge(base: 0, ours: 1, theirs: 2, policy: .resolve { _ in nil })
        } throws: { error in
            (error as? ModelError)?.description
                == "the resolution of the conflict at the root removed the whole document; a merge must give a value"
        }
    }

    @Test func stringsCompareByUnicodeScalars() throws {
        // "é" composed and decomposed are different values, as == says.
        let composed = ModelValue.string("\u{E9}"), decomposed = ModelValue.string("e\u{301}")
        let result = try ModelValue.merge(base: ["s": "x"], ours: ["s": composed], theirs: ["s": decomposed])
        #expect(result.conflicts.count == 1)
        #expect(result.merged["s"] == composed)
        // A key spelled both ways is two keys.
        let keys = try ModelValue.merge(base: [:], ours: ["\u{E9}": 1], theirs: ["e\u{301}": 2])
        #expect(keys.conflicts.isEmpty)
        #expect(keys.merged.objectValue?.count == 2)
    }

    @Test func aConflictDescribesAbsentAndLongValues() {
        let long = ModelValue.string(String(repeating: "x", count: 100))
        let conflict = MergeConflict(path: ModelKeyPath(), kind: .changedOnBothSides, base: nil, ours: long, theirs: .null)
        #expect(conflict.description == "(root): base absent, ours \"" + String(repeating: "x", count: 58) + "…, theirs null")
    }

    @Test func largeArraysWithScatteredEditsMergeCleanly() throws {
        // Past the common-subsequence limit, elements that occur once anchor the matching.
        let base = (0..<3000).map { ModelValue.string("item \($0)") }
        var ours = base, theirs = base
        ours[100] = "ours"
        ours.insert("inserted", at: 2000)
        theirs[1500] = "theirs"
        theirs.remove(at: 2900)
        let result = try ModelValue.merge(base: .array(base), ours: .array(ours), theirs: .array(theirs))
        #expect(result.conflicts.isEmpty)
        var expected = base
        expected[100] = "ours"
        expected[1500] = "theirs"
        expected.remove(at: 2900)
        expected.insert("inserted", at: 2000)
        #expect(result.merged == .array(expected))
    }

    @Test func deepDocumentsMergeOnASmallStack() throws {
        @Sendable func nested(_ depth: Int, _ leaf: ModelValue) -> ModelValue {
            var value = leaf
            for index in 0..<depth { value = index.isMultiple(of: 2) ? ["k": value, "o": 0] : [value, 1] }
            return value
        }
        let depth = 1_200
        let error = HostilePatchTests.onSmallStack {
            var base = nested(depth, ["a": 0, "b": 0]), ours = nested(depth, ["a": 1, "b": 0])
            var theirs = nested(depth, ["a": 0, "b": 2]), expected = nested(depth, ["a": 1, "b": 2])
            var outcome = try ModelValue.merge(base: base, ours: ours, theirs: theirs)
            let conflicts = outcome.conflicts.count
            let isExpected = outcome.merged == expected
            // Swift frees nested values by recursion: free them level by level.
            base.releaseWithoutRecursion()
            ours.releaseWithoutRecursion()
            theirs.releaseWithoutRecursion()
            expected.releaseWithoutRecursion()
            outcome.merged.releaseWithoutRecursion()
            #expect(conflicts == 0)
            #expect(isExpected)
        }
        #expect(error == nil)
    }
}

extension ModelValueMergeTests {
    /// `[leaf]` wrapped `depth` times, alternating objects and arrays.
    @Sendable static func nested(_ depth: Int, _ leaf: ModelValue) -> ModelValue {
        var value = leaf
        for index in 0..<depth { value = index.isMultiple(of: 2) ? ["k": value, "o": 0] : [value, 1] }
        return value
    }

    /// The report's crash: under `.fail` the merged value of a 2,000-level
    /// merge was freed by recursion after the throw (SIGSEGV on 512 KiB).
    @Test(arguments: [1_000, 2_000, 10_000])
    func aConflictAtTheBottomOfADeepDocumentThrowsOnASmallStack(depth: Int) throws {
        let error = HostilePatchTests.onSmallStack {
            var base = Self.nested(depth, ["a": 0]), ours = Self.nested(depth, ["a": 1])
            var theirs = Self.nested(depth, ["a": 2])
            defer {
                base.releaseWithoutRecursion()
                ours.releaseWithoutRecursion()
                theirs.releaseWithoutRecursion()
            }
            _ = try ModelValue.merge(base: base, ours: ours, theirs: theirs, policy: .fail)
        }
        let failure = try #require(error as? ModelError)
        #expect(failure.code == .mergeConflict)
        #expect(failure.description.contains(".a: base 0, ours 1, theirs 2"))
    }

    /// 10,000 levels, one change on each side at the bottom: each level's
    /// comparisons no longer walk the levels below it again.
    @Test func tenThousandLevelsMergeOnASmallStack() {
        let error = HostilePatchTests.onSmallStack {
            var base = Self.nested(10_000, ["a": 0, "b": 0]), ours = Self.nested(10_000, ["a": 1, "b": 0])
            var theirs = Self.nested(10_000, ["a": 0, "b": 2]), expected = Self.nested(10_000, ["a": 1, "b": 2])
            var outcome = try ModelValue.merge(base: base, ours: ours, theirs: theirs, policy: .fail)
            let isExpected = outcome.merged == expected
            base.releaseWithoutRecursion()
            ours.releaseWithoutRecursion()
            theirs.releaseWithoutRecursion()
            expected.releaseWithoutRecursion()
            outcome.merged.releaseWithoutRecursion()
            #expect(isExpected)
        }
        #expect(error == nil)
    }

    /// Arrays with no value that occurs once, past the million pairs of a
    /// table: insertions at both ends on one side and an edit in the middle
    /// on the other merge cleanly at any length.
    @Test(arguments: [1_000, 2_000, 10_000, 100_000])
    func repeatedValuesMergeByTheFewestEdits(count: Int) throws {
        let base = (0..<count).map { ModelValue.int($0 % 7) }
        let ours = [ModelValue.int(99)] + base + [.int(98)]
        var theirs = base
        theirs[count / 2] = "changed"
        for policy in [MergePolicy.ours, .fail] {
            let result = try ModelValue.merge(base: .array(base), ours: .array(ours), theirs: .array(theirs), policy: policy)
            var expected = ours
            expected[count / 2 + 1] = "changed"
            #expect(result.conflicts.isEmpty)
            #expect(result.merged == .array(expected))
        }
    }
}

/// Compiles only if the merge's values are `Sendable`, as they claim.
@Test func mergeValuesAreSendable() {
    func requireSendable<T: Sendable>(_: T.Type) {}
    requireSendable(MergeConflict.self)
    requireSendable(MergeConflict.Kind.self)
    requireSendable(MergePolicy.self)
    requireSendable(MergeResult<ModelValue>.self)
    let conflict = MergeConflict(path: "a.b", kind: .changedOnBothSides, base: 1, ours: 2, theirs: nil)
    #expect(Set([conflict, conflict]).count == 1)
    #expect(conflict.description == "a.b: base 1, ours 2, theirs absent")
}
