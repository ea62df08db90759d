import Foundation
import ModelKit

/// One `KEY=VALUE` of `set`: a key or dotted key path, as typed, and the
/// text of its value.
///
/// Each step of the path but the last must name something that exists: a
/// key of a model or an object, or an element of an array (`children.0`).
/// A path that does not resolve is refused with a ``Failure`` naming the
/// path and why (`children.0.title: children has no element 0 (it is
/// empty)`), before anything is set.
struct Assignment {
    /// The key path as typed: `children.0.title`.
    let path: String
    /// Its steps: `["children", "0", "title"]`.
    let components: [String]
    /// The text after the first `=`.
    let text: String

    /// Splits `KEY=VALUE`.
    /// - Throws: ``UsageError`` for an argument with no key, a path with an
    ///   empty step, or a metadata key at the top.
    init(parsing argument: String) throws {
        guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else {
            throw UsageError("expected KEY=VALUE, found '\(argument)'", command: .set)
        }
        path = String(argument[..<equals])
        components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        text = String(argument[argument.index(after: equals)...])
        if components.contains("") {
            throw UsageError("'\(path)' has an empty step: write KEY or a dotted path such as child.title", command: .set)
        }
        if components.count == 1, let problem = Assignment.metadataProblem(path) {
            throw UsageError(problem, command: .set)
        }
    }

    /// Why `key` cannot be set, when it is one of the metadata keys the library writes.
    static func metadataProblem(_ key: String) -> String? {
        let meaning: String
        if key == ModelObject.versionKey {
            meaning = "data version"
        } else if key == ModelObject.typeKey {
            meaning = "class name"
        } else {
            return nil
        }
        return "'\(key)' is metadata (the document's \(meaning)), not a key to set; the library writes it"
    }

    /// What VALUE may stand for, in the order tried: its reading as JSON,
    /// when it is JSON, then the text itself as a string.
    var candidates: [ModelValue] {
        guard let json = try? ModelValue(json: Data(text.utf8)) else { return [.string(text)] }
        if case .string = json { return [json] }
        return [json, .string(text)]
    }

    /// The first `count` steps as typed, or `the document` for none.
    func prefix(_ count: Int) -> String {
        count == 0 ? "the document" : components.prefix(count).joined(separator: ".")
    }

    /// `it is empty`, `it has 1 element`, `it has 3 elements`.
    static func size(_ count: Int) -> String {
        count == 0 ? "it is empty" : "it has \(count) element\(count == 1 ? "" : "s")"
    }

    /// The index that step `step` names in an array of `count` elements.
    func index(at step: Int, count: Int) throws -> Int {
        let array = prefix(step)
        guard let index = Int(components[step]), index >= 0, String(index) == components[step] else {
            throw Failure("\(path): \(array) is an array, and '\(components[step])' is not an index (0, 1, …)")
        }
        guard index < count else {
            throw Failure("\(path): \(array) has no element \(index) (\(Assignment.size(count)))")
        }
        return index
    }
}

// MARK: - Any document, as a value

extension Assignment {
    /// `document` with this assignment made: VALUE is JSON when it reads as
    /// JSON, else text.
    /// - Throws: ``Failure`` when the path does not resolve.
    func applied(to document: ModelValue) throws -> ModelValue {
        try setting(candidates[0], in: document, from: 0)
    }

    /// `value`, the member at step `step`, with the member its remaining steps name set to `new`.
    func setting(_ new: ModelValue, in value: ModelValue, from step: Int) throws -> ModelValue {
        let component = components[step]
        let isLast = step == components.count - 1
        switch value {
        case .object(var members):
            if isLast {
                _ = members.updateValue(new, forKey: component)
            } else {
                guard let member = members[component] else {
                    throw Failure("\(path): \(prefix(step)) has no key '\(component)'")
                }
                _ = members.updateValue(try setting(new, in: member, from: step + 1), forKey: component)
            }
            return .object(members)
        case .array(var elements):
            let index = try index(at: step, count: elements.count)
            elements[index] = isLast ? new : try setting(new, in: elements[index], from: step + 1)
            return .array(elements)
        default:
            let name = step == 0 ? "the document is" : "\(prefix(step)) is"
            throw Failure("\(path): \(name) \(value.excerpt), which has no key '\(component)'")
        }
    }
}

// MARK: - A model, by its declared types

extension Assignment {
    /// Makes this assignment in `root` through key-value access, so that
    /// the value is checked against the declared type (and rules) of its
    /// key: each of ``candidates`` is tried in turn, and the first the key
    /// accepts is set.
    /// - Throws: ``Failure`` when the path does not resolve; the
    ///   ``ModelError`` of the first candidate, its key path from the root,
    ///   when no candidate is of the declared type.
    func apply(to root: ModelObject) throws {
        var model = root
        var walked: [ModelKeyPath.Component] = []
        var step = 0
        while true {
            let key = components[step]
            let type = Swift.type(of: model)
            if step == components.count - 1 {
                if key == type.typeKey || key == type.versionKey, let problem = Assignment.metadataProblem(key) {
                    throw Failure("\(path): \(problem)")
                }
                return try setTrying(in: model, key: key, walked: walked) { $0 }
            }
            let member = model.value(forKey: key)
            let hasNextStep = step + 2 < components.count
            switch member {
            case let nested as ModelObject:
                model = nested
                walked.append(.key(key))
                step += 1
            case let models as [ModelObject] where hasNextStep:
                let index = try index(at: step + 1, count: models.count)
                model = models[index]
                walked += [.key(key), .index(index)]
                step += 2
            case nil:
                if type.savedKeys.contains(key) {
                    throw Failure("\(path): \(prefix(step + 1)) is null")
                }
                throw Failure("\(path): \(prefix(step)) has no key '\(key)'")
            case let other?:
                // A value that is not a model (an array of strings, a colour,
                // an extensible property, a dictionary of models), or an
                // element that is itself the target (children.0={…}): its
                // saved form is edited, then set whole, so the key checks
                // the result.
                guard let saved = (other as? ModelValue) ?? (other as? any ModelValueConvertible)?.modelValue else {
                    throw Failure("\(path): \(prefix(step + 1)) cannot be changed in parts")
                }
                return try setTrying(in: model, key: key, walked: walked) { try setting($0, in: saved, from: step + 1) }
            }
        }
    }

    /// Sets `key` of `model` to the first candidate, made into a value by
    /// `build`, that the key accepts.
    private func setTrying(
        in model: ModelObject, key: String, walked: [ModelKeyPath.Component], _ build: (ModelValue) throws -> ModelValue
    ) throws {
        var firstError: ModelError?
        for candidate in candidates {
            let value = try build(candidate)
            do {
                try model.setValue(value, forKey: key)
                return
            } catch let error as ModelError {
                if firstError == nil { firstError = error.prepending(ModelKeyPath(walked)) }
            }
        }
        if let firstError { throw firstError }
    }
}
