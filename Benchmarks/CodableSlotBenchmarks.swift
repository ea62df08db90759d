import Foundation
import ModelKit

extension CodableJSONBenchmarks.User: ModelValueConvertible {}

/// Loading and writing models whose `@Saved` property holds a `Codable`
/// struct: the twitter statuses as models, each user a `Codable` struct of
/// 15 declared keys; then the 100 users alone, in a `@Saved` array of one
/// model, so that the rows time little but the `Codable` values. The model
/// JSON fast path reads the struct straight from the bytes with its own
/// `init(from:)` and writes it without making a `ModelValue` of it; the path
/// it replaces reads a `ModelValue` and converts it with `ModelValueDecoder`,
/// and writes the `ModelValue` that `ModelValueEncoder` makes. That path
/// stays reachable through
/// `UserViaModelValue`, whose hand-written conversion does exactly what the
/// `Codable` default does (hand-written conversions keep the `ModelValue`
/// path).
enum CodableSlotBenchmarks {
    typealias User = CodableJSONBenchmarks.User

    /// `User`, converted by hand as the `Codable` default converts it.
    struct UserViaModelValue: Codable, Equatable, ModelValueConvertible {
        var user: User

        init(from decoder: any Decoder) throws { user = try User(from: decoder) }
        func encode(to encoder: any Encoder) throws { try user.encode(to: encoder) }

        init(modelValue: ModelValue) throws {
            do {
                self = try ModelValueDecoder().decode(Self.self, from: modelValue)
            } catch {
                throw ModelError(error)
            }
        }

        var modelValue: ModelValue { (try? ModelValueEncoder().encode(self)) ?? .null }
    }

    final class Search: ModelObject, @unchecked Sendable {
        @Saved var statuses: [Status] = []
    }

    final class Status: ModelObject, @unchecked Sendable {
        @Saved var id = 0
        @Saved var text = ""
        @Saved var created_at = ""
        @Saved var retweet_count = 0
        @Saved var user: User? = nil
    }

    final class SearchViaModelValue: ModelObject, @unchecked Sendable {
        @Saved var statuses: [StatusViaModelValue] = []
    }

    final class StatusViaModelValue: ModelObject, @unchecked Sendable {
        @Saved var id = 0
        @Saved var text = ""
        @Saved var created_at = ""
        @Saved var retweet_count = 0
        @Saved var user: UserViaModelValue? = nil
    }

    /// The 100 users alone, as an array of `Codable` structs.
    final class Users: ModelObject, @unchecked Sendable {
        @Saved var users: [User] = []
    }

    final class UsersViaModelValue: ModelObject, @unchecked Sendable {
        @Saved var users: [UserViaModelValue] = []
    }

    static func run() {
        let name = "load models, Codable user struct as a @Saved property (twitter)"
        let usersName = "load a model, 100 Codable user structs in a @Saved array (twitter's users)"
        let writeName = "write models, Codable user struct as a @Saved property (twitter)"
        let writeUsersName = "write a model, 100 Codable user structs in a @Saved array (twitter's users)"
        guard [name, usersName, writeName, writeUsersName].contains(where: Harness.wants) else { return }
        print("## Codable saved properties")
        guard let data = corpus("twitter") else {
            print("| \(name) | skipped: ../shared/corpus/twitter.json not found |")
            print("")
            return
        }
        // Both must load the same users before they are timed.
        guard let direct = try? Search(json: data), let viaModelValue = try? SearchViaModelValue(json: data),
            !direct.statuses.isEmpty, direct.statuses.map(\.user) == viaModelValue.statuses.map({ $0.user?.user })
        else {
            print("| \(name) | skipped: the two paths disagree on the document |")
            print("")
            return
        }
        Harness.compare(
            name, bytes: data.count,
            [
                Harness.Variant(label: "via ModelValue") { iterations in
                    for _ in 0..<iterations { blackHole(try? SearchViaModelValue(json: data)) }
                },
                Harness.Variant(label: "from the bytes") { iterations in
                    for _ in 0..<iterations { blackHole(try? Search(json: data)) }
                },
            ])
        compareWriting(writeName, direct: direct, viaModelValue: viaModelValue)
        compareUsers(usersName, writeName: writeUsersName, data: data)
        print("")
    }

    /// `jsonData()` of the two, after checking that they write the same bytes.
    private static func compareWriting(_ name: String, direct: ModelObject, viaModelValue: ModelObject) {
        guard let written = try? direct.jsonData(), let reference = try? viaModelValue.jsonData() else {
            print("| \(name) | skipped: the models cannot be written |")
            return
        }
        // The type names differ; the rest must not.
        let directText = String(decoding: written, as: UTF8.self)
        let referenceText = String(decoding: reference, as: UTF8.self).replacingOccurrences(of: "ViaModelValue", with: "")
        guard directText == referenceText else {
            print("| \(name) | skipped: the two paths write different bytes |")
            return
        }
        Harness.compare(
            name, bytes: written.count,
            [
                Harness.Variant(label: "via ModelValue") { iterations in
                    for _ in 0..<iterations { blackHole(try? viaModelValue.jsonData()) }
                },
                Harness.Variant(label: "without a ModelValue") { iterations in
                    for _ in 0..<iterations { blackHole(try? direct.jsonData()) }
                },
            ])
    }

    /// The users of the statuses in one document of their own, so that the
    /// row times the `Codable` values and little else.
    private static func compareUsers(_ name: String, writeName: String, data: Data) {
        guard let document = try? ModelValue(json: data), case .array(let statuses)? = document["statuses"],
            let users = try? ModelValue.object(["users": .array(statuses.compactMap { $0["user"] })]).jsonData(),
            let direct = try? Users(json: users), let viaModelValue = try? UsersViaModelValue(json: users),
            direct.users.count == 100, direct.users == viaModelValue.users.map(\.user)
        else {
            print("| \(name) | skipped: the two paths disagree on the document |")
            return
        }
        Harness.compare(
            name, bytes: users.count,
            [
                Harness.Variant(label: "via ModelValue") { iterations in
                    for _ in 0..<iterations { blackHole(try? UsersViaModelValue(json: users)) }
                },
                Harness.Variant(label: "from the bytes") { iterations in
                    for _ in 0..<iterations { blackHole(try? Users(json: users)) }
                },
            ])
        compareWriting(writeName, direct: direct, viaModelValue: viaModelValue)
    }

    private static func corpus(_ name: String) -> Data? { Corpus.document(name) }
}
