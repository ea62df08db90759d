import Foundation
import ModelKit

/// Typed decoding and encoding of the document that msgspec's benchmark
/// reads (`../shared/declared-twitter.py` makes it: twitter's statuses
/// reduced to the 10 + 8 keys below, repeated to 5,000 statuses), into model
/// classes and `Codable` structs of exactly msgspec's shapes, so that the
/// times compare with `python3 ../shared/msgspec-bench.py` on the same file.
/// The file is read from `$MODELKIT_DECLARED_TWITTER`, else
/// `.build/declared-twitter.json`; the rows are skipped when it is absent.
///
/// The model classes declare no type or version key (`typeKey` and
/// `versionKey` `nil`), as an app writing a plain API document would, so
/// that both sides write the same bytes: msgspec's encoder gives back the
/// declared document byte for byte, and the rows print whether ModelKit's
/// writers do too.
enum TypedPeerBenchmarks {
    /// A model that writes its members only: no type or version key.
    class PlainModel: ModelObject, @unchecked Sendable {
        override class var typeKey: String? { nil }
        override class var versionKey: String? { nil }
    }

    /// A plain model that drops the keys it does not declare.
    class IgnoringPlainModel: PlainModel, @unchecked Sendable {
        override class var unknownKeys: UnknownKeyPolicy { .ignore }
    }

    final class DSearch: PlainModel, @unchecked Sendable {
        @Saved var statuses: [DStatus] = []
    }

    final class DStatus: PlainModel, @unchecked Sendable {
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

    final class DUser: PlainModel, @unchecked Sendable {
        @Saved var id = 0
        @Saved var name = ""
        @Saved var screen_name = ""
        @Saved var location = ""
        @Saved var followers_count = 0
        @Saved var friends_count = 0
        @Saved var verified = false
        @Saved var lang = ""
    }

    /// The classes above with `unknownKeys` `.ignore`, for the whole
    /// twitter.json, whose other keys msgspec's `Struct`s skip too.
    final class ISearch: IgnoringPlainModel, @unchecked Sendable {
        @Saved var statuses: [IStatus] = []
    }

    final class IStatus: IgnoringPlainModel, @unchecked Sendable {
        @Saved var id = 0
        @Saved var text = ""
        @Saved var created_at = ""
        @Saved var source = ""
        @Saved var in_reply_to_status_id: Int? = nil
        @Saved var retweet_count = 0
        @Saved var favorite_count = 0
        @Saved var favorited = false
        @Saved var lang = ""
        @Saved var user = IUser()
    }

    final class IUser: IgnoringPlainModel, @unchecked Sendable {
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

    /// twitter.json's statuses with only the keys the shapes declare (as
    /// `../shared/declared-twitter.py` makes them, without its repetition):
    /// the instruction check's typed rows.
    static func declaredDocument(_ twitter: Data) -> Data? {
        guard let search = try? ISearch(json: twitter), !search.statuses.isEmpty else { return nil }
        let declared = DSearch()
        declared.statuses = search.statuses.map { status in
            let copy = DStatus()
            copy.id = status.id
            copy.text = status.text
            copy.created_at = status.created_at
            copy.source = status.source
            copy.in_reply_to_status_id = status.in_reply_to_status_id
            copy.retweet_count = status.retweet_count
            copy.favorite_count = status.favorite_count
            copy.favorited = status.favorited
            copy.lang = status.lang
            copy.user.id = status.user.id
            copy.user.name = status.user.name
            copy.user.screen_name = status.user.screen_name
            copy.user.location = status.user.location
            copy.user.followers_count = status.user.followers_count
            copy.user.friends_count = status.user.friends_count
            copy.user.verified = status.user.verified
            copy.user.lang = status.user.lang
            return copy
        }
        return try? declared.jsonData()
    }

    static func run() {
        runDeclared()
        runWholeTwitter()
        runShapes()
    }

    /// The whole of twitter.json into the same shapes, dropping every other
    /// key: `python3 ../shared/msgspec-bench.py ../shared/corpus/twitter.json`
    /// is msgspec's side.
    private static func runWholeTwitter() {
        let decodeRow = "typed decode, twitter.json, other keys ignored"
        let encodeRow = "typed encode, twitter.json read with other keys ignored"
        let lenientRow = "typed decode, twitter.json, other keys ignored: repeated keys refused (default) or the last wins"
        guard Harness.wants(decodeRow) || Harness.wants(encodeRow) || Harness.wants(lenientRow) else { return }
        guard let data = Corpus.document("twitter") else {
            print("| \(decodeRow) | skipped: ../shared/corpus/twitter.json not found |")
            return
        }
        guard let models = try? ISearch(json: data), let structs = try? JSONDecoder().decode(CSearch.self, from: data),
            models.statuses.map(\.id) == structs.statuses.map(\.id),
            models.statuses.allSatisfy({ $0.extensibleProperties.isEmpty && $0.user.extensibleProperties.isEmpty })
        else {
            print("| \(decodeRow) | skipped: twitter.json does not read as the declared shapes |")
            return
        }
        compare(decodeRow, encodeRow, data: data, models: models, structs: structs)
        // What refusing repeated keys costs in the members skipped: msgspec
        // lets the last of them win (and does not check the UTF-8 of what it
        // skips); ModelKit refuses both by default.
        guard Harness.wants(lenientRow) else { return }
        let lenient = JSONReadingOptions(duplicateKeys: .lastWins)
        Harness.compare(lenientRow, bytes: data.count, rounds: 5, [
            .init(label: "ISearch(json:)") { n in
                for _ in 0..<n { blackHole(try? ISearch(json: data)) }
            },
            .init(label: "ISearch(json:options:) .lastWins") { n in
                for _ in 0..<n { blackHole(try? ISearch(json: data, options: lenient)) }
            },
        ])
    }

    /// msgspec's declared-keys document.
    private static func runDeclared() {
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
        if Harness.profileIterations == nil {
            // msgspec's encoder writes the document back byte for byte.
            let modelBytes = (try? models.jsonData()) == data
            // Synthesized `Codable` leaves out a nil optional (`encodeIfPresent`).
            let withoutNulls = Data(
                String(decoding: data, as: UTF8.self).replacingOccurrences(of: #""in_reply_to_status_id":null,"#, with: "")
                    .utf8)
            // And, as Foundation does by default, writes `/` as `\/`.
            var encoder = ModelJSONEncoder()
            encoder.outputFormatting = .withoutEscapingSlashes
            let structBytes = try? encoder.encode(structs)
            let structVerdict =
                structBytes == data
                ? "yes"
                : structBytes == withoutNulls
                    ? "yes with .withoutEscapingSlashes, but for the nil optionals, which synthesized Codable leaves out"
                    : "no"
            print("| \(encodeRow): output | jsonData() writes the document byte for byte: \(modelBytes ? "yes" : "no"); "
                + "ModelJSONEncoder: \(structVerdict) |")
        }
        compare(decodeRow, encodeRow, data: data, models: models, structs: structs)
    }

    /// Typed decode and encode rows: `JSONDecoder`/`JSONEncoder` (the
    /// baseline), models of class `M`, and `ModelJSONDecoder`/`ModelJSONEncoder`.
    private static func compare<M: ModelObject>(
        _ decodeRow: String, _ encodeRow: String, data: Data, models: M, structs: CSearch
    ) {
        Harness.compare(decodeRow, bytes: data.count, rounds: 5, [
            .init(label: "JSONDecoder") { n in
                for _ in 0..<n { blackHole(try? JSONDecoder().decode(CSearch.self, from: data)) }
            },
            .init(label: "\(M.self)(json:)") { n in
                for _ in 0..<n { blackHole(try? M(json: data)) }
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
        // The floor of any encoder built on the `Encodable` protocols: the
        // same calls, into containers that keep nothing.
        Harness.compare("\(encodeRow): the Encodable protocols alone", bytes: data.count, rounds: 5, [
            .init(label: "ModelJSONEncoder") { n in
                for _ in 0..<n { blackHole(try? ModelJSONEncoder().encode(structs)) }
            },
            .init(label: "a null Encoder") { n in
                for _ in 0..<n { blackHole(NullEncoder.encode(structs)) }
            },
        ])
    }
}
