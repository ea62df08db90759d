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
    /// store has none of its type and no registered default of its type
    /// (see ``ModelDefaults/subscript(_:)``).
    public final class Key<Value: ModelValueConvertible>: Keys, @unchecked Sendable {
        /// What the key reads as when the store holds no value for it.
        public let defaultValue: Value

        /// A key named `name` whose value is a `Value`, `defaultValue` when absent.
        public init(_ name: String, default defaultValue: Value) {
            self.defaultValue = defaultValue
            super.init(name: name)
        }
    }

    /// The value of a typed key, by one rule: the stored value when it is a
    /// `Value`, else the registered default when it is one, else the key's
    /// own default. A stored value of another type is passed over here (it
    /// stays in the file); ``value(for:)`` throws for it instead. Setting
    /// stores the value.
    ///
    /// ```swift
    /// extension ModelDefaults.Keys { static let volume = Key<Int>("volume", default: 13) }
    /// store.register(defaults: ["volume": 11])
    /// print(store[.volume])             // 11: nothing stored, the registered default
    /// store.set("loud", forKey: "volume")
    /// print(store[.volume])             // 11: a string is no Int, so the same rule
    /// store[.volume] = 5
    /// print(store[.volume])             // 5
    /// ```
    public subscript<Value: ModelValueConvertible>(key: Key<Value>) -> Value {
        get { resolved(key, storedValue: storedValue(forKey: key.name)) }
        set { set(newValue, forKey: key.name) }
    }

    /// The value of a typed key by the rule of the subscript, except that a
    /// stored value of another type is an error.
    /// - Throws: ``ModelError`` naming the key and the file when the stored
    ///   value is not a `Value`.
    public func value<Value: ModelValueConvertible>(for key: Key<Value>) throws -> Value {
        if let attached = lock.withLock({ attachedModels[key.name] }), let typed = attached as? Value { return typed }
        if let raw = storedValue(forKey: key.name) {
            do {
                return try Value.decoded(from: raw)
            } catch let error as ModelError {
                var located = error.prepending(.key(key.name))
                located.file = url
                throw located
            }
        }
        return resolved(key, storedValue: nil)
    }

    /// The value stored under `key` (not a registered default), or `nil`.
    func storedValue(forKey key: String) -> ModelValue? {
        lock.withLock { stored[key] }
    }

    /// What a typed key reads as when `storedValue` is stored under it: that
    /// value if it is a `Value`, else the registered default if it is one,
    /// else the key's default.
    func resolved<Value: ModelValueConvertible>(_ key: Key<Value>, storedValue: ModelValue?) -> Value {
        if let attached = lock.withLock({ attachedModels[key.name] }), let typed = attached as? Value { return typed }
        if let storedValue, let typed = try? Value.decoded(from: storedValue) { return typed }
        if let registered = lock.withLock({ registered[key.name] }), let typed = try? Value.decoded(from: registered) {
            return typed
        }
        return key.defaultValue
    }

    /// Removes the value of a typed key; it reads as its default again.
    public func reset<Value: ModelValueConvertible>(_ key: Key<Value>) {
        removeValue(forKey: key.name)
    }
}
