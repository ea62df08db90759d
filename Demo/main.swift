import Foundation
import ModelKit

// A short tour of ModelKit: declare a model, change it, save it, load it back.

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
        due = Date(timeIntervalSince1970: 1_763_307_200)
    }
}

func section(_ title: String) { print("\n== \(title)") }

section("A new note has default values and no changes")
let note = Note()
print("title:", note.title, "| due:", note.due!, "| hasChanges:", note.hasChanges)

section("Changing it records which keys changed")
note.title = "Groceries"
note.tags.append("home")
note.colour = Color(hex: "#FF8000")!
let milk = Note()
milk.title = "Milk"
milk.count = 2
note.children = [milk]
print("changedKeys:", note.changedKeys.sorted())
milk.clearChanges()
note.clearChanges()
milk.count = 3
print("after editing a child: hasChanges:", note.hasChanges, "| hasAnyChanges:", note.hasAnyChanges)

section("Its dictionary")
for (key, value) in note.dictionary.sorted(by: { $0.key < $1.key }) { print("  \(key): \(value)") }

section("Its JSON")
print(try note.jsonString(options: .pretty))

section("Loading it back")
let copy = try Note(json: note.jsonData())
print("title:", copy.title, "| child:", copy.children[0].title, copy.children[0].count, "| hasAnyChanges:", copy.hasAnyChanges)

section("Old data is upgraded; keys the class does not know are kept")
let old = Data(#"{"type":"Note","version":1,"title":"Old","number":7,"addedLater":{"by":"version 3"}}"#.utf8)
let upgraded = try Note(json: old)
print("count:", upgraded.count, "| extensibleProperties:", upgraded.extensibleProperties)
print(try upgraded.jsonString())

section("Files: the format follows the extension and is detected on load")
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ModelKitDemo-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
for name in ["note.json", "note.plist", "note.bplist"] {
    let url = folder.appendingPathComponent(name)
    try note.write(to: url)
    let size = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
    print("  \(name): \(size) bytes, reads back as \"\(try Note(contentsOf: url).title)\"")
}
try FileManager.default.removeItem(at: folder)

section("Bad input is a clear error, and the object is left as it was")
do {
    try note.update(from: ["title": "Changed", "children": [["count": "three"]]])
} catch {
    print("error:", error)
}
print("title is still:", note.title)
do {
    _ = try Note(json: Data("{\"title\": \"A\",\n \"count\": 1 2}".utf8))
} catch {
    print("error:", error)
}
