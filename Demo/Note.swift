import Foundation
import ModelKit

/// The Demo's model, declared as in ModelKit's design: a colour, a date, an
/// interval, nested notes, a renamed key, an upgrade from version 1.
final class Note: ModelObject, @unchecked Sendable {
    @Saved var title = "Untitled"
    @Saved var count = 0
    @Saved var tags: [String] = []
    @Saved var colour: Color = .blue
    @Saved var due: Date? = nil
    @Saved var snooze = Interval(5, .minutes)
    @Saved var child: Note? = nil
    @Saved var children: [Note] = []
    @Saved("legacy_name") var renamed = ""
    var scratch = 0  // not saved

    override class var version: Int { 2 }

    override class func upgrade(_ values: inout [String: ModelValue], from version: Int) throws {
        if version == 1 {
            values["count"] = values["number"]
            values["number"] = nil
        }
    }

    override func loadDefaultValues() {
        super.loadDefaultValues()
        // A fixed date, so that every run prints the same text.
        due = Date(timeIntervalSince1970: 1_763_307_200)
    }
}
