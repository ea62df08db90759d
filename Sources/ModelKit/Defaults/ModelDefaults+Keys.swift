import Foundation

extension ModelDefaults {
    /// The namespace of typed keys: declare yours as static members of an
    /// extension, and use them with the store's subscript.
    ///
    /// ```swift
    /// extension ModelDefaults.Keys {
    ///     static let volume = Key<Double>("volume", default: 0.8)
    ///     static let accent = Key<Color>("accent", default: .blue)
    /// }
    /// store[.volume] = 0.5
    /// print(store[.volume])   // 0.5
    /// ```
    public class Keys: @unchecked Sendable {
        /// Lets an `extension ModelDefaults.Keys` write `Key<Double>(…)`.
        public typealias Key<Value: ModelValueConvertible> = ModelDefaults.Key<Value>

        /// The key's name in the store.
        public let name: String

        init(name: String) {
            self.name = name
        }
    }

    /// A typed key: its name, its type and the value it reads as when the
    /// store has none (or one of another type).
    public final class Key<Value: ModelValueConvertible>: Keys, @unchecked Sendable {
        /// What the key reads as when the store holds no value for it.
        public let defaultValue: Value

        /// A key named `name` whose value is a `Value`, `defaultValue` when absent.
        public init(_ name: String, default defaultValue: Value) {
            self.defaultValue = defaultValue
            super.init(name: name)
        }
    }

    /// The value of a typed key: the stored value, else a registered
    /// default, else the key's default. A stored value of another type reads
    /// as the key's default here; ``value(for:)`` throws for it instead.
    /// Setting stores the value.
    public subscript<Value: ModelValueConvertible>(key: Key<Value>) -> Value {
        get { (try? value(for: key)) ?? key.defaultValue }
        set { set(newValue, forKey: key.name) }
    }

    /// The value of a typed key, or the key's default when the store has none.
    /// - Throws: ``ModelError`` naming the key and the file when the stored
    ///   value is not a `Value`.
    public func value<Value: ModelValueConvertible>(for key: Key<Value>) throws -> Value {
        try value(Value.self, forKey: key.name) ?? key.defaultValue
    }

    /// Removes the value of a typed key; it reads as its default again.
    public func reset<Value: ModelValueConvertible>(_ key: Key<Value>) {
        removeValue(forKey: key.name)
    }
}
