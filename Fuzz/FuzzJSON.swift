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
// - every object finds each of its keys at its own position.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let options = JSONReadingOptions(maximumDepth: 64, duplicateKeys: count % 2 == 0 ? .reject : .lastWins)
    let value: ModelValue
    do {
        value = try ModelValue(jsonBytes: bytes, options: options)
    } catch let error as ModelError {
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
