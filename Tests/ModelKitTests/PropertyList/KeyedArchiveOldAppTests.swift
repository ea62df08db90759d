import Foundation
import Testing

@testable import ModelKit

/// Archives that the old app reads, judged by Foundation's unarchiver on
/// `NSCoding` classes of both styles: AutoCoding's (`decodeObject(forKey:)`
/// for everything) and a hand-written one (`decodeInteger`, `decodeBool`,
/// `decodeDouble(forKey:)` for scalars) (issue 57, items 1 to 3).
@Suite("Keyed archives: what the old app reads")
struct KeyedArchiveOldAppTests {
    typealias S = KeyedArchiveSupport

    static func task() -> OldTask {
        let task = OldTask()
        task.title = "Ship"
        task.done = true
        task.priority = 1
        task.ratio = 0.75
        task.tags = ["home", "work"]
        task.due = Date(timeIntervalSinceReferenceDate: 100)
        let sub = OldTask()
        sub.title = "Pack"
        sub.priority = 7
        task.subtasks = [sub]
        return task
    }

    /// Foundation's reading of `data` with `type` standing for `OldTask`.
    static func unarchived<T: NSObject>(_ data: Data, as type: T.Type) throws -> T? {
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
        unarchiver.requiresSecureCoding = false
        unarchiver.decodingFailurePolicy = .setErrorAndReturn
        unarchiver.setClass(type, forClassName: "OldTask")
        let root = unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? T
        #expect(unarchiver.error == nil, "\(String(describing: unarchiver.error))")
        return root
    }

    @Test(.enabled(if: S.hasFoundationArchiver, "Foundation's NSKeyedUnarchiver is missing"))
    func anAutoCodingClassReadsTheDefaultArchive() throws {
        let read = try #require(try Self.unarchived(Self.task().keyedArchiveData(), as: AutoCodedTask.self))
        #expect(read.title == "Ship")
        #expect(read.done == NSNumber(value: true))
        #expect(read.priority == NSNumber(value: 1))
        #expect(read.ratio == NSNumber(value: 0.75))
        #expect(read.tags == NSSet(array: ["home", "work"]))
        #expect(read.due == Date(timeIntervalSinceReferenceDate: 100))
        #expect(read.version == NSNumber(value: 3))
        let sub = try #require(read.subtasks?.first)
        #expect(sub.title == "Pack" && sub.priority == NSNumber(value: 7) && sub.version == NSNumber(value: 3))
        #expect(sub.tags == NSSet())
    }

    @Test(.enabled(if: S.hasFoundationArchiver, "Foundation's NSKeyedUnarchiver is missing"))
    func aHandWrittenClassReadsInlineScalars() throws {
        let data = try Self.task().keyedArchiveData(style: .inlineScalars)
        let read = try #require(try Self.unarchived(data, as: HandCodedTask.self))
        #expect(read.title == "Ship")
        #expect(read.done == true)
        #expect(read.priority == 1)
        #expect(read.ratio == 0.75)
        #expect(read.tags == NSSet(array: ["home", "work"]))
        #expect(read.version == 3)
        let sub = try #require(read.subtasks?.first)
        #expect(sub.title == "Pack" && sub.priority == 7 && sub.version == 3 && !sub.done)
    }

    /// Foundation's archives of each class read as the model they came from,
    /// and ModelKit's archive in each style reads back to an equivalent model.
    @Test(.enabled(if: S.hasFoundationArchiver, "Foundation's NSKeyedArchiver is missing"))
    func bothStylesRoundTrip() throws {
        ModelObject.register(OldTask.self, as: "ModelKitTests.AutoCodedTask")
        ModelObject.register(OldTask.self, as: "ModelKitTests.HandCodedTask")
        let task = Self.task()
        for style in [KeyedArchiveStyle.objects, .inlineScalars] {
            let back = try OldTask(keyedArchive: task.keyedArchiveData(style: style))
            #expect(back.isEquivalent(to: task), "\(style)")
        }
        let auto = try #require(try Self.unarchived(task.keyedArchiveData(), as: AutoCodedTask.self))
        let hand = try #require(try Self.unarchived(task.keyedArchiveData(style: .inlineScalars), as: HandCodedTask.self))
        for (name, object) in [("AutoCoding", auto as NSObject), ("hand-written", hand as NSObject)] {
            // Foundation on Linux names the classes with their module, as
            // an old app's Swift classes are named.
            let archive = try NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: false)
            let model = try OldTask(keyedArchive: archive)
            #expect(model.isEquivalent(to: task), "\(name): \(model.modelValue)")
        }
    }

    @Test func everyModelIsWrittenWithItsVersion() throws {
        let envelope = try S.envelope(Self.task().keyedArchiveData(style: .inlineScalars))
        guard case .array(let objects)? = envelope["$objects"], let top = envelope["$top"]?["root"] else {
            Issue.record("unexpected archive")
            return
        }
        let root = objects[KeyedArchive.uid(of: top)!]
        #expect(root["version"] == .int(3))
        #expect(root["done"] == .bool(true))
        // By default a number is an object referred to.
        let objectEnvelope = try S.envelope(Self.task().keyedArchiveData())
        guard case .array(let all)? = objectEnvelope["$objects"], let rootRef = objectEnvelope["$top"]?["root"] else {
            Issue.record("unexpected archive")
            return
        }
        let version = try #require(all[KeyedArchive.uid(of: rootRef)!]["version"].flatMap { KeyedArchive.uid(of: $0) })
        #expect(all[version] == .int(3))
    }

    /// A model kept as a copy in a bag keeps its version through a round trip.
    @Test func aModelInABagKeepsItsVersion() throws {
        let archive = try S.archive(objects: [
            ["$class": S.uid(3), "title": S.uid(4), "other": S.uid(2)],
            ["$class": S.uid(3), "title": S.uid(5), "version": 2],
            S.classDescription("OldTask"), "root", "o",
        ])
        let task = try OldTask(keyedArchive: archive)
        #expect(task.extensibleProperties["other"] == ["type": "OldTask", "title": "o", "version": 2])
        let back = try OldTask(keyedArchive: task.keyedArchiveData())
        #expect(back.extensibleProperties["other"] == ["type": "OldTask", "title": "o", "version": 2])
    }
}

/// The model of the old app's task.
final class OldTask: ModelObject, @unchecked Sendable {
    override class var version: Int { 3 }
    @Saved var title = ""
    @Saved var done = false
    @Saved var priority = 0
    @Saved var ratio = 0.0
    @Saved var tags: Set<String> = []
    @Saved var due: Date? = nil
    @Saved var subtasks: [OldTask] = []
}

/// The old app's task as AutoCoding archives it: every property an object.
final class AutoCodedTask: NSObject, NSCoding {
    var title: String?
    var done: NSNumber?
    var priority: NSNumber?
    var ratio: NSNumber?
    var tags: NSSet?
    var due: Date?
    var subtasks: [AutoCodedTask]?
    var version: NSNumber?

    required init?(coder: NSCoder) {
        // Foundation's unarchiver on Linux fails on an object key it lacks.
        func object(_ key: String) -> Any? { coder.containsValue(forKey: key) ? coder.decodeObject(forKey: key) : nil }
        title = object("title") as? String
        done = object("done") as? NSNumber
        priority = object("priority") as? NSNumber
        ratio = object("ratio") as? NSNumber
        tags = object("tags") as? NSSet
        due = object("due") as? Date
        subtasks = object("subtasks") as? [AutoCodedTask]
        version = object("version") as? NSNumber
    }

    func encode(with coder: NSCoder) {
        coder.encode(title, forKey: "title")
        coder.encode(done, forKey: "done")
        coder.encode(priority, forKey: "priority")
        coder.encode(ratio, forKey: "ratio")
        coder.encode(tags, forKey: "tags")
        coder.encode(due, forKey: "due")
        coder.encode(subtasks.map { NSArray(array: $0) }, forKey: "subtasks")
        coder.encode(version, forKey: "version")
    }
}

/// The old app's task as a hand-written `NSCoding` class: scalars inline.
final class HandCodedTask: NSObject, NSCoding {
    var title: String?
    var done = false
    var priority = 0
    var ratio = 0.0
    var tags: NSSet?
    var due: Date?
    var subtasks: [HandCodedTask]?
    var version = 0

    required init?(coder: NSCoder) {
        func object(_ key: String) -> Any? { coder.containsValue(forKey: key) ? coder.decodeObject(forKey: key) : nil }
        title = object("title") as? String
        done = coder.decodeBool(forKey: "done")
        priority = coder.decodeInteger(forKey: "priority")
        ratio = coder.decodeDouble(forKey: "ratio")
        tags = object("tags") as? NSSet
        due = object("due") as? Date
        subtasks = object("subtasks") as? [HandCodedTask]
        version = coder.decodeInteger(forKey: "version")
    }

    func encode(with coder: NSCoder) {
        coder.encode(title, forKey: "title")
        coder.encode(done, forKey: "done")
        coder.encode(priority, forKey: "priority")
        coder.encode(ratio, forKey: "ratio")
        coder.encode(tags, forKey: "tags")
        coder.encode(due, forKey: "due")
        coder.encode(subtasks.map { NSArray(array: $0) }, forKey: "subtasks")
        coder.encode(version, forKey: "version")
    }
}
