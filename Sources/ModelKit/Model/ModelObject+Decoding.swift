import Synchronization
import Foundation

/// Values decoded from loaded data, not yet applied to an object: decoding
/// finishes, or throws, before anything changes.
struct PendingValues {
    var values: [(offset: Int, value: Any)] = []
    var bag = ModelValue.Object()
    var newerVersion: Int?
    /// What DejalObject's value dictionaries held beyond the values, by slot
    /// (see `DejalObjectForm.Kept`).
    var kept: [(offset: Int, kept: DejalObjectForm.Kept)] = []
}

extension ModelObject {
    /// Decodes `members` for this object without changing it.
    /// - Throws: ``ModelError`` with a key path relative to this object.
    func decodePending(_ input: ModelValue.Object) throws -> PendingValues {
        let layout = self.layout
        if let error = layout.declarationError { throw error }
        let type = Swift.type(of: self)
        var members = input
        var pending = PendingValues()
        // References: "$id" was taken by the caller, "$ref" stands for a
        // model elsewhere, escaped keys lose their escape.
        if members.keys.contains(where: { $0.utf8.first == UInt8(ascii: "$") }) {
            members = try Self.withoutReferenceKeys(members)
        }

        // Metadata: the version, and the type, which must be this class.
        var loadedVersion = layout.version
        if let versionKey = layout.versionKey, let raw = members[versionKey] {
            guard case .int(let version) = raw else {
                throw ModelError.typeMismatch(expected: "an integer data version", found: raw)
                    .prepending(.key(versionKey))
            }
            guard version >= 0 else {
                throw ModelError.invalidValue("expected a data version of 0 or more, found \(version)")
                    .prepending(.key(versionKey))
            }
            loadedVersion = version
        }
        if let typeKey = layout.typeKey, let raw = members[typeKey] {
            guard case .string(let name) = raw else {
                throw ModelError.typeMismatch(expected: "a type name", found: raw).prepending(.key(typeKey))
            }
            if name != layout.typeName {
                let resolved = try type.resolveType(named: name).get()
                // A registered subclass: an initializer cannot create it.
                throw ModelError(
                    code: .typeNotAllowed,
                    message:
                        "the data is a \(resolved) (\"\(name)\"), and an initializer of \(type) cannot create a subclass; "
                        + "read it with \(type).decoded(from:) or \(resolved)'s initializer",
                    keyPath: ModelKeyPath([.key(typeKey)]))
            }
        }
        // DejalObject's class name names the class as the type key does.
        let representedClass = DejalObjectForm.className(of: members)
        if let representedClass, layout.offset(forKey: DejalObjectForm.classNameKey) == nil {
            let resolved = try type.representedClass(named: representedClass)
            if resolved != type {
                throw ModelError(
                    code: .typeNotAllowed,
                    message:
                        "the data is a \(resolved) (\(representedClass.excerpt)), and an initializer of \(type) "
                        + "cannot create a subclass; read it with \(type).decoded(from:) or \(resolved)'s initializer",
                    keyPath: ModelKeyPath([.key(DejalObjectForm.classNameKey)]))
            }
        }

        // Upgrades, one version step at a time, on the raw values.
        if loadedVersion < layout.version {
            members = try upgraded(members, from: loadedVersion, layout: layout)
        } else if loadedVersion > layout.version {
            pending.newerVersion = loadedVersion
        }

        let policy = layout.unknownKeys
        // Rejected unknown keys, this object's and its values', reported together.
        var unknown = UnknownKeyErrors()
        try CodingContext.with(classStrategy: layout.dateStrategy) { context in
            pending.values.reserveCapacity(min(members.count, layout.slotCount))
            for (index, (key, value)) in members.enumerated() {
                if let offset = layout.offset(forKey: key) {
                    let slot = layout.slots[offset]
                    do {
                        let decoded: Any
                        if let strategy = slot.dateStrategy {
                            context.dateStrategy = strategy
                            defer { context.dateStrategy = layout.dateStrategy }
                            decoded = try slot.codec.decode(value)
                        } else {
                            decoded = try slot.codec.decode(value)
                        }
                        if let validator = slot.validator {
                            let failures = validator.failures(of: decoded)
                            if !failures.isEmpty {
                                throw ModelError(code: .invalidValue, message: failures.joined(separator: "; "))
                            }
                        }
                        pending.values.append((offset, decoded))
                        if layout.savedDialect == .dejalObject, DejalObjectForm.holdsKeptMembers(value) {
                            pending.kept.append((offset, DejalObjectForm.Kept(value: decoded, original: value)))
                        }
                    } catch let error as ModelError {
                        try unknown.record(error, at: .key(key))
                    } catch {
                        try unknown.record(
                            ModelError(code: .invalidValue, message: "\(error)", keyPath: ModelKeyPath([.key(key)])))
                    }
                } else if key != layout.versionKey, key != layout.typeKey,
                    representedClass == nil || key != DejalObjectForm.classNameKey
                {
                    switch policy {
                    case .keep:
                        pending.bag.appendNew(key: key, value: value)
                        if let text = members.text(at: index) { pending.bag.setText(text, at: pending.bag.count - 1) }
                    case .ignore: continue
                    case .reject: try unknown.record(ModelError.rejecting([key], of: layout))
                    }
                }
            }
        }
        try unknown.throwIfAny()
        return pending
    }

    /// `members` without `"$id"` and with escaped keys of the reference
    /// shape unescaped.
    /// - Throws: ``ModelError`` for a `"$ref"` member, which a model being
    ///   loaded in place cannot be.
    private static func withoutReferenceKeys(_ members: ModelValue.Object) throws -> ModelValue.Object {
        var result = ModelValue.Object(minimumCapacity: members.count)
        for (index, (key, value)) in members.enumerated() {
            switch ReferenceKeys.kind(of: key) {
            case .plain: result.appendNew(key: key, value: value)
            case .id: continue
            case .escaped: result.appendNew(key: ReferenceKeys.unescaped(key), value: value)
            case .ref:
                throw ModelError(
                    code: .typeMismatch,
                    message: "expected a \(self) object, found a reference, which stands for a model elsewhere "
                        + "in a document and cannot be loaded in place",
                    keyPath: ModelKeyPath([.key(ReferenceKeys.ref)]))
            }
            if let text = members.text(at: index) { result.setText(text, at: result.count - 1) }
        }
        return result
    }

    /// Decodes `members` for this object, the root of the document being
    /// loaded (or a model loaded in place inside one), without changing it:
    /// its `"$id"`, if any, names this object for references in the document.
    func decodePendingRoot(_ members: ModelValue.Object) throws -> PendingValues {
        try DecodingReferences.decoding {
            if let raw = members[ReferenceKeys.id] {
                guard case .string(let id) = raw else {
                    throw ModelError.typeMismatch(expected: "a string id", found: raw)
                        .prepending(.key(ReferenceKeys.id))
                }
                try DecodingReferences.current!.define(id, object: self)
            }
            return try decodePending(members)
        }
    }

    /// Runs the class's upgrade steps from `version` to the current version.
    private func upgraded(_ members: ModelValue.Object, from version: Int, layout: ClassLayout) throws
        -> ModelValue.Object
    {
        // A Swift dictionary merges keys that are canonically equivalent
        // ("é" and "e\u{301}"), which JSON keeps apart: the later of such
        // keys are set aside, past the upgrade, and kept as they were.
        var values: [String: ModelValue] = [:]
        var setAside = Set<Int>()
        for (position, key) in members.keys.enumerated() {
            if values[key] != nil {
                setAside.insert(position)
            } else {
                values[key] = members.values[position]
            }
        }
        if let versionKey = layout.versionKey { values[versionKey] = nil }
        if let typeKey = layout.typeKey { values[typeKey] = nil }
        if layout.offset(forKey: DejalObjectForm.classNameKey) == nil { values[DejalObjectForm.classNameKey] = nil }
        let type = Swift.type(of: self)
        for step in version..<layout.version {
            do {
                try type.upgrade(&values, from: step)
            } catch let error as ModelError {
                throw error
            } catch {
                throw ModelError(
                    code: .versionMismatch,
                    message: "upgrading \(type) data from version \(step) to \(step + 1) failed: \(error)")
            }
        }
        // Keep the loaded order for keys that survived; new keys follow, sorted.
        var result = ModelValue.Object(minimumCapacity: values.count)
        for (position, key) in members.keys.enumerated() {
            if setAside.contains(position) {
                guard result.index(forKey: key) == nil else { continue }
                result.appendNew(key: key, value: members.values[position])
            } else if let value = values.removeValue(forKey: key) {
                result.appendNew(key: key, value: value)
                // A member the upgrade left as it was keeps its text.
                guard members.hasTexts, members.text(at: position) != nil, value == members.values[position] else {
                    continue
                }
            } else {
                continue
            }
            if let text = members.text(at: position) { result.setText(text, at: result.count - 1) }
        }
        for key in values.keys.sorted() { result.appendNew(key: key, value: values[key]!) }
        return result
    }

    /// Applies decoded values. Loading into a new object records no changes;
    /// updating an existing one records the values that differ.
    func apply(_ pending: PendingValues, recordingChanges: Bool, replacingBag: Bool) {
        apply(
            values: pending.values, bag: pending.bag, newerVersion: pending.newerVersion,
            recordingChanges: recordingChanges, replacingBag: replacingBag, kept: pending.kept)
    }

    /// Applies decoded slot values (by offset), bag members and a newer
    /// loaded version, under the lock, in one step. Each slot given a value
    /// forgets what was kept beside its old one, and `kept` is kept beside
    /// the new values (see `DejalObjectForm.Kept`).
    func apply<Values: Sequence<(offset: Int, value: Any)>>(
        values: Values, bag: ModelValue.Object, newerVersion: Int?, recordingChanges: Bool, replacingBag: Bool,
        kept: [(offset: Int, kept: DejalObjectForm.Kept)] = []
    ) {
        let slots = layout.slots
        withState { state in
            for (offset, value) in values {
                if let extras = state.extras, !extras.dejalKept.isEmpty { extras.dejalKept[offset] = nil }
                if recordingChanges {
                    let old = state.value(at: offset)
                    guard !slots[offset].codec.isEqual(old, value) else { continue }
                    state.markChanged(slot: offset, old: old, layout: layout)
                    queueChange(slots[offset].key, old: old, new: value, in: &state)
                }
                state.setValue(value, at: offset)
            }
            if !kept.isEmpty {
                let extras = state.madeExtras()
                for (offset, entry) in kept { extras.dejalKept[offset] = entry }
            }
            if replacingBag {
                state.bag = ExtensibleBag(bag)
            } else {
                for (index, (key, value)) in bag.enumerated() where state.bag.value(forKey: key) != value {
                    let old = state.bag.set(value, forKey: key, text: bag.text(at: index))
                    if recordingChanges {
                        state.markBagChanged(key: key, old: old)
                        queueChange(key, old: old, new: value, in: &state)
                    }
                }
            }
            if let newerVersion { state.loadedNewerVersion = newerVersion }
        }
        // After the whole update: each changed key once.
        deliverChanges()
    }

    /// Applies a loaded object to this new object.
    func load(_ value: ModelValue) throws {
        guard case .object(let members) = value else {
            var error = ModelError.typeMismatch(expected: "a \(Swift.type(of: self)) object", found: value)
            if case .array = value { error.message += "; read an array of models with [\(Swift.type(of: self))](json:)" }
            throw error
        }
        apply(try decodePendingRoot(members), recordingChanges: false, replacingBag: true)
    }
}

extension ModelObject: ModelValueConvertible {
    /// The saved form: an object with the metadata keys, the saved keys and
    /// the extensible properties.
    public var modelValue: ModelValue {
        // The root of a document starts its ids; a model inside one continues them.
        .object(EncodingGuard.current.isIdle ? encodedRootOrMarked() : encodedMembers())
    }

    /// Reads an object of this class or of a registered subclass that the
    /// data names under ``typeKey``.
    ///
    /// ```swift
    /// ModelObject.register(Photo.self)
    /// let item = try Attachment.decoded(from: ["type": "Photo", "width": 640])
    /// print(type(of: item))   // Photo
    /// ```
    /// - Throws: ``ModelError`` when the data names a class that is not
    ///   registered or not a subclass of this one, or has a bad value.
    public class func decoded(from modelValue: ModelValue) throws -> Self {
        guard case .object(let members) = modelValue else {
            throw ModelError.typeMismatch(expected: "a \(self) object", found: modelValue)
        }
        // One level of recursion per model: on a large stack when this one runs low.
        return try loading(roots: { [$0] }) {
            try DecodingReferences.decoding {
                try StackGuard.continuingOnLargeStack { try decodedModel(from: members, references: .current!) }
            }
        }
    }

    /// Reads an object of this class or of a registered subclass, or the
    /// object that a reference names, in the document `references` keeps.
    private class func decodedModel(from members: ModelValue.Object, references: DecodingReferences) throws -> Self {
        if let reference = members[ReferenceKeys.ref] {
            guard case .string(let id) = reference else {
                throw ModelError.typeMismatch(expected: "a string id", found: reference)
                    .prepending(.key(ReferenceKeys.ref))
            }
            guard members.count == 1 else {
                let others = members.keys.filter { $0 != ReferenceKeys.ref }.map { "\"\($0)\"" }
                throw ModelError.invalidValue(
                    "expected a reference with no member but \"$ref\", found also \(others.joined(separator: ", "))")
            }
            return try references.object(for: id, as: self)
        }
        var target: ModelObject.Type = self
        let layout = ClassLayout.of(self)
        if let typeKey = layout.typeKey, let raw = members[typeKey] {
            guard case .string(let name) = raw else {
                throw ModelError.typeMismatch(expected: "a type name", found: raw).prepending(.key(typeKey))
            }
            if name != layout.typeName { target = try resolveType(named: name).get() }
        } else if let raw = DejalObjectForm.className(of: members), layout.offset(forKey: DejalObjectForm.classNameKey) == nil {
            target = try representedClass(named: raw)
        }
        let object: ModelObject
        if let raw = members[ReferenceKeys.id] {
            guard case .string(let id) = raw else {
                throw ModelError.typeMismatch(expected: "a string id", found: raw).prepending(.key(ReferenceKeys.id))
            }
            object = try references.define(id, as: target) { target.init() }
        } else {
            object = target.init()
        }
        object.apply(try object.decodePending(members), recordingChanges: false, replacingBag: true)
        return object as! Self
    }
}
