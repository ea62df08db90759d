import Foundation
import ModelKit

// Classes the path tests load the same documents into: one per way a
// document leaves the direct JSON path (a rule, an upgrade, references).

final class PathPlain: ModelObject, @unchecked Sendable {
    @Saved var title = ""
    @Saved var count = 0
}

final class PathRated: ModelObject, @unchecked Sendable {
    @Saved var title = ""
    @Saved(rules: .range(0...5)) var rating = 0
}

final class PathUpgraded: ModelObject, @unchecked Sendable {
    override class var version: Int { 2 }
    override class func upgrade(_ values: inout [String: ModelValue], from version: Int) throws {
        if version == 1, let name = values.removeValue(forKey: "name") { values["title"] = name }
    }
    @Saved var title = ""
}

final class PathBookshelf: ModelObject, @unchecked Sendable {
    @Saved var books: [PathUpgraded] = []
    @Saved var book: PathUpgraded? = nil
}

final class PathNode: ModelObject, @unchecked Sendable {
    @Saved var title = ""
    @Saved var kids: [PathNode] = []
    @Saved(reference: .weak) var parent: PathNode? = nil
}
