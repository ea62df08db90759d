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
//   (its unknown members are written back byte for byte).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    checkModelPaths(Data(bytes))
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
    case (.failure(let fast), .failure(let reference)):
        guard "\(fast)" == "\(reference)" else {
            fatalError("errors differ:\n\(fast)\n\(reference)")
        }
    default:
        fatalError("one path failed: \(direct) \(throughValue)")
    }
}
