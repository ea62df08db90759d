import Foundation
import ModelKit

extension Commands {
    // MARK: - convert

    static func convert(_ input: Document.Place, to output: Document.Place, format: ModelDocumentFormat?) throws {
        let chosen: ModelDocumentFormat
        if let format {
            chosen = format
        } else if case .file(let url, let typed) = output {
            guard let byExtension = ModelDocumentFormat(pathExtension: url.pathExtension) else {
                throw UsageError(
                    "cannot choose a format from the extension of '\(typed)'; use .json, .plist, .xml, .bplist or .archive, or --format",
                    command: .convert)
            }
            if case .json = byExtension { chosen = .json(.pretty) } else { chosen = byExtension }
        } else {
            chosen = .json(.pretty)
        }
        let document = try Document.read(input)
        // A DejalObject file (its root names a representedClassName) is written in ModelKit's form.
        let value = try Document.attributing(to: input) {
            document.value["representedClassName"] == nil ? document.value : try document.value.convertedFromDejalObject()
        }
        // A keyed archive of a model the Demo knows is its class's object,
        // as the old app's NSKeyedUnarchiver reads it.
        var content = Document.Content.value(value)
        if case .keyedArchive = chosen, document.namesClass, let type = document.knownClass {
            content = .model(try Document.attributing(to: input) { try type.decoded(from: value) })
        }
        let size = try Document.write(content, to: output, format: chosen)
        report("wrote \(output.outputName) (\(name(of: chosen)), \(size) bytes)", besides: output)
    }

    // MARK: - diff and patch

    static func diff(_ a: Document.Place, _ b: Document.Place) throws {
        let patch = JSONPatch.difference(from: try Document.read(a).value, to: try Document.read(b).value)
        guard !patch.isEmpty, case .array(let operations) = patch.modelValue else { return print("[]") }
        var lines = ["["]
        for (index, operation) in operations.enumerated() {
            lines.append("  " + (try operation.jsonString()) + (index < operations.count - 1 ? "," : ""))
        }
        lines.append("]")
        print(lines.joined(separator: "\n"))
    }

    static func patch(_ place: Document.Place, with patchPlace: Document.Place, format: ModelDocumentFormat?) throws {
        let target = try Document.read(place)
        let patchValue = try Document.read(patchPlace).value
        let (result, summary) = try Document.attributing(to: patchPlace) { () throws -> (ModelValue, String) in
            if case .object = patchValue {
                return (try JSONMergePatch(patchValue).applied(to: target.value), "a merge patch")
            }
            let patch = try JSONPatch(modelValue: patchValue)
            let count = patch.operations.count
            return (try patch.applied(to: target.value), count == 1 ? "1 operation" : "\(count) operations")
        }
        try Document.write(.value(result), to: place, format: format ?? (place.isStandard ? .json(.pretty) : target.formatKeepingLayout))
        report("applied \(summary) to \(place.outputName)", besides: place)
    }
}
