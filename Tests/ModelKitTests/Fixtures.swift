import Foundation
import ModelKit

/// Models shared by the tests.

enum Priority: String, ModelValueConvertible, CaseIterable {
    case low, normal, high
}

final class Note: ModelObject, @unchecked Sendable {
    @Saved var title = "Untitled"
    @Saved var count = 0
    @Saved var tags: [String] = []
    @Saved var due: Date? = nil
    @Saved var child: Note? = nil
    @Saved var children: [Note] = []
    @Saved("legacy_name") var renamed = ""
    var scratch = 0
}

/// A model of every supported standard type.
final class Everything: ModelObject, @unchecked Sendable {
    @Saved var flag = true
    @Saved var integer = -42
    @Saved var int8: Int8 = -8
    @Saved var int16: Int16 = 16
    @Saved var int32: Int32 = -32
    @Saved var int64: Int64 = .min
    @Saved var unsigned: UInt = 7
    @Saved var uint8: UInt8 = 255
    @Saved var uint16: UInt16 = 65535
    @Saved var uint32: UInt32 = .max
    @Saved var uint64: UInt64 = .max
    @Saved var double = 1.1
    @Saved var float: Float = 0.1
    @Saved var text = "héllo \"wörld\"\n\t✓ 🎉"
    @Saved var nullMarker = "$null"
    @Saved var date = Date(timeIntervalSince1970: 1_763_307_200.123456)
    @Saved var data = Data([0, 1, 2, 254, 255])
    @Saved var url = URL(string: "https://example.com/a?b=c")!
    @Saved var uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    @Saved var decimal = Decimal(string: "12345678901234567.89")!
    @Saved var priority = Priority.high
    @Saved var optionalNone: Int? = nil
    @Saved var optionalSome: String? = "some"
    @Saved var numbers: [Int] = [1, 2, 3]
    @Saved var nested: [[Double]] = [[1.5], [], [2.5, 3.5]]
    @Saved var optionals: [String?] = ["a", nil, "c"]
    @Saved var set: Set<String> = ["x", "y"]
    @Saved var map: [String: Int] = ["one": 1, "two": 2]
    @Saved var deepMap: [String: [String: [Int]]] = ["a": ["b": [1, 2]]]
    @Saved var value: ModelValue = ["free": [1, "form", nil, true]]
}

/// A `Float` alone and in an array, for round trips at the edges of its range.
final class FloatHolder: ModelObject, @unchecked Sendable {
    @Saved var value: Float = 0
    @Saved var values: [Float] = []
}

/// Nested models in every container shape.
final class Folder: ModelObject, @unchecked Sendable {
    @Saved var name = ""
    @Saved var notes: [Note] = []
    @Saved var byName: [String: Note] = [:]
    @Saved var grid: [[Note]] = []
    @Saved var pinned: Note? = nil
    @Saved var subfolders: [Folder] = []
}

/// A base class and subclasses for polymorphism.
class Attachment: ModelObject, @unchecked Sendable {
    @Saved var name = ""
}

final class Photo: Attachment, @unchecked Sendable {
    @Saved var width = 0
}

final class Video: Attachment, @unchecked Sendable {
    @Saved var seconds = 0.0
}

/// Registered, but not an Attachment.
final class Stranger: ModelObject, @unchecked Sendable {
    @Saved var name = ""
}

final class Album: ModelObject, @unchecked Sendable {
    @Saved var cover: Attachment? = nil
    @Saved var items: [Attachment] = []
}

let registerFixtures: Void = {
    ModelObject.register(Photo.self, Video.self, Stranger.self)
}()

/// Every slot shape the direct JSON paths handle themselves (the common
/// scalars, their optionals, models alone, optional and in arrays) next to
/// shapes they hand to the codecs.
final class Record: ModelObject, @unchecked Sendable {
    @Saved var title = "untitled"
    @Saved var count = 0
    @Saved var isDone = false
    @Saved var ratio = 0.5
    @Saved var note: String? = nil
    @Saved var rank: Int? = 7
    @Saved var flag: Bool? = nil
    @Saved var weight: Double? = nil
    @Saved var child: Record? = nil
    @Saved var children: [Record] = []
    @Saved var tags: [String] = []
    @Saved var due: Date? = nil
    @Saved(dateStrategy: .millisecondsSince1970) var stamp = Date(timeIntervalSince1970: 0)
    @Saved var scores: [String: Int] = [:]
    @Saved var small: Int8 = 0
}

/// A class with a key outside ASCII, which Swift may match by canonical equivalence.
final class Accented: ModelObject, @unchecked Sendable {
    @Saved("café") var cafe = ""
    @Saved var plain = 0
}

/// Every slot shape the direct dictionary paths handle themselves (the common
/// scalars, dates, their optionals and arrays, models alone, optional and in
/// arrays) next to shapes they hand to the codecs.
final class Sheet: ModelObject, @unchecked Sendable {
    @Saved var name = "sheet"
    @Saved var count = 0
    @Saved var isOpen = false
    @Saved var ratio = 0.5
    @Saved var created = Date(timeIntervalSince1970: 0)
    @Saved var note: String? = nil
    @Saved var rank: Int? = 3
    @Saved var flag: Bool? = nil
    @Saved var weight: Double? = nil
    @Saved var due: Date? = nil
    @Saved var tags: [String] = []
    @Saved var numbers: [Int] = []
    @Saved var ratios: [Double] = []
    @Saved var flags: [Bool] = []
    @Saved var leaf = Leaf()
    @Saved var child: Sheet? = nil
    @Saved var children: [Sheet] = []
    @Saved(dateStrategy: .secondsSince1970) var stamp = Date(timeIntervalSince1970: 0)
    @Saved var small: Int8 = 0
    @Saved var scores: [String: Int] = [:]
    @Saved var attachments: [Attachment] = []
}

/// A model that is the default value of a non-optional property.
final class Leaf: ModelObject, @unchecked Sendable {
    @Saved var label = ""
    @Saved var size = 0
}

// MARK: - Unknown-key policies

/// The same saved keys under each ``UnknownKeyPolicy``: this class keeps
/// unknown keys (the default), its subclasses drop or reject them.
class PolicyNote: ModelObject, @unchecked Sendable {
    @Saved var title = ""
    @Saved var count = 0
    @Saved var part: PolicyPart? = nil
}

/// A ``PolicyNote`` that drops unknown keys.
final class IgnoringNote: PolicyNote, @unchecked Sendable {
    override class var unknownKeys: UnknownKeyPolicy { .ignore }
}

/// A ``PolicyNote`` that rejects unknown keys.
final class RejectingNote: PolicyNote, @unchecked Sendable {
    override class var unknownKeys: UnknownKeyPolicy { .reject }
}

/// A nested model that keeps unknown keys, whatever its parent does.
final class PolicyPart: ModelObject, @unchecked Sendable {
    @Saved var name = ""
}

/// A configuration that rejects unknown keys, holding models of each policy.
final class Settings: ModelObject, @unchecked Sendable {
    override class var unknownKeys: UnknownKeyPolicy { .reject }
    @Saved var title = ""
    @Saved var display: Display? = nil
    @Saved var plugins: [Plugin] = []
    @Saved var extras: PolicyPart? = nil
    @Saved var named: [String: Plugin] = [:]
}

/// Inside ``Settings``: drops unknown keys.
final class Display: ModelObject, @unchecked Sendable {
    override class var unknownKeys: UnknownKeyPolicy { .ignore }
    @Saved var width = 0
    @Saved var plugin: Plugin? = nil
}

/// Inside ``Settings``: rejects unknown keys.
final class Plugin: ModelObject, @unchecked Sendable {
    override class var unknownKeys: UnknownKeyPolicy { .reject }
    @Saved var name = ""
    @Saved var enabled = true
}
