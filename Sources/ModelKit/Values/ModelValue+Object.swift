extension ModelValue {
    /// The members of a ``ModelValue/object(_:)``: string keys mapped to values,
    /// in insertion order.
    ///
    /// Lookups by key are constant time; iteration follows the order in which
    /// keys were first inserted, which is the order of the document they were
    /// read from. Setting an existing key keeps its position; removing a key
    /// closes the gap.
    ///
    /// ```swift
    /// var members: ModelValue.Object = ["b": 1, "a": 2]
    /// members["c"] = 3
    /// print(members.keys)   // ["b", "a", "c"]
    /// ```
    ///
    /// Keys are told apart by their exact text (their Unicode scalars), as
    /// RFC 8259 recommends, so `"é"` and `"e\u{301}"` are two keys, though
    /// Swift's `==` finds the two strings equal.
    ///
    /// Equality ignores order: two objects are equal when they hold the same keys
    /// with equal values.
    public struct Object: Sendable {
        /// The keys, in order.
        public private(set) var keys: [String]
        /// The values, in the order of their keys.
        public private(set) var values: [ModelValue]
        /// The key index, built once an object grows past a few members;
        /// smaller objects are searched in order.
        private var keyIndex: Index?
        /// The JSON text each member was read from, where it is kept
        /// (aligned with `values`; empty while no member has one): a
        /// member of a document read for a model whose text the writer
        /// would not give back as it came (`1.10`, a 30-digit decimal, an
        /// escape). The JSON writer writes the text instead of the value;
        /// every other use sees the value, and equality ignores the text.
        /// Any change to a member's value drops its text.
        private var texts: [RawJSON?] = []

        fileprivate enum Index: Sendable {
            /// The usual index: fast hashing, see `KeyTable`.
            case table(KeyTable)
            /// For keys that collide too often in a `KeyTable`.
            case dictionary([KeyHash.ExactKey: Int])
        }

        private static let indexThreshold = 8

        /// An empty object.
        public init() {
            keys = []
            values = []
            keyIndex = nil
        }

        /// An empty object with room for `capacity` members.
        public init(minimumCapacity capacity: Int) {
            self.init()
            keys.reserveCapacity(capacity)
            values.reserveCapacity(capacity)
        }

        /// An object with the given members; a repeated key keeps its first
        /// position and its last value.
        public init<S: Sequence>(_ members: S) where S.Element == (String, ModelValue) {
            self.init()
            for (key, value) in members { self[key] = value }
        }

        /// An object of members read from a document, given with the
        /// `KeyHash` of each key; `nil` when a key repeats.
        init?(readKeys keys: [String], values: [ModelValue], hashes: UnsafeBufferPointer<UInt64>) {
            self.keys = keys
            self.values = values
            keyIndex = nil
            let count = keys.count
            if count <= Object.indexThreshold {
                for later in 1..<Swift.max(count, 1) {
                    for earlier in 0..<later where hashes[earlier] == hashes[later] {
                        if KeyHash.sameBytes(keys[earlier], keys[later]) { return nil }
                    }
                }
                return
            }
            var table = KeyTable(capacity: count)
            for position in 0..<count {
                switch table.insert(position: position, hash: hashes[position], in: keys) {
                case .inserted: continue
                case .present: return nil
                case .tooManyCollisions:
                    guard let dictionary = Object.dictionaryIndex(of: keys) else { return nil }
                    keyIndex = .dictionary(dictionary)
                    return
                }
            }
            keyIndex = .table(table)
        }

        /// An object of `keys`, which are those of an existing object (so
        /// distinct), and their `values`, without a key index: found by
        /// searching in order, as a small object's are.
        init(distinctKeys keys: [String], values: [ModelValue], texts: [RawJSON?] = []) {
            self.keys = keys
            self.values = values
            keyIndex = nil
            self.texts = texts.contains(where: { $0 != nil }) ? texts : []
        }

        /// The keys of an object with its key index, to give to the next
        /// object read with the same keys in the same order: a document's
        /// records share one keys array and one index instead of building
        /// their own.
        struct Shape {
            let keys: [String]
            fileprivate let keyIndex: Index?
        }

        /// This object's keys and key index.
        var shape: Shape { Shape(keys: keys, keyIndex: keyIndex) }

        /// An object with `shape`'s keys (which are distinct) and `values`,
        /// one per key.
        init(shape: Shape, values: [ModelValue]) {
            keys = shape.keys
            self.values = values
            keyIndex = shape.keyIndex
        }

        /// The number of members.
        public var count: Int { keys.count }

        /// Whether the object has no members.
        public var isEmpty: Bool { keys.isEmpty }

        /// The position of `key`, or `nil`.
        public func index(forKey key: String) -> Int? {
            switch keyIndex {
            case nil: return keys.firstIndex { KeyHash.sameBytes($0, key) }
            case .table(let table): return table.position(of: key, hash: KeyHash.hash(key), in: keys)
            case .dictionary(let positions): return positions[KeyHash.ExactKey(text: key)]
            }
        }

        /// The value for `key`; setting `nil` removes the key.
        public subscript(key: String) -> ModelValue? {
            get {
                guard let index = index(forKey: key) else { return nil }
                return values[index]
            }
            set {
                if let newValue {
                    updateValue(newValue, forKey: key)
                } else {
                    removeValue(forKey: key)
                }
            }
        }

        /// Sets the value for `key`, appending the key if it is new.
        /// - Returns: the previous value, if any.
        @discardableResult
        public mutating func updateValue(_ value: ModelValue, forKey key: String) -> ModelValue? {
            if let index = index(forKey: key) {
                let old = values[index]
                values[index] = value
                if !texts.isEmpty { dropText(at: index) }
                return old
            }
            appendNew(key: key, value: value)
            return nil
        }

        /// Appends a member whose key the caller knows is not present yet
        /// (were it present, the object would be left as it is).
        mutating func appendNew(key: String, value: ModelValue) {
            _ = appendIfAbsent(key: key, value: value)
        }

        /// Appends a member unless `key` is already present, in which case
        /// nothing changes and the key's position is returned.
        mutating func appendIfAbsent(key: String, value: ModelValue) -> Int? {
            switch keyIndex {
            case nil:
                if let existing = keys.firstIndex(where: { KeyHash.sameBytes($0, key) }) { return existing }
                keys.append(key)
                values.append(value)
                if !texts.isEmpty { texts.append(nil) }
                if keys.count > Object.indexThreshold { rebuildIndex() }
                return nil
            case .dictionary(var positions):
                keyIndex = nil
                defer { keyIndex = .dictionary(positions) }
                if let existing = positions[KeyHash.ExactKey(text: key)] { return existing }
                positions[KeyHash.ExactKey(text: key)] = keys.count
                keys.append(key)
                values.append(value)
                if !texts.isEmpty { texts.append(nil) }
                return nil
            case .table(var table):
                // Release the index's storage while it is changed, so that it is not copied.
                keyIndex = nil
                keys.append(key)
                switch table.insert(position: keys.count - 1, hash: KeyHash.hash(key), in: keys) {
                case .inserted:
                    values.append(value)
                    if !texts.isEmpty { texts.append(nil) }
                    keyIndex = .table(table)
                    return nil
                case .present(let existing):
                    keys.removeLast()
                    keyIndex = .table(table)
                    return existing
                case .tooManyCollisions:
                    keys.removeLast()
                    keyIndex = Object.dictionaryIndex(of: keys).map(Index.dictionary)
                    return appendIfAbsent(key: key, value: value)
                }
            }
        }

        /// Indexes the keys again after a removal or once the object grows large.
        private mutating func rebuildIndex() {
            guard keys.count > Object.indexThreshold else {
                keyIndex = nil
                return
            }
            var table = KeyTable(capacity: keys.count)
            for position in keys.indices {
                if case .inserted = table.insert(position: position, hash: KeyHash.hash(keys[position]), in: keys) {
                    continue
                }
                keyIndex = Object.dictionaryIndex(of: keys).map(Index.dictionary)
                return
            }
            keyIndex = .table(table)
        }

        /// Positions of `keys` in a `Dictionary`, or `nil` if a key repeats.
        private static func dictionaryIndex(of keys: [String]) -> [KeyHash.ExactKey: Int]? {
            var positions = [KeyHash.ExactKey: Int](minimumCapacity: keys.count)
            for (position, key) in keys.enumerated()
            where positions.updateValue(position, forKey: KeyHash.ExactKey(text: key)) != nil {
                return nil
            }
            return positions
        }

        /// Replaces the value at `position`, which must be valid.
        mutating func replaceValue(at position: Int, with value: ModelValue) {
            values[position] = value
            if !texts.isEmpty { dropText(at: position) }
        }

        /// Whether some member keeps the JSON text it was read from.
        var hasTexts: Bool { !texts.isEmpty }

        /// The JSON text the member at `position` keeps, if any.
        func text(at position: Int) -> RawJSON? {
            texts.isEmpty ? nil : texts[position]
        }

        /// The texts of the members, aligned with `values`; empty when none has one.
        var memberTexts: [RawJSON?] { texts }

        /// Keeps `text`, whose value is the member's at `position`, as the
        /// member's text (`nil` drops it).
        mutating func setText(_ text: RawJSON?, at position: Int) {
            if texts.isEmpty {
                guard text != nil else { return }
                texts = Array(repeating: nil, count: values.count)
            }
            texts[position] = text
            if text == nil, !texts.contains(where: { $0 != nil }) { texts = [] }
        }

        /// Drops every member's text.
        mutating func removeTexts() {
            texts = []
        }

        private mutating func dropText(at position: Int) {
            setText(nil, at: position)
        }

        /// Calls `body` with the value at `position` to change in place
        /// *without* dropping the member's text: for a caller that keeps
        /// the value the same (attaching texts to members inside it).
        mutating func withValueKeepingText<Result>(at position: Int, _ body: (inout ModelValue) -> Result) -> Result {
            body(&values[position])
        }

        /// Removes `key` and its value.
        /// - Returns: the removed value, if any.
        @discardableResult
        public mutating func removeValue(forKey key: String) -> ModelValue? {
            guard let index = index(forKey: key) else { return nil }
            keys.remove(at: index)
            let old = values.remove(at: index)
            if !texts.isEmpty {
                texts.remove(at: index)
                if !texts.contains(where: { $0 != nil }) { texts = [] }
            }
            if keyIndex != nil { rebuildIndex() }
            return old
        }

        /// Removes every member.
        public mutating func removeAll() {
            keys.removeAll()
            values.removeAll()
            texts.removeAll()
            keyIndex = nil
        }

        /// The members as a `Dictionary` (which forgets their order).
        public var dictionary: [String: ModelValue] {
            Dictionary(zip(keys, values), uniquingKeysWith: { _, last in last })
        }

        /// A copy with keys in ascending order of their UTF-8 bytes.
        public func sortedByKey() -> Object {
            let order = keys.indices.sorted { keys[$0].utf8.lexicographicallyPrecedes(keys[$1].utf8) }
            var sorted = Object(minimumCapacity: count)
            for index in order {
                sorted.appendNew(key: keys[index], value: values[index])
                if let text = text(at: index) { sorted.setText(text, at: sorted.count - 1) }
            }
            return sorted
        }
    }
}

extension ModelValue.Object: Sequence {
    /// An iterator over the members, in order.
    public struct Iterator: IteratorProtocol {
        let object: ModelValue.Object
        var position = 0
        /// The next member, or `nil` after the last.
        public mutating func next() -> (key: String, value: ModelValue)? {
            guard position < object.keys.count else { return nil }
            defer { position += 1 }
            return (object.keys[position], object.values[position])
        }
    }

    /// An iterator over the members, in order.
    public func makeIterator() -> Iterator { Iterator(object: self) }
    /// The number of members.
    public var underestimatedCount: Int { count }
}

extension ModelValue.Object: ExpressibleByDictionaryLiteral {
    /// An object from a literal, its keys in the literal's order.
    public init(dictionaryLiteral elements: (String, ModelValue)...) {
        self.init(elements)
    }
}

extension ModelValue.Object: Equatable {
    /// Whether the two are equal: the same keys (by their Unicode scalars)
    /// with equal values, in any order.
    public static func == (lhs: ModelValue.Object, rhs: ModelValue.Object) -> Bool {
        lhs.isEqual(to: rhs, depth: 0)
    }

    /// `==`, at `depth` levels of nesting below the first value compared.
    func isEqual(to other: ModelValue.Object, depth: Int) -> Bool {
        guard count == other.count else { return false }
        return StackGuard.descending(depth) {
            if keys.elementsEqual(other.keys, by: KeyHash.sameBytes) {
                for index in values.indices where !values[index].isEqual(to: other.values[index], depth: depth + 1) {
                    return false
                }
                return true
            }
            for (key, value) in self {
                guard let match = other[key], value.isEqual(to: match, depth: depth + 1) else { return false }
            }
            return true
        }
    }
}

extension ModelValue.Object: Hashable {
    /// Hashes the value.
    public func hash(into hasher: inout Hasher) {
        combine(into: &hasher, depth: 0)
    }

    /// `hash(into:)`, at `depth` levels of nesting below the first value hashed.
    func combine(into hasher: inout Hasher, depth: Int) {
        // Order-independent, to match equality: combine each member's hash commutatively.
        var sum = 0
        StackGuard.descending(depth) {
            for (key, value) in self {
                var member = Hasher()
                member.combine(key)
                value.combine(into: &member, depth: depth + 1)
                sum &+= member.finalize()
            }
        }
        hasher.combine(count)
        hasher.combine(sum)
    }
}
