import Foundation
import Testing

@testable import ModelKit

/// A driver with rules on its properties and a rule across them.
final class Driver: ModelObject, @unchecked Sendable {
    @Saved(rules: .nonEmpty, .maxLength(10)) var name = "Ada"
    @Saved(rules: .range(0...150)) var age = 30
    @Saved var hasDrivingLicence = false
    @Saved(rules: .pattern("[A-Z]{2}-[0-9]{3}")) var plate = "AB-123"
    @Saved(rules: .check("must be even") { $0 % 2 == 0 }) var seats = 4
    @Saved var email = "ada@example.org"
    @Saved var passengers: [Driver] = []

    override func validateValue(_ value: Any, forKey key: String) throws {
        try super.validateValue(value, forKey: key)
        if key == "email", let text = value as? String, !text.contains("@") {
            throw ModelError.invalidValue("must contain @")
        }
    }

    override func validateObject() throws {
        try super.validateObject()
        if hasDrivingLicence && age < 17 {
            throw ModelError(
                code: .invalidValue, message: "needs an age of 17 or more, found \(age)",
                keyPath: ModelKeyPath([.key("hasDrivingLicence")]))
        }
    }
}

@Suite struct ValidationTests {
    static let invalid: [(String, @Sendable (Driver) -> Void, String)] = [
        ("empty name", { $0.name = "" }, "name: must not be empty"),
        ("long name", { $0.name = "Bartholomew the Long" }, "name: must be at most 10 long, found 20"),
        ("too old", { $0.age = 200 }, "age: must be at most 150, found 200"),
        ("negative age", { $0.age = -1 }, "age: must be at least 0, found -1"),
        ("bad plate", { $0.plate = "ab-12" }, #"plate: must match /[A-Z]{2}-[0-9]{3}/, found "ab-12""#),
        ("odd seats", { $0.seats = 3 }, "seats: must be even"),
        ("hook", { $0.email = "nobody" }, "email: must contain @"),
        ("object rule", { $0.age = 12; $0.hasDrivingLicence = true }, "hasDrivingLicence: needs an age of 17 or more, found 12"),
    ]

    @Test(arguments: invalid)
    func eachRuleRefusesWithItsMessage(_ name: String, _ edit: @Sendable (Driver) -> Void, _ message: String) {
        let driver = Driver()
        #expect(throws: Never.self) { try driver.validate() }
        edit(driver)  // plain assignment does not throw
        do {
            try driver.validate()
            Issue.record("\(name): expected an error")
        } catch let error as ModelError {
            #expect(error.description == message, "\(name)")
            #expect(error.code == .invalidValue)
        } catch {
            Issue.record("\(name): \(error)")
        }
    }

    @Test func validateListsEveryFailureThroughTheGraph() {
        let driver = Driver()
        driver.name = ""
        driver.passengers = [Driver(), Driver(), Driver()]
        driver.passengers[2].age = 200
        driver.passengers[2].seats = 5
        do {
            try driver.validate()
            Issue.record("expected an error")
        } catch let error as ModelError {
            #expect(
                error.description == """
                    3 values are invalid:
                    name: must not be empty
                    passengers[2].age: must be at most 150, found 200
                    passengers[2].seats: must be even
                    """)
            #expect(error.failures.map(\.keyPath.description) == ["name", "passengers[2].age", "passengers[2].seats"])
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func decodingAppliesTheRulesAndNothingElse() throws {
        let driver = Driver()
        let json = #"{"name":"Bo","passengers":[{},{"age":151}]}"#
        let jsonError = #expect(throws: ModelError.self) { try driver.update(from: ModelValue(json: Data(json.utf8))) }
        #expect(jsonError?.description == "passengers[1].age: must be at most 150, found 151")
        #expect(driver.name == "Ada")
        #expect(driver.passengers.isEmpty)
        let fromJSON = #expect(throws: ModelError.self) { try Driver(json: Data(json.utf8)) }
        #expect(fromJSON?.description == "passengers[1].age: must be at most 150, found 151")
        let fromDictionary = #expect(throws: ModelError.self) { try Driver(dictionary: ["seats": 3]) }
        #expect(fromDictionary?.description == "seats: must be even")
        let valid = try Driver(json: Data(#"{"name":"Bo","passengers":[{"age":40}]}"#.utf8))
        #expect(valid.passengers.first?.age == 40)
    }

    @Test func setValueValidates() throws {
        let driver = Driver()
        let error = #expect(throws: ModelError.self) { try driver.setValue(500, forKey: "age") }
        #expect(error?.description == "age: must be at most 150, found 500")
        let hooked = #expect(throws: ModelError.self) { try driver.setValue("x", forKey: "email") }
        #expect(hooked?.description == "email: must contain @")
        #expect(driver.age == 30)
        try driver.setValue(40, forKey: "age")
        #expect(driver.age == 40)
    }

    @Test func writingValidatesUnlessToldNotTo() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ModelKitValidation-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let driver = Driver()
        driver.age = 200
        let url = folder.appendingPathComponent("driver.json")
        #expect(throws: ModelError.self) { try driver.write(to: url) }
        #expect(!FileManager.default.fileExists(atPath: url.path))
        try driver.write(to: url, validating: false)
        #expect(FileManager.default.fileExists(atPath: url.path))
    }
}
