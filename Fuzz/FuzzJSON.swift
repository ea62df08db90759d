import Foundation

// A libFuzzer target for ModelKit's JSON codec, compiled together with the
// library's sources by Fuzz/run.sh (so it sees internal API too).
//
// For every input it checks that:
// - reading either succeeds or throws a ModelError whose location lies inside
//   the input (a crash, a hang or a wild read is a finding);
// - a value that reads writes back, in every output style, to text that reads
//   as an equal value;
// - writing is a fixed point: writing what was read back gives the same bytes;
// - every object finds each of its keys at its own position;
// - validating without building (ModelValue.validateJSON) succeeds exactly
//   when reading does, and fails with the same message;
// - a model decoded straight from the bytes equals one decoded through
//   ModelValue, or both fail with the same error: so the members it keeps as
//   their JSON text read back as the values parsing them gives; both write
//   JSON of the same value, and the direct path's text is a fixed point
//   (its unknown members are written back byte for byte);
// - the same document as a [String: Any] dictionary decodes the same way on
//   the direct dictionary path and through ModelValue;
// - a model that decodes, with cycles and shared models added as the input's
//   bytes say, survives JSON, both property lists and dictionaries with both
//   reference policies: equivalent, with the same number of distinct models.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    checkModelPaths(Data(bytes))
    checkDictionaryPaths(Data(bytes))
    let options = JSONReadingOptions(maximumDepth: 64, duplicateKeys: count % 2 == 0 ? .reject : .lastWins)
    let validated = Result { try ModelValue.validateJSON(Data(bytes), options: options) }
    let value: ModelValue
    do {
        value = try ModelValue(jsonBytes: bytes, options: options)
        if case .failure(let error) = validated { fatalError("validation refused what reads: \(error)") }
    } catch let error as ModelError {
        guard case .failure(let refusal) = validated, "\(refusal)" == "\(error)" else {
            fatalError("validation differs from reading: \(validated) \(error)")
        }
        guard let location = error.location, location.byteOffset >= 0, location.byteOffset <= count,
            location.line >= 1, location.column >= 1
        else { fatalError("error without a sound location: \(error)") }
        _ = error.description
        return 0
    } catch {
        fatalError("unexpected error type: \(error)")
    }

    for writing in [JSONWritingOptions.compact, .pretty, .sorted, JSONWritingOptions(escapesSlashes: true)] {
        let written: Data
        do {
            written = try value.jsonData(options: writing)
        } catch {
            fatalError("a value that was read failed to write: \(error)")
        }
        let reread: ModelValue
        do {
            reread = try ModelValue(json: written, options: JSONReadingOptions(maximumDepth: 64))
        } catch {
            fatalError("written JSON failed to read: \(error)\n\(String(decoding: written, as: UTF8.self))")
        }
        guard reread == value else {
            fatalError("round trip changed the value:\n\(value)\n\(reread)")
        }
        guard let again = try? reread.jsonData(options: writing), again == written else {
            fatalError("writing is not a fixed point:\n\(String(decoding: written, as: UTF8.self))")
        }
    }
    _ = try? value.jsonString()
    checkKeyIndexes(value)
    return 0
}

/// Every key of every object is found at its own position, without recursion.
func checkKeyIndexes(_ root: ModelValue) {
    var pending = [root]
    while let value = pending.popLast() {
        switch value {
        case .array(let elements): pending.append(contentsOf: elements)
        case .object(let members):
            for (position, key) in members.keys.enumerated() {
                guard members.index(forKey: key) == position else {
                    fatalError("key \(key) not found at its position \(position) in \(members.keys)")
                }
            }
            pending.append(contentsOf: members.values)
        default: break
        }
    }
}

/// A model with every kind of slot the direct decoder reads itself, and some it does not.
final class FuzzNote: ModelObject, @unchecked Sendable {
    @Saved var title = ""
    @Saved var count = 0
    @Saved var ratio = 0.0
    @Saved var done = false
    @Saved var maybe: Int? = nil
    @Saved var name: String? = nil
    @Saved var due: Date? = nil
    @Saved var tags: [String] = []
    @Saved var child: FuzzNote? = nil
    @Saved var children: [FuzzNote] = []
}

/// The direct model paths against the ModelValue paths they stand in for.
func checkModelPaths(_ data: Data) {
    let direct = Result { try FuzzNote(json: data) }
    let throughValue = Result { try FuzzNote(modelValue: ModelValue(json: data)) }
    switch (direct, throughValue) {
    case (.success(let fast), .success(let reference)):
        guard fast.modelValue == reference.modelValue, !fast.hasAnyChanges else {
            fatalError("direct decoding differs:\n\(fast.modelValue)\n\(reference.modelValue)")
        }

        for options in [JSONWritingOptions.compact, .pretty, .sorted] {
            let written = Result { try fast.jsonData(options: options) }
            let referenceWritten = Result { try ModelValue.object(reference.encodedRoot()).jsonData(options: options) }
            switch (written, referenceWritten) {
            case (.success(let a), .success(let b)) where (try? ModelValue(json: a)) == (try? ModelValue(json: b)):
                // Kept text is written back byte for byte: writing it again changes nothing.
                guard let again = try? FuzzNote(json: a).jsonData(options: options), again == a else {
                    fatalError("direct encoding is not a fixed point: \(String(decoding: a, as: UTF8.self))")
                }
            case (.failure(let a), .failure(let b)) where "\(a)" == "\(b)": continue
            default: fatalError("direct encoding differs: \(written) \(referenceWritten)")
            }
        }
        checkGraph(reference.copy(), shape: data.last ?? 0)
    case (.failure(let fast), .failure(let reference)):
        guard "\(fast)" == "\(reference)" else {
            fatalError("errors differ:\n\(fast)\n\(reference)")
        }
    default:
        fatalError("one path failed: \(direct) \(throughValue)")
    }
}

/// The direct dictionary path against the ModelValue path, on the document as a dictionary.
func checkDictionaryPaths(_ data: Data) {
    guard case .object(let members)? = try? ModelValue(json: data, options: JSONReadingOptions(maximumDepth: 64)) else {
        return
    }
    let dictionary = PropertyListBridge.dictionary(from: members)
    let direct = Result { try FuzzNote(dictionary: dictionary) }
    let throughValue = Result { try FuzzNote(modelValue: .object(PropertyListBridge.members(of: dictionary))) }
    switch (direct, throughValue) {
    case (.success(let fast), .success(let reference)):
        guard fast.isEquivalent(to: reference), !fast.hasAnyChanges else {
            fatalError("direct dictionary decoding differs:\n\(fast)\n\(reference)")
        }
    case (.failure(let fast), .failure(let reference)):
        guard "\(fast)" == "\(reference)" else { fatalError("dictionary errors differ:\n\(fast)\n\(reference)") }
    default:
        fatalError("one dictionary path failed: \(direct) \(throughValue)")
    }
}

/// The distinct models reachable from `root`, without recursion.
func distinctModels(_ root: FuzzNote) -> [FuzzNote] {
    var seen = Set<ObjectIdentifier>()
    var found: [FuzzNote] = []
    var stack = [root]
    while let note = stack.popLast() {
        guard seen.insert(ObjectIdentifier(note)).inserted else { continue }
        found.append(note)
        if let child = note.child { stack.append(child) }
        stack.append(contentsOf: note.children)
    }
    return found
}

/// Adds cycles and shared models to `root` as `shape`'s bits say, checks
/// that every format keeps the graph, then breaks the cycles again.
func checkGraph(_ root: FuzzNote, shape: UInt8) {
    let models = distinctModels(root)
    guard models.count < 64 else { return }
    // Formats that cannot hold the model as it is (XML and text it cannot
    // carry, say) are not asked to hold it with cycles either.
    let xmlHoldsIt = (try? root.propertyListData(format: .xml)) != nil
    let last = models[models.count - 1]
    if shape & 1 != 0 { last.child = root }  // a cycle through the whole chain
    if shape & 2 != 0 { last.children.append(last) }  // a model inside itself
    if shape & 4 != 0, models.count > 1 { root.children.append(models[1]) }  // shared
    if shape & 8 != 0 { root.children.append(contentsOf: [last, last]) }  // shared twice
    defer { distinctModels(root).forEach { $0.child = nil; $0.children = [] } }
    let count = distinctModels(root).count
    // The direct writer, which plans the ids of cycles, writes what the ModelValue path writes.
    for options in [JSONWritingOptions.compact, .pretty, .sorted] {
        let direct = Result { try root.jsonData(options: options) }
        let throughValue = Result { try ModelValue.object(root.encodedRoot()).jsonData(options: options) }
        switch (direct, throughValue) {
        case (.success(let a), .success(let b)) where a == b: continue
        case (.failure(let a), .failure(let b)) where "\(a)" == "\(b)": continue
        default: fatalError("a graph is written differently by the direct path: \(direct) \(throughValue)")
        }
    }
    for references in [ReferencePolicy.cycles, .shared] {
        let forms: [(String, () throws -> FuzzNote)] = [
            ("json", { try FuzzNote(json: root.jsonData(options: JSONWritingOptions(references: references))) }),
            ("sorted", {
                try FuzzNote(json: root.jsonData(options: JSONWritingOptions(sortedKeys: true, references: references)))
            }),
            ("xml", { try FuzzNote(propertyList: root.propertyListData(format: .xml, references: references)) }),
            ("binary", { try FuzzNote(propertyList: root.propertyListData(format: .binary, references: references)) }),
            ("dictionary", { try FuzzNote(dictionary: root.dictionary(references: references)) }),
        ]
        for (name, roundTrip) in forms where name != "xml" || xmlHoldsIt {
            let back: FuzzNote
            do {
                back = try roundTrip()
            } catch {
                // Models nested past the limit are refused, in every format alike.
                if let error = error as? ModelError, error.code == .nestingTooDeep { continue }
                fatalError("\(name), \(references): a graph failed to round-trip: \(error)")
            }
            defer { distinctModels(back).forEach { $0.child = nil; $0.children = [] } }
            guard back.isEquivalent(to: root) else { fatalError("\(name), \(references): not equivalent") }
            let backCount = distinctModels(back).count
            if references == .shared, backCount != count {
                fatalError("\(name): \(count) models became \(backCount)")
            }
            if references == .cycles, backCount < count {
                fatalError("\(name): \(count) models became \(backCount), fewer with copies")
            }
        }
    }
}
