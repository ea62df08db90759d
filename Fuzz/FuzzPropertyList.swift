import Foundation

// A libFuzzer target for ModelKit's binary property-list reader and writer,
// compiled together with the library's sources by `Fuzz/run.sh plist`.
//
// For every input it checks that:
// - reading either succeeds or throws a ModelError (a crash, a hang or a
//   wild read is a finding);
// - a value that reads writes back as a binary property list that reads as
//   the same value, and writing that again gives the same bytes;
// - the XML form of the value, when XML can hold it, reads back the same,
//   dates cut to whole seconds and NaNs plain.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPropertyList(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var bytes = Data(UnsafeRawBufferPointer(start: start, count: count))
    // Most inputs should look like a binary property list to get past the
    // header (any `bplist0x`, as Foundation reads; Fuzz/plist.dict has markers,
    // counts near 2^62 and 2^64, and trailer sizes for the mutator).
    if !bytes.starts(with: Array("bplist0".utf8)) { bytes = Data("bplist00".utf8) + bytes }
    let value: ModelValue
    do {
        value = try ModelValue(propertyList: bytes)
    } catch let error as ModelError {
        _ = error.description
        return 0
    } catch {
        fatalError("unexpected error type: \(error)")
    }
    let written: Data
    do {
        written = try value.propertyListData(format: .binary)
    } catch {
        fatalError("a value that was read failed to write: \(error)")
    }
    guard let back = try? ModelValue(propertyList: written), "\(back)" == "\(value)" else {
        fatalError("binary round trip changed the value:\n\(value)")
    }
    guard let again = try? back.propertyListData(format: .binary), again == written else {
        fatalError("binary writing is not a fixed point")
    }
    if let xml = try? value.propertyListData(format: .xml) {
        guard let fromXML = try? ModelValue(propertyList: xml) else {
            fatalError("written XML failed to read:\n\(String(decoding: xml, as: UTF8.self))")
        }
        guard "\(fromXML)" == "\(asXMLHoldsIt(value))" else {
            fatalError("XML round trip changed the value:\n\(value)\n\(fromXML)")
        }
    }
    return 0
}
