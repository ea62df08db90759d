import Foundation

// A libFuzzer target for JSON Patch, JSON Merge Patch and differences,
// compiled together with the library's sources by Fuzz/run.sh patch.
//
// The input's bytes drive a generator of documents (deep and wide, with
// strings and keys that Swift's `==` finds equal and JSON does not) and of
// patches (adds of deep values, copies of the whole document into itself,
// moves, pointers long and wrong), and are also read as a patch document of
// their own. Everything runs on a thread with a 512 KiB stack. For each
// input it checks that:
// - applying a patch or merge patch either gives a result or throws a
//   ModelError, and a result nests no deeper than 512 levels (a crash, a
//   hang or an exhausted memory is a finding);
// - a patch that fails on a model leaves its JSON byte for byte as it was;
// - JSONPatch.difference(a, b) applied to a gives b, and so does
//   JSONMergePatch.difference where b has no null member;
// - equal values hash alike, and strings differing only by normalisation
//   are not equal.

/// Randomness read from the fuzzer's input, then zeros.
struct InputBytes {
    let bytes: [UInt8]
    var position = 0

    mutating func next(_ bound: Int) -> Int {
        guard bound > 1 else { return 0 }
        var value = 0
        for _ in 0..<2 {
            value = value << 8 | Int(position < bytes.count ? bytes[position] : 0)
            position += 1
        }
        return value % bound
    }

    mutating func string() -> String {
        ["a", "b", "é", "e\u{301}", "Å", "\u{212B}", "~", "/", "", "-", "0", "1", "type", "version", "title"][next(15)]
    }

    mutating func value(depth: Int) -> ModelValue {
        switch next(depth > 0 ? 9 : 5) {
        case 0: return .null
        case 1: return .int(next(100) - 50)
        case 2: return .double(Double(next(10)) / 4)
        case 3: return .string(string())
        case 4: return .bool(next(2) == 1)
        case 5, 6:
            // Sometimes a long chain, to reach the depth limit.
            if next(8) == 0 { return nested(next(600)) }
            return .array((0..<next(4)).map { _ in value(depth: depth - 1) })
        default:
            var members = ModelValue.Object()
            for _ in 0..<next(4) { members[string()] = value(depth: depth - 1) }
            return .object(members)
        }
    }

    mutating func nested(_ levels: Int) -> ModelValue {
        var value: ModelValue = .int(levels)
        for _ in 0..<levels { value = next(2) == 0 ? .array([value]) : .object(["a": value]) }
        return value
    }

    mutating func pointer(in document: ModelValue) -> JSONPointer {
        var tokens: [String] = []
        var current = document
        while next(4) != 0 {
            switch current {
            case .object(let members) where !members.isEmpty && next(5) != 0:
                let key = members.keys[next(members.count)]
                tokens.append(key)
                current = members[key]!
            case .array(let elements) where !elements.isEmpty && next(5) != 0:
                let index = next(elements.count + 1)
                tokens.append(index == elements.count ? "-" : String(index))
                if index < elements.count { current = elements[index] } else { return JSONPointer(tokens: tokens) }
            default:
                tokens.append(next(3) == 0 ? String(repeating: "a/", count: next(600)) : string())
                return JSONPointer(tokens: tokens)
            }
        }
        return JSONPointer(tokens: tokens)
    }

    mutating func patch(for document: ModelValue) -> JSONPatch {
        var operations: [JSONPatch.Operation] = []
        for _ in 0..<next(8) {
            let path = pointer(in: document)
            switch next(6) {
            case 0: operations.append(.add(path: path, value: value(depth: 3)))
            case 1: operations.append(.remove(path: path))
            case 2: operations.append(.replace(path: path, value: value(depth: 3)))
            case 3: operations.append(.move(from: pointer(in: document), path: path))
            case 4: operations.append(.copy(from: next(3) == 0 ? .root : pointer(in: document), path: path))
            default: operations.append(.test(path: path, value: value(depth: 2)))
            }
        }
        return JSONPatch(operations)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPatch(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        checkPatches(bytes)
        done.signal()
    }
    thread.stackSize = 512 << 10
    thread.start()
    done.wait()
    return 0
}

func checkPatches(_ bytes: [UInt8]) {
    var input = InputBytes(bytes: bytes)
    let document = input.value(depth: 5)
    let other = input.value(depth: 5)

    // Patches, generated and read from the input.
    var patches = [input.patch(for: document)]
    if let read = try? JSONPatch(json: Data(bytes)) { patches.append(read) }
    let depth = document.measured().depth
    for patch in patches {
        checkApplying(depth) { try patch.applied(to: document) }
    }
    let merge = JSONMergePatch(input.value(depth: 6))
    checkApplying(depth) { try merge.applied(to: document) }
    if let read = try? JSONMergePatch(json: Data(bytes)) { checkApplying(depth) { try read.applied(to: document) } }

    // Differences turn one into the other, where the other is within the
    // depth limit (a patch may not make a deeper document).
    guard other.measured(depthLimit: 512).depth <= 512 else { return }
    let difference = JSONPatch.difference(from: document, to: other)
    guard let result = try? difference.applied(to: document), result.isJSONEqual(to: other) else {
        fatalError("difference does not apply: \(document) -> \(other): \((try? difference.jsonString()) ?? "")")
    }
    if !hasNullMember(other) {
        let mergeDifference = JSONMergePatch.difference(from: document, to: other)
        guard let merged = try? mergeDifference.applied(to: document), merged.isJSONEqual(to: other) else {
            fatalError("merge difference does not apply: \(document) -> \(other)")
        }
    }
    if document == other, document.hashValue != other.hashValue { fatalError("equal values hash apart") }
    if ModelValue.string("\u{E9}") == .string("e\u{301}") { fatalError("normalisation made two strings equal") }

    // On a model: all or nothing.
    let note = FuzzNote()
    note.title = input.string()
    note.tags = [input.string(), input.string()]
    note.children = [FuzzNote(), FuzzNote()]
    try? note.setExtensibleProperty(document, forKey: "extra")
    guard let start = try? note.jsonData() else { return }
    let form = (try? ModelValue(json: start)) ?? .null
    for patch in [input.patch(for: form)] + patches {
        // What the model is before this patch (an earlier one may have applied).
        guard let before = try? note.jsonData() else { return }
        do {
            try note.apply(patch)
        } catch is ModelError {
            guard (try? note.jsonData()) == before else { fatalError("a failed patch changed the model") }
        } catch {
            fatalError("unexpected error type: \(error)")
        }
    }
}

/// Runs an application, which must give a result no deeper than the limit
/// (or than the document, `depth`, when it was deeper) or throw a ModelError.
func checkApplying(_ depth: Int, _ apply: () throws -> ModelValue) {
    do {
        let result = try apply()
        let limit = max(512, depth)
        if result.measured(depthLimit: limit).depth > limit { fatalError("a result nests deeper than the limit") }
        var releasing = result
        releasing.releaseWithoutRecursion()
    } catch is ModelError {
    } catch {
        fatalError("unexpected error type: \(error)")
    }
}

func hasNullMember(_ value: ModelValue) -> Bool {
    var pending = [value]
    while let next = pending.popLast() {
        switch next {
        case .array(let elements): pending.append(contentsOf: elements)
        case .object(let members):
            if members.values.contains(.null) { return true }
            pending.append(contentsOf: members.values)
        default: break
        }
    }
    return false
}

final class FuzzNote: ModelObject, @unchecked Sendable {
    @Saved var title = ""
    @Saved var tags: [String] = []
    @Saved var children: [FuzzNote] = []
    @Saved var child: FuzzNote? = nil
}
