import Foundation

extension JSONPatch {
    /// Reads a patch document: a JSON array of operation objects.
    ///
    /// ```swift
    /// let patch = try JSONPatch(json: Data(#"[{"op":"remove","path":"/tags/0"}]"#.utf8))
    /// print(patch.operations.count)   // 1
    /// ```
    ///
    /// Members other than `op`, `path`, `from` and `value` are ignored, as
    /// RFC 6902 asks.
    /// - Parameter json: the document's UTF-8 bytes.
    /// - Throws: ``ModelError`` for a document that is not valid JSON, or
    ///   with code ``ModelError/Code/malformedDocument`` for one that is not
    ///   a patch, naming the operation's index: `operation 1: unknown op
    ///   "spam"; expected add, remove, replace, move, copy or test`.
    public init(json: Data) throws {
        try self.init(modelValue: ModelValue(json: json))
    }

    /// Reads a patch document from JSON text; see ``init(json:)-(Data)``.
    /// - Parameter json: the document's text.
    /// - Throws: ``ModelError`` for text that is not valid JSON or not a patch.
    public init(json: String) throws {
        try self.init(json: Data(json.utf8))
    }

    /// Reads a patch document already read as a ``ModelValue``: an array of
    /// operation objects.
    /// - Parameter modelValue: the patch document.
    /// - Throws: ``ModelError`` with code ``ModelError/Code/malformedDocument``
    ///   for a value that is not a patch, naming the operation's index.
    public init(modelValue: ModelValue) throws {
        guard case .array(let elements) = modelValue else {
            throw ModelError(
                code: .malformedDocument,
                message: "expected a JSON Patch (an array of operations), found \(modelValue.excerpt)")
        }
        var operations: [Operation] = []
        operations.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            operations.append(try Self.operation(element, index: index))
        }
        self.init(operations)
    }

    /// The patch document: an array with one object per operation, its
    /// members in the order `op`, `from`, `path`, `value`.
    public var modelValue: ModelValue {
        .array(
            operations.map { operation in
                var members = ModelValue.Object(minimumCapacity: 3)
                members.appendNew(key: "op", value: .string(operation.name))
                if let from = operation.from { members.appendNew(key: "from", value: .string(from.description)) }
                members.appendNew(key: "path", value: .string(operation.path.description))
                switch operation {
                case .add(_, let value), .replace(_, let value), .test(_, let value):
                    members.appendNew(key: "value", value: value)
                case .remove, .move, .copy:
                    break
                }
                return .object(members)
            })
    }

    /// The patch document as JSON.
    ///
    /// ```swift
    /// let patch = JSONPatch([.remove(path: try JSONPointer("/tags/0"))])
    /// print(try patch.jsonString())   // [{"op":"remove","path":"/tags/0"}]
    /// ```
    /// - Parameter options: pretty printing and the like; compact by default.
    /// - Throws: ``ModelError`` for a value that JSON cannot hold (an
    ///   infinite number).
    public func jsonData(options: JSONWritingOptions = JSONWritingOptions()) throws -> Data {
        try modelValue.jsonData(options: options)
    }

    /// The patch document as JSON text; see ``jsonData(options:)``.
    /// - Parameter options: pretty printing and the like; compact by default.
    /// - Throws: ``ModelError`` for a value that JSON cannot hold.
    public func jsonString(options: JSONWritingOptions = JSONWritingOptions()) throws -> String {
        try modelValue.jsonString(options: options)
    }

    /// The operation that `element`, the `index`th of a patch document, describes.
    private static func operation(_ element: ModelValue, index: Int) throws -> Operation {
        func failure(_ context: String, _ reason: String) -> ModelError {
            ModelError(code: .malformedDocument, message: "operation \(index)\(context): \(reason)")
        }
        guard case .object(let members) = element else {
            throw failure("", "expected an object, found \(element.excerpt)")
        }
        guard let rawName = members["op"] else { throw failure("", "missing \"op\"") }
        guard case .string(let name) = rawName else {
            throw failure("", "\"op\" must be a string, found \(rawName.excerpt)")
        }
        guard ["add", "remove", "replace", "move", "copy", "test"].contains(name) else {
            throw failure(
                "", "unknown op \(ModelValue.quoted(name)); expected add, remove, replace, move, copy or test")
        }
        func pointer(_ key: String, context: String) throws -> JSONPointer {
            guard let raw = members[key] else { throw failure(context, "missing \"\(key)\"") }
            guard case .string(let text) = raw else {
                throw failure(context, "\"\(key)\" must be a string (a JSON Pointer), found \(raw.excerpt)")
            }
            switch JSONPointer.parse(text) {
            case .success(let pointer): return pointer
            case .failure(let error):
                throw failure(
                    context, "\"\(key)\" (\(ModelValue.quoted(text))) is not a JSON Pointer: \(error.reason)")
            }
        }
        let path = try pointer("path", context: " (\(name))")
        let context = " (\(name) \(shown(path)))"
        func value() throws -> ModelValue {
            guard let value = members["value"] else { throw failure(context, "missing \"value\"") }
            return value
        }
        switch name {
        case "add": return .add(path: path, value: try value())
        case "remove": return .remove(path: path)
        case "replace": return .replace(path: path, value: try value())
        case "test": return .test(path: path, value: try value())
        case "copy": return .copy(from: try pointer("from", context: context), path: path)
        default:
            let from = try pointer("from", context: context)
            if from.isProperPrefix(of: path) {
                throw failure(" (move \(shown(from)) to \(shown(path)))", movedIntoItself)
            }
            return .move(from: from, path: path)
        }
    }

    /// Why a move into the value's own child fails.
    static let movedIntoItself = "cannot move a value into one of its own children"
}
