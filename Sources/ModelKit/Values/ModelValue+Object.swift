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
    /// Equality ignores order: two objects are equal when they hold the same keys
    /// with equal values.
    public struct Object: Sendable {
        public private(set) var keys: [String]
        public private(set) var values: [ModelValue]
        /// Positions of keys, built once an object grows past a few members.
        private var positions: [String: Int]?

        private static let indexThreshold = 8

        /// An empty object.
        public init() {
            keys = []
            values = []
            positions = nil
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

        /// The number of members.
        public var count: Int { keys.count }

        /// Whether the object has no members.
        public var isEmpty: Bool { keys.isEmpty }

        /// The position of `key`, or `nil`.
        public func index(forKey key: String) -> Int? {
            if let positions { return positions[key] }
            return keys.firstIndex(of: key)
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
                return old
            }
            appendNew(key: key, value: value)
            return nil
        }

        /// Appends a member whose key the caller knows is not present yet.
        /// Readers use this to skip the lookup for every member.
        mutating func appendNew(key: String, value: ModelValue) {
            keys.append(key)
            values.append(value)
            if positions != nil {
                positions![key] = keys.count - 1
            } else if keys.count > Object.indexThreshold {
                var built = [String: Int](minimumCapacity: keys.count * 2)
                for (position, key) in keys.enumerated() { built[key] = position }
                positions = built
            }
        }

        /// Appends a member unless `key` is already present, in which case
        /// nothing changes and the key's position is returned. Readers use this
        /// to detect repeated keys with a single hash lookup per member.
        mutating func appendIfAbsent(key: String, value: ModelValue) -> Int? {
            if positions != nil {
                let position = keys.count
                if let existing = positions!.updateValue(position, forKey: key) {
                    positions![key] = existing
                    return existing
                }
                keys.append(key)
                values.append(value)
                return nil
            }
            if let existing = keys.firstIndex(of: key) { return existing }
            appendNew(key: key, value: value)
            return nil
        }

        /// Replaces the value at `position`, which must be valid.
        mutating func replaceValue(at position: Int, with value: ModelValue) {
            values[position] = value
        }

        /// Removes `key` and its value.
        /// - Returns: the removed value, if any.
        @discardableResult
        public mutating func removeValue(forKey key: String) -> ModelValue? {
            guard let index = index(forKey: key) else { return nil }
            keys.remove(at: index)
            let old = values.remove(at: index)
            if positions != nil {
                if keys.count > Object.indexThreshold {
                    var built = [String: Int](minimumCapacity: keys.count * 2)
                    for (position, key) in keys.enumerated() { built[key] = position }
                    positions = built
                } else {
                    positions = nil
                }
            }
            return old
        }

        /// Removes every member.
        public mutating func removeAll() {
            keys.removeAll()
            values.removeAll()
            positions = nil
        }

        /// The members as a `Dictionary` (which forgets their order).
        public var dictionary: [String: ModelValue] {
            Dictionary(zip(keys, values), uniquingKeysWith: { _, last in last })
        }

        /// A copy with keys in ascending order of their UTF-8 bytes.
        public func sortedByKey() -> Object {
            let order = keys.indices.sorted { keys[$0].utf8.lexicographicallyPrecedes(keys[$1].utf8) }
            var sorted = Object(minimumCapacity: count)
            for index in order { sorted.appendNew(key: keys[index], value: values[index]) }
            return sorted
        }
    }
}

extension ModelValue.Object: Sequence {
    public struct Iterator: IteratorProtocol {
        let object: ModelValue.Object
        var position = 0
        public mutating func next() -> (key: String, value: ModelValue)? {
            guard position < object.keys.count else { return nil }
            defer { position += 1 }
            return (object.keys[position], object.values[position])
        }
    }

    public func makeIterator() -> Iterator { Iterator(object: self) }
    public var underestimatedCount: Int { count }
}

extension ModelValue.Object: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, ModelValue)...) {
        self.init(elements)
    }
}

extension ModelValue.Object: Equatable {
    public static func == (lhs: ModelValue.Object, rhs: ModelValue.Object) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.keys == rhs.keys { return lhs.values == rhs.values }
        for (key, value) in lhs {
            guard let other = rhs[key], other == value else { return false }
        }
        return true
    }
}

extension ModelValue.Object: Hashable {
    public func hash(into hasher: inout Hasher) {
        // Order-independent, to match equality: combine each member's hash commutatively.
        var sum = 0
        for (key, value) in self {
            var member = Hasher()
            member.combine(key)
            member.combine(value)
            sum &+= member.finalize()
        }
        hasher.combine(count)
        hasher.combine(sum)
    }
}
