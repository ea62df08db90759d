import Foundation
import Testing

@testable import ModelKit

/// A tree with every reason to leave the direct JSON path: a rule, an
/// upgrade from version 1, a weak parent, nested models; its hooks are logged.
final class DiffTree: ModelObject, @unchecked Sendable {
    override class var version: Int { 2 }
    override class func upgrade(_ values: inout [String: ModelValue], from version: Int) throws {
        if version == 1, let label = values.removeValue(forKey: "label") { values["name"] = label }
    }
    @Saved var name = ""
    @Saved(rules: .range(0...5)) var rating = 0
    @Saved var kids: [DiffTree] = []
    @Saved(reference: .weak) var parent: DiffTree? = nil
    override func didLoad() {
        super.didLoad()
        LoadLogging.log?.append(name)
    }
}

/// One promise, every path (issue 49): the same documents go through every
/// way a JSON document reaches a model and goes back to JSON, and each
/// path must give the same saved bytes, the same `didLoad()` calls and the
/// same errors. Paths that by design cannot keep a document's spelling are
/// listed in `Path.keepsSpelling` with the reason, and must still give the
/// same values.
@Suite struct DifferentialPathTests {
    /// The ways in.
    enum Path: String, CaseIterable, CustomStringConvertible {
        case direct, modelValue, arrayElement, jsonLines, file, staticMerge, inPlaceMerge, copy, update
        case patch, dictionary, xmlPropertyList, binaryPropertyList, modelJSONDecoder, foundationJSONDecoder
        /// Written as a keyed archive (each style) and read back (issue 57).
        case keyedArchive, keyedArchiveInline
        var description: String { rawValue }

        /// Whether the path keeps the text of members the class does not
        /// save. The others carry values, not text, by design:
        /// - `patch`: JSON Patch operations carry values (`JSONPatch.difference`
        ///   builds them from values), so a member a patch brings is written
        ///   as its value; members it leaves alone keep their text;
        /// - `dictionary`: `[String: Any]` holds `Double`s and merges keys
        ///   Swift finds equal (NFC and NFD);
        /// - property lists and keyed archives: `<real>` and the binary real
        ///   are `Double`s;
        /// - `Codable` decoders: a `Decoder` hands values, not text.
        var keepsSpelling: Bool {
            switch self {
            case .patch, .dictionary, .xmlPropertyList, .binaryPropertyList, .modelJSONDecoder, .foundationJSONDecoder,
                .keyedArchive, .keyedArchiveInline:
                false
            default: true
            }
        }

        /// Whether the path keeps two keys that differ only in Unicode
        /// normalization: a `[String: Any]` cannot, nor can a `Decoder`'s
        /// keyed container, whose keys Swift compares.
        var keepsCanonicallyEqualKeys: Bool {
            ![.dictionary, .modelJSONDecoder, .foundationJSONDecoder].contains(self)
        }
    }

    // MARK: - The corpus

    /// Members no class saves, spelled as the writer would not spell them.
    static let unknownMembers = [
        #""price":3.14159265358979323846264338327950288"#, #""w":1.10"#, #""z":-0"#, #""x":1E2"#,
        #""e":"caf\u00e9""#, #""big":123456789012345678901234567890"#, #""tiny":5e-324"#,
        #""deep":{"a":[2.50,{"b":-0.0,"c":[1.0e+10]}]}"#,
    ]

    static let fixed: [(name: String, json: String)] = {
        let unknown = unknownMembers.joined(separator: ",")
        return [
            ("plain", #"{"name":"r","rating":1,"# + unknown + "}"),
            ("version 1", #"{"version":1,"label":"r","rating":2,"# + unknown + "}"),
            ("nested with weak parents",
             #"{"$id":"1","name":"r","kids":[{"name":"a","parent":{"$ref":"1"},"# + unknown
                + #"},{"name":"b","kids":[{"name":"c","rating":5}]}],"# + unknown + "}"),
            ("NFC and NFD keys", #"{"name":"r","caf\u00e9":1.10,"cafe\u0301":2.50}"#),
            ("a $-key in the bag", #"{"name":"r","$$id":"x","$$ref":1.50,"# + unknown + "}"),
        ]
    }()

    /// Documents made from a seed: random members with random spellings.
    static func random(seed: UInt64) -> String {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        func number() -> String {
            let digits = String((0..<(1 + next(30))).map { _ in Character(String(next(10))) })
            let whole = digits.drop { $0 == "0" }
            let integer = whole.isEmpty ? "0" : String(whole.prefix(1 + next(8)))
            switch next(6) {
            case 0: return integer + "." + digits + String(repeating: "0", count: next(4))
            case 1: return (next(2) == 0 ? "-" : "") + integer + "e" + (next(2) == 0 ? "-" : "+") + String(next(300))
            case 2: return "-0" + (next(2) == 0 ? "" : ".0")
            case 3: return integer + "E" + String(next(20))
            case 4: return integer
            default: return "0." + digits
            }
        }
        func value(_ depth: Int) -> String {
            switch next(depth > 2 ? 3 : 5) {
            case 0, 1: return number()
            case 2: return ["\"caf\\u00e9\"", "\"a\\/b\"", "\"plain\"", "\"\\ud83d\\ude00\""][next(4)]
            case 3: return "[" + (0..<next(4)).map { _ in value(depth + 1) }.joined(separator: ",") + "]"
            default: return "{" + (0..<next(4)).map { "\"k\($0)\":" + value(depth + 1) }.joined(separator: ",") + "}"
            }
        }
        let members = (0..<(1 + next(6))).map { "\"u\($0)\":" + value(0) }
        return #"{"name":"random \#(seed)","rating":\#(next(6)),"# + members.joined(separator: ",") + "}"
    }

    static let corpus: [(name: String, json: String)] = fixed + (1...12).map { ("seed \($0)", random(seed: UInt64($0))) }

    // MARK: - The paths

    /// `json` loaded into a `DiffTree` through `path`, with the names of
    /// the models whose `didLoad()` ran.
    static func load(_ json: String, through path: Path) throws -> (model: DiffTree, hooked: [String]) {
        let data = Data(json.utf8)
        let log = LoadLog()
        let model: DiffTree = try LoadLogging.$log.withValue(log) {
            switch path {
            case .direct:
                return try DiffTree(json: data)
            case .modelValue:
                var options = JSONReadingOptions()
                options.keepsMemberText = true
                return try DiffTree.decoded(from: ModelValue(json: data, options: options))
            case .arrayElement:
                return try [DiffTree](json: Data(("[" + json + "]").utf8))[0]
            case .jsonLines:
                return try withTemporaryFolder { folder in
                    let url = folder.appendingPathComponent("lines.jsonl")
                    try Data((json + "\n").utf8).write(to: url)
                    var models: [DiffTree] = []
                    try JSONLines.forEachModel(DiffTree.self, contentsOf: url) { models.append($0) }
                    return models[0]
                }
            case .file:
                return try withTemporaryFolder { folder in
                    let url = folder.appendingPathComponent("tree.json")
                    try data.write(to: url)
                    return try DiffTree(contentsOf: url)
                }
            case .staticMerge:
                let loaded = try LoadLogging.$log.withValue(nil) { try DiffTree(json: data) }
                return try DiffTree.merge(base: DiffTree(), ours: DiffTree(), theirs: loaded).merged
            case .inPlaceMerge:
                let (base, theirs) = try LoadLogging.$log.withValue(nil) { (DiffTree(), try DiffTree(json: data)) }
                let ours = LoadLogging.$log.withValue(nil) { base.copy() }
                _ = try ours.merge(base: base, theirs: theirs)
                return ours
            case .copy:
                return try DiffTree(json: data).copy()
            case .update:
                var options = JSONReadingOptions()
                options.keepsMemberText = true
                let model = LoadLogging.$log.withValue(nil) { DiffTree() }
                try model.update(from: ModelValue(json: data, options: options))
                return model
            case .patch:
                let model = LoadLogging.$log.withValue(nil) { DiffTree() }
                let target = try LoadLogging.$log.withValue(nil) { try DiffTree(json: data).modelValue }
                try model.apply(JSONPatch.difference(from: model.modelValue, to: target))
                return model
            case .dictionary:
                let source = try LoadLogging.$log.withValue(nil) { try DiffTree(json: data) }
                return try DiffTree(dictionary: source.dictionary)
            case .xmlPropertyList, .binaryPropertyList:
                let source = try LoadLogging.$log.withValue(nil) { try DiffTree(json: data) }
                return try DiffTree(
                    propertyList: source.propertyListData(format: path == .xmlPropertyList ? .xml : .binary))
            case .keyedArchive, .keyedArchiveInline:
                let source = try LoadLogging.$log.withValue(nil) { try DiffTree(json: data) }
                return try DiffTree(
                    keyedArchive: source.keyedArchiveData(style: path == .keyedArchive ? .objects : .inlineScalars))
            case .modelJSONDecoder:
                return try ModelJSONDecoder().decode(DiffTree.self, from: data)
            case .foundationJSONDecoder:
                return try JSONDecoder().decode(DiffTree.self, from: data)
            }
        }
        return (model, log.calls)
    }

    // MARK: - The same bytes

    @Test(arguments: Path.allCases)
    func everyPathGivesTheSameSavedForm(path: Path) throws {
        for (name, json) in Self.corpus {
            if !path.keepsCanonicallyEqualKeys, name == "NFC and NFD keys" { continue }
            let reference = try Self.load(json, through: .direct).model.jsonString()
            let saved = try Self.load(json, through: path).model.jsonString()
            if path.keepsSpelling {
                #expect(saved == reference, "\(name) through \(path)")
            } else {
                // Values, numbers as the `Double`s these paths carry.
                let values = try [saved, reference].map { Self.asDoubles(try ModelValue(json: Data($0.utf8))) }
                #expect(values[0] == values[1], "\(name) through \(path)")
            }
        }
    }

    /// `value` with every number a `Double`: a `Decoder` hands a 30-digit
    /// integer over as a `Double`, and `1E2` as an `Int`.
    static func asDoubles(_ value: ModelValue) -> ModelValue {
        switch value {
        case .int(let number): return .double(Double(number))
        case .bigInteger(let digits): return .double(Double(digits) ?? .nan)
        case .array(let elements): return .array(elements.map(asDoubles))
        case .object(let object): return .object(ModelValue.Object(object.map { ($0.key, asDoubles($0.value)) }))
        default: return value
        }
    }

    /// The spelling kept is the document's own: each unknown member comes
    /// back byte for byte on the direct path (and so, by the test above, on
    /// every path that keeps spelling).
    @Test func theDirectPathKeepsEveryMembersSpelling() throws {
        for (name, json) in Self.fixed where name != "NFC and NFD keys" {
            let saved = try Self.load(json, through: .direct).model.jsonString()
            for member in Self.unknownMembers {
                #expect(saved.contains(member), "\(name): \(member)")
            }
        }
    }

    /// DejalObject's form (issue 52): the class named by
    /// `representedClassName`, an old version, nested objects, unknown keys.
    static let dejalObjectCorpus: [(name: String, json: String)] = {
        let unknown = unknownMembers.joined(separator: ",")
        return [
            ("DejalObject's form",
             #"{"representedClassName":"DiffTree","version":1,"label":"r","rating":2,"kids":[{"representedClassName":"DiffTree","version":2,"name":"a","# + unknown + #"}],"# + unknown + "}"),
            ("DejalObject's form in a ModelKit document",
             #"{"name":"r","kids":[{"representedClassName":"DiffTree","version":1,"label":"a"}],"# + unknown + "}"),
        ]
    }()

    @Test(arguments: Path.allCases)
    func everyPathReadsDejalObjectsFormAlike(path: Path) throws {
        for (name, json) in Self.dejalObjectCorpus {
            let reference = try Self.load(json, through: .direct)
            let loaded = try Self.load(json, through: path)
            #expect(loaded.hooked == reference.hooked, "\(name) through \(path)")
            let saved = try loaded.model.jsonString()
            #expect(!saved.contains("representedClassName"), "\(name) through \(path)")
            let values = try [saved, reference.model.jsonString()].map { Self.asDoubles(try ModelValue(json: Data($0.utf8))) }
            #expect(values[0] == values[1], "\(name) through \(path)")
            if path.keepsSpelling { #expect(saved == (try reference.model.jsonString()), "\(name) through \(path)") }
        }
        let direct = try Self.load(Self.dejalObjectCorpus[0].json, through: .direct).model
        #expect(direct.name == "r" && direct.kids.map(\.name) == ["a"] && direct.rating == 2)
    }

    // MARK: - The same hooks

    @Test(arguments: Path.allCases)
    func everyPathHooksTheModelsItMakes(path: Path) throws {
        for (name, json) in Self.corpus {
            if !path.keepsCanonicallyEqualKeys, name == "NFC and NFD keys" { continue }
            let reference = try Self.load(json, through: .direct).hooked
            let hooked = try Self.load(json, through: path).hooked
            #expect(hooked == reference, "\(name) through \(path)")
        }
    }

    // MARK: - The same errors

    /// Bad documents and the message every path gives for each (JSON
    /// readers add the line and column, which the test leaves aside).
    static let badDocuments: [(json: String, message: String)] = [
        (#"{"name":"r","kids":[{"name":"a"},{"name":"b","rating":7}]}"#, "kids[1].rating: must be at most 5, found 7"),
        (#"{"name":"r","kids":[{"name":"a","rating":"high"}]}"#,
         #"kids[0].rating: expected Int, found a string ("high")"#),
        (#"{"version":1,"label":"r","rating":9}"#, "rating: must be at most 5, found 9"),
        (#"{"representedClassName":"DiffTree","kids":[{"representedClassName":"DejalNobody"}]}"#,
         #"kids[0].representedClassName: expected "DiffTree" or the class name of a registered subclass of DiffTree, found "DejalNobody", which names no registered class (see ModelObject.register(_:as:))"#),
    ]

    @Test(arguments: [Path.direct, .modelValue, .arrayElement, .jsonLines, .file, .modelJSONDecoder, .foundationJSONDecoder])
    func everyPathNamesTheSameKeyPath(path: Path) throws {
        for (json, message) in Self.badDocuments {
            do {
                _ = try Self.load(json, through: path)
                Issue.record("\(json) loaded through \(path)")
            } catch {
                var text = "\(error)"
                if path == .arrayElement, text.hasPrefix("[0].") { text.removeFirst(4) }
                if path == .arrayElement { text = text.replacingOccurrences(of: "in [0].", with: "in ") }
                #expect(Self.describes(text, message), "\(path): \(text)")
            }
        }
    }

    /// Whether `text`, an error's description, says `message` once its
    /// file, line and column are set aside.
    static func describes(_ text: String, _ message: String) -> Bool {
        if text.hasSuffix(message) { return true }
        // "JSON at line 1, column 40 (byte 39), in kids[1].rating: must be …"
        guard let colon = message.firstIndex(of: ":") else { return false }
        let keyPath = message[..<colon]
        return text.contains("in \(keyPath):") && text.hasSuffix(String(message[message.index(after: colon)...]))
    }

    // MARK: - One user action, one undo step

    enum Action: String, CaseIterable, CustomStringConvertible {
        case set, inPlaceAppend, update, patch, mergePatch, inPlaceMerge
        var description: String { rawValue }
    }

    @Test(arguments: Action.allCases)
    func everyActionIsOneUndoStep(action: Action) throws {
        // Unknown members at the root only: undo puts back an extensible
        // property an edit removed at the end of the bag, as a value.
        let json = #"{"$id":"1","name":"r","kids":[{"name":"a","parent":{"$ref":"1"}},{"name":"b","kids":[{"name":"c"}]}],"#
            + Self.unknownMembers.joined(separator: ",") + "}"
        let model = try DiffTree(json: Data(json.utf8))
        let before = try model.jsonString()
        let history = ModelHistory(tracking: model)
        let changed = try DiffTree(json: Data(json.utf8))
        changed.name = "top"
        changed.kids[0].name = "a2"
        changed.kids.append(DiffTree())
        switch action {
        case .set: model.name = "top"
        case .inPlaceAppend: model.kids.append(DiffTree())
        case .update: try model.update(from: changed.modelValue)
        case .patch: try model.apply(model.patch(to: changed))
        case .mergePatch:
            try model.apply(JSONMergePatch(json: Data(#"{"name":"top","kids":[{"name":"x"}]}"#.utf8)))
        case .inPlaceMerge:
            _ = try model.merge(base: DiffTree(json: Data(json.utf8)), theirs: changed)
        }
        #expect(try model.jsonString() != before, "\(action) changed nothing")
        #expect(history.canUndo)
        try history.undo()
        let after = try model.jsonString()
        #expect(after == before, "\(action): \(after)")
        #expect(!history.canUndo, "\(action) took more than one step")
    }
}

/// The Demo is one more way in: `Demo convert` of every document of the
/// corpus writes each member as it was spelled (re-spaced, pretty).
@Suite(.enabled(if: DemoProcess.executable != nil, "the Demo executable is not built: run swift build"))
struct DifferentialDemoPathTests {
    @Test func convertKeepsEveryMembersSpelling() throws {
        var options = JSONReadingOptions()
        options.keepsMemberText = true
        for (name, json) in DifferentialPathTests.corpus {
            let (outcome, after) = try DemoProcess.run(
                ["convert", "in.json", "out.json"], input: nil, files: ["in.json": json], reading: ["out.json"])
            #expect(outcome.status == 0, "\(name): \(outcome.errors)")
            let written = try #require(after["out.json"], "\(name)")
            // Compact again, each side read keeping its members' text.
            let compact = { (text: String) in
                try ModelValue(json: Data(text.utf8), options: options).jsonString()
            }
            #expect(try compact(written) == compact(json), "\(name)")
            #expect(written.contains("\n  "), "\(name): written pretty")
        }
    }
}
