import Foundation
import Observation

/// The abstract base class of saved model objects.
///
/// Subclass it, declare the properties to save with ``Saved``, and an object
/// can be turned into a dictionary, JSON or a property list and back, tracks
/// its changes, upgrades data written by older versions of the class, and
/// keeps the keys it does not know in its ``extensibleProperties``.
///
/// ```swift
/// final class Note: ModelObject, @unchecked Sendable {
///     @Saved var title = "Untitled"
///     @Saved var count = 0
///     @Saved var tags: [String] = []
/// }
///
/// let note = Note()
/// note.title = "Groceries"
/// print(note.hasChanges)                   // true
/// print(try note.jsonString())             // {"type":"Note","version":1,"title":"Groceries","count":0,"tags":[]}
/// let copy = try Note(json: note.jsonData())
/// print(copy.title, copy.hasChanges)       // Groceries false
/// ```
///
/// ## Concurrency
///
/// `ModelObject` is `@unchecked Sendable`: its state sits behind a lock, so an
/// object loaded in a background task can be handed to the main actor and
/// shared. Swift 6 asks each subclass to restate the claim: write
/// `final class Note: ModelObject, @unchecked Sendable` (or accept the
/// warning). Saved properties are safe to use from any thread; properties
/// that are not `@Saved` are yours to protect. One read, assignment or
/// in-place mutation of a saved property (`count += 1`, `tags.append(x)`) is
/// atomic; several statements are atomic together inside ``withLock(_:)``.
/// ``Saved`` lists exactly what is and is not atomic.
///
/// ## Identity
///
/// Two model objects are equal only when they are the same object, and hash
/// by identity, like `NSObject`, Core Data and SwiftData objects, so an object
/// can sit in a `Set` while it is edited. ``isEquivalent(to:)`` compares
/// contents; ``copy()`` makes a deep copy.
open class ModelObject: @unchecked Sendable {
    /// The object's mutable state, the values of its saved properties and
    /// its re-entrant lock: reach them through `withState` and the slot
    /// accessors. Written only during `init()`.
    @usableFromInline
    @exclusivity(unchecked) final private(set) var storage: ModelStorage
    /// The construction-stack depth at which this object's initial values
    /// started: a `@Saved` wrapper's slot is its `position - slotBase`.
    /// Written only during `init()`.
    @usableFromInline
    @exclusivity(unchecked) final private(set) var slotBase: Int
    /// What ModelKit knows about this object's class. Written only during
    /// `init()`. Layouts live as long as the process (`ClassLayout.cached`),
    /// so objects do not retain them.
    @exclusivity(unchecked) final private(set) unowned(unsafe) var layout: ClassLayout

    /// Creates an object with default values: each property's declared
    /// default, then whatever ``loadDefaultValues()`` sets.
    ///
    /// A new object has no changes.
    public required init() {
        let type = Swift.type(of: self)
        // The thread's construction stack, borrowed (not retained).
        let stackReference = ConstructionStack.currentUnretained()
        let cachedLayout = stackReference._withUnsafeGuaranteedRef { stack -> Unmanaged<ClassLayout>? in
            if let last = stack.lastLayout, last.type == type { return Unmanaged.passUnretained(last) }
            if let previous = stack.previousLayout, previous.type == type {
                stack.previousLayout = stack.lastLayout
                stack.lastLayout = previous
                return Unmanaged.passUnretained(previous)
            }
            guard let cached = ClassLayout.cached(type) else { return nil }
            stack.previousLayout = stack.lastLayout
            stack.lastLayout = cached
            return Unmanaged.passUnretained(cached)
        }
        if let cachedLayout {
            // Layouts live as long as the process: borrowed, not retained.
            let (base, storage) = stackReference._withUnsafeGuaranteedRef { stack in
                cachedLayout._withUnsafeGuaranteedRef { layout in
                    let base = stack.count &- layout.slotCount
                    precondition(base >= 0, "ModelKit: \(type) was constructed without its @Saved values")
                    return (base, ModelStorage.make(layout: layout) { stack.take(from: base, into: $0, layout: layout) })
                }
            }
            layout = cachedLayout.takeUnretainedValue()
            slotBase = base
            self.storage = storage
        } else {
            // The first object of its class: look at it with Mirror to learn
            // the layout. Mirror needs a fully initialised object, so start
            // with an empty storage and replace it afterwards.
            let stack = stackReference.takeUnretainedValue()
            layout = ClassLayout.empty
            slotBase = 0
            storage = ModelStorage.make(layout: ClassLayout.empty) { _ in }
            let discovered = ClassLayout.discover(self, stack: stack)
            let base = stack.count - discovered.slotCount
            storage.destroy()
            storage = ModelStorage.make(layout: discovered) { stack.take(from: base, into: $0, layout: discovered) }
            layout = discovered
            slotBase = base
        }
        loadDefaultValues()
        // The object is not shared yet: look without the lock, which only
        // an override of loadDefaultValues() that changed something needs.
        // (Most objects have neither changed slots nor extras: two loads.)
        let changed = storage.withUnsafeMutablePointerToHeader {
            !($0.pointee.changedSlots.isEmpty && $0.pointee.extras == nil) && $0.pointee.hasChangeRecords
        }
        if changed {
            withState { state in
                state.clearChangeRecords()
            }
        }
    }

    deinit {
        storage.destroy()
    }

    /// Sets default values that cannot be written as a declaration's
    /// initial value: the current date, values computed from others.
    ///
    /// `init()` calls it after the declared defaults are in place and before
    /// any loaded data is applied, so loaded values win. Changes made here are
    /// not recorded as changes. The base implementation does nothing; call
    /// `super.loadDefaultValues()` first when you override it.
    ///
    /// ```swift
    /// override func loadDefaultValues() {
    ///     super.loadDefaultValues()
    ///     due = .now
    /// }
    /// ```
    open func loadDefaultValues() {}

    /// Rebuilds what loaded data does not hold: a weak parent, a cache, a
    /// value derived from others. Runs once per model after every load has
    /// applied its values: a document read (JSON, a property list, a file,
    /// a dictionary, ``ModelDefaults``, JSON Lines, `Codable`), and a load
    /// into a live model (``update(from:)-([String:Any])``, a patch), where
    /// it runs on the models the load brought or edited and on the model
    /// loaded into. Children's hooks run before their parents', so a parent
    /// sees its children ready. The base implementation does nothing; call
    /// `super.didLoad()` when you override it.
    ///
    /// ```swift
    /// final class TodoList: ModelObject, @unchecked Sendable {
    ///     @Saved var items: [TodoItem] = []
    ///     override func didLoad() {
    ///         super.didLoad()
    ///         for item in items where item.list !== self { item.list = self }
    ///     }
    /// }
    ///
    /// final class TodoItem: ModelObject, @unchecked Sendable {
    ///     @Saved var title = ""
    ///     @Saved(reference: .weak) var list: TodoList? = nil
    /// }
    /// ```
    ///
    /// In a model that the load made, what the hook changes is not recorded
    /// as a change (a document just read has no changes); in a live model
    /// that the load edited, it is, as the load's own changes are. A load
    /// that fails runs no hook.
    open func didLoad() {}

    // MARK: - Class settings

    /// The version of the class's saved data. Default 1.
    ///
    /// Raise it when the saved form changes, and override
    /// ``upgrade(_:from:)`` to bring older data up to date. It is written
    /// under ``versionKey`` with every object.
    open class var version: Int { 1 }

    /// The name written under ``typeKey`` and looked up when loading
    /// polymorphic data. Default: the class's name without its module.
    open class var typeName: String { String(describing: self) }

    /// The class name that `NSKeyedArchiver` archives give this class's
    /// objects: written by ``keyedArchiveData(style:)`` and looked up by
    /// ``init(keyedArchive:)``, with or without a module prefix
    /// (`MyApp.Task` or `Task`). Default: the class's name without its
    /// module. Override it to read archives of a class that was named
    /// otherwise, or see ``register(_:as:)``.
    ///
    /// ```swift
    /// override class var archivedClassName: String { "LegacyNote" }
    /// ```
    open class var archivedClassName: String { String(describing: self) }

    /// The form this class's objects are written in: ``SavedDialect/modelKit``
    /// (the default) or ``SavedDialect/dejalObject``, which an app built on
    /// DejalObject loads. Reading accepts both, whatever this says.
    ///
    /// ```swift
    /// override class var savedDialect: SavedDialect { .dejalObject }
    /// ```
    open class var savedDialect: SavedDialect { .modelKit }

    /// The saved key whose value identifies this class's objects inside
    /// arrays, for three-way merges; default `nil`: arrays of this class's
    /// objects merge by position.
    ///
    /// With an identity key, an element edited on one side and moved or
    /// surrounded by insertions on the other still merges with itself:
    ///
    /// ```swift
    /// final class Item: ModelObject, @unchecked Sendable {
    ///     @Saved var id = UUID()
    ///     @Saved var title = ""
    ///     override class var identityKey: String? { "id" }
    /// }
    /// ```
    ///
    /// Where an element of an array has no value under the key, or two
    /// elements of one version share one, that array merges by position.
    open class var identityKey: String? { nil }

    /// Checks the value of one saved property beyond the rules declared with
    /// it; throw to refuse it (the message of a ``ModelError`` you throw is
    /// kept, any other error is described).
    ///
    /// ``validate()`` calls it for every saved key, and
    /// ``setValue(_:forKey:)`` for the key it sets. The base implementation
    /// accepts every value; call `super` when a superclass checks too.
    ///
    /// ```swift
    /// override func validateValue(_ value: Any, forKey key: String) throws {
    ///     if key == "email", let text = value as? String, !text.contains("@") {
    ///         throw ModelError.invalidValue("must contain @")
    ///     }
    /// }
    /// ```
    open func validateValue(_ value: Any, forKey key: String) throws {}

    /// Checks the object as a whole, across its properties (Core Data's
    /// `validateForUpdate`): throw a ``ModelError`` whose key path names the
    /// property at fault to refuse it. ``validate()`` calls it after the
    /// property checks. The base implementation accepts every object.
    ///
    /// ```swift
    /// override func validateObject() throws {
    ///     try super.validateObject()
    ///     if hasDrivingLicence && age < 17 {
    ///         throw ModelError(code: .invalidValue, message: "needs an age of 17 or more for a driving licence",
    ///                          keyPath: ModelKeyPath([.key("hasDrivingLicence")]))
    ///     }
    /// }
    /// ```
    open func validateObject() throws {}

    /// Computed keys and the saved or extensible keys they are made from,
    /// like `keyPathsForValuesAffectingValueForKey:`: observers of a
    /// dependent key are told when any key it depends on changes.
    ///
    /// ```swift
    /// override class var dependentKeys: [String: Set<String>] {
    ///     ["fullName": ["firstName", "lastName"]]
    /// }
    /// ```
    /// The base class declares none; merge in `super.dependentKeys` when a
    /// superclass declares some.
    open class var dependentKeys: [String: Set<String>] { [:] }

    /// The key of the data version in saved data, `"version"` by default;
    /// `nil` leaves the version out (data is then read as the current version).
    open class var versionKey: String? { "version" }

    /// The key of the type name in saved data, `"type"` by default; `nil`
    /// leaves the type out (data is then read as the declared class).
    open class var typeKey: String? { "type" }

    /// How this class saves its `Date` properties, unless a property has its
    /// own strategy. Default ``DateStrategy/iso8601``.
    open class var dateStrategy: DateStrategy { .iso8601 }

    /// What loading does with keys this class does not save; default
    /// ``UnknownKeyPolicy/keep``.
    ///
    /// With `.keep` they go to the ``extensibleProperties`` and are written
    /// back; with `.ignore` they are dropped; with `.reject` loading throws
    /// one error naming every unknown key. Override it to return a constant;
    /// it is read once per class. A subclass inherits its superclass's policy
    /// unless it overrides this too.
    ///
    /// ```swift
    /// override class var unknownKeys: UnknownKeyPolicy { .reject }
    /// ```
    open class var unknownKeys: UnknownKeyPolicy { .keep }

    /// The keys this class saves, in the order they are written.
    ///
    /// The default is every `@Saved` key, superclass first, in declaration
    /// order. Override it to reorder keys or to stop saving some: a key left
    /// out is neither written nor read (loaded data with that key keeps it in
    /// the ``extensibleProperties``).
    open class var savedKeys: [String] { ClassLayout.declaredKeys(of: self) }

    /// Checks the class's `@Saved` declarations and throws one error listing
    /// every problem: repeated keys, keys equal to ``versionKey`` or
    /// ``typeKey``, ``savedKeys`` naming no property. Loading and saving
    /// throw the same error; call this in a test to catch mistakes early.
    public class func validateDeclarations() throws {
        if let error = ClassLayout.of(self).declarationError { throw error }
    }

    /// Brings saved data of an older version up to date, one step at a time.
    ///
    /// Loading calls it once per step, from the loaded data's version up to
    /// ``version`` − 1, on the raw values before they are applied (without
    /// the metadata keys). Rename, convert or drop keys here; keys left
    /// unknown to the class go to the ``extensibleProperties``. The base
    /// implementation does nothing; when a subclass of your own model class
    /// overrides it, call `super` for the versions the superclass handles.
    ///
    /// ```swift
    /// override class var version: Int { 2 }
    /// override class func upgrade(_ values: inout [String: ModelValue], from version: Int) throws {
    ///     if version == 1 { values["count"] = values["number"]; values["number"] = nil }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - values: the raw values, to change in place.
    ///   - version: the version the values are in; after the call they must be in `version + 1`.
    /// - Throws: any error, reported as a ``ModelError`` naming the step.
    open class func upgrade(_ values: inout [String: ModelValue], from version: Int) throws {}

    /// Reads an object of exactly this class from its saved form.
    ///
    /// Missing keys keep their defaults; keys the class does not save go to
    /// the ``extensibleProperties``. Use ``decoded(from:)`` to accept
    /// registered subclasses.
    /// - Throws: ``ModelError`` naming the key path of the first bad value.
    public required convenience init(modelValue: ModelValue) throws {
        self.init()
        try loadingNew { try load(modelValue) }
    }

    /// Creates an object from a property-list-style dictionary.
    ///
    /// Missing keys keep their default values; keys the class does not save
    /// go to the ``extensibleProperties``. Data of an older ``version`` is
    /// upgraded first. The new object has no changes.
    ///
    /// ```swift
    /// let note = try Note(dictionary: ["title": "Groceries", "count": 3])
    /// print(note.count)   // 3
    /// ```
    /// - Throws: ``ModelError`` naming the key path of the first bad value.
    public required convenience init(dictionary: [String: Any]) throws {
        self.init()
        try loadingNew {
            // Straight from the dictionary when the direct path can; otherwise,
            // and for every error, through ModelValue.
            if directlyDecodedInPlace(dictionary) { return }
            apply(try decodePendingDictionary(dictionary), recordingChanges: false, replacingBag: true)
        }
    }

    /// Creates an object from an XML or binary property list.
    /// - Throws: ``ModelError`` for a malformed document or a bad value.
    public required convenience init(propertyList data: Data) throws {
        self.init()
        try loadingNew { try load(ModelValue(propertyList: data)) }
    }

    /// Creates an object from JSON.
    ///
    /// ```swift
    /// let note = try Note(json: Data(#"{"title":"Groceries","tags":["home"]}"#.utf8))
    /// print(note.tags)   // ["home"]
    /// ```
    /// - Throws: ``ModelError`` with the line and column of a malformed
    ///   document, or the key path of a bad value.
    public required convenience init(json: Data, options: JSONReadingOptions = JSONReadingOptions()) throws {
        self.init()
        try loadingNew { try loadJSON(json, options: options) }
    }

    /// Creates an object from a JSON or property-list file, whichever the
    /// file's content is; a property list that is an `NSKeyedArchiver`
    /// archive is read as ``init(keyedArchive:)`` reads it.
    /// - Throws: ``ModelError`` for a missing, unreadable, empty or truncated
    ///   file, an unknown format, or a bad document; the error names the file.
    public required convenience init(contentsOf url: URL) throws {
        self.init()
        let (data, format) = try ModelDocumentFormat.bytes(contentsOf: url)
        try loadingNew { try loadDocument(data, format: format, url: url) }
    }

    /// Loads the bytes of a document file in `format` (detected from them),
    /// naming `url` in errors.
    func loadDocument(_ data: Data, format: ModelDocumentFormat, url: URL) throws {
        try ModelDocumentFormat.attributing(to: url) {
            if case .json = format {
                try loadJSON(data, options: JSONReadingOptions())
            } else if KeyedArchive.isKeyedArchive(data) {
                try loadKeyedArchive(data)
            } else {
                try load(ModelValue(propertyList: data))
            }
        }
    }

    /// Decodes an object of exactly this class from its saved form, as
    /// ``init(dictionary:)`` does: data of an older ``version`` is upgraded,
    /// missing keys keep their defaults, unknown keys go to the
    /// ``extensibleProperties``, and the new object has no changes.
    ///
    /// An initializer cannot create a subclass: data that names a registered
    /// subclass under ``typeKey`` is refused with an error saying so. Decode a
    /// ``ModelValue`` and call ``decoded(from:)`` to accept subclasses.
    /// - Throws: ``ModelError`` naming the key path of the first bad value
    ///   (relative to this object), or the decoder's error for malformed data.
    public required convenience init(from decoder: any Decoder) throws {
        self.init()
        do {
            let dateKeys = layout.dateKeys(for: decoder)
            try loadingNew { try load(CodableModelValue(from: decoder, dateKeys: dateKeys).value) }
        } catch let error as ModelError {
            // A decoder's keyed container need not keep the data's order;
            // the path to this model in the decoder's data comes first, as
            // `[Model](json:)` names the element.
            var failure = error.sortingUnknownKeys()
            for key in decoder.codingPath.reversed() {
                failure.keyPath = failure.keyPath.prepending(key.intValue.map { .index($0) } ?? .key(key.stringValue))
            }
            throw failure
        }
    }

    // MARK: - Property access

    /// Runs `body` on the object's state, holding its lock.
    ///
    /// Every read and write of saved values goes through here: the lock,
    /// change recording and, later, observation stay in one place. The lock
    /// is re-entrant, but `body` holds `inout` access to the state, so it
    /// must not call back into this object.
    @inlinable
    @inline(__always)
    final func withState<Result>(_ body: (inout ModelState) throws -> Result) rethrows -> Result {
        // Not retained: the object holds its storage for its whole life.
        let storage = self.storage
        storage.lock()
        defer { storage.unlock() }
        return try storage.withUnsafeMutablePointerToHeader { try body(&$0.pointee) }
    }

    /// ``withState(_:)`` without the lock, for an object that no other
    /// thread can reach yet: one a decoder is making, which nothing but the
    /// decoder (and the new parent it is filling) holds until the load
    /// returns it. (Two lock round trips a model in a typed decode.)
    @inline(__always)
    final func withUnsharedState<Result>(_ body: (inout ModelState) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointerToHeader { try body(&$0.pointee) }
    }

    /// Reads the value of the slot whose wrapper pushed at `position`.
    @inlinable
    @inline(__always)
    final func _readSlot<Value>(at position: Int, as type: Value.Type) -> Value {
        let slot = position &- slotBase
        // The observation center is not retained: the state holds the one
        // once made for as long as the object lives.
        let storage = self.storage
        storage.lock()
        let (value, center) = storage.withUnsafeMutablePointerToHeader {
            header -> (Value, Unmanaged<ObservationCenter>) in
            if header.pointee.mutatingSlots.contains(slot) {
                storage.unlock()
                _overlappingAccess(slot: slot)
            }
            // The registrar comes into being with the first read: a tracker
            // can only be watching an object it has read.
            let center: Unmanaged<ObservationCenter>
            if let existing = header.pointee.observation {
                center = Unmanaged.passUnretained(existing)
            } else {
                center = Unmanaged.passUnretained(ModelObject._makeObservationCenter(&header.pointee))
            }
            let value = SlotCell.pointer(header.pointee.cells + slot &* SlotCell.size, as: Value.self).pointee
            storage.unlock()
            return (value, center)
        }
        _trackRead(slot, center)
        return value
    }

    /// Writes the value of the slot whose wrapper pushed at `position`,
    /// recording a change unless the value equals the current one.
    @inlinable
    @inline(__always)
    final func _writeSlot<Value: Equatable>(at position: Int, _ newValue: Value) {
        let slot = position &- slotBase
        let outcome = withState { state -> SlotWrite in
            if state.mutatingSlots.contains(slot) { return .overlapping }
            let value = SlotCell.pointer(state.cells + slot &* SlotCell.size, as: Value.self)
            if value.pointee == newValue { return .unchanged }
            if !state.changedSlots.contains(slot) { _rememberOriginal(slot, value.pointee, &state) }
            state.changedSlots.insert(slot)
            state.changeCount &+= 1
            guard let center = state.observation else {
                value.pointee = newValue
                return .changed
            }
            guard center.hasListeners || state.lockHolds > 0 else {
                value.pointee = newValue
                return .tracked(Unmanaged.passUnretained(center))
            }
            let old = value.pointee
            value.pointee = newValue
            _queueSlotChange(slot, old: old, new: newValue, in: &state)
            return .changedAndObserved
        }
        switch outcome {
        case .overlapping: _overlappingAccess(slot: slot)
        case .changedAndObserved: deliverChanges()
        case .tracked(let center): _notifyTracking(slot, center)
        case .changed, .unchanged: break
        }
    }

    /// What `_writeSlot` did.
    @usableFromInline
    enum SlotWrite {
        case unchanged, changed, changedAndObserved, overlapping
        /// Changed; only observation tracking can be listening (the
        /// center, which the object's storage holds, unretained).
        case tracked(Unmanaged<ObservationCenter>)
    }

    @usableFromInline
    static func _makeObservationCenter(_ state: inout ModelState) -> ObservationCenter {
        let center = ObservationCenter()
        state.observation = center
        return center
    }

    /// Tells the registrar that the slot was read (for `withObservationTracking`).
    @usableFromInline
    final func _trackRead(_ slot: Int, _ center: Unmanaged<ObservationCenter>) {
        // Borrowed, not retained: layouts and their key paths live as long as the process.
        let keyPath = Unmanaged.passUnretained(layout.observationKeyPaths[slot])
        keyPath._withUnsafeGuaranteedRef { keyPath in
            center._withUnsafeGuaranteedRef { $0.registrar.access(self, keyPath: keyPath) }
        }
    }

    /// Queues the change of a slot for observers (lock held).
    @usableFromInline
    final func _queueSlotChange(_ slot: Int, old: Any, new: Any, in state: inout ModelState) {
        queueChange(layout.slots[slot].key, slot: slot, old: old, new: new, in: &state)
    }

    /// Starts an in-place mutation of the slot whose wrapper pushed at
    /// `position`: takes the object's lock, which stays held until
    /// `_endMutation(at:)`, and returns where the value is, so that the
    /// caller mutates it where it lies and copies nothing.
    ///
    /// Meanwhile reading or writing the same property (from inside a
    /// closure passed to the mutation) is an overlapping access and traps,
    /// like one to a Swift variable. Other saved properties stay readable
    /// and writable on this thread: the lock is re-entrant.
    @inlinable
    @inline(__always)
    final func _beginMutation<Value>(at position: Int, as type: Value.Type) -> UnsafeMutablePointer<Value> {
        let slot = position &- slotBase
        let storage = self.storage
        storage.lock()
        return storage.withUnsafeMutablePointerToHeader { header -> UnsafeMutablePointer<Value> in
            if header.pointee.mutatingSlots.contains(slot) {
                // This property is being mutated already.
                storage.unlock()
                _overlappingAccess(slot: slot)
            }
            header.pointee.lockHolds += 1
            // The value before the first change is kept for `changes` and
            // revert (the one copy a container makes per cycle of changes),
            // and before each change when somebody observes the property.
            if !header.pointee.changedSlots.contains(slot) || header.pointee.observation != nil {
                _rememberBeforeMutation(slot, &header.pointee)
            }
            header.pointee.mutatingSlots.insert(slot)
            return SlotCell.pointer(header.pointee.cells + slot &* SlotCell.size, as: Value.self)
        }
    }

    /// Ends an in-place mutation begun by `_beginMutation(at:as:)`: records
    /// the change and releases the lock. Runs also when the mutation throws.
    @inlinable
    @inline(__always)
    final func _endMutation(at position: Int) {
        let slot = position &- slotBase
        let storage = self.storage
        let observable = storage.withUnsafeMutablePointerToHeader { header -> Bool in
            header.pointee.mutatingSlots.remove(slot)
            header.pointee.changedSlots.insert(slot)
            header.pointee.changeCount &+= 1
            header.pointee.lockHolds -= 1
            return header.pointee.observation != nil
        }
        // No observation centre (the object was never read through its
        // accessors): nobody to tell. Kept this short so that the accessor's
        // end, which Swift emits twice (mutation done, mutation thrown),
        // stays small.
        guard observable else { return storage.unlock() }
        _endObservedMutation(slot)
    }

    /// The end of `_endMutation(at:)` for an object with an observation
    /// centre: queues or reports the change, releases the lock and tells
    /// observers.
    @usableFromInline
    final func _endObservedMutation(_ slot: Int) {
        let storage = self.storage
        let outcome = storage.withUnsafeMutablePointerToHeader { header -> SlotWrite in
            guard let center = header.pointee.observation else { return .changed }
            // Only observation tracking can hear it: tell the registrar directly.
            guard center.hasListeners || header.pointee.lockHolds > 0 else { return .tracked(Unmanaged.passUnretained(center)) }
            _queueMutation(slot, &header.pointee)
            return .changedAndObserved
        }
        storage.unlock()
        switch outcome {
        case .changedAndObserved: deliverChanges()
        case .tracked(let center): _notifyTracking(slot, center)
        case .changed, .unchanged, .overlapping: break
        }
    }

    /// Keeps the value of a slot before its first change, for `changes` and
    /// revert, unless it may hold models (lock held).
    @usableFromInline
    final func _rememberOriginal(_ slot: Int, _ value: Any, _ state: inout ModelState) {
        if !layout.slotMayHoldModels[slot] { state.originalValues[slot] = value }
    }

    /// Keeps the slot's value before an in-place mutation (lock held).
    @usableFromInline
    final func _rememberBeforeMutation(_ slot: Int, _ state: inout ModelState) {
        let remembersOriginal = !state.changedSlots.contains(slot) && !layout.slotMayHoldModels[slot]
        let observed = state.observation.map { $0.observes(layout.slots[slot].key) } ?? false
        guard remembersOriginal || observed else { return }
        let value = state.value(at: slot)
        if remembersOriginal { state.originalValues[slot] = value }
        if observed { state.valuesBeforeMutation[slot] = value }
    }

    /// Queues the change an in-place mutation made (lock held).
    @usableFromInline
    final func _queueMutation(_ slot: Int, _ state: inout ModelState) {
        let old = state.valuesBeforeMutation.removeValue(forKey: slot)
        let new = state.value(at: slot)
        queueChange(layout.slots[slot].key, slot: slot, old: old, new: new, in: &state)
    }

    /// Traps on an overlapping access to one saved property.
    @usableFromInline
    final func _overlappingAccess(slot: Int) -> Never {
        let key = slot < layout.slots.count ? layout.slots[slot].key : "#\(slot)"
        fatalError(
            "ModelKit: \(Swift.type(of: self)).\(key) was accessed while it is being mutated in place "
                + "(overlapping access, as for a Swift variable)")
    }

    /// Runs `body` while holding the object's lock, so that several saved
    /// properties change together: no other thread sees some of the changes
    /// without the others, or changes them in between.
    ///
    /// The lock is re-entrant: inside `body`, this thread may read and write
    /// every saved property of the object and call `withLock` again. Other
    /// threads that touch the object wait until `body` returns, so keep it
    /// short, and do not wait inside it for another thread that uses the
    /// object. Models held in saved properties have locks of their own:
    /// touching another model inside `body` takes its lock too, so two threads
    /// that nest the same two objects' locks in opposite orders can deadlock,
    /// as with any pair of locks.
    ///
    /// ```swift
    /// let account = Account()
    /// account.withLock {
    ///     account.balance -= 10
    ///     account.history.append(-10)
    /// }
    /// print(account.balance, account.history)   // -10 [-10]
    /// ```
    /// - Parameter body: the work to do under the lock; do not suspend in it.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws.
    public final func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        storage.lock()
        storage.withUnsafeMutablePointerToHeader { $0.pointee.lockHolds += 1 }
        // Deep encoding cannot move to another thread while this one holds a lock.
        let thread = StackGuard.current
        thread.locksHeld += 1
        defer {
            thread.locksHeld -= 1
            let pending = storage.withUnsafeMutablePointerToHeader { header -> Bool in
                header.pointee.lockHolds -= 1
                return header.pointee.lockHolds == 0 && !header.pointee.pendingChanges.isEmpty
            }
            storage.unlock()
            if pending { deliverChanges() }
            // Changes to other models made inside the block end their history step here.
            if thread.locksHeld == 0, thread.history != nil { HistoryThreadState.commitIfIdle() }
        }
        return try body()
    }
}

extension ModelObject: Hashable {
    /// Whether the two are the same object.
    public static func == (lhs: ModelObject, rhs: ModelObject) -> Bool { lhs === rhs }

    /// Hashes the value.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension ModelObject: CustomStringConvertible {
    /// The class name and the saved values: `Note {"title":"Groceries","count":3}`.
    public var description: String {
        "\(Swift.type(of: self)) \(ModelValue.object(encodedRootOrMarked(includeMetadata: false)))"
    }
}
