import Foundation

extension JSONPatch {
    /// The value that this patch makes of `value`.
    ///
    /// ```swift
    /// let patch = try JSONPatch(json: #"[{"op":"replace","path":"/tags/7","value":"x"}]"#)
    /// do {
    ///     _ = try patch.applied(to: ["tags": ["a", "b", "c"]])
    /// } catch {
    ///     print(error)   // operation 0 (replace /tags/7): no element at index 7; the array has 3 elements
    /// }
    /// ```
    ///
    /// The operations run in order, each on the result of the one before, as
    /// RFC 6902 says. All or nothing: they work on a copy, so when one fails
    /// `value` is as it was (it is a value, and never changes) and no
    /// partial result is returned.
    /// - Parameter value: the document to patch.
    /// - Returns: the patched document.
    /// - Throws: ``ModelError`` naming the failing operation's index, its
    ///   path and the reason: code ``ModelError/Code/unknownKey`` for a path
    ///   that names nothing, ``ModelError/Code/typeMismatch`` for a path
    ///   through a value that is not an object or an array,
    ///   ``ModelError/Code/testFailed`` for a `test` that found another
    ///   value, ``ModelError/Code/malformedDocument`` for a move into the
    ///   value's own child.
    public func applied(to value: ModelValue) throws -> ModelValue {
        try applied(to: value, checking: { _, _ in })
    }

    /// Why an operation failed, before the operation is named.
    struct Failure: Error {
        var code: ModelError.Code
        var reason: String
    }

    /// ``applied(to:)``, running `inspect` on the document before each
    /// operation and `check` on it after; a ``Failure`` either throws is
    /// reported as that operation's.
    func applied(
        to value: ModelValue,
        inspecting inspect: (Operation, ModelValue) throws -> Void = { _, _ in },
        checking check: (Operation, ModelValue) throws -> Void
    ) throws -> ModelValue {
        var document = value
        var growth = Growth(limits: limits)
        for (index, operation) in operations.enumerated() {
            do {
                try inspect(operation, document)
                try growth.check(operation, in: document, original: value, patch: self)
                try Self.apply(operation, to: &document)
                try check(operation, document)
            } catch let failure as Failure {
                throw ModelError(
                    code: failure.code, message: "operation \(index) (\(operation.summary)): \(failure.reason)")
            }
        }
        return document
    }

    /// What a patch's operations have added so far, checked against its
    /// ``Limits`` before each operation.
    private struct Growth {
        let limits: Limits
        /// The estimated JSON bytes that copies have added.
        var copied = 0
        /// The most that copies may add, once the document and the patch
        /// have been measured (only when copies pass the minimum).
        var allowance: Int?

        mutating func check(_ operation: Operation, in document: ModelValue, original: ModelValue, patch: JSONPatch)
            throws
        {
            switch operation {
            case .add(let path, let value), .replace(let path, let value):
                try checkDepth(of: value, at: path)
            case .move(let from, let path):
                // Only a move to a deeper place can deepen the document.
                guard path.tokens.count > from.tokens.count,
                    let value = try? JSONPatch.value(at: from, in: document)
                else { return }
                try checkDepth(of: value, at: path)
            case .copy(let from, let path):
                guard let value = try? JSONPatch.value(at: from, in: document) else { return }
                try checkDepth(of: value, at: path)
                var limit = allowance ?? limits.minimumCopyAllowance
                var size = value.measured(sizeLimit: limit - copied).size
                if copied + size > limit, allowance == nil {
                    // Past the minimum: measure what the patch may copy.
                    let base = original.measured().size &+ patch.operations.reduce(0) { $0 &+ Self.size(of: $1) }
                    limit = Swift.max(limits.minimumCopyAllowance, base)
                    allowance = limit
                    size = value.measured(sizeLimit: limit - copied).size
                }
                guard copied + size <= limit else {
                    throw Failure(
                        code: .limitExceeded,
                        reason: "the patch's copies would add more than \(limit) bytes of JSON to the document, "
                            + "the most a patch may copy (the size of the document and the patch together, or "
                            + "\(limits.minimumCopyAllowance) bytes if larger: see JSONPatch.Limits)")
                }
                copied += size
            case .remove, .test:
                return
            }
        }

        private func checkDepth(of value: ModelValue, at path: JSONPointer) throws {
            let room = limits.maximumDepth - path.tokens.count
            guard room >= 0, value.measured(depthLimit: room).depth <= room else {
                throw Failure(
                    code: .nestingTooDeep,
                    reason: "the result would nest deeper than \(limits.maximumDepth) levels")
            }
        }

        /// An operation's size as JSON text, estimated.
        private static func size(of operation: Operation) -> Int {
            var size = 20 + operation.path.description.utf8.count + (operation.from?.description.utf8.count ?? 0)
            switch operation {
            case .add(_, let value), .replace(_, let value), .test(_, let value): size &+= value.measured().size
            default: break
            }
            return size
        }
    }

    /// Applies one operation to `document`, which is a scratch copy: on a
    /// failure it may be left half-changed.
    private static func apply(_ operation: Operation, to document: inout ModelValue) throws {
        switch operation {
        case .add(let path, let value):
            try add(value, at: path, in: &document)
        case .remove(let path):
            _ = try remove(at: path, in: &document)
        case .replace(let path, let value):
            guard let last = path.tokens.last else {
                document = value
                return
            }
            try withValue(at: path.tokens.dropLast(), in: &document) { parent, place in
                if var members = parent.takeObject() {
                    defer { parent = .object(members) }
                    guard let position = members.index(forKey: last) else { throw noMember(last, in: place) }
                    members.replaceValue(at: position, with: value)
                } else if var elements = parent.takeArray() {
                    defer { parent = .array(elements) }
                    elements[try existingIndex(last, count: elements.count)] = value
                } else {
                    throw notAContainer(parent, at: place, token: last)
                }
            }
        case .move(let from, let path):
            if from.isProperPrefix(of: path) { throw Failure(code: .malformedDocument, reason: movedIntoItself) }
            let value = try remove(at: from, in: &document)
            try add(value, at: path, in: &document)
        case .copy(let from, let path):
            try add(try self.value(at: from, in: document), at: path, in: &document)
        case .test(let path, let expected):
            let found = try self.value(at: path, in: document)
            guard found.isJSONEqual(to: expected) else {
                throw Failure(code: .testFailed, reason: "found \(shown(found)), expected \(shown(expected))")
            }
        }
    }

    /// Adds `value` at `path`: RFC 6902's `add`.
    private static func add(_ value: ModelValue, at path: JSONPointer, in document: inout ModelValue) throws {
        guard let last = path.tokens.last else {
            document = value
            return
        }
        try withValue(at: path.tokens.dropLast(), in: &document) { parent, place in
            if var members = parent.takeObject() {
                members[last] = value
                parent = .object(members)
            } else if var elements = parent.takeArray() {
                defer { parent = .array(elements) }
                switch JSONPointer.arrayPosition(last) {
                case .end: elements.append(value)
                case .index(let position) where position <= elements.count: elements.insert(value, at: position)
                case .index:
                    throw Failure(
                        code: .unknownKey,
                        reason: "cannot insert at index \(last); the array has \(elements.count) "
                            + "element\(elements.count == 1 ? "" : "s")")
                case nil: throw notAnIndex(last)
                }
            } else {
                throw notAContainer(parent, at: place, token: last)
            }
        }
    }

    /// Removes the value at `path` and returns it: RFC 6902's `remove`.
    private static func remove(at path: JSONPointer, in document: inout ModelValue) throws -> ModelValue {
        guard let last = path.tokens.last else {
            throw Failure(code: .invalidValue, reason: "cannot remove the whole document")
        }
        return try withValue(at: path.tokens.dropLast(), in: &document) { parent, place in
            if var members = parent.takeObject() {
                defer { parent = .object(members) }
                guard let removed = members.removeValue(forKey: last) else { throw noMember(last, in: place) }
                return removed
            } else if var elements = parent.takeArray() {
                defer { parent = .array(elements) }
                return elements.remove(at: try existingIndex(last, count: elements.count))
            } else {
                throw notAContainer(parent, at: place, token: last)
            }
        }
    }

    /// The value at `path`.
    static func value(at path: JSONPointer, in document: ModelValue) throws -> ModelValue {
        var current = document
        for (depth, token) in path.tokens.enumerated() {
            switch current {
            case .object(let members):
                guard let member = members[token] else {
                    throw noMember(token, in: path.tokens.prefix(depth))
                }
                current = member
            case .array(let elements):
                current = elements[try existingIndex(token, count: elements.count)]
            default:
                throw notAContainer(current, at: path.tokens.prefix(depth), token: token)
            }
        }
        return current
    }

    /// Runs `body` on the value at `tokens` in place, with the tokens that
    /// lead to it: each container on the way is taken out of its parent
    /// while it changes, so that it is copied only where `document` shares
    /// it with another value, and an operation costs what its path does, not
    /// what the document does.
    private static func withValue<Result>(
        at tokens: ArraySlice<String>, in document: inout ModelValue,
        _ body: (inout ModelValue, ArraySlice<String>) throws -> Result
    ) throws -> Result {
        try withValue(at: tokens, depth: tokens.startIndex, in: &document, body)
    }

    private static func withValue<Result>(
        at tokens: ArraySlice<String>, depth: Int, in value: inout ModelValue,
        _ body: (inout ModelValue, ArraySlice<String>) throws -> Result
    ) throws -> Result {
        guard depth < tokens.endIndex else { return try body(&value, tokens) }
        return try StackGuard.descendingThrowing(depth - tokens.startIndex) {
            try withValue(into: &value, at: tokens, depth: depth, body)
        }
    }

    /// One level of ``withValue(at:depth:in:_:)``.
    private static func withValue<Result>(
        into value: inout ModelValue, at tokens: ArraySlice<String>, depth: Int,
        _ body: (inout ModelValue, ArraySlice<String>) throws -> Result
    ) throws -> Result {
        let token = tokens[depth]
        if var members = value.takeObject() {
            defer { value = .object(members) }
            guard let position = members.index(forKey: token) else { throw noMember(token, in: tokens[..<depth]) }
            // Take the child out too, so that it is not shared while it changes.
            var child = members.values[position]
            members.replaceValue(at: position, with: .null)
            defer { members.replaceValue(at: position, with: child) }
            return try withValue(at: tokens, depth: depth + 1, in: &child, body)
        } else if var elements = value.takeArray() {
            defer { value = .array(elements) }
            let index = try existingIndex(token, count: elements.count)
            var child = elements[index]
            elements[index] = .null
            defer { elements[index] = child }
            return try withValue(at: tokens, depth: depth + 1, in: &child, body)
        } else {
            throw notAContainer(value, at: tokens[..<depth], token: token)
        }
    }

    /// The index of an existing element that `token` names.
    private static func existingIndex(_ token: String, count: Int) throws -> Int {
        switch JSONPointer.arrayPosition(token) {
        case .index(let index) where index < count: return index
        case .index:
            throw Failure(
                code: .unknownKey,
                reason: "no element at index \(token); the array has \(count) "
                    + "element\(count == 1 ? "" : "s")")
        case .end:
            throw Failure(
                code: .unknownKey,
                reason: "\"-\" names the position after the last element, where there is no element")
        case nil:
            throw notAnIndex(token)
        }
    }

    private static func notAnIndex(_ token: String) -> Failure {
        Failure(
            code: .unknownKey,
            reason: "\(ModelValue.quoted(token)) is not an array index "
                + "(0, or digits with no leading zero, or \"-\" for the end)")
    }

    private static func noMember(_ key: String, in place: ArraySlice<String>) -> Failure {
        Failure(code: .unknownKey, reason: "\(placeName(place)) has no member \(ModelValue.quoted(key))")
    }

    private static func notAContainer(_ value: ModelValue, at place: ArraySlice<String>, token: String) -> Failure {
        Failure(
            code: .typeMismatch,
            reason: "\(placeName(place)) is \(value.excerpt), which has no member or element "
                + ModelValue.quoted(token))
    }

    /// The document, or the pointer of a value in it, for messages.
    private static func placeName(_ tokens: ArraySlice<String>) -> String {
        tokens.isEmpty ? "the document" : "the value at " + JSONPointer(tokens: Array(tokens)).description
    }

    /// A value as a `test` failure shows it: its JSON text, shortened.
    private static func shown(_ value: ModelValue) -> String {
        guard let text = try? value.jsonString() else { return value.excerpt }
        return text.count > 60 ? String(text.prefix(60)) + "…" : text
    }
}

extension ModelValue {
    /// The members of an object, leaving `null` in its place so that they
    /// are not shared and change in place; `nil` (and no change) for other values.
    fileprivate mutating func takeObject() -> Object? {
        guard case .object(let members) = self else { return nil }
        self = .null
        return members
    }

    /// The elements of an array, leaving `null` in its place; `nil` (and no
    /// change) for other values.
    fileprivate mutating func takeArray() -> [ModelValue]? {
        guard case .array(let elements) = self else { return nil }
        self = .null
        return elements
    }
}
