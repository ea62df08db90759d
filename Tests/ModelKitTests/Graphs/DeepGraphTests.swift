import Foundation
import Testing

@testable import ModelKit

/// Chains of models deeper than the readers' limit are refused when written,
/// in every format, instead of overflowing the stack or writing documents
/// that no reader accepts; chains within it round-trip.
///
/// Encoding and decoding recurse once per model (up to the 512-level limit);
/// past a budget of stack the work continues on a thread with a large stack,
/// so these run on threads with the 512 KiB stack of a secondary thread on
/// Apple platforms.
@Suite struct DeepGraphTests {
    /// The stack of a secondary thread on Apple platforms.
    static let smallStack = 512 << 10

    /// Runs `body` on a thread with a stack of `stackSize` bytes and waits for it.
    static func onThread(stackSize: Int = smallStack, _ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            body()
            done.signal()
        }
        thread.stackSize = stackSize
        thread.start()
        done.wait()
    }

    /// A chain of `length` notes, each the `child` of the one before.
    static func chain(_ length: Int) -> Note {
        let root = Note()
        var tail = root
        for _ in 1..<length {
            let next = Note()
            tail.child = next
            tail = next
        }
        return root
    }

    /// Lets go of a chain one link at a time (a recursive release would overflow).
    static func release(_ root: Note) {
        var link = root.child
        root.child = nil
        while let current = link {
            link = current.child
            current.child = nil
        }
    }

    static let formats: [String] = ["json", "xml", "binary"]

    static func write(_ note: Note, as format: String) throws -> Data {
        switch format {
        case "json": try note.jsonData()
        case "xml": try note.propertyListData(format: .xml)
        default: try note.propertyListData(format: .binary)
        }
    }

    static func read(_ data: Data, as format: String) throws -> Note {
        format == "json" ? try Note(json: data) : try Note(propertyList: data)
    }

    /// A note's empty `tags` and `children` lists are a level below it, so
    /// 511 notes nest 512 levels: the deepest any reader accepts.
    @Test(arguments: formats)
    func theDeepestChainThatReadsBackIsWrittenAndReadBack(format: String) {
        Self.onThread { Self.roundTripDeepestChain(format: format) }
    }

    static func roundTripDeepestChain(format: String) {
        do {
            try roundTripDeepestChainOrThrow(format: format)
        } catch {
            Issue.record("\(format): \(error)")
        }
    }

    static func roundTripDeepestChainOrThrow(format: String) throws {
        let root = Self.chain(511)
        defer { Self.release(root) }
        let back = try Self.read(Self.write(root, as: format), as: format)
        defer { Self.release(back) }
        var depth = 1
        var cursor = back.child
        while let current = cursor {
            depth += 1
            cursor = current.child
        }
        #expect(depth == 511)
    }

    @Test func theDeepestChainGoesThroughDictionariesAndModelValueOnASmallStack() {
        Self.onThread {
            let root = Self.chain(511)
            defer { Self.release(root) }
            do {
                let back = try Note(dictionary: root.dictionary)
                defer { Self.release(back) }
                #expect(back.isEquivalent(to: root))
                let again = try Note.decoded(from: root.modelValue)
                defer { Self.release(again) }
                #expect(again.isEquivalent(to: root))
                #expect(root.description.count > 511 * 20)
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    @Test func raisingTheJSONLimitRaisesItForWritingAndReadingAlike() {
        Self.onThread(stackSize: 8 << 20) {
            let root = Self.chain(2_000)
            defer { Self.release(root) }
            do {
                // The default limit refuses the chain on both sides.
                let refused = #expect(throws: ModelError.self) { try root.jsonData() }
                #expect(refused?.code == .nestingTooDeep)
                let data = try root.jsonData(options: JSONWritingOptions(maximumDepth: 5_000))
                let tooDeep = #expect(throws: ModelError.self) { try Note(json: data) }
                #expect(tooDeep?.code == .nestingTooDeep)
                let back = try Note(json: data, options: JSONReadingOptions(maximumDepth: 5_000))
                defer { Self.release(back) }
                var depth = 1
                var cursor = back.child
                while let current = cursor {
                    depth += 1
                    cursor = current.child
                }
                #expect(depth == 2_000)
                // A raised limit is still a limit.
                let short = #expect(throws: ModelError.self) {
                    try root.jsonData(options: JSONWritingOptions(maximumDepth: 1_000))
                }
                #expect(
                    short?.message
                        == "models are nested deeper than the limit of 1000 levels, which no reader with the same limit accepts")
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    /// On the test's own thread, in a debug build: the stack guard moves the
    /// levels past its budget to a thread with a large stack, and dropping
    /// the chains recurses not at all.
    @Test func aTenThousandModelChainRoundTripsInJSONWithARaisedLimitOnTheTestThread() throws {
        let root = Self.chain(10_000)
        let data = try root.jsonData(options: JSONWritingOptions(maximumDepth: 20_000))
        let back = try Note(json: data, options: JSONReadingOptions(maximumDepth: 20_000))
        var depth = 1
        var cursor = back.child
        while let current = cursor {
            depth += 1
            cursor = current.child
        }
        #expect(depth == 10_000)
        #expect(back.isEquivalent(to: root))
        #expect(try back.jsonData(options: JSONWritingOptions(maximumDepth: 20_000)) == data)
    }

    @Test func deepEncodingInsideWithLockIsAnErrorNotACrash() {
        Self.onThread {
            let root = Self.chain(511)
            defer { Self.release(root) }
            root.withLock {
                let error = #expect(throws: ModelError.self) { try root.jsonData() }
                #expect(error?.code == .nestingTooDeep)
                #expect(
                    error?.message
                        == "models are nested too deep for the stack of this thread while it holds a model's lock "
                        + "(withLock); encode or decode the graph outside withLock")
            }
            // Outside the lock, the same graph is written.
            #expect((try? root.jsonData()) != nil)
        }
    }

    @Test(arguments: [512, 513, 5_000, 100_000])
    func deeperChainsAreRefusedInEveryFormat(length: Int) {
        Self.onThread { Self.refuseDeepChain(length: length) }
    }

    static func refuseDeepChain(length: Int) {
        let root = Self.chain(length)
        defer { Self.release(root) }
        for format in Self.formats {
            do {
                _ = try Self.write(root, as: format)
                Issue.record("\(format): expected an error for \(length) levels")
            } catch let error as ModelError {
                #expect(error.code == .nestingTooDeep, "\(format): \(error)")
            } catch {
                Issue.record("\(format): \(error)")
            }
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ModelKitDeep-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(throws: ModelError.self) { try root.write(to: url) }
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }
}

/// APIs that cannot throw mark what cannot be written instead of trapping.
@Suite struct UnwritableGraphTests {
    @Test func aCycleIsAReferenceInTheDictionaryModelValueAndDescription() throws {
        let a = Note()
        let b = Note()
        a.child = b
        b.child = a
        defer { b.child = nil }
        // Found at once, where it closes, and written as a reference.
        let dictionary = a.dictionary
        #expect(dictionary["$id"] as? String == "1")
        let child = try #require(dictionary["child"] as? [String: Any])
        #expect(child["child"] as? [String: String] == ["$ref": "1"])
        #expect("\(a.modelValue)".contains(#""child":{"$ref":"1"}"#))
        #expect(a.description.hasPrefix(#"Note {"$id":"1","title":"Untitled""#))
        #expect(a.description.contains(#""child":{"$ref":"1"}"#))
        #expect(try a.jsonString().contains(#""child":{"$ref":"1"}"#))
    }

    @Test func aTooDeepChainIsMarkedAtItsCut() {
        DeepGraphTests.onThread {
            let root = DeepGraphTests.chain(600)
            defer { DeepGraphTests.release(root) }
            var level: [String: Any]? = root.dictionary
            var depth = 0
            while let current = level, let next = current["child"] as? [String: Any] {
                level = next
                depth += 1
            }
            #expect(depth == 512)
            #expect((level?["$error"] as? String)?.contains("nested deeper than the limit of 512 levels") == true)
        }
    }
}
