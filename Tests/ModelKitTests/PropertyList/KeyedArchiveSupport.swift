import Foundation
import Testing
@testable import ModelKit

/// What the keyed-archive tests share: NSCoding classes that Foundation's
/// archiver writes, the models that read them, and hand-made archives.
enum KeyedArchiveSupport {
    /// Whether Foundation's `NSKeyedArchiver` works here.
    static let hasFoundationArchiver =
        (try? NSKeyedArchiver.archivedData(withRootObject: ["x"], requiringSecureCoding: false)) != nil

    /// Foundation's archive of `root`.
    static func archive(_ root: Any) throws -> Data {
        try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: false)
    }

    /// The error `body` throws, as its description, or what it returned.
    static func message(_ body: () throws -> Any) -> String {
        do {
            return "read \(try body())"
        } catch {
            return String(describing: error)
        }
    }

    /// A binary archive of `objects` (UIDs as `uid(_:)`) with `$top` `top`.
    static func archive(
        objects: [ModelValue], top: ModelValue.Object = ["root": uid(1)], archiver: String = "NSKeyedArchiver"
    ) throws -> Data {
        let envelope: ModelValue = [
            "$archiver": .string(archiver), "$version": 100000, "$top": .object(top),
            "$objects": .array([.string("$null")] + objects),
        ]
        return try BinaryPropertyListWriter.data(from: envelope, writingUIDs: true)
    }

    static func uid(_ number: Int) -> ModelValue { KeyedArchive.uidValue(number) }

    static func classDescription(_ name: String) -> ModelValue {
        ["$classname": .string(name), "$classes": [.string(name), "NSObject"]]
    }

    /// The archive's property list as Python's `plistlib` would show it: the
    /// envelope with UIDs as `{"CF$UID": n}`.
    static func envelope(_ data: Data) throws -> ModelValue {
        try BinaryPropertyListReader.value(from: data, readingUIDs: true)
    }
}

/// A node as an app using NSCoding archived it: a name, a count, children
/// and a weak parent.
final class LegacyNode: NSObject, NSCoding {
    var name: String
    var count = 0
    var children: [LegacyNode] = []
    weak var parent: LegacyNode?
    var extra: String?
    var created: Date?

    init(name: String, count: Int = 0) {
        self.name = name
        self.count = count
    }

    func adopt(_ child: LegacyNode) {
        children.append(child)
        child.parent = self
    }

    func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "name")
        coder.encode(count, forKey: "count")
        coder.encode(children, forKey: "children")
        coder.encode(parent, forKey: "parent")
        if let extra { coder.encode(extra, forKey: "extra") }
        if let created { coder.encode(created, forKey: "created") }
    }

    /// Never unarchived by these tests: Foundation's unarchiver on Linux
    /// recurses forever on a parent.
    required init?(coder: NSCoder) { nil }
}

/// A value object archived by an app, for the unknown-class errors.
final class LegacyColor: NSObject, NSCoding {
    func encode(with coder: NSCoder) { coder.encode("red", forKey: "name") }
    override init() {}
    required init?(coder: NSCoder) { nil }
}

/// The model that reads `LegacyNode` archives.
final class ArchiveNode: ModelObject, @unchecked Sendable {
    override class var archivedClassName: String { "LegacyNode" }
    @Saved var name = ""
    @Saved var count = 0
    @Saved var created: Date? = nil
    @Saved var children: [ArchiveNode] = []
    @Saved(reference: .weak) var parent: ArchiveNode? = nil
}

/// A model whose parent is a strong property: a parent is a cycle.
final class StrongArchiveNode: ModelObject, @unchecked Sendable {
    @Saved var name = ""
    @Saved var count = 0
    @Saved var children: [StrongArchiveNode] = []
    @Saved var parent: StrongArchiveNode? = nil
}

/// A model of plain values, for archives Foundation reads back.
final class ArchivePlain: ModelObject, @unchecked Sendable {
    @Saved var title = ""
    @Saved var count = 0
    @Saved var ratio = 0.5
    @Saved var done = false
    @Saved var tags: [String] = []
    @Saved var due: Date? = nil
    @Saved var blob = Data()
    @Saved var scores: [String: Int] = [:]
    @Saved var link: URL? = nil
    @Saved var first: ArchivePlain? = nil
    @Saved var second: ArchivePlain? = nil
}

/// What Foundation's unarchiver makes of an `ArchivePlain`.
final class UnarchivedPlain: NSObject, NSCoding {
    var values: [String: Any] = [:]
    func encode(with coder: NSCoder) {}
    required init?(coder: NSCoder) {
        super.init()
        // Foundation's unarchiver on Linux fails on an object key it lacks.
        for key in ["title", "tags", "due", "blob", "scores", "first", "extra"] where coder.containsValue(forKey: key) {
            values[key] = coder.decodeObject(forKey: key)
        }
        values["count"] = coder.decodeInteger(forKey: "count")
        values["ratio"] = coder.decodeDouble(forKey: "ratio")
        values["done"] = coder.decodeBool(forKey: "done")
    }
}
