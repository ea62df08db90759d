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
/// print(patch.applied(to: document))   // {"title":"Milk","count":2}
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
    /// print(patch.applied(to: ["a": ["b": 1], "d": 4]))   // {"a":{"c":3},"d":4}
    /// ```
    ///
    /// A merge patch cannot fail: whatever the two values, there is a result.
    /// - Parameter target: the document to patch.
    /// - Returns: the patched document.
    public func applied(to target: ModelValue) -> ModelValue {
        Self.merge(value, into: target)
    }

    private static func merge(_ patch: ModelValue, into target: ModelValue) -> ModelValue {
        guard case .object(let changes) = patch else { return patch }
        var members: ModelValue.Object
        if case .object(let existing) = target { members = existing } else { members = ModelValue.Object() }
        for (key, change) in changes {
            if case .null = change {
                members.removeValue(forKey: key)
            } else if let position = members.index(forKey: key) {
                let current = members.values[position]
                members.replaceValue(at: position, with: .null)
                members.replaceValue(at: position, with: merge(change, into: current))
            } else {
                members.appendNew(key: key, value: merge(change, into: .null))
            }
        }
        return .object(members)
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
        JSONMergePatch(changes(from: source, to: target))
    }

    private static func changes(from source: ModelValue, to target: ModelValue) -> ModelValue {
        guard case .object(let new) = target, case .object(let old) = source else { return target }
        var patch = ModelValue.Object()
        for key in old.keys where new.index(forKey: key) == nil {
            patch.appendNew(key: key, value: .null)
        }
        for (key, value) in new {
            if let oldValue = old[key] {
                if !oldValue.isJSONEqual(to: value) { patch.appendNew(key: key, value: changes(from: oldValue, to: value)) }
            } else {
                patch.appendNew(key: key, value: value)
            }
        }
        return .object(patch)
    }
}
