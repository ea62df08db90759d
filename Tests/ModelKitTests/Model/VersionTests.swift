import Foundation
import Testing
@testable import ModelKit

private final class Task: ModelObject, @unchecked Sendable {
    override class var version: Int { 4 }
    @Saved var title = ""
    @Saved var count = 0
    @Saved var minutes = 0
    nonisolated(unsafe) static var steps: [Int] = []

    override class func upgrade(_ values: inout [String: ModelValue], from version: Int) throws {
        try super.upgrade(&values, from: version)
        steps.append(version)
        switch version {
        case 1:  // "number" became "count"
            values["count"] = values["number"]
            values["number"] = nil
        case 2:  // hours became minutes
            if let hours = values["hours"]?.intValue { values["minutes"] = .int(hours * 60) }
            values["hours"] = nil
        case 3:  // "name" became "title"
            guard values["name"] != nil || values["title"] != nil else {
                throw UpgradeFailure.noTitle
            }
            if let name = values["name"] { values["title"] = name }
            values["name"] = nil
        default: break
        }
    }

    enum UpgradeFailure: Error, CustomStringConvertible {
        case noTitle
        var description: String { "a task needs a name or a title" }
    }
}

@Suite(.serialized) struct VersionTests {
    @Test func upgradesRunOncePerStepFromTheLoadedVersion() throws {
        Task.steps = []
        let task = try Task(dictionary: ["version": 1, "number": 3, "hours": 2, "name": "Write", "keep": "me"])
        #expect(Task.steps == [1, 2, 3])
        #expect(task.count == 3)
        #expect(task.minutes == 120)
        #expect(task.title == "Write")
        #expect(task.extensibleProperties == ["keep": "me"])
        #expect(!task.hasChanges)
        #expect(task.modelValue["version"] == 4)

        Task.steps = []
        let fromThree = try Task(dictionary: ["version": 3, "name": "Read"])
        #expect(Task.steps == [3])
        #expect(fromThree.title == "Read")
    }

    @Test func currentAndUnversionedDataAreNotUpgraded() throws {
        Task.steps = []
        _ = try Task(dictionary: ["version": 4, "title": "x"])
        _ = try Task(dictionary: ["title": "y"])
        #expect(Task.steps.isEmpty)
    }

    @Test func aFailingUpgradeNamesTheStepAndChangesNothing() throws {
        let task = Task()
        task.title = "before"
        task.clearChanges()
        let error = #expect(throws: ModelError.self) {
            try task.update(from: ["version": 3, "minutes": 5])
        }
        #expect(error?.code == .versionMismatch)
        #expect(error?.description == "upgrading Task data from version 3 to 4 failed: a task needs a name or a title")
        #expect(task.title == "before")
        #expect(task.minutes == 0)
        #expect(!task.hasChanges)
    }

    @Test(arguments: [
        (ModelValue.string("2"), "version: expected an integer data version, found a string (\"2\")"),
        (.int(-1), "version: expected a data version of 0 or more, found -1"),
        (.double(1.5), "version: expected an integer data version, found a floating-point number (1.5)"),
    ])
    func badVersionsAreErrors(version: ModelValue, message: String) {
        let error = #expect(throws: ModelError.self) { try Task(modelValue: ["version": version]) }
        #expect(error?.description == message)
    }
}
