import Foundation
import ModelKit

extension Commands {
    /// `set FILE KEY=VALUE...`: all the assignments or none; the file is
    /// written only when every one succeeded.
    static func set(_ place: Document.Place, _ assignments: [Assignment], format: ModelDocumentFormat?) throws {
        let document = try Document.read(place)
        var changed = Set<String>()
        let content: Document.Content
        if let type = document.knownClass {
            let model = try document.model(of: type)
            for assignment in assignments {
                let before = model.modelValue
                try assignment.apply(to: model)
                if model.modelValue != before { changed.insert(assignment.path) }
            }
            content = .model(model)
        } else {
            var value = document.value
            for assignment in assignments {
                let after = try assignment.applied(to: value)
                if after != value { changed.insert(assignment.path) }
                value = after
            }
            content = .value(value)
        }
        try Document.write(content, to: place, format: format ?? (place.isStandard ? .json(.pretty) : document.formatKeepingLayout))
        report("changed: \(changed.isEmpty ? "nothing" : changed.sorted().joined(separator: ", "))", besides: place)
    }
}
