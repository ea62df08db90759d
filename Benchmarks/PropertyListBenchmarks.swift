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
        growth()
    }

    // MARK: - Growth (issue 50)

    /// Rows at n and 4n: the ratio column is n's time over 4n's (0.25 when
    /// time grows linearly), and a line after each says how many times longer
    /// 4n took (4 when linear, 16 when quadratic; the goal is at most 5).
    static func growth() {
        integerGrowth(digits: 25_000)
        for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
            let name = format == .xml ? "XML" : "binary"
            documentGrowth("\(name) plist, width", format: format, sizes: (2_500, 10_000), make: wide)
            documentGrowth("\(name) plist, depth", format: format, sizes: (120, 480), make: deep)
        }
    }

    /// Prints how many times longer the second variant of `result` took than the first.
    static func printGrowth(_ result: Harness.Result?) {
        guard let result, result.medians.count == 2 else { return }
        print(String(format: "| \(result.task) | growth at 4x: %.2f (linear: 4, goal: at most 5) |",
            result.medians[1] / result.medians[0]))
    }

    /// An XML `<integer>` of n and 4n digits (beyond `Int`, read as a big integer).
    static func integerGrowth(digits n: Int) {
        let task = "Read XML plist <integer> of \(n.formatted()) vs \((4 * n).formatted()) digits"
        guard Harness.wants(task) else { return }
        func document(_ digits: Int) -> Data {
            let number = "9" + String(repeating: "1234567890", count: digits / 10).dropFirst()
            return Data("<plist><integer>\(number)</integer></plist>".utf8)
        }
        let small = document(n)
        let large = document(4 * n)
        printGrowth(Harness.compare(task, rounds: 5, [
            .init(label: n.formatted()) { iterations in
                for _ in 0..<iterations { blackHole(try! ModelValue(propertyList: small)) }
            },
            .init(label: (4 * n).formatted()) { iterations in
                for _ in 0..<iterations { blackHole(try! ModelValue(propertyList: large)) }
            },
        ]))
    }

    /// An array of `count` small dictionaries.
    static func wide(_ count: Int) -> ModelValue {
        .array((0..<count).map { index in
            ["id": .int(index), "name": .string("item \(index)"), "ratio": .double(Double(index) / 3), "on": .bool(index % 2 == 0)]
        })
    }

    /// `levels` arrays nested in each other, each with a few scalars beside the next.
    static func deep(_ levels: Int) -> ModelValue {
        var value: ModelValue = "bottom"
        for level in 0..<(levels - 1) { value = [.int(level), .string("level \(level)"), value] }
        return value
    }

    /// Reading and writing a document of n and 4n (width or depth).
    static func documentGrowth(
        _ shape: String, format: PropertyListSerialization.PropertyListFormat, sizes: (Int, Int),
        make: (Int) -> ModelValue
    ) {
        let suffix = "\(shape) \(sizes.0.formatted()) vs \(sizes.1.formatted())"
        guard Harness.wants("Read \(suffix)") || Harness.wants("Write \(suffix)") else { return }
        let small = make(sizes.0)
        let large = make(sizes.1)
        let smallData = try! small.propertyListData(format: format)
        let largeData = try! large.propertyListData(format: format)
        printGrowth(Harness.compare("Read \(suffix)", rounds: 5, [
            .init(label: sizes.0.formatted()) { iterations in
                for _ in 0..<iterations { blackHole(try! ModelValue(propertyList: smallData)) }
            },
            .init(label: sizes.1.formatted()) { iterations in
                for _ in 0..<iterations { blackHole(try! ModelValue(propertyList: largeData)) }
            },
        ]))
        printGrowth(Harness.compare("Write \(suffix)", rounds: 5, [
            .init(label: sizes.0.formatted()) { iterations in
                for _ in 0..<iterations { blackHole(try! small.propertyListData(format: format)) }
            },
            .init(label: sizes.1.formatted()) { iterations in
                for _ in 0..<iterations { blackHole(try! large.propertyListData(format: format)) }
            },
        ]))
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
