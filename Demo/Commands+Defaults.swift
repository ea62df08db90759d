import Foundation
import ModelKit

extension Commands {
    /// `defaults [list | get KEY | set KEY VALUE | remove KEY]` on the standard store.
    static func defaults(_ operands: [String]) throws {
        let store = ModelDefaults.standard
        if let problem = store.loadError { throw problem }
        func requireCount(_ count: Int, _ message: String) throws {
            guard operands.count == count else { throw UsageError(message, command: .defaults) }
        }
        func requireKey(_ key: String) throws {
            guard store.keys.contains(key) else { throw Failure("no such key '\(key)'") }
        }
        switch operands.first ?? "list" {
        case "list":
            try requireCount(operands.isEmpty ? 0 : 1, "list takes no arguments")
            if store.keys.isEmpty { return print("the store is empty (\(store.url.path))") }
            let lines = try store.keys.sorted().map { key in
                "\(key) = \(try (store.modelValue(forKey: key) ?? .null).jsonString())"
            }
            print(lines.joined(separator: "\n"))
        case "get":
            try requireCount(2, "get takes KEY")
            try requireKey(operands[1])
            print(try (store.modelValue(forKey: operands[1]) ?? .null).jsonString())
        case "set":
            try requireCount(3, "set takes KEY and VALUE")
            store.set(parse(operands[2]), forKey: operands[1])
            try store.save()
        case "remove":
            try requireCount(2, "remove takes KEY")
            try requireKey(operands[1])
            store.removeValue(forKey: operands[1])
            try store.save()
        default:
            throw UsageError("unknown defaults command '\(operands[0])'", command: .defaults)
        }
    }
}
