import Foundation
import Synchronization
import Testing

@testable import ModelKit

/// Patches, merge patches and differences from a hostile client: nothing
/// crashes at any depth (on a 512 KiB thread too), nothing grows without
/// bound, and a failed patch names its operation and changes nothing.
@Suite struct HostilePatchTests {
    /// `levels` arrays nested in each other around `leaf`.
    static func nested(_ levels: Int, around leaf: ModelValue = 1) -> ModelValue {
        var value = leaf
        for _ in 0..<levels { value = .array([value]) }
        return value
    }

    /// `levels` objects nested through the key `"a"` around `leaf`.
    static func nestedObjects(_ levels: Int, around leaf: ModelValue = 1) -> ModelValue {
        var value = leaf
        for _ in 0..<levels { value = .object(["a": value]) }
        return value
    }

    /// The pointer of the innermost value of `nestedObjects(levels)`.
    static func deepestPointer(_ levels: Int) -> String {
        String(repeating: "/a", count: levels)
    }

    /// Runs `body` on a thread with the 512 KiB stack of a secondary thread
    /// on Apple platforms, giving back what it threw.
    static func onSmallStack(_ body: @escaping @Sendable () throws -> Void) -> (any Error)? {
        let outcome = Mutex<(any Error)?>(nil)
        DeepGraphTests.onThread {
            do { try body() } catch { outcome.withLock { $0 = error } }
        }
        return outcome.withLock { $0 }
    }

    // MARK: depth

    @Test func copyingADocumentIntoItsDeepestPointFailsAtTheLimit() throws {
        // The report's 53 KB patch: a 400-level value, then copies of the
        // whole document into its deepest point.
        var operations: [ModelValue] = [
            ["op": "add", "path": "/a", "value": Self.nestedObjects(399)]
        ]
        for _ in 0..<6 {
            operations.append(["op": "copy", "from": "", "path": .string(Self.deepestPointer(400))])
        }
        let patch = try JSONPatch(json: ModelValue.array(operations).jsonData())
        let document: ModelValue = ["b": 2]
        for stack in ["main", "small"] {
            let run: @Sendable () throws -> Void = { _ = try patch.applied(to: document) }
            let error = stack == "main" ? Result { try run() }.failure : Self.onSmallStack(run)
            let failure = try #require(error as? ModelError, "\(stack)")
            #expect(failure.code == .nestingTooDeep)
            #expect(failure.description.hasPrefix("operation 1 (copy \"\" to /a/a/a/a"))
            #expect(failure.description.hasSuffix("…): the result would nest deeper than 512 levels"))
        }
    }

    @Test(arguments: [511, 512, 513])
    func anAddIsCheckedAtTheLimit(levels: Int) throws {
        // The value sits inside the root object: 1 + levels arrays and objects.
        let patch = JSONPatch([.add(path: try JSONPointer("/deep"), value: Self.nested(levels - 1))])
        if levels <= 512 {
            let result = try patch.applied(to: [:])
            // What a patch makes can be read again.
            #expect(try ModelValue(json: result.jsonData()) == result)
        } else {
            #expect(throws: ModelError.self) { try patch.applied(to: [:]) }
        }
    }

    @Test func aLongPathOnASmallStackFailsWithoutCrashing() throws {
        // The report's 4 KB patch: one add whose path has 500 tokens, into a
        // document 500 levels deep, on a 512 KiB thread.
        let document = Self.nestedObjects(500)
        let path = try JSONPointer(Self.deepestPointer(499) + "/b")
        let patch = JSONPatch([.add(path: path, value: "x")])
        let error = Self.onSmallStack {
            let result = try patch.applied(to: document)
            #expect(result != document)
        }
        #expect(error == nil, "\(String(describing: error))")
        // A path through a value that is not there fails with the pointer's place.
        let missing = JSONPatch([.replace(path: try JSONPointer(Self.deepestPointer(520)), value: 1)])
        let failure = Self.onSmallStack { _ = try missing.applied(to: document) }
        #expect((failure as? ModelError)?.code == .nestingTooDeep)
    }

    @Test func deepMergePatchesFailWithoutCrashing() throws {
        // Two ordinary adds make a 700-level document…
        let half = Self.nestedObjects(350)
        let document = try JSONPatch([
            .add(path: try JSONPointer("/x"), value: half),
            .add(path: try JSONPointer("/x" + Self.deepestPointer(350)), value: Self.nestedObjects(100)),
        ]).applied(to: [:])
        // …and a merge patch as deep fails at the limit, on every stack.
        let patch = JSONMergePatch(.object(["x": Self.nestedObjects(700, around: 2)]))
        for small in [false, true] {
            let run: @Sendable () throws -> Void = { _ = try patch.applied(to: document) }
            let error = small ? Self.onSmallStack(run) : Result { try run() }.failure
            let failure = try #require(error as? ModelError)
            #expect(failure.code == .nestingTooDeep)
            #expect(failure.description.hasPrefix("the merge patch's result would nest deeper than 512 levels (at /x/a/a"))
        }
        // A 10,000-level merge patch on a small stack.
        let huge = DeepValues([Self.nestedObjects(10_000)])
        let error = Self.onSmallStack { _ = try JSONMergePatch(huge[0]).applied(to: [:]) }
        #expect((error as? ModelError)?.code == .nestingTooDeep)
    }

    /// Values too deep for Swift to free by recursion on a small stack,
    /// freed without recursion wherever the last reference goes (a thread's
    /// closure may be released on that thread).
    final class DeepValues: @unchecked Sendable {
        private(set) var values: [ModelValue]
        init(_ values: [ModelValue]) { self.values = values }
        subscript(index: Int) -> ModelValue { values[index] }
        func append(_ value: ModelValue) { values.append(value) }
        deinit {
            for index in values.indices { values[index].releaseWithoutRecursion() }
        }
    }

    @Test func differencesAndEqualityOfDeepValuesRunOnASmallStack() throws {
        // Values this deep are made in code (no reader makes them).
        let deep = DeepValues([
            Self.nestedObjects(5_000, around: "e\u{301}"), Self.nestedObjects(5_000, around: "\u{E9}"),
            Self.nestedObjects(5_000, around: "e\u{301}"),
        ])
        let error = Self.onSmallStack {
            let (a, b, same) = (deep[0], deep[1], deep[2])
            #expect(a != b)
            #expect(!a.isJSONEqual(to: b))
            #expect(a == same)
            #expect(a.isJSONEqual(to: same))
            #expect(a.hashValue == same.hashValue)
            let patch = JSONPatch.difference(from: a, to: b)
            #expect(patch.operations.count == 1)
            #expect(patch.operations.first?.path.tokens.count == 5_000)
            let merge = JSONMergePatch.difference(from: a, to: b)
            #expect(merge.value != [:])
            deep.append(merge.value)
        }
        #expect(error == nil, "\(String(describing: error))")
    }

    // MARK: growth

    @Test func copiesCannotMakeADocumentExplode() throws {
        // The report's 1.4 KB patch: thirty copies of an array into itself.
        let copy: ModelValue = ["op": "copy", "from": "/blob", "path": "/blob/-"]
        let patch = try JSONPatch(json: ModelValue.array(Array(repeating: copy, count: 30)).jsonData())
        let document: ModelValue = ["blob": ["0123456789"]]
        let started = Date()
        let failure = try #require(Result { try patch.applied(to: document) }.failure as? ModelError)
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(failure.code == .limitExceeded)
        #expect(failure.description.hasPrefix("operation 16 (copy /blob to /blob/-): the patch's copies would add more "
            + "than 1048576 bytes of JSON to the document"))
        // Raising the allowance lets more copies through, and no further.
        var generous = patch
        generous.limits.minimumCopyAllowance = 4 << 20
        let later = try #require(Result { try generous.applied(to: document) }.failure as? ModelError)
        #expect(later.description.hasPrefix("operation 18 "))
    }

    @Test func aDocumentMayCopyItsOwnSizeWhateverTheMinimum() throws {
        // A realistic large copy: the whole of a 2 MB list, once.
        let items = ModelValue.array((0..<20_000).map { .string("item \($0) " + String(repeating: "x", count: 90)) })
        let document: ModelValue = ["items": items, "archive": []]
        let once = JSONPatch([.copy(from: try JSONPointer("/items"), path: try JSONPointer("/archive/-"))])
        let result = try once.applied(to: document)
        #expect(result["archive"]?[0] == items)
        // Twice is more than the document and patch together.
        let twice = JSONPatch(once.operations + once.operations)
        let failure = try #require(Result { try twice.applied(to: document) }.failure as? ModelError)
        #expect(failure.description.hasPrefix("operation 1 "))
    }

    // MARK: exact strings

    @Test(arguments: [("\u{E9}", "e\u{301}"), ("\u{212B}", "\u{C5}"), ("\u{FB01}", "fi")])
    func stringsAndKeysCompareByScalars(nfc: String, other: String) throws {
        let a: ModelValue = ["name": .string(nfc)]
        let b: ModelValue = ["name": .string(other)]
        #expect(a != b)
        #expect(!a.isJSONEqual(to: b))
        let test = JSONPatch([.test(path: try JSONPointer("/name"), value: .string(other))])
        let failure = try #require(Result { try test.applied(to: a) }.failure as? ModelError)
        #expect(failure.code == .testFailed)
        // Differences see the change, and applying them gives the other string.
        let patch = JSONPatch.difference(from: a, to: b)
        #expect(patch.operations == [.replace(path: try JSONPointer("/name"), value: .string(other))])
        #expect(try patch.applied(to: a) == b)
        let merge = JSONMergePatch.difference(from: a, to: b)
        #expect(merge.value == b)
        // Keys likewise: two members, both kept.
        let keys = ModelValue.object(ModelValue.Object([(nfc, 1 as ModelValue), (other, 2 as ModelValue)]))
        #expect(keys.objectValue?.count == 2)
        let added = try JSONPatch([.add(path: JSONPointer(tokens: [other]), value: 3)]).applied(to: [nfc: 1])
        #expect(added.objectValue?.count == 2)
        #expect(JSONPatch.difference(from: [nfc: 1], to: [other: 1]).operations.count == 2)
    }

    @Test(arguments: [Date.distantPast, Date.distantFuture, Date(timeIntervalSince1970: 1_800_000_000.25)])
    func datesOfAnyYearEqualTheTextJSONWritesForThem(date: Date) throws {
        let written = try ModelValue.date(date).jsonString()
        let text = String(written.dropFirst().dropLast())
        #expect(ModelValue.date(date).isJSONEqual(to: .string(text)), "\(text)")
        #expect(ModelValue.date(date).jsonHash == ModelValue.string(text).jsonHash)
        let test = JSONPatch([.test(path: try JSONPointer("/when"), value: .string(text))])
        #expect(throws: Never.self) { try test.applied(to: ["when": .date(date)]) }
        #expect(JSONPatch.difference(from: ["when": .date(date)], to: ["when": .string(text)]).isEmpty)
    }
}

extension Result where Success == Void, Failure == any Error {
    /// The error, if this is a failure.
    var failure: (any Error)? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

extension Result where Success == ModelValue, Failure == any Error {
    /// The error, if this is a failure.
    var failure: (any Error)? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
