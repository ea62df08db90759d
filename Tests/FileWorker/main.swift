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
//   FileWorker document-loop FILE WRITER SECONDS SEED
//                                               opens the Board document at FILE and for SECONDS edits it as
//                                               writer WRITER: its own counter `wWRITER` (kept in the bag), its
//                                               own cards `WRITER-N` of the shared array, and the shared
//                                               `title`; it saves at random moments, printing "saved N" after
//                                               each save returns (N: the counter saved, every edit up to it in),
//                                               then its own cards as ID=TITLE, comma-separated
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation
import ModelKit

final class Card: ModelObject, @unchecked Sendable {
    @Saved var id = ""
    @Saved var title = ""
    override class var identityKey: String? { "id" }
}

final class Board: ModelObject, @unchecked Sendable {
    @Saved var title = ""
    @Saved var cards: [Card] = []
}

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
case "document-loop":
    guard arguments.count == 5, let seconds = Double(arguments[3]), let seed = UInt64(arguments[4]) else {
        fail("usage: FileWorker document-loop FILE WRITER SECONDS SEED")
    }
    let writer = arguments[2]
    var random = seed | 1
    func next(_ bound: Int) -> Int {  // xorshift64: the same edits for the same seed
        random ^= random << 13
        random ^= random >> 7
        random ^= random << 17
        return Int(random % UInt64(bound))
    }
    do {
        let document = try ModelDocument<Board>(contentsOf: url, history: nil)
        // A writer killed before goes on from the counter it saved.
        var counter = 0
        if case .int(let saved)? = document.root.extensibleProperty(forKey: "w" + writer) { counter = saved }
        func saved() -> String {
            let cards = document.root.cards.filter { $0.id.hasPrefix(writer + "-") }.map { "\($0.id)=\($0.title)" }
            return "saved \(counter) " + cards.joined(separator: ",")
        }
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            counter += 1
            try document.root.setExtensibleProperty(.int(counter), forKey: "w" + writer)
            switch next(4) {
            case 0:
                let card = Card()
                card.id = "\(writer)-\(counter)"
                card.title = "new \(counter)"
                document.root.cards.insert(card, at: next(document.root.cards.count + 1))
            case 1:
                if let card = document.root.cards.last(where: { $0.id.hasPrefix(writer + "-") }) {
                    card.title = "edited \(counter)"
                }
            case 2:
                document.root.title = "\(writer) \(counter)"
            default:
                break
            }
            if next(3) == 0 {
                try document.save()
                report(saved())
            }
            usleep(UInt32(next(20_000)))
        }
        try document.save()
        report(saved())
    } catch {
        fail("\(error)")
    }
default:
    fail("unknown command \(arguments[0])")
}
