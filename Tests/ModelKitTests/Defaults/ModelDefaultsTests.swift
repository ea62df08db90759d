import Foundation
import Testing

@testable import ModelKit

// `volume` and `accent` are README's, declared in ReadmeExamples.swift.
extension ModelDefaults.Keys {
    static let recent = Key<[String]>("recent", default: [])
    static let lastNote = Key<Note?>("lastNote", default: nil)
}

@Suite struct ModelDefaultsTests {
    /// A store on `settings.plist` in `folder` that saves only when told.
    static func store(in folder: URL, format: PropertyListSerialization.PropertyListFormat = .xml) throws
        -> ModelDefaults
    {
        try ModelDefaults(
            url: folder.appendingPathComponent("settings.plist"), format: format, autosaveDelay: nil,
            watchInterval: nil)
    }

    // MARK: - Every type, through a file

    /// Stores `value`, saves, and reads it from a fresh store on the same file.
    static func roundTrip<Value: ModelValueConvertible & Equatable>(
        _ value: Value, format: PropertyListSerialization.PropertyListFormat,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try withTemporaryFolder { folder in
            let store = try Self.store(in: folder, format: format)
            store.set(value, forKey: "key")
            #expect(try store.value(Value.self, forKey: "key") == value, sourceLocation: sourceLocation)
            try store.save()
            let fresh = try Self.store(in: folder)
            #expect(try fresh.value(Value.self, forKey: "key") == value, "\(Value.self)", sourceLocation: sourceLocation)
            #expect(fresh.keys == ["key"], sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
    func everySupportedTypeRoundTripsThroughTheFile(format: PropertyListSerialization.PropertyListFormat) throws {
        try Self.roundTrip(true, format: format)
        try Self.roundTrip(-42, format: format)
        try Self.roundTrip(Int64.max, format: format)
        try Self.roundTrip(UInt64.max, format: format)
        try Self.roundTrip(3.25, format: format)
        try Self.roundTrip(Float(1.5), format: format)
        try Self.roundTrip("héllo $null", format: format)
        try Self.roundTrip(Data([0, 1, 2, 255]), format: format)
        try Self.roundTrip(URL(string: "https://example.com/a?b=c")!, format: format)
        try Self.roundTrip(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!, format: format)
        try Self.roundTrip(Decimal(string: "3.14159265358979323846")!, format: format)
        try Self.roundTrip(Color(hex: "#FF800080")!, format: format)
        try Self.roundTrip(Interval(2...4, .hours), format: format)
        try Self.roundTrip(Day(year: 2026, month: 11, day: 24)!, format: format)
        try Self.roundTrip(TimeOfDay(hour: 14, minute: 30, second: 5)!, format: format)
        try Self.roundTrip(["a", "b"], format: format)
        try Self.roundTrip(["x": 1, "y": 2], format: format)
        try Self.roundTrip(Set(["p", "q"]), format: format)
        try Self.roundTrip([[1, 2], [3]], format: format)
        try Self.roundTrip(Priority.high, format: format)
        try Self.roundTrip(StreetAddress(street: "1 Main St", zip: "12345"), format: format)
        try Self.roundTrip(ModelValue.object(["nested": [1, "two", nil]]), format: format)
        // Binary plists keep a date exactly; XML keeps whole seconds.
        try Self.roundTrip(Date(timeIntervalSince1970: format == .binary ? 1_700_000_000.25 : 1_700_000_000), format: format)
    }

    @Test func modelsRoundTripAndStayAttachedToTheirKey() throws {
        try withTemporaryFolder { folder in
            let store = try Self.store(in: folder)
            let note = Note()
            note.title = "first"
            note.children = [Note()]
            store.set(note, forKey: "note")
            // Changed in place after it was set: the store writes it as it is when saving.
            note.title = "changed later"
            note.children[0].count = 3
            #expect(try store.model(Note.self, forKey: "note") === note)
            try store.save()
            let fresh = try Self.store(in: folder)
            let loaded = try #require(try fresh.model(Note.self, forKey: "note"))
            #expect(loaded.title == "changed later")
            #expect(loaded.children[0].count == 3)
            // A model read from the store is attached too: the same object, saved as it is.
            #expect(try fresh.model(Note.self, forKey: "note") === loaded)
            loaded.count = 9
            try fresh.save()
            #expect(try Self.store(in: folder).model(Note.self, forKey: "note")?.count == 9)
            // Setting another value detaches it.
            fresh.set("plain", forKey: "note")
            loaded.count = 10
            try fresh.save()
            #expect(try Self.store(in: folder).string(forKey: "note") == "plain")
        }
    }

    // MARK: - Getters, registered defaults, typed keys

    @Test func typedGettersAreNilForAbsentKeysAndOtherTypes() throws {
        try withTemporaryFolder { folder in
            let store = try Self.store(in: folder)
            store.set("text", forKey: "s")
            store.set(7, forKey: "i")
            store.set([1, 2], forKey: "a")
            store.set(["k": "v"], forKey: "d")
            #expect(store.string(forKey: "s") == "text")
            #expect(store.integer(forKey: "i") == 7)
            #expect(store.double(forKey: "i") == 7.0)
            #expect(store.array(forKey: "a") == [1, 2])
            #expect(store.dictionary(forKey: "d") == ["k": "v"])
            #expect(store.integer(forKey: "s") == nil)
            #expect(store.bool(forKey: "missing") == nil)
            #expect(store.color(forKey: "s") == nil)
            #expect(store.array(forKey: "s") == nil)
            let error = #expect(throws: ModelError.self) { try store.value(Int.self, forKey: "s") }
            #expect(error?.description == #"settings.plist, in s: expected Int, found a string ("text")"#)
        }
    }

    @Test func registeredDefaultsAnswerAndAreNeverWritten() throws {
        try withTemporaryFolder { folder in
            let store = try Self.store(in: folder)
            store.register(defaults: ["volume": 0.8, "name": "Guest", "accent": Color.red])
            #expect(store.double(forKey: "volume") == 0.8)
            #expect(store.color(forKey: "accent") == .red)
            #expect(store.keys.isEmpty)
            store.set(0.3, forKey: "volume")
            #expect(store.double(forKey: "volume") == 0.3)
            try store.save()
            let fresh = try Self.store(in: folder)
            #expect(fresh.keys == ["volume"])
            #expect(fresh.string(forKey: "name") == nil)
            store.removeValue(forKey: "volume")
            #expect(store.double(forKey: "volume") == 0.8)
            #expect(store.dictionaryRepresentation()["name"] == "Guest")
        }
    }

    @Test func typedKeysReadTheirDefaultAndTheStoredValue() throws {
        try withTemporaryFolder { folder in
            let store = try Self.store(in: folder)
            #expect(store[.volume] == 0.8)
            #expect(store[.lastNote] == nil)
            store[.volume] = 0.25
            store[.accent] = .green
            store[.recent].append("a.txt")
            store[.lastNote] = Note()
            try store.save()
            let fresh = try Self.store(in: folder)
            #expect(fresh[.volume] == 0.25)
            #expect(fresh[.accent] == .green)
            #expect(fresh[.recent] == ["a.txt"])
            #expect(fresh[.lastNote]?.title == "Untitled")
            fresh.reset(.volume)
            #expect(fresh[.volume] == 0.8)
            // A value of another type under a typed key: the default here, an error when asked.
            fresh.set("loud", forKey: "volume")
            #expect(fresh[.volume] == 0.8)
            let error = #expect(throws: ModelError.self) { try fresh.value(for: .volume) }
            #expect(error?.description == #"settings.plist, in volume: expected Double, found a string ("loud")"#)
        }
    }

    // MARK: - Bad files

    static let badFiles: [(name: String, bytes: [UInt8], message: String)] = [
        ("not a plist", Array("hello".utf8), "expected <plist> or a value"),
        ("truncated XML", Array(#"<?xml version="1.0"?><plist version="1.0"><dict><key>a</key>"#.utf8), "line 1"),
        ("truncated binary", Array("bplist00".utf8) + [0xD1, 0x01], "the binary property list is truncated (10 bytes)"),
        ("empty", [], "the file is empty, not a property list of settings"),
        // Issue 50: a dictionary claiming 2^62 entries trapped at every launch, even with `.moveAside`.
        (
            "a dictionary of 2^62 entries",
            BinaryPropertyListCountTests.container(0xD0, count: 1 << 62),
            "a container at byte 8 claims 4611686018427387904 members, more than the file can hold"
        ),
        (
            "an array of 2^63 - 1 elements",
            BinaryPropertyListCountTests.container(0xA0, count: UInt64(Int64.max)),
            "a container at byte 8 claims 9223372036854775807 members, more than the file can hold"
        ),
        (
            "an inline DTD",
            Array(#"<!DOCTYPE plist [<!ENTITY a "b">]><plist><dict/></plist>"#.utf8),
            "found '[', an internal DTD subset, which property lists may not have"
        ),
        (
            "an array", Array(#"<?xml version="1.0"?><plist version="1.0"><array/></plist>"#.utf8),
            "expected a dictionary of settings at the top of the property list, found an array of 0 elements"
        ),
    ]

    @Test(arguments: 0..<badFiles.count)
    func aCorruptFileIsAnErrorNamingItAndIsNeverReplaced(index: Int) throws {
        let (name, bytes, message) = Self.badFiles[index]
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("settings.plist")
            try Data(bytes).write(to: url)
            let error = #expect(throws: ModelError.self, "\(name)") { try Self.store(in: folder) }
            #expect(error?.file == url, "\(name)")
            #expect(error?.description.hasPrefix("settings.plist") == true, "\(name): \(String(describing: error))")
            #expect(error?.description.contains(message) == true, "\(name): \(String(describing: error))")
            #expect(try Data(contentsOf: url) == Data(bytes))

            // Recovery is explicit: the file is moved aside, kept, and the store starts empty.
            let recovered = try ModelDefaults(url: url, recovery: .moveAside, autosaveDelay: nil, watchInterval: nil)
            #expect(recovered.keys.isEmpty)
            let kept = try FileManager.default.contentsOfDirectory(atPath: folder.path)
                .filter { $0.hasPrefix("settings.plist.corrupt-") }
            #expect(kept.count == 1, "\(kept)")
            if let aside = kept.first {
                #expect(try Data(contentsOf: folder.appendingPathComponent(aside)) == Data(bytes))
            }
            recovered.set(1, forKey: "fresh")
            try recovered.save()
            #expect(try Self.store(in: folder).integer(forKey: "fresh") == 1)
        }
    }

    /// A folder where the store's file should be: opening names it and says
    /// what it is (after the read's second looks, which only a file that
    /// appears or goes away between them passes), and leaves it as it was.
    @Test func aFolderAtTheStoresPathIsAnErrorSayingSo() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("settings.plist")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
            try Data("inside".utf8).write(to: url.appendingPathComponent("note.txt"))
            let error = #expect(throws: ModelError.self) { try Self.store(in: folder) }
            #expect(error?.code == .fileAccess)
            #expect(error?.description == "settings.plist: this is a folder, not a file")
            #expect(try FileManager.default.contentsOfDirectory(atPath: url.path) == ["note.txt"])
        }
    }

    @Test func aFileCorruptedLaterIsNotReplacedBySaving() throws {
        try withTemporaryFolder { folder in
            let store = try Self.store(in: folder)
            store.set(1, forKey: "a")
            try store.save()
            let url = store.url
            try Data("garbage".utf8).write(to: url)
            store.set(2, forKey: "a")
            let error = #expect(throws: ModelError.self) { try store.save() }
            #expect(error?.file == url)
            #expect(try String(contentsOf: url, encoding: .utf8) == "garbage")
            #expect(store.integer(forKey: "a") == 2)
        }
    }

    // MARK: - Several stores on one file

    @Test func storesOnOneFileMergeTheirKeysAndSeeEachOthersChanges() throws {
        try withTemporaryFolder { folder in
            let first = try Self.store(in: folder)
            let second = try Self.store(in: folder)
            first.set("one", forKey: "a")
            second.set("two", forKey: "b")
            try first.save()
            try second.save()
            // Saving merged: the second store kept the first's key, and now sees it.
            #expect(second.string(forKey: "a") == "one")
            #expect(first.string(forKey: "b") == nil)
            try first.reload()
            #expect(first.string(forKey: "b") == "two")
            // A removal is a change like any other.
            first.removeValue(forKey: "a")
            try first.save()
            try second.reload()
            #expect(second.string(forKey: "a") == nil)
            #expect(Set(try Self.store(in: folder).keys) == ["b"])
        }
    }

    @Test func unsavedChangesStayOnTopWhenReloading() throws {
        try withTemporaryFolder { folder in
            let first = try Self.store(in: folder)
            let second = try Self.store(in: folder)
            second.set("theirs", forKey: "shared")
            try second.save()
            first.set("mine", forKey: "shared")
            try first.reload()
            #expect(first.string(forKey: "shared") == "mine")
            try first.save()
            try second.reload()
            #expect(second.string(forKey: "shared") == "mine")
        }
    }

    // MARK: - Saving by itself and watching

    @Test func changesAreSavedSoonAfterTheyAreMade() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("settings.plist")
            let store = try ModelDefaults(url: url, autosaveDelay: 0.05, watchInterval: nil)
            store.set(5, forKey: "soon")
            let saved = await eventually {
                (try? ModelDefaults(url: url, autosaveDelay: nil, watchInterval: nil))?.integer(forKey: "soon") == 5
            }
            #expect(saved)
            #expect(store.autosaveError == nil)
        }
    }

    @Test func anotherProcessesChangeIsSeenWhenTheFileChanges() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("settings.plist")
            let watching = try ModelDefaults(url: url, autosaveDelay: nil, watchInterval: 0.05)
            let heard = SendableData()
            let token = watching.observe("greeting") { _, new in
                heard.value = Data((new?.stringValue ?? "").utf8)
            }
            let other = try ModelDefaults(url: url, autosaveDelay: nil, watchInterval: nil)
            other.set("hello", forKey: "greeting")
            try other.save()
            #expect(await eventually { watching.string(forKey: "greeting") == "hello" })
            #expect(await eventually { String(decoding: heard.value, as: UTF8.self) == "hello" })
            token.cancel()
        }
    }

    // MARK: - Observation

    @Test func observersHearOldAndNewValuesOncePerChange() throws {
        try withTemporaryFolder { folder in
            let store = try Self.store(in: folder)
            let log = Log()
            let token = store.observe("volume") { old, new in log.append("\(old.map { "\($0)" } ?? "nil") -> \(new.map { "\($0)" } ?? "nil")") }
            let typed = store.observe(.volume) { old, new in log.append("typed \(old) -> \(new)") }
            let all = store.observeAll { key, _, _ in log.append("any \(key)") }
            store.register(defaults: ["volume": 0.8])
            store.set(0.5, forKey: "volume")
            store.set(0.5, forKey: "volume")  // equal: not a change
            store.set("x", forKey: "other")
            store.removeValue(forKey: "volume")
            token.cancel()
            store.set(0.1, forKey: "volume")
            #expect(
                log.entries == [
                    "nil -> 0.8", "typed 0.8 -> 0.8", "any volume",
                    "0.8 -> 0.5", "typed 0.8 -> 0.5", "any volume",
                    "any other",
                    "0.5 -> 0.8", "typed 0.5 -> 0.8", "any volume",
                    "typed 0.8 -> 0.1", "any volume",
                ])
            _ = (typed, all)
        }
    }

    @Test func theStreamOfChangedKeysYieldsEachChange() async throws {
        try await withTemporaryFolder { folder in
            let store = try Self.store(in: folder)
            let stream = store.changedKeys()
            store.set(1, forKey: "a")
            store.set(2, forKey: "b")
            store.set(2, forKey: "b")
            store.removeValue(forKey: "a")
            var keys: [String] = []
            for await key in stream {
                keys.append(key)
                if keys.count == 3 { break }
            }
            #expect(keys == ["a", "b", "a"])
        }
    }

    // MARK: - The standard store and Foundation's UserDefaults

    @Test func theStandardPlaceFollowsTheEnvironmentVariableOrThePlatform() {
        let url = ModelDefaults.standardURL
        #expect(url.lastPathComponent == "defaults.plist")
        if let folder = ProcessInfo.processInfo.environment[ModelDefaults.directoryEnvironmentVariable] {
            #expect(url.deletingLastPathComponent().path == URL(fileURLWithPath: folder).path)
        } else {
            #expect(url.deletingLastPathComponent().lastPathComponent.isEmpty == false)
        }
    }

    @Test func aModelsDictionaryGoesThroughFoundationsUserDefaults() throws {
        let suite = "ModelKitTests-\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        let note = Note()
        note.title = "Stored"
        note.tags = ["a", "b"]
        note.due = Date(timeIntervalSince1970: 1_700_000_000)
        note.children = [Note()]
        defaults.set(note.dictionary, forKey: "note")
        let back = try Note(dictionary: try #require(defaults.dictionary(forKey: "note")))
        #expect(back.isEquivalent(to: note))
    }
}

/// A thread-safe log of what observers heard.
final class Log: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func append(_ entry: String) { lock.withLock { items.append(entry) } }
    var entries: [String] { lock.withLock { items } }
}
