import Foundation
import Testing

@testable import ModelKit

/// `unknownKeys`: what each way of loading does with keys a class does not
/// save, under each policy.
@Suite struct UnknownKeyPolicyTests {
    /// Two unknown keys (`titel`, then `extra`) around saved ones, and a nested
    /// model (which keeps unknown keys whatever its parent does) with one.
    static let document = #"{"title":"A","titel":"x","count":2,"part":{"name":"p","colour":"red"},"extra":{"deep":[1,2]}}"#

    /// What `RejectingNote` says about the document, in document order…
    static let rejection = #"unknown key "titel", and 1 more (extra): RejectingNote saves title, count, part"#
    /// …and where the data has no order (dictionaries, `Codable`), in sorted order.
    static let sortedRejection = #"unknown key "extra", and 1 more (titel): RejectingNote saves title, count, part"#

    /// Every way in.
    enum Way: String, CaseIterable, CustomTestStringConvertible {
        case jsonDirect, jsonModelValue, jsonFile, jsonLines, xmlPropertyList, binaryPropertyList, propertyListFile
        case dictionaryDirect, dictionaryModelValue, modelValue, codableJSONDecoder, codableModelJSONDecoder
        case updateFromDictionary, updateFromModelValue, defaults

        var testDescription: String { rawValue }

        /// Loads `json` as a `T` this way.
        func load<T: PolicyNote>(_ type: T.Type, _ json: String) throws -> T {
            let data = Data(json.utf8)
            let value = try ModelValue(json: data)
            guard case .object(let members) = value else { throw ModelError.invalidValue("not an object") }
            switch self {
            case .jsonDirect:
                return try T(json: data)
            case .jsonModelValue:
                let object = T()
                try object.load(value)
                return object
            case .jsonFile:
                return try withTemporaryFolder { folder in
                    let url = folder.appendingPathComponent("note.json")
                    try data.write(to: url)
                    return try T(contentsOf: url)
                }
            case .jsonLines:
                return try withTemporaryFolder { folder in
                    let url = folder.appendingPathComponent("notes.jsonl")
                    try Data(("{\"title\":\"first\"}\n" + json + "\n").utf8).write(to: url)
                    var models: [T] = []
                    try JSONLines.forEachModel(T.self, contentsOf: url) { models.append($0) }
                    return models[1]
                }
            case .xmlPropertyList:
                return try T(propertyList: value.propertyListData(format: .xml))
            case .binaryPropertyList:
                return try T(propertyList: value.propertyListData(format: .binary))
            case .propertyListFile:
                return try withTemporaryFolder { folder in
                    let url = folder.appendingPathComponent("note.plist")
                    try value.propertyListData(format: .xml).write(to: url)
                    return try T(contentsOf: url)
                }
            case .dictionaryDirect:
                return try T(dictionary: PropertyListBridge.dictionary(from: members))
            case .dictionaryModelValue:
                let object = T()
                let pending = try object.decodePendingDictionary(PropertyListBridge.dictionary(from: members))
                object.apply(pending, recordingChanges: false, replacingBag: true)
                return object
            case .modelValue:
                return try T(modelValue: value)
            case .codableJSONDecoder:
                return try JSONDecoder().decode(T.self, from: data)
            case .codableModelJSONDecoder:
                return try ModelJSONDecoder().decode(T.self, from: data)
            case .updateFromDictionary:
                let object = T()
                try object.update(from: PropertyListBridge.dictionary(from: members))
                return object
            case .updateFromModelValue:
                let object = T()
                try object.update(from: value)
                return object
            case .defaults:
                return try withTemporaryFolder { folder in
                    let store = try ModelDefaults(
                        url: folder.appendingPathComponent("prefs.plist"), autosaveDelay: nil, watchInterval: nil)
                    store.set(value, forKey: "note")
                    guard let model = try store.model(T.self, forKey: "note") else { throw ModelError.invalidValue("none") }
                    return model
                }
            }
        }

        /// The sentence of the error loading `document` as a `RejectingNote` gives.
        var rejection: String {
            let inOrder = UnknownKeyPolicyTests.rejection
            let sorted = UnknownKeyPolicyTests.sortedRejection
            let located = "JSON at line 1, column 14 (byte 13), in titel: " + inOrder
            switch self {
            case .jsonDirect: return located
            case .jsonFile: return "note.json, " + located
            case .jsonLines: return "notes.jsonl, JSON Lines at line 2, column 14 (byte 31), in titel: " + inOrder
            case .jsonModelValue, .modelValue, .updateFromModelValue: return "titel: " + inOrder
            case .xmlPropertyList, .binaryPropertyList: return "titel: " + inOrder
            case .propertyListFile: return "note.plist, in titel: " + inOrder
            case .dictionaryDirect, .dictionaryModelValue, .updateFromDictionary: return "extra: " + sorted
            case .codableJSONDecoder, .codableModelJSONDecoder: return "extra: " + sorted
            case .defaults:
                return #"prefs.plist, in note.titel: unknown key "titel", and 1 more (note.extra): "#
                    + "RejectingNote saves title, count, part"
            }
        }

        /// Whether the data keeps its members' order, so the bag does too.
        var keepsOrder: Bool {
            switch self {
            case .dictionaryDirect, .dictionaryModelValue, .updateFromDictionary, .codableJSONDecoder,
                .codableModelJSONDecoder:
                false
            default: true
            }
        }
    }

    @Test(arguments: Way.allCases)
    func keepIsTheDefaultAndKeepsUnknownKeysInTheBag(way: Way) throws {
        #expect(PolicyNote.unknownKeys == .keep)
        let note = try way.load(PolicyNote.self, Self.document)
        #expect(note.title == "A" && note.count == 2)
        #expect(note.extensibleProperties == ["titel": "x", "extra": ["deep": [1, 2]]])
        #expect(note.part?.extensibleProperties == ["colour": "red"])
        let keys = try note.encodedRoot().keys
        if way.keepsOrder {
            #expect(keys == ["type", "version", "title", "count", "part", "titel", "extra"])
        } else {
            #expect(Set(keys) == ["type", "version", "title", "count", "part", "titel", "extra"])
        }
        #expect(try PolicyNote(json: note.jsonData()).extensibleProperties == note.extensibleProperties)
    }

    @Test(arguments: Way.allCases)
    func ignoreDropsUnknownKeysAndNeverWritesThem(way: Way) throws {
        let note = try way.load(IgnoringNote.self, Self.document)
        #expect(note.title == "A" && note.count == 2)
        #expect(note.extensibleProperties.isEmpty)
        #expect(!note.hasAnyChanges || way == .updateFromDictionary || way == .updateFromModelValue)
        // The nested model follows its own class's policy.
        #expect(note.part?.extensibleProperties == ["colour": "red"])
        #expect(
            try note.jsonString()
                == #"{"type":"IgnoringNote","version":1,"title":"A","count":2,"part":{"type":"PolicyPart","version":1,"name":"p","colour":"red"}}"#
        )
    }

    @Test(arguments: Way.allCases)
    func rejectFailsNamingEveryUnknownKey(way: Way) throws {
        let error = try #require(throws: ModelError.self) { try way.load(RejectingNote.self, Self.document) }
        #expect(error.code == .unknownKey)
        #expect("\(error)" == way.rejection)
        #expect(error.failures.count == 2)
    }

    @Test func aRejectedKeyAloneIsNamedWithTheKeysTheClassSaves() throws {
        let error = try #require(throws: ModelError.self) { try RejectingNote(json: #"{"titel":"x"}"#) }
        #expect(
            "\(error)"
                == #"JSON at line 1, column 2 (byte 1), in titel: unknown key "titel": RejectingNote saves title, count, part"#
        )
        #expect(error.keyPath == ModelKeyPath([.key("titel")]))
        #expect(error.location == ModelError.Location(line: 1, column: 2, byteOffset: 1))
        #expect(error.failures.isEmpty)
    }

    @Test func eachRejectedKeyIsASeparateFailureWithItsPath() throws {
        let error = try #require(throws: ModelError.self) { try RejectingNote(json: Self.document) }
        #expect(
            error.failures.map(\.description) == [
                #"titel: unknown key "titel": RejectingNote saves title, count, part"#,
                #"extra: unknown key "extra": RejectingNote saves title, count, part"#,
            ])
    }

    @Test func metadataAndReferenceKeysAreNeverUnknown() throws {
        let note = try RejectingNote(json: #"{"$id":"1","type":"RejectingNote","version":1,"title":"A"}"#)
        #expect(note.title == "A")
        let escaped = try #require(throws: ModelError.self) { try RejectingNote(json: #"{"$$id":"1"}"#) }
        #expect(
            "\(escaped)"
                == #"JSON at line 1, column 2 (byte 1), in $id: unknown key "$id": RejectingNote saves title, count, part"#
        )
    }

    // MARK: - Nested models

    /// A `Settings` (rejects) holding a `Display` (ignores), `Plugin`s
    /// (reject) and a `PolicyPart` (keeps), pretty-printed.
    static let settings = """
        {
          "title": "T",
          "display": {"width": 3, "depth": 9, "plugin": {"name": "x", "colour": 1}},
          "plugins": [{"name": "a"}, {"name": "b", "enabled": false, "since": 2}],
          "extras": {"name": "e", "kept": true},
          "named": {"one": {"name": "n", "bad": null}},
          "misc": 1
        }
        """

    @Test func nestedModelsFollowTheirOwnPolicyAndEveryRejectedKeyIsNamed() throws {
        let error = try #require(throws: ModelError.self) { try Settings(json: Self.settings) }
        #expect(
            "\(error)"
                == "JSON at line 3, column 63 (byte 80), in display.plugin.colour: unknown key \"colour\", "
                + "and 3 more (plugins[1].since, named.one.bad, misc): Plugin saves name, enabled; "
                + "Settings saves title, display, plugins, extras, named")
        #expect(
            error.failures.map(\.keyPath.description) == [
                "display.plugin.colour", "plugins[1].since", "named.one.bad", "misc",
            ])
    }

    @Test func nestedModelsThatIgnoreOrKeepLoadUnderARejectingParent() throws {
        let json = """
            {"title":"T","display":{"width":3,"depth":9,"plugin":{"name":"x"}},"extras":{"name":"e","kept":true}}
            """
        let settings = try Settings(json: json)
        #expect(settings.display?.width == 3)
        #expect(settings.display?.extensibleProperties.isEmpty == true)
        #expect(settings.extras?.extensibleProperties == ["kept": true])
        #expect(
            try settings.jsonString()
                == #"{"type":"Settings","version":1,"title":"T","display":{"type":"Display","version":1,"width":3,"#
                + #""plugin":{"type":"Plugin","version":1,"name":"x","enabled":true}},"plugins":[],"#
                + #""extras":{"type":"PolicyPart","version":1,"name":"e","kept":true},"named":{}}"#)
        #expect(JSONDirectPathTests.isReadDirectly(Settings.self, Data(json.utf8)))
    }

    @Test func anArrayOfModelsNamesTheUnknownKeysOfEveryElement() throws {
        let error = try #require(throws: ModelError.self) {
            try [Plugin](json: #"[{"name":"a","x":1},{"name":"b"},{"y":2,"name":"c"}]"#)
        }
        #expect(
            "\(error)"
                == #"JSON at line 1, column 14 (byte 13), in [0].x: unknown key "x", and 1 more ([2].y): Plugin saves name, enabled"#
        )
    }

    @Test func anUnknownKeyBeforeAnotherFailureIsReportedFirst() throws {
        let later = try #require(throws: ModelError.self) {
            try RejectingNote(json: #"{"titel":"x","count":"three","extra":1}"#)
        }
        #expect(
            "\(later)"
                == #"JSON at line 1, column 2 (byte 1), in titel: unknown key "titel": RejectingNote saves title, count, part"#
        )
        let earlier = try #require(throws: ModelError.self) {
            try RejectingNote(json: #"{"count":"three","titel":"x"}"#)
        }
        #expect("\(earlier)" == #"count: expected Int, found a string ("three")"#)
    }

    // MARK: - The direct JSON path

    /// Documents whose unknown members the direct path must treat as the
    /// `ModelValue` path does: repeated, escaped, reserved, malformed, deep.
    static let documents: [String] = [
        Self.document,
        #"{"a":1,"b":[{"c":{}}],"title":"B"}"#,
        #"{"a":1,"a":2}"#,
        #"{"t\u0069tel":"x","title":"B"}"#,
        #"{"été":1,"count":3}"#,
        #"{"$$ref":"x","title":"B"}"#,
        #"{"part":{"name":"p","z":1,"z":2}}"#,
        #"{"a":tru}"#,
        #"{"a":true,"b":false,"c":null,"title":"B"}"#,
        #"{"a":nul,"title":"B"}"#,
        #"{"a":falsE}"#,
        #"{"a":truefalse}"#,
        #"{"a":"\ud800"}"#,
        #"{"title":"B","a":[[[[[[[[[[[[1]]]]]]]]]]]]}"#,
        #"{"version":1,"type":"IgnoringNote","other":null}"#,
    ]

    @Test(arguments: documents)
    func directAndModelValuePathsAgreeWhenIgnoring(json: String) throws {
        let data = Data(json.utf8)
        #expect(JSONDirectPathTests.direct(IgnoringNote.self, data) == JSONDirectPathTests.viaModelValue(IgnoringNote.self, data))
        #expect(JSONDirectPathTests.direct(PolicyNote.self, data) == JSONDirectPathTests.viaModelValue(PolicyNote.self, data))
    }

    @Test(arguments: documents)
    func directAndModelValuePathsAgreeWhenRejecting(json: String) throws {
        let data = Data(json.utf8)
        let direct = JSONDirectPathTests.direct(RejectingNote.self, data)
        let viaModelValue = JSONDirectPathTests.viaModelValue(RejectingNote.self, data)
        switch (direct, viaModelValue) {
        case (.failed(let located), .failed(let unlocated)) where located.contains("unknown key"):
            // The same error, with the first key's line and column.
            #expect(located.hasPrefix("JSON at line 1, column "))
            #expect(located.hasSuffix(", in " + unlocated))
        default:
            #expect(direct == viaModelValue)
        }
    }

    @Test func theDirectPathReadsIgnoredMembersByItselfAndLeavesRejectionsToTheModelValuePath() throws {
        let data = Data(Self.document.utf8)
        #expect(JSONDirectPathTests.isReadDirectly(IgnoringNote.self, data))
        #expect(JSONDirectPathTests.isReadDirectly(PolicyNote.self, data))
        #expect(!JSONDirectPathTests.isReadDirectly(RejectingNote.self, data))
        // Without the document's bytes to keep (members read as values), too.
        data.withUnsafeBytes { raw in
            var decoder = JSONModelDecoder(raw.bindMemory(to: UInt8.self), options: JSONReadingOptions(), document: nil)
            let members = try? decoder.decodeRoot(of: IgnoringNote())
            #expect(members?.bag.object.isEmpty == true)
        }
    }

    @Test func dictionaryPathsAgree() throws {
        let dictionary: [String: Any] = ["title": "A", "titel": "x", "part": ["name": "p", "colour": "red"]]
        func expectAgreement<T: PolicyNote>(_ type: T.Type) {
            #expect(
                DictionaryDirectPathTests.direct(T.self, dictionary)
                    == DictionaryDirectPathTests.viaModelValue(T.self, dictionary), "\(T.self)")
        }
        expectAgreement(PolicyNote.self)
        expectAgreement(IgnoringNote.self)
        expectAgreement(RejectingNote.self)
        #expect(DictionaryDirectPathTests.isReadDirectly(IgnoringNote.self, dictionary))
        #expect(!DictionaryDirectPathTests.isReadDirectly(RejectingNote.self, dictionary))
    }

    // MARK: - update(from:), patches

    @Test func aRejectedUpdateChangesNothing() throws {
        let note = RejectingNote()
        note.title = "Before"
        note.clearChanges()
        let error = try #require(throws: ModelError.self) {
            try note.update(from: ["title": "After", "titel": "x"] as [String: Any])
        }
        #expect("\(error)" == #"titel: unknown key "titel": RejectingNote saves title, count, part"#)
        #expect(note.title == "Before" && !note.hasChanges)
    }

    static let patch = #"[{"op":"replace","path":"/title","value":"B"},{"op":"add","path":"/titel","value":"x"}]"#

    @Test func aPatchNamingAnUnknownKeyFollowsThePolicy() throws {
        let kept = PolicyNote()
        try kept.apply(JSONPatch(json: Self.patch))
        #expect(kept.title == "B" && kept.extensibleProperties == ["titel": "x"])
        #expect(kept.changedKeys == ["title", "titel"])

        let ignored = IgnoringNote()
        try ignored.apply(JSONPatch(json: Self.patch))
        #expect(ignored.title == "B" && ignored.extensibleProperties.isEmpty)
        #expect(ignored.changedKeys == ["title"])

        let rejected = RejectingNote()
        let error = try #require(throws: ModelError.self) { try rejected.apply(JSONPatch(json: Self.patch)) }
        #expect(
            "\(error)"
                == #"operation 1 (add /titel): titel: unknown key "titel": RejectingNote saves title, count, part"#)
        #expect(rejected.title == "" && !rejected.hasChanges)
    }

    @Test func aMergePatchNamingAnUnknownKeyFollowsThePolicy() throws {
        let patch = try JSONMergePatch(json: #"{"title":"B","titel":"x"}"#)
        let ignored = IgnoringNote()
        try ignored.apply(patch)
        #expect(ignored.title == "B" && ignored.extensibleProperties.isEmpty)
        let rejected = RejectingNote()
        let error = try #require(throws: ModelError.self) { try rejected.apply(patch) }
        #expect("\(error)" == #"titel: unknown key "titel": RejectingNote saves title, count, part"#)
        #expect(rejected.title == "")
    }

    // MARK: - The bag by hand

    @Test(arguments: [UnknownKeyPolicy.ignore, .reject])
    func aClassThatDoesNotKeepUnknownKeysRefusesExtensiblePropertiesByHand(policy: UnknownKeyPolicy) throws {
        let note: PolicyNote = policy == .ignore ? IgnoringNote() : RejectingNote()
        let name = policy == .ignore ? "IgnoringNote" : "RejectingNote"
        let error = try #require(throws: ModelError.self) { try note.setExtensibleProperty("x", forKey: "titel") }
        #expect(
            "\(error)"
                == "titel: \(name) saves no key \"titel\" and keeps no extensible properties (its unknownKeys is .\(policy))")
        // setValue follows the policy: `.ignore` drops the key, `.reject` refuses it.
        if policy == .ignore {
            try note.setValue("x", forKey: "titel")
        } else {
            #expect(throws: ModelError.self) { try note.setValue("x", forKey: "titel") }
        }
        try note.setExtensibleProperty(nil, forKey: "titel")
        #expect(note.extensibleProperties.isEmpty && !note.hasChanges)
    }

    @Test func aClassThatKeepsUnknownKeysTakesThemByHand() throws {
        let note = PolicyNote()
        try note.setExtensibleProperty("x", forKey: "titel")
        #expect(note.extensibleProperties == ["titel": "x"])
    }

    // MARK: - Schemas

    @Test func onlyARejectingClassHasAClosedSchema() throws {
        /// Whether each class defined in the schema closes its object.
        func closed(_ type: ModelObject.Type) throws -> [String: Bool] {
            guard case .object(let definitions)? = try type.jsonSchema()["$defs"] else { return [:] }
            var result: [String: Bool] = [:]
            for (name, definition) in definitions { result[name] = definition["additionalProperties"] == .bool(false) }
            return result
        }
        #expect(try closed(Settings.self) == ["Settings": true, "Display": false, "Plugin": true, "PolicyPart": false])
        #expect(try closed(RejectingNote.self) == ["RejectingNote": true, "PolicyPart": false])
        #expect(try closed(IgnoringNote.self) == ["IgnoringNote": false, "PolicyPart": false])
        #expect(try closed(PolicyNote.self) == ["PolicyNote": false, "PolicyPart": false])
    }
}
