import Foundation
import ModelKit

/// Where the time of `ISearch(json:)` on twitter.json goes, against msgspec:
/// the same document read into shapes that declare more and more, from
/// nothing (every member skipped) to the full shapes. Each step's cost is
/// the difference from the step before; `python3 Scripts/msgspec-shapes.py
/// ../shared/corpus/twitter.json` measures msgspec's `Struct`s of the same
/// shapes the same way.
extension TypedPeerBenchmarks {
    /// Declares nothing: every member is validated and dropped.
    final class NothingDeclared: IgnoringPlainModel, @unchecked Sendable {}

    /// The statuses, each an object that declares nothing.
    final class SearchOfEmpties: IgnoringPlainModel, @unchecked Sendable {
        @Saved var statuses: [NothingDeclared] = []
    }

    final class IDStatus: IgnoringPlainModel, @unchecked Sendable {
        @Saved var id = 0
    }

    /// The statuses with their `id`; each user is skipped whole.
    final class SearchOfIDs: IgnoringPlainModel, @unchecked Sendable {
        @Saved var statuses: [IDStatus] = []
    }

    final class IDStatusWithEmptyUser: IgnoringPlainModel, @unchecked Sendable {
        @Saved var id = 0
        @Saved var user = NothingDeclared()
    }

    /// The statuses with their `id` and their user read member by member as
    /// an object that declares nothing.
    final class SearchOfIDsAndEmptyUsers: IgnoringPlainModel, @unchecked Sendable {
        @Saved var statuses: [IDStatusWithEmptyUser] = []
    }

    static func runShapes() {
        let row = "typed decode, twitter.json, by declared shape"
        guard Harness.wants(row) else { return }
        guard let data = Corpus.document("twitter") else {
            print("| \(row) | skipped: ../shared/corpus/twitter.json not found |")
            return
        }
        guard let ids = try? SearchOfIDsAndEmptyUsers(json: data), let full = try? ISearch(json: data),
            ids.statuses.map(\.id) == full.statuses.map(\.id), (try? SearchOfEmpties(json: data))?.statuses.count == 100
        else {
            print("| \(row) | skipped: twitter.json does not read as the shapes |")
            return
        }
        Harness.compare(row, bytes: data.count, rounds: 7, [
            .init(label: "validateJSON") { n in for _ in 0..<n { try? ModelValue.validateJSON(data) } },
            .init(label: "nothing declared") { n in for _ in 0..<n { blackHole(try? NothingDeclared(json: data)) } },
            .init(label: "statuses, empty") { n in for _ in 0..<n { blackHole(try? SearchOfEmpties(json: data)) } },
            .init(label: "statuses, id") { n in for _ in 0..<n { blackHole(try? SearchOfIDs(json: data)) } },
            .init(label: "statuses, id, empty user") { n in
                for _ in 0..<n { blackHole(try? SearchOfIDsAndEmptyUsers(json: data)) }
            },
            .init(label: "full shapes (ISearch)") { n in for _ in 0..<n { blackHole(try? ISearch(json: data)) } },
        ])
    }
}
