import Foundation
import Synchronization

/// What ModelKit knows about one `ModelObject` subclass: its saved properties,
/// their keys and slots, and its class-level settings. Discovered once per
/// class, from the first object constructed, with `Mirror`; then shared,
/// immutable, by every object of the class.
@usableFromInline
final class ClassLayout: Sendable {
    struct Slot: Sendable {
        /// The key in saved data.
        let key: String
        /// The property's name in Swift.
        let propertyName: String
        /// Index in the object's storage.
        let offset: Int
        let codec: any SlotCodec
        /// The property's own date strategy, if it has one.
        let dateStrategy: DateStrategy?
        /// The rules declared with the property, if any.
        var validator: (any SlotValidator)? = nil
        /// The description declared with the property, if any (`@Saved(description:)`).
        var description: String? = nil
    }

    let type: ModelObject.Type
    /// Every `@Saved` property, indexed by storage offset.
    let slots: [Slot]
    /// Storage offsets of the declared properties, superclass first, in declaration order.
    let declaredOrder: [Int]
    /// Storage offsets of the saved keys, in `savedKeys` order.
    let savedOrder: [Int]
    /// Saved key → storage offset.
    let offsetsByKey: [String: Int]
    /// Property name → storage offset, for key-value access by name.
    let offsetsByName: [String: Int]
    /// Offsets of slots whose values may hold models.
    let modelSlots: [Int]
    /// The slots of `@Saved(reference: .weak)` properties, which the graph
    /// walks do not follow (they keep no model), but copying re-points.
    let weakSlots: [Int]
    /// For each slot: whether its value may hold models.
    let slotMayHoldModels: [Bool]
    /// Whether some slot declares rules: loading such a class goes through
    /// the `ModelValue` path, which checks them.
    let hasRules: Bool
    /// For each of `modelSlots`: the slot's type when it is a model, an
    /// optional model or an array of models, which change tracking walks
    /// without a cast per model; `nil` for other containers of models.
    let modelShapes: [(any JSONModelShape.Type)?]
    /// The same by offset, for every slot: `nil` where the slot holds no
    /// model, optional model or array of models.
    let shapes: [(any JSONModelShape.Type)?]
    /// The storage offset of the saved key `key`, told apart by its exact
    /// text (its Unicode scalars): `offsetsByKey` alone would find the slot
    /// of `"é"` for the bag key `"e\u{301}"`, which Swift's `==` finds equal.
    func offset(forKey key: String) -> Int? {
        guard let offset = offsetsByKey[key], KeyHash.sameBytes(slots[offset].key, key) else { return nil }
        return offset
    }
    /// The storage offset of the saved key or the property named `text`
    /// (the key first), told apart by exact text as ``offset(forKey:)``
    /// does: key-value access with `"e\u{301}"` never reaches the property
    /// saved as `"é"`.
    func offset(forKeyOrName text: String) -> Int? {
        if let offset = offset(forKey: text) { return offset }
        guard let offset = offsetsByName[text], KeyHash.sameBytes(slots[offset].propertyName, text) else { return nil }
        return offset
    }
    let typeName: String
    let version: Int
    let versionKey: String?
    let typeKey: String?
    /// The form objects of the class are written in.
    let savedDialect: SavedDialect
    let dateStrategy: DateStrategy
    /// What loading does with keys the class does not save.
    let unknownKeys: UnknownKeyPolicy
    /// Problems with the declarations; an object of a class with problems can
    /// be created, but not saved or loaded.
    let problems: [String]
    /// Key lookup from bytes and per-slot readers for the direct JSON decoder.
    let jsonPlan: JSONDecodingPlan
    /// The length of the last JSON document the direct encoder wrote with an
    /// object of this class at its root: the next one's buffer starts that
    /// large (see `ModelObject.directlyFilledWriter`), not doubled a few
    /// times on the way, each time copying what it holds.
    let jsonLengthHint = Atomic<Int>(0)
    /// How the direct dictionary paths read and write each slot, by offset.
    let dictionaryKinds: [DictionarySlotKind]
    /// The same without payloads, for switching on.
    let dictionaryCodes: [DictionarySlotKind.Code]
    /// An empty dictionary with room for the metadata and every saved key:
    /// the direct dictionary encoder starts each result as a copy of it,
    /// which costs less than `Dictionary(minimumCapacity:)`, which the
    /// standard library does not specialise and so looks up its storage's
    /// generic type at run time, each time. (Empty and immutable, so safe to
    /// share, hence `nonisolated(unsafe)`.)
    nonisolated(unsafe) let emptyDictionary: [String: Any]
    /// The key path that observation tracking records for each slot, by
    /// offset (see `ModelObject+Observation`).
    /// (Key paths are not `Sendable`; these are immutable and hold only a string.)
    nonisolated(unsafe) let observationKeyPaths: [KeyPath<ModelObject, Int>]
    /// For each key, the dependent keys whose observers hear of its changes
    /// (from ``ModelObject/keysAffectingValue(forKey:)``), with the key itself.
    let affectedKeys: [String: [String]]
    /// The observation key paths of each slot's dependent keys, by offset
    /// (empty for most): what a tracked change of the slot also reports.
    nonisolated(unsafe) let affectedKeyPaths: [[KeyPath<ModelObject, Int>]]

    var slotCount: Int { slots.count }
    /// Each slot's codec, by offset.
    let codecs: [any SlotCodec]
    /// The slots whose values need destroying (not plain bytes, as an `Int`
    /// or a `Double` is), which a storage's deinit goes through.
    let slotsToDestroy: [Int]
    /// The types of the `slotsToDestroy`, in the same order: a metatype is
    /// two plain words, so the deinit reads them without retaining anything
    /// (immutable metatypes, safe to share: hence `nonisolated(unsafe)`).
    nonisolated(unsafe) let typesToDestroy: [any ModelValueConvertible.Type]
    /// Each slot's type, by offset (immutable metatypes, as above).
    nonisolated(unsafe) let slotTypes: [any ModelValueConvertible.Type]
    /// Whether each slot's values are plain bytes that need no destroying.
    let slotIsPlainData: [Bool]

    /// A placeholder for the first object of a class while it is being discovered.
    static let empty = ClassLayout(
        type: ModelObject.self, slots: [], declaredOrder: [], savedOrder: [], problems: [], settings: false)

    private init(
        type: ModelObject.Type, slots: [Slot], declaredOrder: [Int], savedOrder: [Int], problems: [String],
        settings: Bool = true
    ) {
        self.type = type
        self.slots = slots
        codecs = slots.map(\.codec)
        slotsToDestroy = slots.indices.filter { !slots[$0].codec.isPlainData }
        typesToDestroy = slotsToDestroy.map { slots[$0].codec.convertibleType }
        slotTypes = slots.map(\.codec.convertibleType)
        slotIsPlainData = slots.map(\.codec.isPlainData)
        self.declaredOrder = declaredOrder
        self.savedOrder = savedOrder
        var byKey: [String: Int] = [:]
        for offset in savedOrder where byKey[slots[offset].key] == nil { byKey[slots[offset].key] = offset }
        offsetsByKey = byKey
        var byName: [String: Int] = [:]
        for slot in slots { byName[slot.propertyName] = slot.offset }
        offsetsByName = byName
        modelSlots = slots.filter { $0.codec.mayContainModels }.map(\.offset)
        weakSlots = slots.filter { $0.codec.valueType is any WeakReferenceValue.Type }.map(\.offset)
        slotMayHoldModels = slots.map { $0.codec.mayContainModels || $0.codec.valueType is any WeakReferenceValue.Type }
        hasRules = slots.contains { $0.validator != nil }
        modelShapes = modelSlots.map { slots[$0].codec.valueType as? any JSONModelShape.Type }
        shapes = slots.map { $0.codec.valueType as? any JSONModelShape.Type }
        // The placeholder must not call the class's overridable settings.
        typeName = settings ? type.typeName : "ModelObject"
        version = settings ? type.version : 1
        versionKey = settings ? type.versionKey : nil
        typeKey = settings ? type.typeKey : nil
        savedDialect = settings ? type.savedDialect : .modelKit
        dateStrategy = settings ? type.dateStrategy : .iso8601
        unknownKeys = settings ? type.unknownKeys : .keep
        self.problems = problems
        jsonPlan = JSONDecodingPlan(
            slots: slots, savedOrder: savedOrder, versionKey: versionKey, typeKey: typeKey, typeName: typeName)
        let classStrategy = dateStrategy
        dictionaryKinds = slots.map {
            DictionarySlotKind.of($0.codec.valueType, dateStrategy: $0.dateStrategy ?? classStrategy)
        }
        dictionaryCodes = dictionaryKinds.map(\.code)
        emptyDictionary = [String: Any](minimumCapacity: savedOrder.count + 2)
        observationKeyPaths = slots.map { ModelObject.observationKeyPath($0.key) }
        var affected: [String: [String]] = [:]
        if settings {
            for (key, sources) in type.dependentKeys.sorted(by: { $0.key < $1.key }) {
                for source in sources { affected[source, default: []].append(key) }
            }
        }
        affectedKeys = affected
        affectedKeyPaths = slots.map { slot in (affected[slot.key] ?? []).map(ModelObject.observationKeyPath) }
    }

    /// The declaration error, if the class has problems.
    var declarationError: ModelError? {
        guard !problems.isEmpty else { return nil }
        let list =
            problems.count == 1
            ? problems[0]
            : Array(problems.enumerated()).map { "(\($0.offset + 1)) \($0.element)" }.joined(separator: "; ")
        return ModelError(
            code: .invalidDeclaration,
            message: "\(type) has \(problems.count) declaration problem\(problems.count == 1 ? "" : "s"): \(list)")
    }

    /// Stops with the declaration error; for APIs that cannot throw.
    func requireValid() {
        if let declarationError { preconditionFailure("ModelKit: \(declarationError)") }
    }

    // MARK: - The cache

    private static let cache = LockedTable<ObjectIdentifier, ClassLayout>()
    private static let declaredKeys = LockedTable<ObjectIdentifier, [String]>()
    /// The classes found, at discovery, to have a superclass other than `ModelObject`.
    private static let subclassesOfModels = LockedTable<ObjectIdentifier, Bool>()

    /// Whether `type`'s superclass is a model class other than `ModelObject`.
    static func hasModelSuperclass(_ type: ModelObject.Type) -> Bool {
        if let known = subclassesOfModels.withLock({ $0[ObjectIdentifier(type)] }) { return known }
        _ = of(type)
        return subclassesOfModels.withLock { $0[ObjectIdentifier(type)] } ?? false
    }

    static func cached(_ type: ModelObject.Type) -> ClassLayout? {
        cache.withLock { $0[ObjectIdentifier(type)] }
    }

    /// The layout of `type`, discovered by constructing an object if no
    /// object of the class has been constructed yet.
    static func of(_ type: ModelObject.Type) -> ClassLayout {
        if let layout = cached(type) { return layout }
        return type.init().layout
    }

    /// The declared keys of `type`, superclass first: the default `savedKeys`.
    static func declaredKeys(of type: ModelObject.Type) -> [String] {
        if let keys = declaredKeys.withLock({ $0[ObjectIdentifier(type)] }) { return keys }
        return of(type).declaredOrder.map { of(type).slots[$0].key }
    }

    // MARK: - Discovery

    /// Discovers the layout of `object`'s class, whose initial values sit on
    /// top of `stack`. Runs once per class, inside the first `init()`.
    static func discover(_ object: ModelObject, stack: ConstructionStack) -> ClassLayout {
        let type = Swift.type(of: object)
        struct Found {
            let name: String
            let declaration: any SavedDeclaration
        }
        // Walk from the object's class up to ModelObject, then reverse, so
        // that superclass properties come first.
        var levels: [[Found]] = []
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror, current.subjectType != ModelObject.self {
            var level: [Found] = []
            for child in current.children {
                guard let declaration = child.value as? any SavedDeclaration, let label = child.label else { continue }
                let name = label.hasPrefix("_") ? String(label.dropFirst()) : label
                level.append(Found(name: name, declaration: declaration))
            }
            levels.append(level)
            mirror = current.superclassMirror
        }
        let superclass = Mirror(reflecting: object).superclassMirror?.subjectType
        subclassesOfModels.withLock { $0[ObjectIdentifier(type)] = superclass.map { $0 != ModelObject.self } ?? false }
        let found = levels.reversed().flatMap { $0 }
        let count = found.count
        let base = stack.count - count

        var problems: [String] = []
        var slots = [Slot?](repeating: nil, count: count)
        var declaredOrder: [Int] = []
        for item in found {
            let offset = item.declaration.pushedAt - base
            guard base >= 0, offset >= 0, offset < count, slots[offset] == nil else {
                preconditionFailure(
                    "ModelKit: the @Saved properties of \(type) were not initialised in declaration order. "
                        + "Give every @Saved property a default value (`@Saved var \(item.name) = …`).")
            }
            let settings = stack.settings(at: item.declaration.pushedAt)
            let key = settings.key ?? item.name
            slots[offset] = Slot(
                key: key, propertyName: item.name, offset: offset, codec: settings.codec ?? item.declaration.codec,
                dateStrategy: settings.dateStrategy, validator: item.declaration.validator(rules: settings.rules),
                description: settings.description)
            declaredOrder.append(offset)
        }
        let allSlots = slots.map { $0! }
        let declared = declaredOrder.map { allSlots[$0].key }
        declaredKeys.withLock { $0[ObjectIdentifier(type)] = declared }

        // Check the declarations, collecting every problem.
        var seen: [String: String] = [:]
        for offset in declaredOrder {
            let slot = allSlots[offset]
            if slot.key.isEmpty {
                problems.append("property `\(slot.propertyName)` has an empty key")
            } else if let other = seen[slot.key] {
                problems.append(
                    "properties `\(other)` and `\(slot.propertyName)` both use the key \"\(slot.key)\"")
            } else {
                seen[slot.key] = slot.propertyName
            }
        }
        let versionKey = type.versionKey
        let typeKey = type.typeKey
        if let versionKey, versionKey == typeKey {
            problems.append("versionKey and typeKey are both \"\(versionKey)\"")
        }
        for (metadataKey, role) in [(versionKey, "versionKey"), (typeKey, "typeKey")] {
            guard let metadataKey, let name = seen[metadataKey] else { continue }
            problems.append(
                "property `\(name)` uses the key \"\(metadataKey)\", which is the class's \(role); "
                    + "give the property another key with @Saved(\"…\") or override \(role)")
        }
        for offset in declaredOrder where ReferenceKeys.isReserved(allSlots[offset].key) {
            problems.append(
                "property `\(allSlots[offset].propertyName)` uses the key \"\(allSlots[offset].key)\", "
                    + "which is reserved for references between models; give the property another key with @Saved(\"…\")")
        }
        if type.version < 1 {
            problems.append("version is \(type.version); versions start at 1")
        }

        let saved = type.savedKeys
        var savedOrder: [Int] = []
        var listed: Set<String> = []
        for key in saved {
            // A key listed again keeps its first position: DejalObject's idiom
            // `super.savedKeys + ["radius"]` lists the subclass's keys twice,
            // since the default already holds every @Saved key.
            guard listed.insert(key).inserted else { continue }
            guard let offset = declaredOrder.first(where: { allSlots[$0].key == key }) else {
                problems.append("savedKeys lists \"\(key)\", which is the key of no @Saved property")
                continue
            }
            savedOrder.append(offset)
        }

        let layout = ClassLayout(
            type: type, slots: allSlots, declaredOrder: declaredOrder, savedOrder: savedOrder, problems: problems)
        // Objects do not retain their layout, so a layout once used is never
        // replaced: when another thread discovered the class meanwhile, its
        // layout (the same) is the one kept.
        return cache.withLock { table in
            if let existing = table[ObjectIdentifier(type)] { return existing }
            table[ObjectIdentifier(type)] = layout
            return layout
        }
    }
}
