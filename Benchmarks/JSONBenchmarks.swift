import Foundation
import ModelKit

/// ModelKit's JSON codec against Foundation's `JSONSerialization`, on the
/// standard corpus (when `../shared/corpus` is present) and on a generated
/// document.
enum JSONBenchmarks {
    static func run() {
        print("## JSON")
        // First, before other runs leave freed memory in the allocator for it to reuse.
        measureParsingMemory()
        for name in ["twitter", "citm_catalog", "canada"] {
            guard let data = corpus(name) else {
                print("| \(name) | skipped: ../shared/corpus/\(name).json not found |")
                continue
            }
            compare(name, data: data)
        }
        compare("generated", data: generatedDocument())
        compareModels()
        print("")
    }

    /// Parse and write rows for one document.
    private static func compare(_ name: String, data: Data) {
        guard ["parse", "validate", "write"].contains(where: { Harness.wants("\($0) \(name)") }) else { return }
        guard let value = try? ModelValue(json: data), let object = try? JSONSerialization.jsonObject(with: data)
        else {
            print("| \(name) | skipped: not readable |")
            return
        }
        Harness.compare(
            "parse \(name)", bytes: data.count,
            [
                Harness.Variant(label: "JSONSerialization") { iterations in
                    for _ in 0..<iterations { blackHole(try? JSONSerialization.jsonObject(with: data)) }
                },
                Harness.Variant(label: "ModelValue(json:)") { iterations in
                    for _ in 0..<iterations { blackHole(try? ModelValue(json: data)) }
                },
            ])
        // Validating without building: what keeping an unknown member as its bytes costs.
        Harness.compare(
            "validate \(name)", bytes: data.count,
            [
                Harness.Variant(label: "JSONSerialization") { iterations in
                    for _ in 0..<iterations { blackHole(try? JSONSerialization.jsonObject(with: data)) }
                },
                Harness.Variant(label: "validateJSON") { iterations in
                    for _ in 0..<iterations { blackHole((try? ModelValue.validateJSON(data)) != nil) }
                },
            ])
        Harness.compare(
            "write \(name)", bytes: data.count,
            [
                Harness.Variant(label: "JSONSerialization") { iterations in
                    for _ in 0..<iterations { blackHole(try? JSONSerialization.data(withJSONObject: object)) }
                },
                Harness.Variant(label: "jsonData()") { iterations in
                    for _ in 0..<iterations { blackHole(try? value.jsonData()) }
                },
            ])
    }

    /// Peak memory while parsing canada.json, the corpus document with the
    /// most values per byte, for ModelKit and for Foundation.
    ///
    /// Freed memory that earlier rows leave in the allocator would hide the
    /// growth, so unless this process was started for this row alone
    /// (`Benchmarks memory`), it measures in fresh copies of itself: once
    /// after parsing a small document of the same kinds of values with
    /// each parser (so that what the first parse in a process costs once,
    /// the code pages it faults in and the runtime's first-use tables, is
    /// not counted as the parse's memory), and once without (`memory-cold`).
    private static func measureParsingMemory() {
        let alone = Harness.filter?.lowercased()
        guard alone == "memory-cold" || Harness.wants("memory"), let data = corpus("canada") else { return }
        guard alone == "memory" || alone == "memory-cold" else {
            measureInChildProcess("memory")
            measureInChildProcess("memory-cold")
            return
        }
        let warm = alone == "memory"
        if warm {
            let small = Data(
                (#"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"Canada"},"#
                    + #""geometry":{"type":"Polygon","coordinates":[[[-65.613616999999977,43.420273000000009],"#
                    + #"[-65.619720000000029,43.418052999999986]]]}}]}"#).utf8)
            blackHole(try? ModelValue(json: small))
            blackHole(try? JSONSerialization.jsonObject(with: small))
        }
        func peakGrowth(_ parse: () -> Any?) -> Int? {
            Harness.resetPeakResidentBytes()
            guard let before = Harness.residentBytes() else { return nil }
            let value = parse()
            defer { blackHole(value) }
            return Harness.peakResidentBytes().map { $0 - before }
        }
        let file = Double(data.count)
        guard let modelKit = peakGrowth({ try? ModelValue(json: data) }),
            let foundation = peakGrowth({ try? JSONSerialization.jsonObject(with: data) })
        else { return }
        print(
            String(
                format: "| memory: parse canada (%.1f MB), %@ | peak growth: ModelValue(json:) %.1f MB (%.2fx the file), "
                    + "JSONSerialization %.1f MB (%.2fx) |",
                file / 1e6, warm ? "after a small parse" : "first parse in the process", Double(modelKit) / 1e6,
                Double(modelKit) / file, Double(foundation) / 1e6, Double(foundation) / file))
    }

    /// Runs `Benchmarks <row>` (`memory` or `memory-cold`) in a new process and prints its row.
    private static func measureInChildProcess(_ row: String) {
        Harness.printFromFreshProcess(row, linesStartingWith: "| memory:")
    }

    private static func corpus(_ name: String) -> Data? { Corpus.document(name) }

    /// About 1.5 MB of records in the shape apps save: strings that need
    /// escapes, integers, doubles, booleans, nulls, nested arrays and objects.
    private static func generatedDocument() -> Data {
        var records: [ModelValue] = []
        var state: UInt64 = 12_345
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11
        }
        for index in 0..<6_000 {
            let record: ModelValue = [
                "id": .int(index),
                "title": .string("Note \(index): \"quoted\" text with a tab\tand ünïcödé"),
                "count": .int(Int(next() % 100_000)),
                "ratio": .double(Double(next() % 1_000_000) / 997),
                "done": .bool(index % 3 == 0),
                "due": index % 5 == 0 ? .null : .string("2025-11-\(10 + index % 18)T09:30:00Z"),
                "tags": ["home", "work", .string("tag\(next() % 50)")],
                "child": ["x": .double(Double(index) * 0.25), "y": .int(-index), "label": "nested"],
            ]
            records.append(record)
        }
        return (try? ModelValue.array(records).jsonData()) ?? Data()
    }

    // MARK: - Models: twitter statuses into ModelObject subclasses and Codable classes

    final class TwitterSearch: ModelObject, @unchecked Sendable {
        @Saved var statuses: [TwitterStatus] = []
    }

    final class TwitterStatus: ModelObject, @unchecked Sendable {
        @Saved var id = 0
        @Saved var id_str = ""
        @Saved var text = ""
        @Saved var created_at = ""
        @Saved var source = ""
        @Saved var truncated = false
        @Saved var in_reply_to_status_id: Int? = nil
        @Saved var in_reply_to_screen_name: String? = nil
        @Saved var retweet_count = 0
        @Saved var favorite_count = 0
        @Saved var favorited = false
        @Saved var retweeted = false
        @Saved var lang = ""
        @Saved var user: TwitterUser? = nil
    }

    final class TwitterUser: ModelObject, @unchecked Sendable {
        @Saved var id = 0
        @Saved var id_str = ""
        @Saved var name = ""
        @Saved var screen_name = ""
        @Saved var location = ""
        @Saved("description") var bio = ""
        @Saved var followers_count = 0
        @Saved var friends_count = 0
        @Saved var listed_count = 0
        @Saved var created_at = ""
        @Saved var favourites_count = 0
        @Saved var verified = false
        @Saved var statuses_count = 0
        @Saved var lang = ""
        @Saved var profile_image_url = ""
    }

    /// The classes above, dropping the keys they do not declare
    /// (`unknownKeys` `.ignore`) instead of keeping them.
    final class IgnoringTwitterSearch: ModelObject, @unchecked Sendable {
        override class var unknownKeys: UnknownKeyPolicy { .ignore }
        @Saved var statuses: [IgnoringTwitterStatus] = []
    }

    final class IgnoringTwitterStatus: ModelObject, @unchecked Sendable {
        override class var unknownKeys: UnknownKeyPolicy { .ignore }
        @Saved var id = 0
        @Saved var id_str = ""
        @Saved var text = ""
        @Saved var created_at = ""
        @Saved var source = ""
        @Saved var truncated = false
        @Saved var in_reply_to_status_id: Int? = nil
        @Saved var in_reply_to_screen_name: String? = nil
        @Saved var retweet_count = 0
        @Saved var favorite_count = 0
        @Saved var favorited = false
        @Saved var retweeted = false
        @Saved var lang = ""
        @Saved var user: IgnoringTwitterUser? = nil
    }

    final class IgnoringTwitterUser: ModelObject, @unchecked Sendable {
        override class var unknownKeys: UnknownKeyPolicy { .ignore }
        @Saved var id = 0
        @Saved var id_str = ""
        @Saved var name = ""
        @Saved var screen_name = ""
        @Saved var location = ""
        @Saved("description") var bio = ""
        @Saved var followers_count = 0
        @Saved var friends_count = 0
        @Saved var listed_count = 0
        @Saved var created_at = ""
        @Saved var favourites_count = 0
        @Saved var verified = false
        @Saved var statuses_count = 0
        @Saved var lang = ""
        @Saved var profile_image_url = ""
    }

    /// Classes declaring 8 (status) and 9 (user) keys; ModelKit keeps the rest.
    final class SlimSearch: ModelObject, @unchecked Sendable {
        @Saved var statuses: [SlimStatus] = []
    }

    final class SlimStatus: ModelObject, @unchecked Sendable {
        @Saved var id = 0
        @Saved var id_str = ""
        @Saved var text = ""
        @Saved var created_at = ""
        @Saved var retweet_count = 0
        @Saved var favorite_count = 0
        @Saved var lang = ""
        @Saved var user: SlimUser? = nil
    }

    final class SlimUser: ModelObject, @unchecked Sendable {
        @Saved var id = 0
        @Saved var name = ""
        @Saved var screen_name = ""
        @Saved var location = ""
        @Saved var followers_count = 0
        @Saved var friends_count = 0
        @Saved var created_at = ""
        @Saved var verified = false
        @Saved var lang = ""
    }

    final class SlimCodableSearch: Codable {
        var statuses: [SlimCodableStatus]
    }

    final class SlimCodableStatus: Codable {
        var id: Int
        var id_str: String
        var text: String
        var created_at: String
        var retweet_count: Int
        var favorite_count: Int
        var lang: String
        var user: SlimCodableUser?
    }

    final class SlimCodableUser: Codable {
        var id: Int
        var name: String
        var screen_name: String
        var location: String
        var followers_count: Int
        var friends_count: Int
        var created_at: String
        var verified: Bool
        var lang: String
    }

    final class CodableSearch: Codable {
        var statuses: [CodableStatus]
    }

    final class CodableStatus: Codable {
        var id: Int
        var id_str: String
        var text: String
        var created_at: String
        var source: String
        var truncated: Bool
        var in_reply_to_status_id: Int?
        var in_reply_to_screen_name: String?
        var retweet_count: Int
        var favorite_count: Int
        var favorited: Bool
        var retweeted: Bool
        var lang: String
        var user: CodableUser?
    }

    final class CodableUser: Codable {
        var id: Int
        var id_str: String
        var name: String
        var screen_name: String
        var location: String
        var description: String
        var followers_count: Int
        var friends_count: Int
        var listed_count: Int
        var created_at: String
        var favourites_count: Int
        var verified: Bool
        var statuses_count: Int
        var lang: String
        var profile_image_url: String
    }

    /// Decoding and encoding whole models. ModelKit also keeps every key the
    /// classes do not declare (in each object's extensible properties) and
    /// writes them back; Codable drops them.
    private static func compareModels() {
        guard let data = corpus("twitter") else {
            print("| models | skipped: ../shared/corpus/twitter.json not found |")
            return
        }
        let search: TwitterSearch
        let codable: CodableSearch
        do {
            search = try TwitterSearch(json: data)
            codable = try JSONDecoder().decode(CodableSearch.self, from: data)
        } catch {
            print("| models | skipped: \(error) |")
            return
        }
        compareModels("twitter models, whole document", data: data, search: search, codable: codable)
        compareUnknownKeyPolicies(data: data)
        compareKeepingModels(data: data, search: search)
        if let slim = try? SlimSearch(json: data), let slimCodable = try? JSONDecoder().decode(SlimCodableSearch.self, from: data) {
            compareModels(
                "twitter models, 8 to 10 declared keys, every other key kept", data: data, search: slim,
                codable: slimCodable)
        }
        // The same statuses with only the declared keys, as JSONEncoder writes
        // them, so that both sides read and write the same members.
        guard let declared = try? JSONEncoder().encode(codable), let declaredSearch = try? TwitterSearch(json: declared)
        else { return }
        compareModels("twitter models, declared keys only", data: declared, search: declaredSearch, codable: codable)
    }

    /// The whole document into the twitter classes that keep the keys they do
    /// not declare (the default) and into the same classes dropping them
    /// (`.ignore`: the direct path checks those members and builds nothing).
    private static func compareUnknownKeyPolicies(data: Data) {
        let name = "decode twitter models, whole document, unknown keys ignored vs kept"
        guard Harness.wants(name) else { return }
        guard let ignoring = try? IgnoringTwitterSearch(json: data), let keeping = try? TwitterSearch(json: data),
            ignoring.statuses.map(\.id) == keeping.statuses.map(\.id),
            ignoring.statuses.allSatisfy({ $0.extensibleProperties.isEmpty && $0.user?.extensibleProperties.isEmpty != false })
        else {
            print("| \(name) | skipped: the ignoring classes do not read the document as the keeping ones do |")
            return
        }
        Harness.compare(
            name, bytes: data.count,
            [
                Harness.Variant(label: ".keep") { iterations in
                    for _ in 0..<iterations { blackHole(try? TwitterSearch(json: data)) }
                },
                Harness.Variant(label: ".ignore") { iterations in
                    for _ in 0..<iterations { blackHole(try? IgnoringTwitterSearch(json: data)) }
                },
            ])
    }

    /// The whole document against Codable classes that also keep every key
    /// they do not declare (`KeepingCodable`), so that both sides do the same work.
    private static func compareKeepingModels(data: Data, search: TwitterSearch) {
        let name = "twitter models, whole document, Codable keeping every key too"
        guard Harness.wants("decode \(name)") || Harness.wants("encode \(name)") else { return }
        guard let keeping = try? JSONDecoder().decode(KeepingCodable.Search.self, from: data),
            let written = try? JSONEncoder().encode(keeping),
            let original = try? ModelValue(json: data), (try? ModelValue(json: written)) == original
        else {
            print("| \(name) | skipped: the Codable classes do not write the document back whole |")
            return
        }
        compareModels(name, data: data, search: search, codable: keeping)
    }

    /// Decode and encode rows for one document: `Codable` classes `C` against
    /// the ModelKit classes.
    private static func compareModels<M: ModelObject, C: Codable>(_ name: String, data: Data, search: M, codable: C) {
        Harness.compare(
            "decode \(name)", bytes: data.count,
            [
                Harness.Variant(label: "JSONDecoder") { iterations in
                    for _ in 0..<iterations { blackHole(try? JSONDecoder().decode(C.self, from: data)) }
                },
                Harness.Variant(label: "ModelObject(json:)") { iterations in
                    for _ in 0..<iterations { blackHole(try? M(json: data)) }
                },
            ])
        Harness.compare(
            "encode \(name)", bytes: data.count,
            [
                Harness.Variant(label: "JSONEncoder") { iterations in
                    for _ in 0..<iterations { blackHole(try? JSONEncoder().encode(codable)) }
                },
                Harness.Variant(label: "jsonData()") { iterations in
                    for _ in 0..<iterations { blackHole(try? search.jsonData()) }
                },
            ])
    }
}
