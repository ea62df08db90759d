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
    }
}
