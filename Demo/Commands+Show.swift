import Foundation
import ModelKit

extension Commands {
    /// `show FILE`: prints the whole view, or nothing on standard output
    /// when the document cannot be read.
    static func show(_ place: Document.Place) throws {
        let document = try Document.read(place)
        var lines = ["file: \(place.inputName) (\(name(of: document.format)))"]
        if let type = document.knownClass {
            lines += try view(of: document, as: type)
        } else {
            lines += try genericView(of: document.value)
        }
        print(lines.joined(separator: "\n"))
    }

    /// A document of a class the Demo knows, as the class reads it.
    static func view(of document: Document, as type: ModelObject.Type) throws -> [String] {
        let model = try document.model(of: type)
        let members = document.value.objectValue ?? ModelValue.Object()
        let named = type.typeKey.flatMap { members[$0] } != nil
        var lines = ["class: \(type.typeName)" + (named ? "" : " (the document names none)")]
        if let versionKey = type.versionKey, case .int(let version)? = members[versionKey] {
            lines.append("version: " + (version < type.version ? "\(version), upgraded to \(type.version)" : "\(version)"))
        } else {
            lines.append("version: \(type.version) (none in the document)")
        }
        lines.append("values:")
        guard case .object(let saved) = model.modelValue else { return lines }
        let bag = Set(model.extensibleProperties.keys)
        for (key, value) in saved where key != type.typeKey && key != type.versionKey && !bag.contains(key) {
            lines.append("  \(key): \(try value.jsonString())")
        }
        let changed = model.changedKeys.sorted()
        lines.append("changed keys: \(changed.isEmpty ? "none" : changed.joined(separator: ", "))")
        if bag.isEmpty {
            lines.append("extensible properties: none")
        } else {
            lines.append("extensible properties:")
            for (key, value) in saved where bag.contains(key) { lines.append("  \(key): \(try value.jsonString())") }
        }
        return lines
    }

    /// A document of a class the Demo does not know, or one that is not an
    /// object: its class name, version, keys and values as they are.
    static func genericView(of value: ModelValue) throws -> [String] {
        guard case .object(let members) = value else {
            return ["value: \(try value.jsonString()) (\(value.kindDescription), not an object: no class, version or keys)"]
        }
        let typeKey = ModelObject.typeKey ?? "type"
        let versionKey = ModelObject.versionKey ?? "version"
        let known = "the Demo knows \(DemoModels.names); shown as it is"
        var lines: [String] = []
        switch members[typeKey] {
        case .string(let name)?: lines.append("class: \(name) (\(known))")
        case nil: lines.append("class: none")
        case let other?: lines.append("class: none (\(typeKey) holds \(other.excerpt), not a class name)")
        }
        lines.append("version: " + (try members[versionKey].map { try $0.jsonString() } ?? "none"))
        let keys = members.keys.filter { $0 != typeKey && $0 != versionKey }
        lines.append(keys.isEmpty ? "values: none" : "values:")
        for key in keys {
            lines.append("  \(key): \(try members[key]!.jsonString())")
        }
        return lines
    }
}
