import Foundation
import Testing

@testable import ModelKit

/// A model reading files that plain `Codable` types wrote with Foundation's
/// coders, and Foundation's coders' date strategies applied to models.
@Suite struct MovingFromCodableTests {
    /// What an app saved before it used ModelKit.
    struct OldTask: Codable {
        var title: String
        var due: Date
    }

    final class DeferredTask: ModelObject, @unchecked Sendable {
        @Saved var title = ""
        @Saved(dateStrategy: .deferredToDate) var due = Date(timeIntervalSinceReferenceDate: 0)
    }

    final class PlainTask: ModelObject, @unchecked Sendable {
        @Saved var title = ""
        @Saved var due = Date(timeIntervalSinceReferenceDate: 0)
        @Saved var done: Date? = nil
    }

    static let due = Date(timeIntervalSince1970: 1_798_761_600.25)  // 2027-01-01T00:00:00.25Z

    @Test func aFileWrittenByJSONEncoderLoadsUnderDeferredToDate() throws {
        let data = try JSONEncoder().encode(OldTask(title: "Ship", due: Self.due))
        let task = try DeferredTask(json: data)
        #expect(task.due == Self.due)
        #expect(task.title == "Ship")
        // And is saved the same way, for JSONDecoder to read back.
        let back = try JSONDecoder().decode(OldTask.self, from: try task.jsonData())
        #expect(back.due == Self.due)
    }

    @Test func aNumberUnderTheDefaultStrategyNamesDeferredToDate() throws {
        let data = try JSONEncoder().encode(OldTask(title: "Ship", due: Self.due))
        let error = #expect(throws: ModelError.self) { try PlainTask(json: data) }
        #expect(
            error?.description.contains(
                "a number needs a date strategy: deferredToDate for seconds since 2001, JSONEncoder's default") == true,
            "\(String(describing: error))")
    }

    @Test(arguments: ["deferred", "seconds", "milliseconds", "iso8601"])
    func foundationDecodersDateStrategiesApplyToModelDates(strategy: String) throws {
        let encoder = JSONEncoder()
        let decoder = JSONDecoder()
        switch strategy {
        case "seconds": (encoder.dateEncodingStrategy, decoder.dateDecodingStrategy) = (.secondsSince1970, .secondsSince1970)
        case "milliseconds":
            (encoder.dateEncodingStrategy, decoder.dateDecodingStrategy) = (.millisecondsSince1970, .millisecondsSince1970)
        case "iso8601": (encoder.dateEncodingStrategy, decoder.dateDecodingStrategy) = (.iso8601, .iso8601)
        default: break
        }
        let exact = strategy != "iso8601"
        let due = exact ? Self.due : Date(timeIntervalSince1970: 1_798_761_600)
        let data = try encoder.encode(OldTask(title: "Ship", due: due))
        let task = try decoder.decode(PlainTask.self, from: data)
        #expect(task.due == due)
        task.done = due
        // Written under the encoder's strategy: the plain type reads it back.
        let written = try encoder.encode(task)
        #expect(try decoder.decode(OldTask.self, from: written).due == due)
        let again = try decoder.decode(PlainTask.self, from: written)
        #expect(again.due == due && again.done == due)
        // ModelKit's own coders do the same as Foundation's.
        var ours = ModelJSONDecoder()
        ours.dateDecodingStrategy = decoder.dateDecodingStrategy
        #expect(try ours.decode(PlainTask.self, from: data).due == due)
    }

    @Test func filesWrittenWithISO8601DatesStillLoadUnderEveryStrategy() throws {
        // What JSONEncoder wrote for models before: ISO 8601 text whatever its strategy.
        let data = Data(#"{"title":"Ship","due":"2027-01-01T00:00:00Z"}"#.utf8)
        for decoder in [JSONDecoder(), { let d = JSONDecoder(); d.dateDecodingStrategy = .secondsSince1970; return d }()] {
            #expect(try decoder.decode(PlainTask.self, from: data).due == Date(timeIntervalSince1970: 1_798_761_600))
        }
    }

    @Test func propertyListCodersWriteModelDatesAsDates() throws {
        let task = PlainTask()
        task.due = Self.due
        for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
            let encoder = PropertyListEncoder()
            encoder.outputFormat = format
            let data = try encoder.encode(task)
            let plist = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
            #expect(plist?["due"] is Date)
            let back = try PropertyListDecoder().decode(PlainTask.self, from: data)
            #expect(format == .xml ? abs(back.due.timeIntervalSince(Self.due)) < 1 : back.due == Self.due)
        }
    }
}
