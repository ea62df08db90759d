import Foundation

// A libFuzzer target for ModelKit's NSKeyedArchiver reader and writer,
// compiled together with the library's sources by `Fuzz/run.sh archive`.
//
// For every input it checks that:
// - reading it as plain values, and as a model, either succeeds or throws a
//   ModelError (a crash, a hang or a wild read is a finding);
// - a model that reads writes an archive that reads back as an equivalent
//   model, and writing that again gives the same bytes; the inline-scalar
//   style reads back as an equivalent model too.

/// A model of the shape `NSCoding` trees have: children and a weak parent.
final class FuzzArchiveNode: ModelObject, @unchecked Sendable {
    @Saved var name = ""
    @Saved var count = 0
    @Saved var children: [FuzzArchiveNode] = []
    @Saved(reference: .weak) var parent: FuzzArchiveNode? = nil
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKeyedArchive(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var bytes = Data(UnsafeRawBufferPointer(start: start, count: count))
    if !bytes.starts(with: Array("bplist0".utf8)) { bytes = Data("bplist00".utf8) + bytes }
    do {
        _ = try ModelValue(keyedArchive: bytes)
    } catch let error as ModelError {
        _ = error.description
    } catch {
        fatalError("unexpected error type: \(error)")
    }
    let node: FuzzArchiveNode
    do {
        node = try FuzzArchiveNode(keyedArchive: bytes)
    } catch let error as ModelError {
        _ = error.description
        return 0
    } catch {
        fatalError("unexpected error type: \(error)")
    }
    let written: Data
    do {
        written = try node.keyedArchiveData()
    } catch {
        fatalError("a model that was read failed to write: \(error)")
    }
    let back: FuzzArchiveNode
    do {
        back = try FuzzArchiveNode(keyedArchive: written)
    } catch {
        fatalError("a written archive failed to read: \(error)")
    }
    guard back.isEquivalent(to: node) else { fatalError("the archive round trip changed the model") }
    guard let again = try? back.keyedArchiveData(), again == written else {
        fatalError("archive writing is not a fixed point")
    }
    // The other style (inline scalars) reads back to the same model too.
    do {
        let inline = try node.keyedArchiveData(style: .inlineScalars)
        guard try FuzzArchiveNode(keyedArchive: inline).isEquivalent(to: node) else {
            fatalError("the inline-scalar archive round trip changed the model")
        }
    } catch {
        fatalError("an inline-scalar archive failed to write or read: \(error)")
    }
    return 0
}
