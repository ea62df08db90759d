import Foundation
import Synchronization
import Testing

@testable import ModelKit

/// The direct dictionary paths (`DictionaryModelDecoder`,
/// `DictionaryModelEncoder`) against the `ModelValue` path they short-cut:
/// the same objects, dictionaries and errors.
@Suite struct DictionaryDirectPathTests {
    /// What loading a dictionary gave: the saved form, in order and with the
    /// kind of every value, and whether it has changes; or the error's sentence.
    enum Outcome: Equatable, CustomStringConvertible {
        case loaded(String)
        case failed(String)

        var description: String {
            switch self {
            case .loaded(let form): "loaded \(form)"
            case .failed(let message): "failed: \(message)"
            }
        }
    }

    /// The saved form of `object`, every object's keys in order, every value with its kind.
    static func form(of object: ModelObject) throws -> String {
        "\(object.hasAnyChanges ? "changed " : "")\(ordered(.object(try object.encodedRoot())))"
    }

    static func ordered(_ value: ModelValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): "bool(\(flag))"
        case .int(let number): "int(\(number))"
        case .bigInteger(let digits): "big(\(digits))"
        case .double(let number): "double(\(number.bitPattern))"
        case .string(let text): "string(\(text.debugDescription))"
        case .date(let date): "date(\(date.timeIntervalSince1970.bitPattern))"
        case .data(let data): "data(\(data.base64EncodedString()))"
        case .array(let elements): "[\(elements.map(ordered).joined(separator: ", "))]"
        case .object(let members):
            "{\(members.map { "\($0.key.debugDescription): \(ordered($0.value))" }.joined(separator: ", "))}"
        }
    }

    /// Loads `dictionary` with `init(dictionary:)` (the direct path when it can).
    static func direct<T: ModelObject>(_ type: T.Type, _ dictionary: [String: Any]) -> Outcome {
        do {
            return .loaded(try form(of: T(dictionary: dictionary)))
        } catch {
            return .failed("\(error)")
        }
    }

    /// Loads `dictionary` through `ModelValue`, as `init(dictionary:)` did before the direct path.
    static func viaModelValue<T: ModelObject>(_ type: T.Type, _ dictionary: [String: Any]) -> Outcome {
        do {
            let object = T()
            let pending = try object.decodePending(PropertyListBridge.members(of: dictionary))
            object.apply(pending, recordingChanges: false, replacingBag: true)
            return .loaded(try form(of: object))
        } catch {
            return .failed("\(error)")
        }
    }

    /// Whether the direct decoder reads `dictionary` by itself, with no fallback.
    static func isReadDirectly<T: ModelObject>(_ type: T.Type, _ dictionary: [String: Any]) -> Bool {
        T().directlyDecodedMembers(dictionary) != nil
    }

    /// A property-list object described with the Swift type of every value,
    /// dictionaries by sorted key (they have no order).
    static func typed(_ value: Any) -> String {
        switch value {
        case let dictionary as [String: Any]:
            let members = dictionary.keys.sorted().map { "\($0.debugDescription): \(typed(dictionary[$0]!))" }
            return "\(type(of: value)){\(members.joined(separator: ", "))}"
        case let array as [Any]:
            return "\(type(of: value))[\(array.map(typed).joined(separator: ", "))]"
        case let number as Double:
            return "\(type(of: value))(\(number.bitPattern))"
        case let date as Date:
            return "\(type(of: value))(\(date.timeIntervalSince1970.bitPattern))"
        default:
            return "\(type(of: value))(\(String(reflecting: value)))"
        }
    }

    /// `dictionary` (direct) against bridging the `ModelValue`, with every value's Swift type.
    static func expectSameDictionary(_ object: ModelObject, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let reference = PropertyListBridge.dictionary(from: try object.encodedRoot())
        #expect(object.directDictionary() != nil, sourceLocation: sourceLocation)
        #expect(typed(object.dictionary) == typed(reference), sourceLocation: sourceLocation)
    }

    // MARK: - Random dictionaries

    /// Random `Sheet` dictionaries in the forms Foundation code hands over
    /// (Swift values, `NSNumber`s, `[Any]` and typed arrays, null markers),
    /// mostly well typed, with bag keys, metadata and nested sheets.
    struct RandomSheets {
        var documents: RandomDocuments
        /// How often a value has the wrong type, out of 100.
        var wrongPercent: Int

        mutating func chance(_ percent: Int) -> Bool {
            Int.random(in: 0..<100, using: &documents.generator) < percent
        }

        mutating func pick(_ options: [Any]) -> Any {
            options[Int.random(in: 0..<options.count, using: &documents.generator)]
        }

        mutating func count(_ range: ClosedRange<Int>) -> Int {
            Int.random(in: range, using: &documents.generator)
        }

        /// A string, sometimes one that starts with `$` like the null marker.
        mutating func string() -> String {
            // The null marker itself is null, which a String refuses.
            let dollars = wrongPercent > 0 ? ["$null", "$$null", "$", "$x", "$$$null", "$nul"] : ["$$null", "$", "$x", "$nul"]
            return chance(15) ? pick(dollars) as! String : documents.string()
        }

        mutating func date() -> Date {
            Date(timeIntervalSince1970: Double(count(-4_000_000_000...4_000_000_000)) / 8)
        }

        /// Any property-list value, or a value the bridge refuses.
        mutating func anything(depth: Int) -> Any {
            // Values the bridge refuses only in dictionaries meant to have errors.
            switch count(0...(wrongPercent > 0 ? 17 : 16)) {
            case 0: return documents.integer()
            case 1: return documents.double()
            case 2: return chance(50)
            case 3: return string()
            case 4: return PropertyListBridge.nullMarker
            case 5: return NSNumber(value: documents.integer())
            case 6: return NSNumber(value: documents.double())
            case 7: return NSNumber(value: chance(50))
            case 8: return date()
            case 9: return Data((0..<count(0...4)).map { UInt8($0) })
            case 10: return NSNull()
            case 11: return pick([UInt64.max, Int8(-3), Float(1.5), UInt8(7)])
            case 12: return pick([[1, 2], ["a", "b"], [1.5], [true], [String](), [[String: Any]]()])
            case 13: return pick([Int?.some(4) as Any, String?.none as Any, "2025-11-16T15:33:20.25Z"])
            case 14: return NSString(string: documents.string())
            case 15: return depth > 0 ? (0..<count(0...3)).map { _ in anything(depth: depth - 1) } : "leaf"
            case 16:
                guard depth > 0 else { return 0 }
                var members: [String: Any] = [:]
                for _ in 0..<count(0...3) { members[documents.string()] = anything(depth: depth - 1) }
                return members
            default: return pick([CGFloat(2), [1: "a"] as [Int: String], Set(["s"])])
            }
        }

        /// `elements` as a typed array or as `[Any]`.
        mutating func array<T>(_ elements: [T]) -> Any {
            chance(50) ? elements : elements.map { $0 as Any }
        }

        mutating func value(forKey key: String, depth: Int) -> Any {
            if chance(wrongPercent) { return anything(depth: 1) }
            switch key {
            case "name": return string()
            case "count": return pick([documents.integer(), NSNumber(value: count(-99...99)), Double(count(-99...99))])
            case "isOpen": return chance(30) ? NSNumber(value: chance(50)) : chance(50)
            case "ratio": return pick([documents.double(), documents.integer(), NSNumber(value: 0.25)])
            case "created": return chance(80) ? date() : "2025-11-16T15:33:20.25Z"
            case "note": return chance(30) ? pick([PropertyListBridge.nullMarker, NSNull()]) : string()
            case "rank": return chance(30) ? PropertyListBridge.nullMarker : pick([documents.integer(), NSNumber(value: 5)])
            case "flag": return chance(30) ? PropertyListBridge.nullMarker : chance(50)
            case "weight": return chance(30) ? PropertyListBridge.nullMarker : pick([documents.double(), count(0...9)])
            case "due": return chance(30) ? PropertyListBridge.nullMarker : date()
            case "tags": return array((0..<count(0...3)).map { _ in string() })
            case "numbers":
                let numbers = (0..<count(0...4)).map { _ in documents.integer() }
                return chance(20) ? numbers.map { NSNumber(value: $0) } : array(numbers)
            case "ratios":
                return chance(30)
                    ? array((0..<count(0...3)).map { _ in count(-9...9) })
                    : array((0..<count(0...3)).map { _ in documents.double() })
            case "flags": return array((0..<count(0...3)).map { _ in chance(50) })
            case "leaf":
                var leaf: [String: Any] = ["label": string(), "size": count(0...9)]
                if chance(20) { leaf["type"] = "Leaf" }
                if chance(20) { leaf["extra"] = anything(depth: 1) }
                return leaf
            case "child": return depth > 0 && chance(60) ? sheet(depth: depth - 1) : PropertyListBridge.nullMarker
            case "children":
                let sheets = (0..<(depth > 0 ? count(0...3) : 0)).map { _ in sheet(depth: depth - 1) }
                return chance(50) ? sheets : sheets.map { $0 as Any }
            case "stamp": return pick([documents.double(), count(0...1_000_000)])
            case "small": return count(-128...127)
            case "scores":
                let score = count(0...9)
                let scores: [String: Any] = ["b": 2, "c": NSNumber(value: 3)]
                let typed: [String: Int] = ["a": score]
                return chance(50) ? typed as Any : scores as Any
            case "attachments":
                return (0..<count(0...2)).map { _ -> [String: Any] in
                    var item: [String: Any] = ["name": string()]
                    if chance(50) { item["type"] = pick(["Photo", "Video", "Attachment"]) }
                    return item
                }
            default: return anything(depth: 1)
            }
        }

        static let keys = [
            "name", "count", "isOpen", "ratio", "created", "note", "rank", "flag", "weight", "due", "tags", "numbers",
            "ratios", "flags", "leaf", "child", "children", "stamp", "small", "scores", "attachments",
        ]

        mutating func sheet(depth: Int) -> [String: Any] {
            var members: [String: Any] = [:]
            for key in Self.keys where chance(70) { members[key] = value(forKey: key, depth: depth) }
            for _ in 0..<count(0...3) {
                let key = chance(50) ? "extra\(count(0...4))" : documents.string()
                if !Self.keys.contains(key), key != "type", key != "version" { members[key] = anything(depth: 2) }
            }
            if chance(30) { members["type"] = wrongPercent == 0 || chance(90) ? "Sheet" : pick(["Note", "$null", 5]) }
            if chance(30) {
                // Version 0 is upgraded, which only the ModelValue path does.
                members["version"] = wrongPercent == 0 ? pick([1, 1, 2, NSNumber(value: 1), 0]) : pick([1, 2, 0, -1, "1"])
            }
            return members
        }
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func wellTypedDictionariesLoadDirectlyAndAsBefore(seed: UInt64) throws {
        _ = registerFixtures
        var random = RandomSheets(documents: RandomDocuments(seed: seed), wrongPercent: 0)
        var loaded = 0
        for _ in 0..<250 {
            let dictionary = random.sheet(depth: 3)
            let direct = Self.direct(Sheet.self, dictionary)
            #expect(direct == Self.viaModelValue(Sheet.self, dictionary), "\(dictionary)")
            guard case .loaded = direct else { continue }
            loaded += 1
            // Only an upgrade (from version 0) makes the root go through ModelValue.
            let upgrades = (dictionary["version"] as? Int) == 0
            #expect(Self.isReadDirectly(Sheet.self, dictionary) == !upgrades, "\(dictionary)")
            try Self.expectSameDictionary(try Sheet(dictionary: dictionary))
        }
        // Numbers that do not fit (a double for an Int8) fail; the rest load.
        #expect(loaded > 220)
    }

    @Test(arguments: [UInt64(11), 12, 13, 14])
    func badlyTypedDictionariesFailWithTheSameErrors(seed: UInt64) throws {
        _ = registerFixtures
        var random = RandomSheets(documents: RandomDocuments(seed: seed), wrongPercent: 5)
        var failures = 0
        for _ in 0..<250 {
            let dictionary = random.sheet(depth: 3)
            let direct = Self.direct(Sheet.self, dictionary)
            #expect(direct == Self.viaModelValue(Sheet.self, dictionary), "\(dictionary)")
            if case .failed = direct { failures += 1 }
        }
        #expect(failures > 50)
    }

    @Test(arguments: [UInt64(21), 22, 23])
    func updatesChangeTheSameValuesOrNothing(seed: UInt64) throws {
        _ = registerFixtures
        var random = RandomSheets(documents: RandomDocuments(seed: seed), wrongPercent: 3)
        for _ in 0..<150 {
            let start = random.sheet(depth: 2)
            guard let direct = try? Sheet(dictionary: start), let reference = try? Sheet(dictionary: start) else {
                continue
            }
            let before = try Self.form(of: direct)
            let update = random.sheet(depth: 2)
            var directError: String?
            do { try direct.update(from: update) } catch { directError = "\(error)" }
            var referenceError: String?
            do {
                let pending = try reference.decodePending(PropertyListBridge.members(of: update))
                reference.apply(pending, recordingChanges: true, replacingBag: false)
            } catch {
                referenceError = "\(error)"
            }
            #expect(directError == referenceError, "\(update)")
            #expect(direct.changedKeys == reference.changedKeys, "\(update)")
            #expect(try Self.form(of: direct) == Self.form(of: reference), "\(update)")
            if directError != nil { #expect(try Self.form(of: direct) == before) }
        }
    }

    @Test(arguments: [UInt64(31), 32, 33])
    func randomObjectsMakeTheSameDictionaries(seed: UInt64) throws {
        _ = registerFixtures
        var random = RandomSheets(documents: RandomDocuments(seed: seed), wrongPercent: 0)
        var made = 0
        for _ in 0..<150 {
            guard let sheet = try? Sheet(dictionary: random.sheet(depth: 3)) else { continue }
            if random.chance(30) { try sheet.setExtensibleProperty(["b": 1, "a": [true, nil]], forKey: "zeta") }
            if random.chance(20) { sheet.stamp = Date(timeIntervalSince1970: 1.5) }
            try Self.expectSameDictionary(sheet)
            made += 1
        }
        #expect(made > 120)
    }

    // MARK: - Behaviour the direct paths must keep

    /// Values the bridge reads strictly: each fails on both paths, with the same sentence.
    static var strictCases: [([String: Any], String)] {
        [
        (["count": true] as [String: Any], "count: expected Int, found a boolean (true)"),
        (["count": NSNumber(value: true)], "count: expected Int, found a boolean (true)"),
        (["count": 1.5], "count: expected Int, found a floating-point number (1.5)"),
        (["isOpen": 1], "isOpen: expected Bool, found an integer (1)"),
        (["isOpen": NSNumber(value: 1)], "isOpen: expected Bool, found an integer (1)"),
        (["ratio": "0.5"], #"ratio: expected Double, found a string ("0.5")"#),
        (["name": "$null"], "name: expected String, found null"),
        (["name": NSNull()], "name: expected String, found null"),
        (["tags": ["a", 2]], "tags[1]: expected String, found an integer (2)"),
        (["tags": ["a", "$null"]], "tags[1]: expected String, found null"),
        (["numbers": [1, true]], "numbers[1]: expected Int, found a boolean (true)"),
        (["flags": [1]], "flags[0]: expected Bool, found an integer (1)"),
        (["created": 5], "created: expected Date (an ISO 8601 string; a number needs a date strategy: deferredToDate for seconds since 2001, JSONEncoder's default, or secondsSince1970 or millisecondsSince1970), found an integer (5)"),
        (["leaf": "x"], #"leaf: expected a Leaf object, found a string ("x")"#),
        (["children": [["count": "x"]]], #"children[0].count: expected Int, found a string ("x")"#),
        (["child": ["child": ["small": 300]]], "child.child.small: expected Int8, found 300, which does not fit"),
        (["children": [[:], 5]], "children[1]: expected a Sheet object, found an integer (5)"),
        (["attachments": [["type": "Stranger"]]], #"attachments[0].type: expected Attachment or a subclass of it, found "Stranger", which names Stranger, a class that is not a subclass of Attachment"#),
        (["type": "Note"], #"type: expected "Sheet" or the type name of a registered subclass of Sheet, found "Note", which names no registered class (see ModelObject.register(_:))"#),
        (["version": "1"], #"version: expected an integer data version, found a string ("1")"#),
        (["count": 1, "extra": CGFloat(1)], "extra: expected a property-list value (string, number, boolean, date, data, array or dictionary), found a value of type CGFloat"),
        ]
    }

    @Test(arguments: strictCases.indices)
    func strictValuesFailWithTheSameErrors(index: Int) {
        _ = registerFixtures
        let (dictionary, message) = Self.strictCases[index]
        #expect(Self.direct(Sheet.self, dictionary) == .failed(message))
        #expect(Self.viaModelValue(Sheet.self, dictionary) == .failed(message))
    }

    @Test func commonValuesLoadDirectly() throws {
        let dictionary: [String: Any] = [
            "type": "Sheet", "version": 1, "name": "n", "count": 3, "isOpen": true, "ratio": 2, "created": Date(),
            "note": "$null", "rank": 4, "flag": false, "weight": 1.5, "due": PropertyListBridge.nullMarker,
            "tags": ["a", "b"], "numbers": [1, 2], "ratios": [1.5, 2], "flags": [true],
            "leaf": ["label": "l", "size": 2], "child": ["name": "c", "children": [[String: Any]]()],
            "children": [["name": "d"]], "extra": ["kept": 1],
        ]
        #expect(Self.isReadDirectly(Sheet.self, dictionary))
        let sheet = try Sheet(dictionary: dictionary)
        #expect(sheet.ratio == 2 && sheet.ratios == [1.5, 2] && sheet.note == nil && sheet.rank == 4)
        #expect(sheet.child?.name == "c" && sheet.children.map(\.name) == ["d"] && sheet.leaf.size == 2)
        #expect(sheet.extensibleProperties == ["extra": ["kept": 1]])
        #expect(!sheet.hasAnyChanges)
        // What the direct encoder writes loads directly again.
        #expect(Self.isReadDirectly(Sheet.self, sheet.dictionary))
        #expect(Self.direct(Sheet.self, sheet.dictionary) == Self.direct(Sheet.self, dictionary))
    }

    @Test func escapedStringsAndNullsRoundTrip() throws {
        let sheet = Sheet()
        sheet.name = "$null"
        sheet.note = "$$null"
        sheet.tags = ["$null", "$", "plain"]
        sheet.rank = nil
        try Self.expectSameDictionary(sheet)
        let dictionary = sheet.dictionary
        #expect(dictionary["name"] as? String == "$$null")
        #expect(dictionary["rank"] as? String == "$null")
        let copy = try Sheet(dictionary: dictionary)
        #expect(copy.name == "$null" && copy.note == "$$null" && copy.tags == ["$null", "$", "plain"] && copy.rank == nil)
    }

    @Test func metadataUpgradesAndSubclassesBehaveAsBefore() throws {
        _ = registerFixtures
        let dictionaries: [[String: Any]] = [
            ["items": [["type": "Photo", "name": "p", "width": 3], ["name": "a"]], "cover": ["type": "Video", "seconds": 1]],
            ["type": "Album", "version": 7, "items": [[String: Any]](), "extra": 1],
            ["version": 0, "items": [[String: Any]]()],
            ["type": "Photo"],
            ["version": -1],
            ["cover": ["type": "Nobody"]],
        ]
        for dictionary in dictionaries {
            #expect(Self.direct(Album.self, dictionary) == Self.viaModelValue(Album.self, dictionary), "\(dictionary)")
        }
        let newer = try Album(dictionary: dictionaries[1])
        #expect(newer.dictionary["version"] as? Int == 7)
        try Self.expectSameDictionary(try Album(dictionary: dictionaries[0]))
    }

    @Test func keysMatchByTheirExactText() throws {
        // "café" spelt with a combining accent is the same Swift string, but not the same text.
        let dictionary: [String: Any] = ["cafe\u{301}": "x", "plain": 2, "other": 1]
        #expect(Self.direct(Accented.self, dictionary) == Self.viaModelValue(Accented.self, dictionary))
        let loaded = try Accented(dictionary: dictionary)
        #expect(loaded.cafe == "" && loaded.extensibleProperty(forKey: "cafe\u{301}") == "x")
        // The Kelvin sign is canonically equivalent to "K": not the metadata key "type" in its exact text.
        final class Kelvin: ModelObject, @unchecked Sendable {
            override class var typeKey: String? { "K" }
            @Saved var size = 0
        }
        let kelvin: [String: Any] = ["\u{212A}": "Nobody", "size": 1]
        #expect(Self.direct(Kelvin.self, kelvin) == Self.viaModelValue(Kelvin.self, kelvin))
        #expect(!Self.isReadDirectly(Kelvin.self, kelvin))
    }

    /// Keys of 1 to 40 bytes that differ from one another in one byte only
    /// (the first, a middle one or the last), so a lookup that compared too
    /// little of a key would put a value in the wrong property.
    final class NearKeys: ModelObject, @unchecked Sendable {
        override class var typeKey: String? { nil }
        override class var versionKey: String? { nil }
        @Saved("a") var k1 = 0
        @Saved("b") var k1b = 0
        @Saved("abc") var k3 = 0
        @Saved("abd") var k3b = 0
        @Saved("abcdefg") var k7 = 0
        @Saved("abcdefh") var k7b = 0
        @Saved("xbcdefg") var k7c = 0
        @Saved("abcdefgh") var k8 = 0
        @Saved("abcdefgi") var k8b = 0
        @Saved("abcdefghijklmnop") var k16 = 0
        @Saved("abcdefghijklmnoq") var k16b = 0
        @Saved("bbcdefghijklmnop") var k16c = 0
        @Saved("abcdefghijklmnopq") var k17 = 0
        @Saved("abcdefghXjklmnopq") var k17b = 0
        @Saved("0123456789012345678901234567890123456789") var k40 = 0
        @Saved("0123456789012345678X01234567890123456789") var k40b = 0

        var values: [Int] { [k1, k1b, k3, k3b, k7, k7b, k7c, k8, k8b, k16, k16b, k16c, k17, k17b, k40, k40b] }
    }

    @Test func keysThatDifferInOneByteFindTheirOwnProperties() throws {
        let keys = NearKeys().dictionary.keys.sorted()
        #expect(keys.count == 16)
        let expected = Dictionary(uniqueKeysWithValues: Array(keys.enumerated()).map { ($1, $0 + 1) })
        // Near misses of every key are unknown keys, kept in the bag.
        let misses = ["c": 0, "abe": 0, "abcdefj": 0, "abcdefgj": 0, "abcdefghijklmnor": 0,
                      "abcdefghYjklmnopq": 0, "0123456789012345678Y01234567890123456789": 0, "abcdefghijklmnopqr": 0]
        let dictionary = expected.merging(misses) { value, _ in value }
        let direct = try NearKeys(dictionary: dictionary)
        #expect(Self.isReadDirectly(NearKeys.self, dictionary))
        let fromJSON = try NearKeys(json: try JSONSerialization.data(withJSONObject: dictionary))
        for loaded in [direct, fromJSON] {
            let read = loaded.dictionary
            for key in keys { #expect(read[key] as? Int == expected[key], "\(key)") }
            #expect(Set(loaded.extensibleProperties.keys) == Set(misses.keys))
            #expect(Set(loaded.values).count == 16)
        }
    }

    /// Version 2 calls version 1's "title" "name", and saves a new "title".
    final class Renamed: ModelObject, @unchecked Sendable {
        override class var version: Int { 2 }
        @Saved var name = ""
        @Saved var title = "untitled"
        @Saved var extra = 0

        override class func upgrade(_ values: inout [String: ModelValue], from version: Int) throws {
            if version < 2 { values["name"] = values.removeValue(forKey: "title") }
        }
    }

    /// A new object is filled in place; older data, which an upgrade may
    /// rename, is not, so no value of the old data's keys stays where the
    /// upgrade did not put it, whatever order the dictionary gives its keys.
    @Test func olderDataLoadsAsItsUpgradeSays() throws {
        for filler in 0..<40 {
            var dictionary: [String: Any] = ["version": 1, "title": "Old title", "extra": filler]
            for index in 0..<filler % 8 { dictionary["unknown\(index)"] = index }
            let loaded = try Renamed(dictionary: dictionary)
            #expect(loaded.name == "Old title")
            #expect(loaded.title == "untitled", "keys in the order \(Array(dictionary.keys))")
            #expect(loaded.extra == filler)
            #expect(!loaded.hasChanges)
        }
        // Current data is read directly.
        let current: [String: Any] = ["version": 2, "name": "n", "title": "t", "extra": 1]
        #expect(Self.isReadDirectly(Renamed.self, current))
        let loaded = try Renamed(dictionary: current)
        #expect([loaded.name, loaded.title] == ["n", "t"])
    }

    /// A value the direct path cannot take, after others it put in place,
    /// leaves the loading to the ModelValue path, whose values replace them.
    @Test func aFallbackReplacesWhatWasPutInPlace() throws {
        for filler in 0..<20 {
            var dictionary: [String: Any] = ["name": "n", "title": "t", "extra": "not a number"]
            for index in 0..<filler % 8 { dictionary["unknown\(index)"] = index }
            let error = #expect(throws: ModelError.self) { try Renamed(dictionary: dictionary) }
            #expect(error?.keyPath.description == "extra")
            // An NSNumber is not read directly; the ModelValue path converts it.
            dictionary["extra"] = NSNumber(value: 7)
            let loaded = try Renamed(dictionary: dictionary)
            #expect([loaded.name, loaded.title] == ["n", "t"])
            #expect(loaded.extra == 7)
            #expect(loaded.extensibleProperties.count == filler % 8)
        }
    }

    @Test func deepGraphsAndCyclesBehaveAsBefore() throws {
        // Deeper than the direct paths recurse: the ModelValue path does the rest.
        var dictionary: [String: Any] = ["name": "bottom"]
        for level in 0..<100 { dictionary = ["name": "level \(level)", "child": dictionary] }
        #expect(Self.direct(Sheet.self, dictionary) == Self.viaModelValue(Sheet.self, dictionary))
        let deep = try Sheet(dictionary: dictionary)
        try Self.expectSameDictionary(deep)
        var tooDeep: Any = ["name": "bottom"]
        for _ in 0..<600 { tooDeep = ["child": tooDeep] }
        let error = #expect(throws: ModelError.self) { try Sheet(dictionary: tooDeep as! [String: Any]) }
        #expect(error?.code == .nestingTooDeep)
        // A cycle: the direct encoder gives up, and the ModelValue path reports it.
        let sheet = Sheet()
        sheet.child = Sheet()
        sheet.child?.children = [sheet]
        #expect(sheet.directDictionary() == nil)
        #expect(EncodingGuard.current.failure == nil)
        sheet.child?.children = []
    }

    /// A model that counts its living instances, for the test below alone.
    final class CountedChild: ModelObject, @unchecked Sendable {
        static let living = Mutex(0)
        @Saved var name = ""

        required init() {
            super.init()
            Self.living.withLock { $0 += 1 }
        }

        deinit { Self.living.withLock { $0 -= 1 } }
    }

    final class CountedParent: ModelObject, @unchecked Sendable {
        @Saved var children: [CountedChild] = []
        @Saved var title = ""
        @Saved var count = 0
    }

    /// Values the direct path decoded before a later member failed are
    /// released with the decoding, never applied and never leaked; the
    /// object is left as it was and the error names the member.
    @Test(.serialized, arguments: [UInt64(41), 42, 43])
    func valuesDecodedBeforeAFailureAreReleased(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        for _ in 0..<20 {
            let count = Int.random(in: 1...5, using: &generator)
            let children: [[String: Any]] = (0..<count).map { ["name": "child \($0)"] }
            let parent = CountedParent()
            parent.title = "kept"
            let dictionary: [String: Any] = ["children": children, "title": "new", "count": true]
            #expect(throws: ModelError.self) { try parent.update(from: dictionary) }
            do {
                _ = try CountedParent(dictionary: dictionary)
                Issue.record("a boolean count loaded")
            } catch {
                #expect("\(error)" == "count: expected Int, found a boolean (true)")
            }
            #expect(parent.title == "kept" && parent.children.isEmpty)
            #expect(CountedChild.living.withLock { $0 } == 0)
            // The same children load when nothing fails, and go with their parent.
            var loaded: CountedParent? = try CountedParent(dictionary: ["children": children, "count": 2])
            #expect(loaded?.children.map(\.name) == (0..<count).map { "child \($0)" })
            #expect(CountedChild.living.withLock { $0 } == count)
            loaded = nil
            #expect(CountedChild.living.withLock { $0 } == 0)
        }
    }
}
