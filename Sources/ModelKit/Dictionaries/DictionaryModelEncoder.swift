import Foundation

/// Writes model objects straight into property-list-style dictionaries
/// (`[String: Any]`), without building a ``ModelValue`` for the objects it writes.
///
/// The result is the dictionary that `PropertyListBridge` makes from
/// ``ModelObject/encodedMembers(includeMetadata:)``, value for value and type
/// for type (arrays are `[Any]`, strings that look like the null marker get
/// their extra `$`, `nil` is the marker), with the members set in the same
/// order. Common scalars, their optionals and arrays, and models (alone,
/// optional or in arrays) are written from the slots; other values go through
/// the slot's codec and the bridge, as before.
///
/// Like `DictionaryModelDecoder`, it is a fast path that reports no errors of
/// its own: on a failure (a class with declaration problems, models nested
/// too deep) the caller makes the dictionary again through `ModelValue`,
/// which reports it as before. So does a graph that needs references (a
/// cycle, or a bag key of the reference shape): the `ModelValue` path writes those. It recurses once per model, `directDepth` models deep; deeper
/// models are written from their `modelValue`.
enum DictionaryModelEncoder {
    struct Failure: Error {}

    /// The deepest model written directly (the root is at depth 1).
    static let directDepth = 32

    /// The saved form of `object`, whose depth among the models being written is `depth`.
    static func dictionary(of object: ModelObject, depth: Int = 1) throws -> [String: Any] {
        let layout = object.layout
        // DejalObject's form is written by the ModelValue path (see DejalObjectForm).
        guard layout.problems.isEmpty, layout.savedDialect == .modelKit else { throw Failure() }
        guard depth <= directDepth else {
            // A reference or a problem in there is recorded in the EncodingGuard, which the caller checks.
            return PropertyListBridge.dictionary(from: object.encodedMembers())
        }
        // A cycle (or the nesting limit): the ModelValue path writes it.
        let guardian = EncodingGuard.current
        guard case .write = guardian.enter(object) else { throw Failure() }
        let result: [String: Any]
        do {
            result =
                depth < StackGuard.uncheckedLevels
                ? try members(of: object, layout: layout, depth: depth)
                : try StackGuard.continuingOnLargeStack { try members(of: object, layout: layout, depth: depth) }
        } catch {
            guardian.leave()
            throw error
        }
        // A model below referred back to this one, which is written without its id.
        guard guardian.leave() == nil else { throw Failure() }
        return result
    }

    /// The members of `object`, of the class of `layout`, at depth `depth`.
    private static func members(of object: ModelObject, layout: ClassLayout, depth: Int) throws -> [String: Any] {
        let codes = layout.dictionaryCodes
        let metadataCount = (layout.typeKey == nil ? 0 : 1) + (layout.versionKey == nil ? 0 : 1)
        var result: [String: Any] = [:]
        // Scalars are read where they lie, typed, under the object's lock;
        // models and other values are taken out (`later`) and written once
        // the lock is released, so that no two objects' locks are held at once.
        var later: [(offset: Int, value: Later)] = []
        var skipsBagKeys = false
        let (bag, newerVersion) = try object.withState { state -> (ModelValue.Object, Int?) in
            let bag = state.bag.object
            // Bag keys with the exact text of a metadata or saved key are not
            // written, as in encodedMembers(); count the rest for the capacity.
            var bagWritten = 0
            for key in bag.keys {
                guard !ReferenceKeys.isReserved(key) else { throw Failure() }
                if isWritten(bagKey: key, layout: layout) {
                    bagWritten += 1
                } else {
                    skipsBagKeys = true
                }
            }
            let capacity = metadataCount + layout.savedOrder.count + bagWritten
            result = capacity <= layout.emptyDictionary.capacity ? layout.emptyDictionary : Dictionary(minimumCapacity: capacity)
            for offset in layout.savedOrder {
                let key = layout.slots[offset].key
                switch codes[offset] {
                case .int: result[key] = state.value(at: offset, as: Int.self)
                case .double: result[key] = state.value(at: offset, as: Double.self)
                case .bool: result[key] = state.value(at: offset, as: Bool.self)
                case .date: result[key] = state.value(at: offset, as: Date.self)
                case .string:
                    result[key] = string(state.value(at: offset, as: String.self))
                case .optionalInt:
                    result[key] = state.value(at: offset, as: Int?.self).map { $0 as Any } ?? PropertyListBridge.nullMarker
                case .optionalDouble:
                    result[key] =
                        state.value(at: offset, as: Double?.self).map { $0 as Any } ?? PropertyListBridge.nullMarker
                case .optionalBool:
                    result[key] = state.value(at: offset, as: Bool?.self).map { $0 as Any } ?? PropertyListBridge.nullMarker
                case .optionalDate:
                    result[key] = state.value(at: offset, as: Date?.self).map { $0 as Any } ?? PropertyListBridge.nullMarker
                case .optionalString:
                    result[key] = state.value(at: offset, as: String?.self).map(string) ?? PropertyListBridge.nullMarker
                case .strings:
                    result[key] = state.value(at: offset, as: [String].self).map(string)
                case .ints:
                    result[key] = state.value(at: offset, as: [Int].self).map { $0 as Any }
                case .doubles:
                    result[key] = state.value(at: offset, as: [Double].self).map { $0 as Any }
                case .bools:
                    result[key] = state.value(at: offset, as: [Bool].self).map { $0 as Any }
                case .model, .optionalModel, .modelArray:
                    // Read typed from the cell, written once the lock is released.
                    if let shape = layout.shapes[offset] {
                        let models = shape.models(inCell: state.cells + offset &* SlotCell.size)
                        if models.isEmpty, codes[offset] == .modelArray {
                            result[key] = [Any]()  // nothing to write later
                        } else {
                            later.append((offset, .models(models)))
                        }
                    } else {
                        later.append((offset, .value(state.value(at: offset))))
                    }
                case .generic:
                    later.append((offset, .value(state.value(at: offset))))
                }
            }
            return (bag, state.loadedNewerVersion)
        }
        if let typeKey = layout.typeKey { result[typeKey] = PropertyListBridge.escaped(layout.typeName) }
        if let versionKey = layout.versionKey { result[versionKey] = max(layout.version, newerVersion ?? 0) }
        for (offset, taken) in later {
            let key = layout.slots[offset].key
            switch (layout.dictionaryKinds[offset], taken) {
            case (.model, .models(let models)):
                result[key] = try dictionary(of: models[0], depth: depth + 1)
            case (.optionalModel, .models(let models)):
                result[key] =
                    try models.first.map { try dictionary(of: $0, depth: depth + 1) } ?? PropertyListBridge.nullMarker
            case (.modelArray, .models(let models)):
                var dictionaries: [Any] = []
                dictionaries.reserveCapacity(models.count)
                for model in models { dictionaries.append(try dictionary(of: model, depth: depth + 1)) }
                result[key] = dictionaries
            case (.model, .value(let value)):
                result[key] = try dictionary(of: value as! ModelObject, depth: depth + 1)
            case (.optionalModel(_, _, let unwrap), .value(let value)):
                if let model = unwrap(value) {
                    result[key] = try dictionary(of: model, depth: depth + 1)
                } else {
                    result[key] = PropertyListBridge.nullMarker
                }
            case (.modelArray(_, _, let unwrap), .value(let value)):
                var models: [Any] = []
                let unwrapped = unwrap(value)
                models.reserveCapacity(unwrapped.count)
                for model in unwrapped { models.append(try dictionary(of: model, depth: depth + 1)) }
                result[key] = models
            case (_, .value(let value)):
                let slot = layout.slots[offset]
                let encoded = CodingContext.with(classStrategy: slot.dateStrategy ?? layout.dateStrategy) { _ in
                    slot.codec.encode(value)
                }
                result[key] = PropertyListBridge.propertyListObject(from: encoded)
            case (_, .models):
                preconditionFailure("ModelKit: models taken from a slot that holds none")
            }
        }
        for (key, value) in bag where !skipsBagKeys || isWritten(bagKey: key, layout: layout) {
            result[key] = PropertyListBridge.propertyListObject(from: value)
        }
        return result
    }

    /// A value taken out of an object under its lock, written after it.
    private enum Later {
        /// The slot's value, boxed.
        case value(Any)
        /// The models a model, optional model or array of models held, in order.
        case models([ModelObject])
    }

    /// A string as the bridge writes it: with one more `$` when it looks like the null marker.
    @inline(__always)
    private static func string(_ text: String) -> Any {
        text.utf8.first == UInt8(ascii: "$") ? PropertyListBridge.escaped(text) : text
    }

    /// Whether `encodedMembers()` writes the bag key `key`: not when a metadata
    /// or saved key has exactly its text.
    private static func isWritten(bagKey key: String, layout: ClassLayout) -> Bool {
        if let offset = layout.offsetsByKey[key], key.utf8.elementsEqual(layout.slots[offset].key.utf8) {
            return false
        }
        for metadataKey in [layout.typeKey, layout.versionKey] {
            if let metadataKey, key.utf8.elementsEqual(metadataKey.utf8) { return false }
        }
        return true
    }
}

extension ModelObject {
    /// The saved form as a dictionary, made straight from the slots by
    /// `DictionaryModelEncoder`; `nil` on any failure, which the `ModelValue`
    /// path then reports.
    func directDictionary() -> [String: Any]? {
        // Values the encoder converts with their codecs record failures
        // inside nested models here, as encodedRoot() expects.
        let guardian = EncodingGuard.current
        let saved = guardian.begin(root: self, policy: .cycles)
        defer { guardian.end(saved) }
        guard let result = try? DictionaryModelEncoder.dictionary(of: self), guardian.failure == nil,
            !guardian.wroteReference
        else { return nil }
        return result
    }
}
