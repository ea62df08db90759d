import Foundation

@testable import ModelKit

/// A class with every kind of saved type and rule, for the schema tests.
final class SchemaSubject: ModelObject, @unchecked Sendable {
    @Saved(description: "A short title", rules: .nonEmpty, .maxLength(20)) var title = "Untitled"
    @Saved(rules: .range(0...100)) var count = 0
    @Saved var ratio = 0.5
    @Saved var flag = false
    @Saved var tags: [String] = []
    @Saved var due: Date? = nil
    @Saved var colour: Color = .blue
    @Saved var day = Day("2026-11-21")!
    @Saved var time = TimeOfDay("14:30:00")!
    @Saved var id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    @Saved var data = Data([1, 2, 3])
    @Saved var price = Decimal(string: "19.99")!
    @Saved var priority = Priority.normal
    @Saved var small: Int8 = 0
    @Saved var child: SchemaChild? = nil
    @Saved var children: [SchemaChild] = []
    @Saved(rules: .pattern("[A-Z]{3}")) var code = "ABC"
    @Saved var address = Address()
    @Saved var snooze = Interval(5, .minutes)
    @Saved var even = 0
}

final class SchemaChild: ModelObject, @unchecked Sendable {
    @Saved(rules: .range(1...5)) var stars = 3
    @Saved var label: String? = nil
}

/// The same with a dictionary, which strict profiles refuse.
final class SchemaWithMap: ModelObject, @unchecked Sendable {
    @Saved var name = ""
    @Saved var counts: [String: Int] = [:]
}

/// A recursive class, which Anthropic's profile refuses.
final class SchemaNode: ModelObject, @unchecked Sendable {
    @Saved(rules: .maxLength(10)) var name = ""
    @Saved var next: SchemaNode? = nil
}

/// A small class whose schemas the tests spell out.
final class Bookmark: ModelObject, @unchecked Sendable {
    @Saved(description: "The page's title", rules: .maxLength(80)) var title = ""
    @Saved var visits = 0
    @Saved var link: URL? = nil
    @Saved(rules: .check("must be even") { $0 % 2 == 0 }) var pairs = 0
}

/// A `Codable` value with an optional key and a nested value.
struct Shipment: Codable, Equatable, ModelValueConvertible {
    var weight: Double
    var note: String?
    var lines: [Line]
    struct Line: Codable, Equatable { var sku: String; var quantity: Int }
}

final class Order: ModelObject, @unchecked Sendable {
    @Saved var shipment = Shipment(weight: 0, note: nil, lines: [])
}

/// A tree with a weak back-reference to its parent.
final class SchemaTreeNode: ModelObject, @unchecked Sendable {
    @Saved var name = ""
    @Saved var children: [SchemaTreeNode] = []
    @Saved(reference: .weak) var parent: SchemaTreeNode? = nil
}
