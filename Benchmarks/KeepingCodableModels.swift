import Foundation

/// Codable classes that do what ModelKit does with a whole twitter document:
/// decode the declared properties and keep every other key (as an any-JSON
/// value), so that encoding writes the document back whole. This is what a
/// careful programmer writes to get ModelKit's extensible properties with
/// Codable.
enum KeepingCodable {
    /// Any JSON value.
    enum AnyJSON: Codable {
        case null
        case bool(Bool)
        case int(Int)
        case double(Double)
        case string(String)
        case array([AnyJSON])
        case object([String: AnyJSON])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let value = try? container.decode(Bool.self) {
                self = .bool(value)
            } else if let value = try? container.decode(Int.self) {
                self = .int(value)
            } else if let value = try? container.decode(Double.self) {
                self = .double(value)
            } else if let value = try? container.decode(String.self) {
                self = .string(value)
            } else if let value = try? container.decode([AnyJSON].self) {
                self = .array(value)
            } else {
                self = .object(try container.decode([String: AnyJSON].self))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .null: try container.encodeNil()
            case .bool(let value): try container.encode(value)
            case .int(let value): try container.encode(value)
            case .double(let value): try container.encode(value)
            case .string(let value): try container.encode(value)
            case .array(let value): try container.encode(value)
            case .object(let value): try container.encode(value)
            }
        }
    }

    /// A key known only at run time.
    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes every key of `container` not in `known` as the rest.
    static func rest(of container: KeyedDecodingContainer<Key>, known: Set<String>) throws -> [String: AnyJSON] {
        var rest: [String: AnyJSON] = [:]
        for key in container.allKeys where !known.contains(key.stringValue) {
            rest[key.stringValue] = try container.decode(AnyJSON.self, forKey: key)
        }
        return rest
    }

    static func encode(_ rest: [String: AnyJSON], into container: inout KeyedEncodingContainer<Key>) throws {
        for (key, value) in rest { try container.encode(value, forKey: Key(key)) }
    }

    final class Search: Codable {
        var statuses: [Status]
        var rest: [String: AnyJSON]

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            statuses = try container.decode([Status].self, forKey: Key("statuses"))
            rest = try KeepingCodable.rest(of: container, known: ["statuses"])
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(statuses, forKey: Key("statuses"))
            try KeepingCodable.encode(rest, into: &container)
        }
    }

    final class Status: Codable {
        static let known: Set<String> = [
            "id", "id_str", "text", "created_at", "source", "truncated", "in_reply_to_status_id",
            "in_reply_to_screen_name", "retweet_count", "favorite_count", "favorited", "retweeted", "lang", "user",
        ]
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
        var rest: [String: AnyJSON]

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            id = try c.decode(Int.self, forKey: Key("id"))
            id_str = try c.decode(String.self, forKey: Key("id_str"))
            text = try c.decode(String.self, forKey: Key("text"))
            created_at = try c.decode(String.self, forKey: Key("created_at"))
            source = try c.decode(String.self, forKey: Key("source"))
            truncated = try c.decode(Bool.self, forKey: Key("truncated"))
            in_reply_to_status_id = try c.decodeIfPresent(Int.self, forKey: Key("in_reply_to_status_id"))
            in_reply_to_screen_name = try c.decodeIfPresent(String.self, forKey: Key("in_reply_to_screen_name"))
            retweet_count = try c.decode(Int.self, forKey: Key("retweet_count"))
            favorite_count = try c.decode(Int.self, forKey: Key("favorite_count"))
            favorited = try c.decode(Bool.self, forKey: Key("favorited"))
            retweeted = try c.decode(Bool.self, forKey: Key("retweeted"))
            lang = try c.decode(String.self, forKey: Key("lang"))
            user = try c.decodeIfPresent(User.self, forKey: Key("user"))
            rest = try KeepingCodable.rest(of: c, known: Status.known)
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(id, forKey: Key("id"))
            try c.encode(id_str, forKey: Key("id_str"))
            try c.encode(text, forKey: Key("text"))
            try c.encode(created_at, forKey: Key("created_at"))
            try c.encode(source, forKey: Key("source"))
            try c.encode(truncated, forKey: Key("truncated"))
            try c.encode(in_reply_to_status_id, forKey: Key("in_reply_to_status_id"))
            try c.encode(in_reply_to_screen_name, forKey: Key("in_reply_to_screen_name"))
            try c.encode(retweet_count, forKey: Key("retweet_count"))
            try c.encode(favorite_count, forKey: Key("favorite_count"))
            try c.encode(favorited, forKey: Key("favorited"))
            try c.encode(retweeted, forKey: Key("retweeted"))
            try c.encode(lang, forKey: Key("lang"))
            try c.encode(user, forKey: Key("user"))
            try KeepingCodable.encode(rest, into: &c)
        }
    }

    final class User: Codable {
        static let known: Set<String> = [
            "id", "id_str", "name", "screen_name", "location", "description", "followers_count", "friends_count",
            "listed_count", "created_at", "favourites_count", "verified", "statuses_count", "lang", "profile_image_url",
        ]
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
        var rest: [String: AnyJSON]

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            id = try c.decode(Int.self, forKey: Key("id"))
            id_str = try c.decode(String.self, forKey: Key("id_str"))
            name = try c.decode(String.self, forKey: Key("name"))
            screen_name = try c.decode(String.self, forKey: Key("screen_name"))
            location = try c.decode(String.self, forKey: Key("location"))
            description = try c.decode(String.self, forKey: Key("description"))
            followers_count = try c.decode(Int.self, forKey: Key("followers_count"))
            friends_count = try c.decode(Int.self, forKey: Key("friends_count"))
            listed_count = try c.decode(Int.self, forKey: Key("listed_count"))
            created_at = try c.decode(String.self, forKey: Key("created_at"))
            favourites_count = try c.decode(Int.self, forKey: Key("favourites_count"))
            verified = try c.decode(Bool.self, forKey: Key("verified"))
            statuses_count = try c.decode(Int.self, forKey: Key("statuses_count"))
            lang = try c.decode(String.self, forKey: Key("lang"))
            profile_image_url = try c.decode(String.self, forKey: Key("profile_image_url"))
            rest = try KeepingCodable.rest(of: c, known: User.known)
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(id, forKey: Key("id"))
            try c.encode(id_str, forKey: Key("id_str"))
            try c.encode(name, forKey: Key("name"))
            try c.encode(screen_name, forKey: Key("screen_name"))
            try c.encode(location, forKey: Key("location"))
            try c.encode(description, forKey: Key("description"))
            try c.encode(followers_count, forKey: Key("followers_count"))
            try c.encode(friends_count, forKey: Key("friends_count"))
            try c.encode(listed_count, forKey: Key("listed_count"))
            try c.encode(created_at, forKey: Key("created_at"))
            try c.encode(favourites_count, forKey: Key("favourites_count"))
            try c.encode(verified, forKey: Key("verified"))
            try c.encode(statuses_count, forKey: Key("statuses_count"))
            try c.encode(lang, forKey: Key("lang"))
            try c.encode(profile_image_url, forKey: Key("profile_image_url"))
            try KeepingCodable.encode(rest, into: &c)
        }
    }
}
