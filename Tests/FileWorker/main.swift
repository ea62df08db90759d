// A child process for the file tests (Tests/ModelKitTests/Files): it saves
// through ModelKit's durable writer and reports each save on standard
// output, so that a test can kill it at any moment and check what is left.
//
//   FileWorker save-loop FILE [PAYLOAD-BYTES]   saves a Record with counter N+1, N+2… forever
//                                               (N: the file's counter, else 0),
//                                               printing "saved N" after each save returns
//   FileWorker defaults-loop FILE PREFIX COUNT  sets PREFIX-1…PREFIX-COUNT in the store at FILE,
//                                               saving after each and printing "saved N"
//   FileWorker write FILE BYTES [LIMIT [unsynced]]
//                                               writes one Record with a payload of BYTES,
//                                               under a file-size limit of LIMIT bytes (0: none)
//                                               with SIGXFSZ ignored; prints "ok" or the error
//   FileWorker defaults-release FILE KEY VALUE  sets KEY to VALUE in a store at FILE that it then
//                                               releases at once, waits a second and exits normally
//                                               (VALUE "bell" is a string with U+0007, which an XML
//                                               property list cannot hold)
//   FileWorker append-loop FILE PREFIX COUNT PAYLOAD-BYTES
//                                               appends COUNT Records to the JSON Lines file at FILE, one
//                                               per append, counters 1…COUNT and payloads of PAYLOAD-BYTES
//                                               copies of PREFIX's first letter; prints "appended N" after each
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation
import ModelKit

final class Record: ModelObject, @unchecked Sendable {
    @Saved var counter = 0
    @Saved var payload = ""
}

/// Writes a line to standard output at once (no buffer a kill could lose).
func report(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
let arguments = Array(CommandLine.arguments.dropFirst())
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("FileWorker: \(message)\n".utf8))
    exit(2)
}
guard arguments.count >= 2 else { fail("usage: FileWorker save-loop|defaults-loop|write FILE …") }
let url = URL(fileURLWithPath: arguments[1])

switch arguments[0] {
case "save-loop":
    // Goes on from the counter of the file a killed worker left.
    let record = (try? Record(contentsOf: url)) ?? Record()
    record.payload = String(repeating: "x", count: arguments.count > 2 ? Int(arguments[2]) ?? 0 : 0)
    var counter = record.counter
    while true {
        counter += 1
        record.counter = counter
        do {
            try record.write(to: url)
        } catch {
            fail("\(error)")
        }
        report("saved \(counter)")
    }
case "defaults-loop":
    guard arguments.count == 4, let count = Int(arguments[3]) else { fail("usage: FileWorker defaults-loop FILE PREFIX COUNT") }
    do {
        let store = try ModelDefaults(url: url, autosaveDelay: nil, watchInterval: nil)
        for index in 1...count {
            store.set(index, forKey: "\(arguments[2])-\(index)")
            try store.save()
            report("saved \(index)")
        }
    } catch {
        fail("\(error)")
    }
case "write":
    guard arguments.count >= 3, let bytes = Int(arguments[2]) else { fail("usage: FileWorker write FILE BYTES [LIMIT [unsynced]]") }
    if arguments.count > 3, let limit = rlim_t(arguments[3]), limit > 0 {
        signal(SIGXFSZ, SIG_IGN)
        var size = rlimit(rlim_cur: limit, rlim_max: limit)
        #if canImport(Glibc)
            guard setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &size) == 0 else { fail("setrlimit failed") }
        #else
            guard setrlimit(RLIMIT_FSIZE, &size) == 0 else { fail("setrlimit failed") }
        #endif
    }
    let record = Record()
    record.counter = bytes
    record.payload = String(repeating: "y", count: bytes)
    do {
        try record.write(to: url, durability: arguments.count > 4 && arguments[4] == "unsynced" ? .unsynced : .synced)
        report("ok")
    } catch {
        report("\(error)")
        exit(1)
    }
case "defaults-release":
    guard arguments.count == 4 else { fail("usage: FileWorker defaults-release FILE KEY VALUE") }
    // The store goes out of scope with its change unsaved.
    func remember() throws {
        let store = try ModelDefaults(url: url)
        store.set(arguments[3] == "bell" ? "ring\u{7}" : arguments[3], forKey: arguments[2])
    }
    do {
        try remember()
    } catch {
        fail("\(error)")
    }
    sleep(1)
case "append-loop":
    guard arguments.count == 5, let count = Int(arguments[3]), let bytes = Int(arguments[4]), let letter = arguments[2].first
    else { fail("usage: FileWorker append-loop FILE PREFIX COUNT PAYLOAD-BYTES") }
    let record = Record()
    record.payload = String(repeating: letter, count: bytes)
    for index in 1...count {
        record.counter = index
        do {
            try JSONLines.append([record], to: url)
        } catch {
            fail("\(error)")
        }
        report("appended \(index)")
    }
default:
    fail("unknown command \(arguments[0])")
}
