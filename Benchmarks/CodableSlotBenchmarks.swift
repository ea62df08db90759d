import Foundation
import ModelKit

extension CodableJSONBenchmarks.User: ModelValueConvertible {}

/// Loading models whose `@Saved` property holds a `Codable` struct: the
/// twitter statuses as models, each user a `Codable` struct of 15 declared
/// keys. The model JSON fast path reads the struct straight from the bytes
/// with its own `init(from:)`; the path it replaces reads a `ModelValue` and
/// converts it with `ModelValueDecoder`. That path stays reachable through
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

    static func run() {
        let name = "load models, Codable user struct as a @Saved property (twitter)"
        guard Harness.wants(name) else { return }
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
        print("")
    }

    private static func corpus(_ name: String) -> Data? {
        let roots = [
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent(),
        ]
        for root in roots {
            let url = root.appendingPathComponent("../shared/corpus/\(name).json").standardizedFileURL
            if let data = try? Data(contentsOf: url) { return data }
        }
        return nil
    }
}
