import Foundation
import ModelKit

/// `ModelJSONDecoder` and `ModelJSONEncoder` against Foundation's
/// `JSONDecoder` and `JSONEncoder` on the same `Codable` structs, with the
/// `ModelObject` subclasses declaring the same keys alongside.
enum CodableJSONBenchmarks {
    struct Search: Codable, Equatable {
        var statuses: [Status]
    }

    /// 14 declared keys: a nested user, optionals.
    struct Status: Codable, Equatable {
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
        var user: User?
    }

    /// 15 declared keys.
    struct User: Codable, Equatable {
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

    /// 11 declared keys including arrays (hashtags, mentions, URLs) and a nested struct.
    struct EntityStatus: Codable, Equatable {
        struct Entities: Codable, Equatable {
            struct Hashtag: Codable, Equatable {
                var text: String
                var indices: [Int]
            }
            struct Mention: Codable, Equatable {
                var screen_name: String
                var id: Int
                var indices: [Int]
            }
            var hashtags: [Hashtag]
            var user_mentions: [Mention]
        }
        struct Author: Codable, Equatable {
            var id: Int
            var screen_name: String
            var followers_count: Int
            var verified: Bool
        }
        var id: Int
        var text: String
        var created_at: String
        var retweet_count: Int
        var favorite_count: Int
        var in_reply_to_status_id: Int?
        var metadata: [String: String]
        var lang: String
        var entities: Entities
        var user: Author
        var possibly_sensitive: Bool?
    }

    struct EntitySearch: Codable, Equatable {
        var statuses: [EntityStatus]
    }

    struct Point: Codable { var x = 1.5; var y = 2; var label = "a/b"; var tags = ["p", "q"]; var none: Int? = nil }

    static func run() {
        print("## Codable JSON")
        if Harness.wants("codable encode, one small struct") {
            var sorted = ModelJSONEncoder()
            // The keys are in order already: the same text, written through the tree.
            sorted.outputFormatting = .sortedKeys
            let point = Point()
            Harness.compare(
                "codable encode, one small struct",
                [
                    Harness.Variant(label: "JSONEncoder") { iterations in
                        for _ in 0..<iterations { blackHole(try? JSONEncoder().encode(point)) }
                    },
                    Harness.Variant(label: "ModelJSONEncoder, sorted keys (tree)") { iterations in
                        for _ in 0..<iterations { blackHole(try? sorted.encode(point)) }
                    },
                    Harness.Variant(label: "ModelJSONEncoder") { iterations in
                        for _ in 0..<iterations { blackHole(try? ModelJSONEncoder().encode(point)) }
                    },
                ])
        }
        guard let data = twitter() else {
            print("| codable | skipped: ../shared/corpus/twitter.json not found |")
            return
        }
        compare("twitter statuses, 14 and 15 declared keys", data: data, Search.self, model: JSONBenchmarks.TwitterSearch.self)
        compare("twitter statuses, arrays and nested structs", data: data, EntitySearch.self, model: nil)
        print("")
    }

    private static func compare<Value: Codable & Equatable>(
        _ name: String, data: Data, _ type: Value.Type, model: JSONBenchmarks.TwitterSearch.Type?
    ) {
        // Both sides must give the same values before they are timed.
        guard let value = try? JSONDecoder().decode(type, from: data),
            (try? ModelJSONDecoder().decode(type, from: data)) == value,
            let written = try? ModelJSONEncoder().encode(value), (try? JSONDecoder().decode(type, from: written)) == value
        else {
            print("| \(name) | skipped: the coders disagree on the document |")
            return
        }
        var decodeVariants = [
            Harness.Variant(label: "JSONDecoder") { iterations in
                for _ in 0..<iterations { blackHole(try? JSONDecoder().decode(type, from: data)) }
            },
            Harness.Variant(label: "ModelJSONDecoder") { iterations in
                for _ in 0..<iterations { blackHole(try? ModelJSONDecoder().decode(type, from: data)) }
            },
        ]
        if let model {
            decodeVariants.append(
                Harness.Variant(label: "ModelObject(json:)") { iterations in
                    for _ in 0..<iterations { blackHole(try? model.init(json: data)) }
                })
        }
        Harness.compare("codable decode \(name)", bytes: data.count, decodeVariants)
        Harness.compare(
            "codable encode \(name)",
            [
                Harness.Variant(label: "JSONEncoder") { iterations in
                    for _ in 0..<iterations { blackHole(try? JSONEncoder().encode(value)) }
                },
                Harness.Variant(label: "ModelJSONEncoder") { iterations in
                    for _ in 0..<iterations { blackHole(try? ModelJSONEncoder().encode(value)) }
                },
            ])
    }

    private static func twitter() -> Data? {
        let roots = [
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent(),
        ]
        for root in roots {
            let url = root.appendingPathComponent("../shared/corpus/twitter.json").standardizedFileURL
            if let data = try? Data(contentsOf: url) { return data }
        }
        return nil
    }
}
