import Foundation

/// A JSON Merge Patch (RFC 7396): a document shaped like the value it
/// changes, holding only what changes.
///
/// Each member of a patch object sets the member of the same name, going
/// into objects on both sides; a member whose value is `null` removes it;
/// anything that is not an object replaces the value whole.
///
/// ```swift
/// let document: ModelValue = ["title": "Milk", "count": 1, "note": "fresh"]
/// let patch = try JSONMergePatch(json: #"{"count":2,"note":null}"#)
/// print(try patch.applied(to: document))   // {"title":"Milk","count":2}
/// print(try JSONMergePatch.difference(from: document, to: ["title": "Eggs"]).jsonString())
/// // {"count":null,"note":null,"title":"Eggs"}
/// ```
///
/// A merge patch is simpler to read and write than a ``JSONPatch``, and
/// says less:
/// - it cannot set a member to `null` (a `null` in the patch removes the
///   member), nor put `null` anywhere inside an object it adds;
/// - it replaces arrays whole: one changed element sends the whole array;
/// - it cannot test a value before changing it.
///
/// Use a ``JSONPatch`` where any of these matter.
public struct JSONMergePatch: Sendable, Hashable {
    /// The patch document.
    public var value: ModelValue

    /// The deepest nesting of arrays and objects that a patched document
    /// may have: 512 unless set, the JSON reader's own limit (see
    /// ``JSONPatch/Limits``). A merge patch cannot copy, so it cannot make a
    /// document larger than the two together.
    public var maximumDepth = JSONPatch.Limits.standard.maximumDepth

    /// A merge patch whose document is `value`.
    public init(_ value: ModelValue) {
        self.value = value
    }

    /// Reads a merge patch document: any JSON value.
    /// - Parameter json: the document's UTF-8 bytes.
    /// - Throws: ``ModelError`` when the document is not valid JSON.
    public init(json: Data) throws {
        value = try ModelValue(json: json)
    }

    /// Reads a merge patch document from JSON text.
    /// - Parameter json: the document's text.
    /// - Throws: ``ModelError`` when the text is not valid JSON.
    public init(json: String) throws {
        try self.init(json: Data(json.utf8))
    }

    /// The patch document as JSON.
    /// - Parameter options: pretty printing and the like; compact by default.
    /// - Throws: ``ModelError`` for a value that JSON cannot hold (an
    ///   infinite number).
    public func jsonData(options: JSONWritingOptions = JSONWritingOptions()) throws -> Data {
        try value.jsonData(options: options)
    }

    /// The patch document as JSON text; see ``jsonData(options:)``.
    /// - Parameter options: pretty printing and the like; compact by default.
    /// - Throws: ``ModelError`` for a value that JSON cannot hold.
    public func jsonString(options: JSONWritingOptions = JSONWritingOptions()) throws -> String {
        try value.jsonString(options: options)
    }

    /// The value that this patch makes of `target`, as RFC 7396 §2 defines it.
    ///
    /// ```swift
    /// let patch = JSONMergePatch(["a": ["b": nil, "c": 3]])
    /// print(try patch.applied(to: ["a": ["b": 1], "d": 4]))   // {"a":{"c":3},"d":4}
    /// ```
    ///
    /// Whatever the two values, RFC 7396 gives a result; the one limit is
    /// depth: a result that would nest deeper than ``maximumDepth`` levels
    /// is refused, and patches and documents of any depth are walked without
    /// running out of stack.
    /// - Parameter target: the document to patch.
    /// - Returns: the patched document.
    /// - Throws: ``ModelError`` with code ``ModelError/Code/nestingTooDeep``
    ///   when the result would nest deeper than ``maximumDepth``, naming the
    ///   member where it would.
    public func applied(to target: ModelValue) throws -> ModelValue {
        var path: [String] = []
        return try merge(value, into: target, path: &path)
    }

    /// The merge of `patch` into `target`, which sits at `path` (its depth).
    private func merge(_ patch: ModelValue, into target: ModelValue, path: inout [String]) throws -> ModelValue {
        guard case .object(let changes) = patch else {
            // Replaced whole: the patch's value goes in as it is.
            let room = maximumDepth - path.count
            guard room >= 0, patch.measured(depthLimit: room).depth <= room else { throw tooDeep(at: path) }
            return patch
        }
        guard path.count < maximumDepth else { throw tooDeep(at: path) }
        var members: ModelValue.Object
        if case .object(let existing) = target { members = existing } else { members = ModelValue.Object() }
        try StackGuard.descendingThrowing(path.count) {
            for (key, change) in changes {
                if case .null = change {
                    members.removeValue(forKey: key)
                    continue
                }
                path.append(key)
                defer { path.removeLast() }
                if let position = members.index(forKey: key) {
                    let current = members.values[position]
                    members.replaceValue(at: position, with: .null)
                    members.replaceValue(at: position, with: try merge(change, into: current, path: &path))
                } else {
                    members.appendNew(key: key, value: try merge(change, into: .null, path: &path))
                }
            }
        }
        return .object(members)
    }

    private func tooDeep(at path: [String]) -> ModelError {
        let place = JSONPatch.shown(JSONPointer(tokens: path))
        return ModelError(
            code: .nestingTooDeep,
            message: "the merge patch's result would nest deeper than \(maximumDepth) levels (at \(place))")
    }

    /// A merge patch that turns `source` into `target`.
    ///
    /// ```swift
    /// let patch = JSONMergePatch.difference(
    ///     from: ["title": "Milk", "shop": ["name": "Corner", "open": true]],
    ///     to: ["title": "Milk", "shop": ["name": "Corner", "open": false]])
    /// print(try patch.jsonString())   // {"shop":{"open":false}}
    /// ```
    ///
    /// The patch goes into objects present on both sides and holds only the
    /// members that differ (as JSON values, see
    /// ``ModelValue/isJSONEqual(to:)``): `null` for each member removed,
    /// listed first, then changed and added members in `target`'s order.
    /// Where `target` is not an object, the patch is `target` itself.
    ///
    /// What a merge patch cannot say, this one cannot either: where `target`
    /// has a `null` member in an object, applying the patch gives an object
    /// without that member. Values with no `null` in their objects round-trip.
    /// - Parameters:
    ///   - source: the value the patch applies to.
    ///   - target: the value it gives.
    /// - Returns: a merge patch whose ``applied(to:)`` on `source` gives
    ///   `target` (short of `null` members, see above).
    public static func difference(from source: ModelValue, to target: ModelValue) -> JSONMergePatch {
        guard case .object = target, case .object = source else { return JSONMergePatch(target) }
        return JSONMergePatch(changes(from: source, to: target, depth: 0) ?? .object(ModelValue.Object()))
    }

    /// The patch of `source` into `target`, or `nil` when they are equal as
    /// JSON values: each level is walked once, so the cost is the size of the
    /// two, whatever their depth.
    private static func changes(from source: ModelValue, to target: ModelValue, depth: Int) -> ModelValue? {
        guard case .object(let new) = target, case .object(let old) = source else {
            // Not `? nil :`, which would be the literal `ModelValue.null`.
            if source.isJSONEqual(to: target) { return Optional.none }
            return target
        }
        var patch = ModelValue.Object()
        for key in old.keys where new.index(forKey: key) == nil {
            patch.appendNew(key: key, value: .null)
        }
        StackGuard.descending(depth) {
            for (key, value) in new {
                if let oldValue = old[key] {
                    if let change = changes(from: oldValue, to: value, depth: depth + 1) {
                        patch.appendNew(key: key, value: change)
                    }
                } else {
                    patch.appendNew(key: key, value: value)
                }
            }
        }
        if patch.isEmpty { return Optional.none }
        return .object(patch)
    }
}
