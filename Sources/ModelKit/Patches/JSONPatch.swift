import Foundation

/// A JSON Patch (RFC 6902): a list of operations that turns one JSON value
/// into another.
///
/// Read a patch from JSON, compute one with ``difference(from:to:)``, or build
/// one from ``Operation``s; apply it with ``applied(to:)``, or to a model with
/// ``ModelObject/apply(_:)-(JSONPatch)``.
///
/// ```swift
/// let document: ModelValue = ["title": "Milk", "tags": ["dairy"]]
/// let patch = try JSONPatch(json: #"[{"op":"add","path":"/tags/-","value":"cold"}]"#)
/// print(try patch.applied(to: document))   // {"title":"Milk","tags":["dairy","cold"]}
///
/// let back = JSONPatch.difference(from: try patch.applied(to: document), to: document)
/// print(try back.jsonString())             // [{"op":"remove","path":"/tags/1"}]
/// ```
///
/// Application is all or nothing: the operations run in order on a copy, and
/// the first that fails throws a ``ModelError`` naming its index, its path and
/// the reason (`operation 2 (replace /tags/7): no element at index 7; the
/// array has 3 elements`).
///
/// Values are compared as JSON values, by ``Operation/test(path:value:)``
/// and by ``difference(from:to:)`` alike: numbers are equal when their values
/// are (`1` and `1.0` are equal, as RFC 6902 says), objects whatever the order
/// of their members, and a date or data equals the string JSON writes for it.
public struct JSONPatch: Sendable, Hashable {
    /// One operation of a patch.
    public enum Operation: Sendable, Hashable {
        /// Adds `value` at `path`: a new member, a replaced member, an
        /// element inserted before the one at an index, or appended at `-`.
        case add(path: JSONPointer, value: ModelValue)
        /// Removes the member or element at `path`, which must exist.
        case remove(path: JSONPointer)
        /// Replaces the value at `path`, which must exist.
        case replace(path: JSONPointer, value: ModelValue)
        /// Removes the value at `from` and adds it at `path`; `path` may not
        /// be inside `from`.
        case move(from: JSONPointer, path: JSONPointer)
        /// Adds a copy of the value at `from` at `path`.
        case copy(from: JSONPointer, path: JSONPointer)
        /// Checks that the value at `path` equals `value` (as JSON values);
        /// the patch fails, changing nothing, if it does not.
        case test(path: JSONPointer, value: ModelValue)

        /// The operation's name as JSON writes it: `"add"`, `"remove"`….
        public var name: String {
            switch self {
            case .add: "add"
            case .remove: "remove"
            case .replace: "replace"
            case .move: "move"
            case .copy: "copy"
            case .test: "test"
            }
        }

        /// The location the operation changes or tests.
        public var path: JSONPointer {
            switch self {
            case .add(let path, _), .remove(let path), .replace(let path, _), .test(let path, _): path
            case .move(_, let path), .copy(_, let path): path
            }
        }

        /// The location a move or a copy takes its value from; `nil` for the others.
        public var from: JSONPointer? {
            switch self {
            case .move(let from, _), .copy(let from, _): from
            default: nil
            }
        }

        /// The operation as errors name it: `replace /tags/7`, `move /a to /b`.
        var summary: String {
            let path = JSONPatch.shown(self.path)
            guard let from else { return "\(name) \(path)" }
            return "\(name) \(JSONPatch.shown(from)) to \(path)"
        }
    }

    /// The operations, applied in order.
    public var operations: [Operation]

    /// How deep the patched document may nest and how much copies may add
    /// to it: ``Limits/standard`` unless set.
    public var limits: Limits = .standard

    /// A patch of `operations`.
    ///
    /// ```swift
    /// let patch = JSONPatch([.replace(path: try JSONPointer("/title"), value: "Eggs")])
    /// ```
    public init(_ operations: [Operation] = []) {
        self.operations = operations
    }

    /// Whether the patch has no operation (and so changes nothing).
    public var isEmpty: Bool { operations.isEmpty }

    /// A pointer as error messages show it: the root as `""`, and a long
    /// pointer by its first 60 characters and an ellipsis.
    static func shown(_ pointer: JSONPointer) -> String {
        if pointer.isRoot { return "\"\"" }
        let text = pointer.description
        return text.unicodeScalars.count > 60 ? String(text.unicodeScalars.prefix(60)) + "…" : text
    }
}
