import Foundation
import ModelKit

/// XML property lists: ModelKit's reader and writer against Foundation's
/// `PropertyListSerialization` (plus the conversion to and from `ModelValue`
/// that Foundation's route needs).
enum PropertyListBenchmarks {
    static func run() {
        var items: [ModelValue] = []
        for index in 0..<500 {
            items.append([
                "id": .int(index), "name": .string("item \(index) & <more>"), "price": .double(Double(index) * 1.25),
                "active": .bool(index % 2 == 0), "created": .date(Date(timeIntervalSince1970: Double(1_700_000_000 + index))),
                "tags": ["a", "b", "c"], "blob": .data(Data(repeating: UInt8(index % 256), count: 24)),
            ])
        }
        let value = ModelValue.object(["items": .array(items)])
        let data = try! value.propertyListData(format: .xml)
        Harness.compare("Read XML plist", bytes: data.count, [
            .init(label: "Foundation") { iterations in
                for _ in 0..<iterations {
                    let object = try! PropertyListSerialization.propertyList(from: data, options: [], format: nil)
                    _ = object as! [String: Any]
                }
            },
            .init(label: "ModelKit") { iterations in
                for _ in 0..<iterations { _ = try! ModelValue(propertyList: data) }
            },
        ])
        let object = try! PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        Harness.compare("Write XML plist", bytes: data.count, [
            .init(label: "Foundation") { iterations in
                for _ in 0..<iterations {
                    _ = try! PropertyListSerialization.data(fromPropertyList: object, format: .xml, options: 0)
                }
            },
            .init(label: "ModelKit") { iterations in
                for _ in 0..<iterations { _ = try! value.propertyListData(format: .xml) }
            },
        ])
        compareBinary("500 items", value: value)
        compareBinary("10,000 models", value: modelsDocument())
    }

    /// 10,000 small models as their saved form: metadata, saved keys, nested arrays.
    static func modelsDocument() -> ModelValue {
        var models: [ModelValue] = []
        models.reserveCapacity(10_000)
        for index in 0..<10_000 {
            models.append([
                "type": "Note", "version": 1, "title": .string("Note \(index)"), "count": .int(index),
                "tags": ["home", .string("tag \(index % 50)")], "done": .bool(index % 3 == 0),
                "due": .date(Date(timeIntervalSinceReferenceDate: Double(index) * 3600.5)), "ratio": .double(Double(index) / 7),
            ])
        }
        return ["type": "Folder", "version": 1, "notes": .array(models)]
    }

    /// Binary read and write rows: ModelKit's own codec against
    /// `PropertyListSerialization` (reading to `[String: Any]`, writing from it).
    static func compareBinary(_ name: String, value: ModelValue) {
        guard Harness.wants("binary plist \(name)") else { return }
        let data = try! value.propertyListData(format: .binary)
        let object = try! PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        Harness.compare("Read binary plist, \(name)", bytes: data.count, [
            .init(label: "Foundation") { iterations in
                for _ in 0..<iterations {
                    blackHole(try! PropertyListSerialization.propertyList(from: data, options: [], format: nil))
                }
            },
            .init(label: "ModelKit") { iterations in
                for _ in 0..<iterations { blackHole(try! ModelValue(propertyList: data)) }
            },
        ])
        Harness.compare("Write binary plist, \(name)", bytes: data.count, [
            .init(label: "Foundation") { iterations in
                for _ in 0..<iterations {
                    blackHole(try! PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0))
                }
            },
            .init(label: "ModelKit") { iterations in
                for _ in 0..<iterations { blackHole(try! value.propertyListData(format: .binary)) }
            },
        ])
    }
}
