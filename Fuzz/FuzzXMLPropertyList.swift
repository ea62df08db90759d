import Foundation

// A libFuzzer target for ModelKit's XML property-list reader and writer,
// compiled together with the library's sources by `Fuzz/run.sh xml`.
//
// Every input reaches the XML reader: one that does not begin with markup
// (after an optional byte-order mark) gets an XML declaration in front, so
// it is never taken for a binary property list. For every input it checks
// that:
// - reading either succeeds or throws a ModelError whose location, when it
//   has one, lies inside the document (a crash, a hang or a wild read is a
//   finding);
// - a value that reads writes back as XML that reads as the same value, as
//   XML holds it (the documented losses: dates cut to whole seconds, every
//   NaN plain);
// - writing what was read back gives the same bytes (a fixed point).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXMLPropertyList(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var bytes = Data(UnsafeRawBufferPointer(start: start, count: count))
    let markup = bytes.drop(while: { [0xEF, 0xBB, 0xBF].contains($0) }).first == UInt8(ascii: "<")
    if !markup { bytes = Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n".utf8) + bytes }
    guard !BinaryPropertyListReader.isBinary(bytes) else { fatalError("an input did not reach the XML reader") }
    let value: ModelValue
    do {
        value = try ModelValue(propertyList: bytes)
    } catch let error as ModelError {
        if let location = error.location {
            guard location.byteOffset >= 0, location.byteOffset <= bytes.count, location.line >= 1,
                location.column >= 1
            else { fatalError("error without a sound location: \(error)") }
        }
        _ = error.description
        return 0
    } catch {
        fatalError("unexpected error type: \(error)")
    }
    let written: Data
    do {
        written = try value.propertyListData(format: .xml)
    } catch {
        fatalError("a value that was read failed to write as XML: \(error)\n\(value)")
    }
    let back: ModelValue
    do {
        back = try ModelValue(propertyList: written)
    } catch {
        fatalError("written XML failed to read: \(error)\n\(String(decoding: written, as: UTF8.self))")
    }
    guard "\(back)" == "\(asXMLHoldsIt(value))" else {
        fatalError("XML round trip changed the value:\n\(value)\n\(back)")
    }
    guard let again = try? back.propertyListData(format: .xml), again == written else {
        fatalError("XML writing is not a fixed point:\n\(String(decoding: written, as: UTF8.self))")
    }
    return 0
}
