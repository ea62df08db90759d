/// The extensible properties of one object: its members in order, each held
/// as a value or, when it was read from JSON, as the exact text it was read
/// from (`RawJSON`), read into a value only when somebody asks for it.
///
/// Every reader sees values: ``object``, ``value(forKey:)`` and equality
/// work on them, so two bags that differ only in how their JSON was spelled
/// are equal. The JSON encoder alone asks for ``text(at:)`` and writes the
/// text back as it came. Setting a member replaces its text with the new
/// value; the other members keep theirs.
struct ExtensibleBag: Sendable {
    /// Keys and values in order; a member held as text has `.null` here.
    private var storage: ModelValue.Object
    /// Each member's text, aligned with `storage`; empty while no member has text.
    private var texts: [RawJSON?] = []

    init() {
        storage = ModelValue.Object()
    }

    /// A bag of the members of `object`, held as values.
    init(_ object: ModelValue.Object) {
        storage = object
    }

    var count: Int { storage.count }
    var isEmpty: Bool { storage.isEmpty }
    var keys: [String] { storage.keys }

    /// Whether some member is held as JSON text.
    var hasText: Bool { !texts.isEmpty }

    /// The JSON text of the member at `index`, if it is held as text.
    @inline(__always)
    func text(at index: Int) -> RawJSON? {
        texts.isEmpty ? nil : texts[index]
    }

    /// The value of the member at `index`.
    func value(at index: Int) -> ModelValue {
        if let text = text(at: index) { return text.value }
        return storage.values[index]
    }

    /// The value for `key` (compared by its exact text), or `nil`.
    func value(forKey key: String) -> ModelValue? {
        storage.index(forKey: key).map(value(at:))
    }

    /// Every member as a value, in order.
    var object: ModelValue.Object {
        guard hasText else { return storage }
        var object = storage
        for (index, text) in texts.enumerated() {
            if let text { object.replaceValue(at: index, with: text.value) }
        }
        return object
    }

    /// Sets the member for `key` to `value`, keeping its position, or appends
    /// it; `nil` removes it. Returns the previous value.
    @discardableResult
    mutating func set(_ value: ModelValue?, forKey key: String) -> ModelValue? {
        guard let index = storage.index(forKey: key) else {
            if let value {
                storage.appendNew(key: key, value: value)
                if hasText { texts.append(nil) }
            }
            return nil
        }
        let old = self.value(at: index)
        if let value {
            storage.replaceValue(at: index, with: value)
            if hasText { texts[index] = nil }
        } else {
            storage.removeValue(forKey: key)
            if hasText { texts.remove(at: index) }
        }
        if hasText, !texts.contains(where: { $0 != nil }) { texts = [] }
        return old
    }

    /// Appends `value` for `key` unless the bag has that key.
    /// - Returns: whether it was appended.
    mutating func appendIfAbsent(key: String, value: ModelValue) -> Bool {
        guard storage.appendIfAbsent(key: key, value: value) == nil else { return false }
        if hasText { texts.append(nil) }
        return true
    }

    /// Appends a member held as its JSON `text` unless the bag has that key.
    /// - Returns: whether it was appended.
    mutating func appendIfAbsent(key: String, text: RawJSON) -> Bool {
        guard storage.appendIfAbsent(key: key, value: .null) == nil else { return false }
        if !hasText { texts = Array(repeating: nil, count: storage.count - 1) }
        texts.append(text)
        return true
    }
}

extension ExtensibleBag: Equatable {
    /// Equal when the members are, by value, in any order (as `ModelValue.Object`).
    static func == (lhs: ExtensibleBag, rhs: ExtensibleBag) -> Bool {
        lhs.object == rhs.object
    }
}
