import Foundation

/// Reads property-list-style dictionaries (`[String: Any]`) straight into
/// model objects, without building a ``ModelValue`` for the objects it decodes.
///
/// For each member it finds the slot by key and, by the slot's
/// `DictionarySlotKind`, takes a value of exactly the Swift type the slot
/// holds as it is (an `Int` for an `Int`, a `[String]` for a `[String]`),
/// reads nested models (alone, optional or in arrays) the same way, and
/// converts anything else, and the keys the class does not save, with
/// `PropertyListBridge` and the slot's codec, exactly as
/// ``ModelObject/decodePending(_:)`` does.
///
/// It is a fast path, not a second definition of loading:
/// - It accepts a value only when the `ModelValue` path would give the same
///   Swift value: `NSNumber`s, strings that start with `$` (the null marker
///   and its escapes) and values of other types go through the bridge.
/// - Where it cannot honour a case cheaply (an upgrade to run, a type key
///   naming a subclass, a class with declaration problems), an object goes
///   through the `ModelValue` path; for the root object, the whole dictionary does.
/// - It reports no errors of its own: any failure makes the caller load the
///   whole dictionary again through `ModelValue`, which throws the error with
///   its key path, exactly as before. So it may refuse more than the existing
///   path, never less.
///
/// It recurses once per object, and only `directDepth` levels deep: deeper
/// models go through the `ModelValue` path, which checks the nesting limit.
enum DictionaryModelDecoder {
    /// Makes the caller load the whole dictionary through `ModelValue`.
    struct Failure: Error {}

    /// The deepest object decoded directly (the root is at depth 1).
    static let directDepth = 32

    /// The members of one object, decoded but not yet applied.
    struct Members {
        /// The decoded values, typed in their slots' cells.
        var cells: PendingCells
        var rest: Rest
        var unknown: ModelValue.Object? { rest.unknown }
        var newerVersion: Int? { rest.newerVersion }
        var bag: ModelValue.Object { rest.bag }
    }

    /// What decoding gives besides the slots' values.
    struct Rest {
        /// The keys the class does not save; `nil` when there are none, so
        /// that passing the members around touches one reference, not three.
        var unknown: ModelValue.Object?
        var newerVersion: Int?

        /// The keys the class does not save, in the dictionary's order.
        var bag: ModelValue.Object { unknown ?? ModelValue.Object() }
    }

    /// Decodes `dictionary` as the members of an object of `layout`, with
    /// the dictionary at bridge depth `depth`
    /// (as `PropertyListBridge` counts it: 1 for the root).
    /// - Returns: `nil` when the object must go through the `ModelValue` path.
    /// - Throws: when the `ModelValue` path would throw.
    static func decodeMembers(
        _ dictionary: [String: Any], layout: ClassLayout, depth: Int
    ) throws -> Members? {
        // Rules are checked on the ModelValue path only.
        guard layout.problems.isEmpty, !layout.hasRules else { return nil }
        let cells = PendingCells.make(layout: layout)
        guard let rest = try decodeMembers(dictionary, layout: layout, depth: depth, into: cells) else { return nil }
        return Members(cells: cells, rest: rest)
    }

    /// Decodes `dictionary` as `decodeMembers(_:layout:depth:)` does, putting
    /// the slots' values in `slots`; returns what goes elsewhere.
    static func decodeMembers<Slots: DecodedSlots>(
        _ dictionary: [String: Any], layout: ClassLayout, depth: Int, into slots: Slots
    ) throws -> Rest? {
        guard layout.problems.isEmpty, !layout.hasRules else { return nil }
        var members = Rest()
        for (key, value) in dictionary {
            switch target(of: key, layout: layout) {
            case let offset where offset >= 0:
                try fillSlot(value, offset: offset, layout: layout, depth: depth, into: slots)
            case JSONDecodingPlan.versionTarget:
                let version: Int
                // A cast after the exact type check, not a force-unwrapped
                // `ExactType.value`: optimised builds found it nil here (a
                // fuzzed `"type"` crashed them), and once per object the cast costs nothing.
                if Swift.type(of: value) == Int.self, let number = value as? Int {
                    version = number
                } else {
                    guard case .int(let number) = try PropertyListBridge.modelValue(from: value, depth: depth)
                    else { return nil }
                    version = number
                }
                guard version >= layout.version else { return nil }
                if version > layout.version { members.newerVersion = version }
            case JSONDecodingPlan.typeTarget:
                if Swift.type(of: value) == String.self, let name = value as? String, isPlain(name) {
                    guard name == layout.typeName else { return nil }
                } else {
                    guard case .string(let name) = try PropertyListBridge.modelValue(from: value, depth: depth),
                        name == layout.typeName
                    else { return nil }
                }
            case bagTarget:
                // References between models are read by the ModelValue path.
                guard !ReferenceKeys.isReserved(key) else { throw Failure() }
                // A class that rejects unknown keys is loaded by the ModelValue
                // path, which reports them all.
                guard layout.unknownKeys != .reject else { throw Failure() }
                // Converted even when ignored: a value the bridge refuses is
                // refused as the ModelValue path refuses it.
                let converted = try PropertyListBridge.modelValue(from: value, depth: depth)
                guard layout.unknownKeys == .keep else { continue }
                var unknown = members.unknown ?? ModelValue.Object()
                members.unknown = nil
                unknown.appendNew(key: key, value: converted)
                members.unknown = unknown
            default:
                return nil
            }
        }
        return members
    }

    /// What a key names when it is neither a slot nor a metadata key.
    private static let bagTarget = -3
    /// A key equal to a metadata key as Swift compares strings, but not in its exact text.
    private static let inexactMetadataTarget = -4

    /// What `key` names: a slot's offset, `JSONDecodingPlan.versionTarget` or
    /// `typeTarget` for a metadata key in its exact text (the `ModelValue` path
    /// looks metadata up by exact text), `bagTarget`, or `inexactMetadataTarget`.
    @inline(__always)
    private static func target(of key: String, layout: ClassLayout) -> Int {
        let plan = layout.jsonPlan
        let fast = key.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
            if let entry = plan.entry(matching: base, count: bytes.count, predicted: plan.entryCount) {
                return plan.targets[entry]
            }
            // Swift compares strings by canonical equivalence: only ASCII
            // against ASCII keys is sure to name nothing when no bytes match.
            if plan.keysAreASCII, !bytes.contains(where: { $0 >= 0x80 }) { return bagTarget }
            return nil
        }
        if let fast, let target = fast { return target }
        if let offset = layout.offset(forKey: key) { return offset }
        if let versionKey = layout.versionKey, key == versionKey {
            return key.utf8.elementsEqual(versionKey.utf8) ? JSONDecodingPlan.versionTarget : inexactMetadataTarget
        }
        if let typeKey = layout.typeKey, key == typeKey {
            return key.utf8.elementsEqual(typeKey.utf8) ? JSONDecodingPlan.typeTarget : inexactMetadataTarget
        }
        if key == DejalObjectForm.classNameKey { return JSONDecodingPlan.dejalClassTarget }
        return bagTarget
    }

    /// A model of `type` from `dictionary`, which sits at bridge depth `depth`.
    /// - Returns: `nil` when it must go through the `ModelValue` path.
    private static func decodeModel(_ type: ModelObject.Type, _ dictionary: [String: Any], depth: Int) throws
        -> ModelObject?
    {
        guard depth <= directDepth else { return nil }
        let object = type.init()
        // A new object that nobody else holds: its own cells are filled, and
        // on a failure it is dropped with whatever they hold.
        let decoded =
            depth < 2 * StackGuard.uncheckedLevels
            ? try decodeMembers(dictionary, layout: object.layout, depth: depth, into: object.unsharedCells)
            : try StackGuard.continuingOnLargeStack {
                try decodeMembers(dictionary, layout: object.layout, depth: depth, into: object.unsharedCells)
            }
        guard let rest = decoded else { return nil }
        object.apply(rest)
        return object
    }

    /// Reads the slot at `offset` from `value`, a member of an object at
    /// bridge depth `depth`, into its cell in `cells`: common types typed,
    /// with no box and no cast, anything else through the slot's codec.
    private static func fillSlot<Slots: DecodedSlots>(
        _ value: Any, offset: Int, layout: ClassLayout, depth: Int, into cells: Slots
    ) throws {
        switch layout.dictionaryCodes[offset] {
        case .int:
            if let number = ExactType.value(value, as: Int.self) { return cells.put(number, slot: offset) }
        case .double:
            if let number = ExactType.value(value, as: Double.self) { return cells.put(number, slot: offset) }
            if let number = ExactType.value(value, as: Int.self) { return cells.put(Double(number), slot: offset) }
        case .bool:
            if let flag = ExactType.value(value, as: Bool.self) { return cells.put(flag, slot: offset) }
        case .date:
            if let date = ExactType.value(value, as: Date.self) { return cells.put(date, slot: offset) }
        case .string:
            if let text = ExactType.value(value, as: String.self), isPlain(text) { return cells.put(text, slot: offset) }
        case .optionalInt:
            if let number = ExactType.value(value, as: Int.self) { return cells.put(Int?.some(number), slot: offset) }
            if isNull(value) { return cells.put(Int?.none, slot: offset) }
        case .optionalDouble:
            if let number = ExactType.value(value, as: Double.self) {
                return cells.put(Double?.some(number), slot: offset)
            }
            if let number = ExactType.value(value, as: Int.self) {
                return cells.put(Double?.some(Double(number)), slot: offset)
            }
            if isNull(value) { return cells.put(Double?.none, slot: offset) }
        case .optionalBool:
            if let flag = ExactType.value(value, as: Bool.self) { return cells.put(Bool?.some(flag), slot: offset) }
            if isNull(value) { return cells.put(Bool?.none, slot: offset) }
        case .optionalDate:
            if let date = ExactType.value(value, as: Date.self) { return cells.put(Date?.some(date), slot: offset) }
            if isNull(value) { return cells.put(Date?.none, slot: offset) }
        case .optionalString:
            if let text = ExactType.value(value, as: String.self) {
                if isPlain(text) { return cells.put(String?.some(text), slot: offset) }
                if text == PropertyListBridge.nullMarker { return cells.put(String?.none, slot: offset) }
            }
        case .strings:
            if let strings = ExactType.value(value, as: [String].self), strings.allSatisfy(isPlain) {
                return cells.put(strings, slot: offset)
            }
            if let array = ExactType.value(value, as: [Any].self),
                let strings = elements(of: array, as: String.self, where: isPlain)
            {
                return cells.put(strings, slot: offset)
            }
        case .ints:
            if let numbers = ExactType.value(value, as: [Int].self) { return cells.put(numbers, slot: offset) }
            if let array = ExactType.value(value, as: [Any].self), let numbers = elements(of: array, as: Int.self) {
                return cells.put(numbers, slot: offset)
            }
        case .doubles:
            if let numbers = ExactType.value(value, as: [Double].self) { return cells.put(numbers, slot: offset) }
            if let numbers = ExactType.value(value, as: [Int].self) {
                return cells.put(numbers.map(Double.init), slot: offset)
            }
            if let array = ExactType.value(value, as: [Any].self), let numbers = doubles(in: array) {
                return cells.put(numbers, slot: offset)
            }
        case .bools:
            if let flags = ExactType.value(value, as: [Bool].self) { return cells.put(flags, slot: offset) }
            if let array = ExactType.value(value, as: [Any].self), let flags = elements(of: array, as: Bool.self) {
                return cells.put(flags, slot: offset)
            }
        case .model:
            if let dictionary = ExactType.value(value, as: [String: Any].self),
                let object = try decodeModel(layout.dictionaryKinds[offset].modelType!, dictionary, depth: depth + 1)
            {
                return put([object], offset: offset, layout: layout, into: cells)
            }
        case .optionalModel:
            if let dictionary = ExactType.value(value, as: [String: Any].self),
                let object = try decodeModel(layout.dictionaryKinds[offset].modelType!, dictionary, depth: depth + 1)
            {
                return put([object], offset: offset, layout: layout, into: cells)
            }
            if isNull(value) { return put([], offset: offset, layout: layout, into: cells) }
        case .modelArray:
            let model = layout.dictionaryKinds[offset].modelType!
            if let dictionaries = ExactType.value(value, as: [[String: Any]].self),
                let models = try decodeModels(model, dictionaries, depth: depth)
            {
                return put(models, offset: offset, layout: layout, into: cells)
            }
            if let array = ExactType.value(value, as: [Any].self),
                let dictionaries = elements(of: array, as: [String: Any].self),
                let models = try decodeModels(model, dictionaries, depth: depth)
            {
                return put(models, offset: offset, layout: layout, into: cells)
            }
        case .generic:
            break
        }
        cells.set(try convert(value, offset: offset, layout: layout, depth: depth), slot: offset)
    }

    /// Puts the value of the model slot at `offset` holding `models` in its
    /// cell, typed through the slot's shape.
    private static func put<Slots: DecodedSlots>(
        _ models: [ModelObject], offset: Int, layout: ClassLayout, into cells: Slots
    ) {
        // Every model kind's slot type is a JSONModelShape (see JSONSlotKind.of).
        cells.put(models, shape: layout.shapes[offset]!, slot: offset)
    }

    /// Models of `type` from `dictionaries`, an array that is a member of an
    /// object at bridge depth `depth`; `nil` when one of them must go through the `ModelValue` path.
    private static func decodeModels(_ type: ModelObject.Type, _ dictionaries: [[String: Any]], depth: Int) throws
        -> [ModelObject]?
    {
        var models: [ModelObject] = []
        models.reserveCapacity(dictionaries.count)
        for dictionary in dictionaries {
            // The bridge counts one level for the array and one for the object.
            guard let model = try decodeModel(type, dictionary, depth: depth + 2) else { return nil }
            models.append(model)
        }
        return models
    }

    /// Converts `value` through `ModelValue` and the slot's codec, under the
    /// slot's date strategy, as ``ModelObject/decodePending(_:)`` does.
    private static func convert(_ value: Any, offset: Int, layout: ClassLayout, depth: Int) throws -> Any {
        let slot = layout.slots[offset]
        let modelValue = try PropertyListBridge.modelValue(from: value, depth: depth)
        return try CodingContext.with(classStrategy: slot.dateStrategy ?? layout.dateStrategy) { _ in
            try slot.codec.decode(modelValue)
        }
    }

    /// Whether the bridge reads `text` as that very string: it does unless it
    /// starts with `$` (the null marker and its escapes).
    @inline(__always)
    private static func isPlain(_ text: String) -> Bool {
        text.utf8.first != UInt8(ascii: "$")
    }

    /// Whether the bridge reads `value` as null: the null marker string.
    @inline(__always)
    private static func isNull(_ value: Any) -> Bool {
        ExactType.value(value, as: String.self) == PropertyListBridge.nullMarker
    }

    /// The elements of `array` if every one is exactly of type `T` and passes `test`.
    private static func elements<T>(of array: [Any], as _: T.Type, where test: (T) -> Bool = { _ in true }) -> [T]? {
        var result: [T] = []
        result.reserveCapacity(array.count)
        for element in array {
            guard let typed = ExactType.value(element, as: T.self) else { return nil }
            guard test(typed) else { return nil }
            result.append(typed)
        }
        return result
    }

    /// The elements of `array` as doubles if every one is exactly a `Double` or an `Int`.
    private static func doubles(in array: [Any]) -> [Double]? {
        var result: [Double] = []
        result.reserveCapacity(array.count)
        for element in array {
            if let number = ExactType.value(element, as: Double.self) {
                result.append(number)
            } else if let number = ExactType.value(element, as: Int.self) {
                result.append(Double(number))
            } else {
                return nil
            }
        }
        return result
    }
}

extension ModelObject {
    /// This object's members decoded from `dictionary` by the direct path, or
    /// `nil` when the `ModelValue` path must decode it (and report any error).
    func directlyDecodedMembers(_ dictionary: [String: Any]) -> DictionaryModelDecoder.Members? {
        try? DictionaryModelDecoder.decodeMembers(dictionary, layout: layout, depth: 1)
    }

    /// The cells of this object, new and not yet shared, which the direct
    /// path fills in place (see `UnsharedCells`).
    var unsharedCells: UnsharedCells { UnsharedCells(cells: storage.cells, layout: layout) }

    /// Loads `dictionary` into this new object, not yet shared, by the
    /// direct path, in place; `false` when the `ModelValue` path must load
    /// it (and report any error), after which it replaces every value the
    /// direct path put in place.
    func directlyDecodedInPlace(_ dictionary: [String: Any]) -> Bool {
        // Older data is upgraded on the ModelValue path, which may apply
        // other keys than the data's: look before putting anything in place.
        if let versionKey = layout.versionKey, let version = dictionary[versionKey],
            ExactType.value(version, as: Int.self).map({ $0 < layout.version }) ?? true
        {
            return false
        }
        guard let rest = try? DictionaryModelDecoder.decodeMembers(dictionary, layout: layout, depth: 1, into: unsharedCells)
        else { return false }
        apply(rest)
        return true
    }

    /// Applies what the direct path decoded besides the values of a new
    /// object, whose cells it filled.
    func apply(_ rest: DictionaryModelDecoder.Rest) {
        withState { state in
            state.bag = ExtensibleBag(rest.bag)
            if let newer = rest.newerVersion { state.loadedNewerVersion = newer }
        }
    }

    /// Applies members decoded by the direct path, as `apply(_:recordingChanges:replacingBag:)` does.
    func apply(_ members: DictionaryModelDecoder.Members, recordingChanges: Bool, replacingBag: Bool) {
        if !recordingChanges, replacingBag {
            // Loading a new object: nothing to compare, record or tell.
            withState { state in
                members.cells.move(into: &state)
                state.bag = ExtensibleBag(members.bag)
                if let newer = members.newerVersion { state.loadedNewerVersion = newer }
            }
            return
        }
        let filled = members.cells.filled
        let values = layout.slots.indices.filter { filled.contains($0) }.map {
            (offset: $0, value: members.cells.value(at: $0))
        }
        apply(
            values: values, bag: members.bag,
            newerVersion: members.newerVersion, recordingChanges: recordingChanges, replacingBag: replacingBag)
    }
}
