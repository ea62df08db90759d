/// Marks a property of a ``ModelObject`` subclass as saved.
///
/// Its key in dictionaries, JSON and property lists is the property's name,
/// or the string you give. Every saved property needs a default value; it is
/// what a new object holds and what a missing key leaves in place. `@Saved`
/// works only in a class that inherits from ``ModelObject``: in another class
/// the compiler says that the static subscript
/// `subscript(_enclosingInstance:wrapped:storage:)` "requires that 'YourClass'
/// inherit from 'ModelObject'", with no line (Swift gives that error no
/// source location); make the class inherit from ``ModelObject``.
///
/// ```swift
/// final class Note: ModelObject, @unchecked Sendable {
///     @Saved var title = "Untitled"
///     @Saved("legacy_name") var renamed = ""
///     @Saved(dateStrategy: .secondsSince1970) var due: Date? = nil
/// }
///
/// let note = Note()
/// note.title = "Groceries"
/// print(note.hasChanges)   // true
/// ```
///
/// Reading and writing a saved property goes through its object: the value
/// lives in the object's storage behind its lock, where decoding and
/// ``ModelObject/setValue(_:forKey:)`` can reach it by name, and setting a
/// value records a change unless it equals the current one.
///
/// ## What is atomic
///
/// - One read, one assignment, and one in-place mutation of one property are
///   each atomic: `note.count += 1`, `note.tags.append("x")`,
///   `note.tags.sort()`, `note.names["a"] = 1` hold the object's lock from the
///   read to the write, so concurrent `+=` lose no update. An in-place
///   mutation copies nothing (an append is amortised O(1)) and always records
///   a change of the property.
/// - Two statements are two steps: `if note.count < 10 { note.count += 1 }`
///   can interleave with other threads. Wrap them in
///   ``ModelObject/withLock(_:)``.
/// - `let n = note.count; note.count = n + 1` is a read and a write: not atomic.
/// - Models held in properties have locks of their own: a mutation of
///   `note.child?.count` locks the child, not the parent. Touching another
///   model inside an in-place mutation or ``ModelObject/withLock(_:)`` nests
///   its lock; two threads nesting two objects in opposite orders can deadlock.
/// - Inside an in-place mutation (a closure passed to `removeAll(where:)`),
///   the object's other saved properties may be read and written; the
///   property being mutated may not (it traps, like an overlapping access to
///   a Swift variable). Do not pass a saved property `inout` to an `async`
///   function: the lock would be held across the suspension.
///
/// In a struct or an enum the compiler rejects `@Saved` at the property's
/// line: "'wrappedValue' is unavailable: @Saved can only be used on
/// properties of ModelObject subclasses".
@propertyWrapper
public struct Saved<Value: ModelValueConvertible>: Sendable {
    /// Where the initial value was pushed on the construction stack; the
    /// object subtracts its `slotBase` to find the property's slot. The
    /// wrapper holds nothing else: a key, date strategy or rules given in the
    /// declaration are recorded beside the value on the construction stack,
    /// read once per class when its layout is discovered, so that every
    /// object does not carry (and release) them.
    @usableFromInline
    let position: Int

    /// A saved property whose key is its name.
    @inlinable
    public init(wrappedValue: Value) {
        position = ConstructionStack.push(wrappedValue)
    }

    /// A saved property with an explicit key.
    @inlinable
    public init(wrappedValue: Value, _ key: String) {
        position = ConstructionStack.push(wrappedValue, settings: SavedSettings(key: key))
    }

    /// A saved property declared with any of its options, in this order: a
    /// key, a description, a date strategy, rules.
    ///
    /// Rules are checked by ``ModelObject/validate()``, when data is loaded
    /// and by ``ModelObject/setValue(_:forKey:)`` (plain assignment does not
    /// throw, so it does not check). A rule on an optional property checks
    /// the value when there is one: `nil` passes.
    ///
    /// ```swift
    /// final class Chore: ModelObject, @unchecked Sendable {
    ///     @Saved("name", rules: .nonEmpty, .maxLength(80)) var title = "Untitled"
    ///     @Saved(rules: .range(1...5)) var stars: Int? = nil   // nil passes
    ///     @Saved("due_at", description: "When the chore is due", dateStrategy: .secondsSince1970)
    ///     var due: Date? = nil
    ///     @Saved("priority", description: "1 is the most urgent", rules: .range(1...3)) var urgency = 2
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - wrappedValue: The initial value: what a new object holds and what
    ///     a missing key leaves in place.
    ///   - key: The saved key; the property's name when `nil`.
    ///   - description: What the property holds, which its class's JSON
    ///     Schema gives as the property's `description` (see
    ///     ``ModelObject/jsonSchema(_:)``).
    ///   - dateStrategy: How its dates (in a `Date`, `Date?` or a collection
    ///     of them) are saved; the class's ``ModelObject/dateStrategy`` when
    ///     `nil`.
    ///   - rules: The rules its value must follow (see ``ValidationRule``).
    @inlinable
    public init(
        wrappedValue: Value, _ key: String? = nil, description: String? = nil, dateStrategy: DateStrategy? = nil,
        rules: ValidationRule<Value>...
    ) {
        position = ConstructionStack.push(
            wrappedValue,
            settings: SavedSettings(
                key: key, dateStrategy: dateStrategy, rules: rules.isEmpty ? nil : rules, description: description))
    }

    /// A saved model property that does or does not keep its model alive:
    /// `@Saved(reference: .weak) var parent: Node? = nil` declares a parent
    /// back-reference that makes no retain cycle (see ``ReferenceStrength``).
    /// The other options come first, as for
    /// ``init(wrappedValue:_:description:dateStrategy:rules:)``; the rules of
    /// a weak reference see its model while it lives, else `nil`.
    ///
    /// ```swift
    /// final class Node: ModelObject, @unchecked Sendable {
    ///     @Saved var children: [Node] = []
    ///     @Saved(reference: .weak) var parent: Node? = nil
    ///     @Saved("up", description: "The node above", reference: .weak) var above: Node? = nil
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - wrappedValue: The initial model, or `nil`.
    ///   - key: The saved key; the property's name when `nil`.
    ///   - description: The property's description in JSON Schema.
    ///   - dateStrategy: How dates in this property are saved; the class's
    ///     strategy when `nil`.
    ///   - rules: The rules its value must follow.
    ///   - reference: ``ReferenceStrength/weak`` for a reference that does
    ///     not keep its model alive; ``ReferenceStrength/strong`` is a plain
    ///     saved property.
    public init<Model: ModelObject>(
        wrappedValue: Value, _ key: String? = nil, description: String? = nil, dateStrategy: DateStrategy? = nil,
        rules: ValidationRule<Value>..., reference: ReferenceStrength
    ) where Value == Model? {
        let rules = rules.isEmpty ? nil : rules
        guard reference == .weak else {
            position = ConstructionStack.push(
                wrappedValue,
                settings: SavedSettings(key: key, dateStrategy: dateStrategy, rules: rules, description: description))
            return
        }
        // A weak property's position is stored complemented (negative), which
        // tells the accessors that its cell holds a `WeakReference<Model>`.
        position = ~ConstructionStack.push(
            WeakReference<Model>(wrappedValue),
            settings: SavedSettings(
                key: key, dateStrategy: dateStrategy, rules: rules, description: description,
                codec: TypedSlotCodec<WeakReference<Model>>()))
    }

    @available(*, unavailable, message: "@Saved can only be used on properties of ModelObject subclasses")
    public var wrappedValue: Value {
        get { fatalError("@Saved can only be used on properties of ModelObject subclasses") }
        // swift-format-ignore
        set { fatalError("@Saved can only be used on properties of ModelObject subclasses") }
    }

    // In a class that is not a ModelObject, Swift 6.3.1 reports this
    // subscript's unmet requirement at `<unknown>:0`. A second, unavailable
    // subscript for `EnclosingSelf: AnyObject` (to give a located message)
    // is refused: "property wrapper type 'Saved' has multiple enclosing-self
    // subscripts". Saved's documentation quotes the message instead, and
    // DocCommentExampleTests checks it.
    /// The accessor that Swift calls for a `@Saved` property of a class: it
    /// hands over the object, so the value can live in the object's storage.
    @inlinable
    @inline(__always)
    public static subscript<EnclosingSelf: ModelObject>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Saved<Value>>
    ) -> Value {
        @inline(__always) get {
            let position = object[keyPath: storageKeyPath].position
            if position < 0 { return object._readWeakSlot(at: ~position, as: Value.self) }
            return object._readSlot(at: position, as: Value.self)
        }
        @inline(__always) set {
            let position = object[keyPath: storageKeyPath].position
            if position < 0 { return object._writeWeakSlot(at: ~position, newValue) }
            object._writeSlot(at: position, newValue)
        }
        // In-place mutation (`items.append(x)`, `count += 1`, `names[k] = v`):
        // the value is mutated where it lies, under the object's lock, with no
        // copy, so the whole mutation is one atomic step and records one change.
        // One yield for both kinds of cell: Swift 6.3.1 does not inline a
        // `_modify` with two yields, and the key path to the wrapper is then
        // made and followed at run time on every access (an in-place append
        // cost 1,336 instructions and an allocation instead of 208;
        // `Benchmarks --check` counts it).
        @inline(__always) _modify {
            let position = object[keyPath: storageKeyPath].position
            // A weak reference's cell holds a box: its model is copied out,
            // mutated, and written back.
            let value =
                position < 0
                ? object._beginWeakMutation(at: ~position, as: Value.self)
                : object._beginMutation(at: position, as: Value.self)
            // Also when the mutation throws, which ends the access at the yield.
            defer {
                if position < 0 {
                    object._endWeakMutation(at: ~position, value)
                } else {
                    object._endMutation(at: position)
                }
            }
            yield &value.pointee
        }
    }
}

/// What a declaration gives besides the initial value: recorded on the
/// construction stack beside it.
@usableFromInline
struct SavedSettings {
    var key: String?
    var dateStrategy: DateStrategy?
    /// The declared `[ValidationRule<Value>]`, if any.
    var rules: Any?
    /// The codec of what the cell holds, when it is not the wrapper's
    /// `Value` (a weak reference's box).
    var codec: (any SlotCodec)?
    /// The declared description, for the class's JSON Schema.
    var description: String?

    @usableFromInline
    init(key: String? = nil, dateStrategy: DateStrategy? = nil, rules: Any? = nil, description: String? = nil) {
        self.key = key
        self.dateStrategy = dateStrategy
        self.rules = rules
        self.description = description
    }

    init(key: String?, dateStrategy: DateStrategy?, rules: Any?, description: String?, codec: any SlotCodec) {
        self.init(key: key, dateStrategy: dateStrategy, rules: rules, description: description)
        self.codec = codec
    }
}

/// What the class layout reads from a `Saved` found by `Mirror`.
protocol SavedDeclaration {
    /// Where the initial value was pushed.
    var pushedAt: Int { get }
    var codec: any SlotCodec { get }
    /// The validator of the declared `rules` (a `[ValidationRule<Value>]`).
    func validator(rules: Any?) -> (any SlotValidator)?
}

extension Saved: SavedDeclaration {
    var pushedAt: Int { position < 0 ? ~position : position }
    var codec: any SlotCodec { TypedSlotCodec<Value>() }
    func validator(rules: Any?) -> (any SlotValidator)? {
        guard let rules = rules as? [ValidationRule<Value>], !rules.isEmpty else { return nil }
        return TypedSlotValidator(rules: rules, holdsWeakReference: position < 0)
    }
}
