import Foundation
import ModelKit

/// Typed decoding and encoding of the document that msgspec's benchmark
/// reads (`../shared/declared-twitter.py` makes it: twitter's statuses
/// reduced to the 10 + 8 keys below, repeated to 5,000 statuses), into model
/// classes and `Codable` structs of exactly msgspec's shapes, so that the
/// times compare with `python3 ../shared/msgspec-bench.py` on the same file.
/// The file is read from `$MODELKIT_DECLARED_TWITTER`, else
/// `.build/declared-twitter.json`; the rows are skipped when it is absent.
enum TypedPeerBenchmarks {
    final class DSearch: ModelObject, @unchecked Sendable {
        @Saved var statuses: [DStatus] = []
    }

    final class DStatus: ModelObject, @unchecked Sendable {
        @Saved var id = 0
        @Saved var text = ""
        @Saved var created_at = ""
        @Saved var source = ""
        @Saved var in_reply_to_status_id: Int? = nil
        @Saved var retweet_count = 0
        @Saved var favorite_count = 0
        @Saved var favorited = false
        @Saved var lang = ""
        @Saved var user = DUser()
    }

    final class DUser: ModelObject, @unchecked Sendable {
        @Saved var id = 0
        @Saved var name = ""
        @Saved var screen_name = ""
        @Saved var location = ""
        @Saved var followers_count = 0
        @Saved var friends_count = 0
        @Saved var verified = false
        @Saved var lang = ""
    }

    struct CSearch: Codable { var statuses: [CStatus] }
    struct CStatus: Codable {
        var id: Int
        var text: String
        var created_at: String
        var source: String
        var in_reply_to_status_id: Int?
        var retweet_count: Int
        var favorite_count: Int
        var favorited: Bool
        var lang: String
        var user: CUser
    }
    struct CUser: Codable {
        var id: Int
        var name: String
        var screen_name: String
        var location: String
        var followers_count: Int
        var friends_count: Int
        var verified: Bool
        var lang: String
    }

    static func run() {
        let decodeRow = "typed decode, msgspec's declared twitter document"
        let encodeRow = "typed encode, msgspec's declared twitter document"
        guard Harness.wants(decodeRow) || Harness.wants(encodeRow) else { return }
        let path = ProcessInfo.processInfo.environment["MODELKIT_DECLARED_TWITTER"] ?? ".build/declared-twitter.json"
        guard let data = FileManager.default.contents(atPath: path) else {
            print("| \(decodeRow) | skipped: no \(path) (python3 ../shared/declared-twitter.py ../shared/corpus/twitter.json \(path)) |")
            return
        }
        guard let models = try? DSearch(json: data), let structs = try? JSONDecoder().decode(CSearch.self, from: data),
            models.statuses.count == structs.statuses.count
        else {
            print("| \(decodeRow) | skipped: \(path) does not read as the declared shapes |")
            return
        }
        Harness.compare(decodeRow, bytes: data.count, rounds: 5, [
            .init(label: "JSONDecoder") { n in
                for _ in 0..<n { blackHole(try? JSONDecoder().decode(CSearch.self, from: data)) }
            },
            .init(label: "DSearch(json:)") { n in
                for _ in 0..<n { blackHole(try? DSearch(json: data)) }
            },
            .init(label: "ModelJSONDecoder") { n in
                for _ in 0..<n { blackHole(try? ModelJSONDecoder().decode(CSearch.self, from: data)) }
            },
        ])
        Harness.compare(encodeRow, bytes: data.count, rounds: 5, [
            .init(label: "JSONEncoder") { n in
                for _ in 0..<n { blackHole(try? JSONEncoder().encode(structs)) }
            },
            .init(label: "jsonData()") { n in
                for _ in 0..<n { blackHole(try? models.jsonData()) }
            },
            .init(label: "ModelJSONEncoder") { n in
                for _ in 0..<n { blackHole(try? ModelJSONEncoder().encode(structs)) }
            },
        ])
    }
}
