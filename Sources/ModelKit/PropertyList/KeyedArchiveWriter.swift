import Foundation

/// Writes a model graph as an `NSKeyedArchiver` archive (a binary property
/// list; see ``KeyedArchive`` for the format), from the model's saved form
/// with shared references (``ReferencePolicy/shared``).
///
/// - Each model is an object whose `$class` names its class's
///   ``ModelObject/archivedClassName`` (`$classes`: the name, `NSObject`),
///   holding its version (under its ``ModelObject/versionKey``), its saved
///   keys, then its bag, under their own names. Numbers and booleans are
///   `NSNumber` objects referred to (``KeyedArchiveStyle/objects``, as
///   AutoCoding's `encodeObject:forKey:` writes them) or inline
///   (``KeyedArchiveStyle/inlineScalars``, as `encode(_: Int, forKey:)`
///   writes them); other values are referred to; null members refer to
///   `$null` (UID 0), as Foundation writes nil objects. The type key is not
///   written: the class says it.
/// - Values are Foundation's: strings, numbers, `NSDate`, data, `NSArray`,
///   `NSDictionary`, `NSNull` (inside arrays and dictionaries). A property
///   declared `URL` or `UUID` (optional, or an array of them) is an `NSURL`
///   (`NS.base` `$null`, `NS.relative` its string) or an `NSUUID`
///   (`NS.uuidbytes`, its 16 bytes), as `NSKeyedArchiver` writes them, so
///   that the old app's `decodeObject(forKey:)` gets the class it expects.
///   A `Set` property is an `NSSet`. The bag's values have no declared
///   type: strings stay strings, arrays `NSArray`s.
/// - A bag holds values, never references: a dictionary in it shaped like
///   a reference (`{"$ref": "1"}`) or holding a `"$id"` is an
///   `NSDictionary`; one shaped like a saved model with no such key is an
///   object of that model's class, as the reader read it; one holding
///   `"$class"` with a class name that is neither a Foundation class the
///   reader reads nor a model class is an object of that class with its
///   other members, as the reader keeps an unknown class found in a bag.
/// - A model met twice (a `$id` and its `$ref`s, shared models and weak
///   parents) is written once; every reference to it is its UID.
///
/// A model is told from a dictionary in the saved form by its type key
/// naming the type of a model in the graph; a class whose ``ModelObject/typeKey``
/// is `nil` is written as a dictionary, except at the root.
struct KeyedArchiveWriter {
    /// `$objects`, UID 0 the `"$null"` string.
    private var objects: [ModelValue] = [.string("$null")]
    private var classUIDs: [String: Int] = [:]
    /// Models by their saved-form id, and the ids written in full.
    private var idUIDs: [String: Int] = [:]
    private var definedIDs: Set<String> = []
    /// The graph's model classes by type name, and their type keys.
    private let types: [String: ModelObject.Type]
    private let typeKeys: [String]

    /// The archive of `root`'s graph.
    /// - Throws: ``ModelError`` when the graph cannot be saved (see
    ///   ``ModelObject/modelValue``).
    static func data(of root: ModelObject, style: KeyedArchiveStyle = .objects) throws -> Data {
        let saved = try root.encodedRootInModelKitForm(references: .shared)
        var types: [String: ModelObject.Type] = [:]
        root.walkGraph { object, _ in
            types[object.layout.typeName] = Swift.type(of: object)
            return true
        }
        // A `{"$ref": id}` whose id no model carries is a plain value (a
        // dictionary in the bag): written again, as a dictionary.
        var plainReferences: Set<String> = []
        var writer: KeyedArchiveWriter
        var top: Int
        while true {
            writer = KeyedArchiveWriter(
                types: types, plainReferences: plainReferences, style: style, rootType: Swift.type(of: root))
            top = try writer.model(saved, type: Swift.type(of: root), depth: 1, inBag: false)
            let missing = Set(writer.idUIDs.keys).subtracting(writer.definedIDs)
            if missing.isEmpty { break }
            plainReferences.formUnion(missing)
        }
        let envelope: ModelValue = [
            "$version": 100000, "$archiver": "NSKeyedArchiver", "$top": ["root": KeyedArchive.uidValue(top)],
            "$objects": .array(writer.objects),
        ]
        return try BinaryPropertyListWriter.data(from: envelope, writingUIDs: true)
    }

    /// The archive of the plain value `value` (no model: dictionaries are
    /// `NSDictionary`s, whatever their keys), which
    /// ``ModelValue/init(keyedArchive:)`` reads back.
    static func data(ofValue value: ModelValue) throws -> Data {
        var writer = KeyedArchiveWriter(types: [:], plainReferences: [], style: .objects, rootType: nil)
        let top = try writer.reference(to: value, depth: 1, inBag: true)
        let envelope: ModelValue = [
            "$version": 100000, "$archiver": "NSKeyedArchiver", "$top": ["root": KeyedArchive.uidValue(top)],
            "$objects": .array(writer.objects),
        ]
        return try BinaryPropertyListWriter.data(from: envelope, writingUIDs: true)
    }

    /// Ids whose `{"$ref": id}` objects are plain dictionaries.
    private let plainReferences: Set<String>

    /// How numbers and booleans that are members of models are written.
    private let style: KeyedArchiveStyle
    private var isInline: Bool { style == .inlineScalars }
    /// The class of the graph's root, for telling class names in bags;
    /// `nil` for an archive of plain values, which keeps no unknown class.
    private let rootType: ModelObject.Type?

    private init(
        types: [String: ModelObject.Type], plainReferences: Set<String>, style: KeyedArchiveStyle,
        rootType: ModelObject.Type?
    ) {
        self.types = types
        self.plainReferences = plainReferences
        self.style = style
        self.rootType = rootType
        var keys: [String] = []
        for type in types.values {
            if let key = ClassLayout.of(type).typeKey, !keys.contains(key) { keys.append(key) }
        }
        typeKeys = keys.sorted()
    }

    /// A new object's UID, its place held by a placeholder.
    private mutating func allocate() -> Int {
        objects.append(.string("$null"))
        return objects.count - 1
    }

    private mutating func uid(forID id: String) -> Int {
        if let uid = idUIDs[id] { return uid }
        let uid = allocate()
        idUIDs[id] = uid
        return uid
    }

    /// The UID of the class description named `name`.
    private mutating func classUID(_ name: String) -> ModelValue {
        if let uid = classUIDs[name] { return KeyedArchive.uidValue(uid) }
        objects.append(["$classname": .string(name), "$classes": [.string(name), "NSObject"]])
        classUIDs[name] = objects.count - 1
        return KeyedArchive.uidValue(objects.count - 1)
    }

    /// The model class of the saved-form object `members`, if it is a model's.
    private func modelType(of members: ModelValue.Object) -> ModelObject.Type? {
        for key in typeKeys {
            guard case .string(let name)? = members[key], let type = types[name],
                ClassLayout.of(type).typeKey == key
            else { continue }
            return type
        }
        return nil
    }

    /// Writes the model whose saved form is `members`; returns its UID. In a
    /// bag (`inBag`), a model is a copy: no id, and its members are bag values.
    private mutating func model(_ members: ModelValue.Object, type: ModelObject.Type, depth: Int, inBag: Bool)
        throws -> Int
    {
        let layout = ClassLayout.of(type)
        var id: String?
        if !inBag, case .string(let text)? = members[ReferenceKeys.id] { id = text }
        let number: Int
        if let id {
            number = uid(forID: id)
            definedIDs.insert(id)
        } else {
            number = allocate()
        }
        var object = ModelValue.Object(minimumCapacity: members.count + 1)
        let description = classUID(type.archivedClassName)
        object.appendNew(key: "$class", value: description)
        for (key, value) in members {
            let name: String
            let isSaved: Bool
            switch ReferenceKeys.kind(of: key) {
            case .id, .ref: continue
            case .escaped:
                name = ReferenceKeys.unescaped(key)
                isSaved = false
            case .plain:
                guard key != layout.typeKey else { continue }
                name = key
                isSaved = key == layout.versionKey || layout.offset(forKey: key) != nil
            }
            let archivedName = KeyedArchive.escapedKey(name)
            let memberInBag = inBag || !isSaved
            switch value {
            case .null: object.appendNew(key: archivedName, value: KeyedArchive.uidValue(0))
            case .bool where isInline, .int where isInline, .double where isInline:
                object.appendNew(key: archivedName, value: value)
            case .string, .array:
                if !memberInBag, let offset = layout.offset(forKey: key) {
                    let valueType = layout.slots[offset].codec.valueType
                    if let form = FoundationForm(valueType), let member = foundationObject(value, as: form) {
                        object.appendNew(key: archivedName, value: KeyedArchive.uidValue(member))
                        continue
                    }
                    if valueType is any ArchivedAsSet.Type, case .array(let elements) = value {
                        let member = try StackGuard.descendingThrowing(depth) {
                            try self.collection(elements, className: "NSSet", depth: depth + 1, inBag: false)
                        }
                        object.appendNew(key: archivedName, value: KeyedArchive.uidValue(member))
                        continue
                    }
                }
                let member = try StackGuard.descendingThrowing(depth) {
                    try self.reference(to: value, depth: depth + 1, inBag: memberInBag)
                }
                object.appendNew(key: archivedName, value: KeyedArchive.uidValue(member))
            default:
                let member = try StackGuard.descendingThrowing(depth) {
                    try self.reference(to: value, depth: depth + 1, inBag: memberInBag)
                }
                object.appendNew(key: archivedName, value: KeyedArchive.uidValue(member))
            }
        }
        objects[number] = .object(object)
        return number
    }

    /// The Foundation class a declared property type is archived as, where
    /// it is not the one its saved form (a string) would give.
    enum FoundationForm {
        case url, uuid

        init?(_ type: Any.Type) {
            switch ObjectIdentifier(type) {
            case ObjectIdentifier(URL.self), ObjectIdentifier(URL?.self), ObjectIdentifier([URL].self),
                ObjectIdentifier([URL]?.self):
                self = .url
            case ObjectIdentifier(UUID.self), ObjectIdentifier(UUID?.self), ObjectIdentifier([UUID].self),
                ObjectIdentifier([UUID]?.self):
                self = .uuid
            default:
                return nil
            }
        }
    }

    /// Writes the saved form `value` of a property declared as `form` (a
    /// string, or an array of strings) as `NSURL`s or `NSUUID`s; returns the
    /// UID, or `nil` (nothing written) when `value` is not of that shape.
    private mutating func foundationObject(_ value: ModelValue, as form: FoundationForm) -> Int? {
        switch value {
        case .string(let text):
            switch form {
            case .url:
                // In Foundation's order: the URL, its string, its class.
                let url = allocate()
                let relative = allocate()
                objects[relative] = .string(text)
                objects[url] = [
                    "$class": classUID("NSURL"), "NS.base": KeyedArchive.uidValue(0),
                    "NS.relative": KeyedArchive.uidValue(relative),
                ]
                return url
            case .uuid:
                guard let uuid = UUID(uuidString: text) else { return nil }
                let bytes = withUnsafeBytes(of: uuid.uuid) { Data($0) }
                objects.append(["$class": classUID("NSUUID"), "NS.uuidbytes": .data(bytes)])
            }
            return objects.count - 1
        case .array(let elements):
            guard elements.allSatisfy({ if case .string = $0 { true } else { false } }) else { return nil }
            if form == .uuid {
                guard elements.allSatisfy({ if case .string(let text) = $0 { UUID(uuidString: text) != nil } else { false } })
                else { return nil }
            }
            let uid = allocate()
            var references: [ModelValue] = []
            references.reserveCapacity(elements.count)
            for element in elements {
                guard let member = foundationObject(element, as: form) else { return nil }
                references.append(KeyedArchive.uidValue(member))
            }
            objects[uid] = ["$class": classUID("NSArray"), "NS.objects": .array(references)]
            return uid
        default:
            return nil
        }
    }

    /// Writes `value` as an object; returns its UID. In a bag (`inBag`),
    /// nothing is a reference to a model (see the type's summary).
    private mutating func reference(to value: ModelValue, depth: Int, inBag: Bool) throws -> Int {
        switch value {
        case .null:
            let description = classUID("NSNull")
            objects.append(["$class": description])
        case .bool, .int, .double, .string, .data:
            objects.append(value)
        case .bigInteger(let digits):
            // Within 128 bits, the 16-byte integer the reader read it from;
            // past that, no archive number holds it: its digits.
            objects.append(Int128(digits) != nil ? value : .string(digits))
        case .date(let date):
            let description = classUID("NSDate")
            objects.append(["$class": description, "NS.time": .double(date.timeIntervalSinceReferenceDate)])
        case .array(let elements):
            return try collection(elements, className: "NSArray", depth: depth, inBag: inBag)
        case .object(let members):
            if !inBag, case .string(let id)? = members[ReferenceKeys.ref], members.count == 1,
                !plainReferences.contains(id)
            {
                return uid(forID: id)
            }
            if let type = modelType(of: members),
                !inBag || !members.keys.contains(where: { ReferenceKeys.kind(of: $0) == .id || ReferenceKeys.kind(of: $0) == .ref })
            {
                return try model(members, type: type, depth: depth, inBag: inBag)
            }
            if inBag, let className = unknownClassName(of: members) {
                return try unknownObject(members, className: className, depth: depth)
            }
            let uid = allocate()
            var keys: [ModelValue] = []
            var references: [ModelValue] = []
            for (key, member) in members {
                let keyUID = try reference(to: .string(key), depth: depth + 1, inBag: true)
                keys.append(KeyedArchive.uidValue(keyUID))
                let memberUID = try StackGuard.descendingThrowing(depth) {
                    try self.reference(to: member, depth: depth + 1, inBag: inBag)
                }
                references.append(KeyedArchive.uidValue(memberUID))
            }
            let description = classUID("NSDictionary")
            objects[uid] = ["$class": description, "NS.keys": .array(keys), "NS.objects": .array(references)]
            return uid
        }
        return objects.count - 1
    }

    /// Writes `elements` as an `NSArray` or `NSSet`; returns its UID.
    private mutating func collection(_ elements: [ModelValue], className: String, depth: Int, inBag: Bool) throws
        -> Int
    {
        let uid = allocate()
        var references: [ModelValue] = []
        references.reserveCapacity(elements.count)
        for element in elements {
            let member = try StackGuard.descendingThrowing(depth) {
                try self.reference(to: element, depth: depth + 1, inBag: inBag)
            }
            references.append(KeyedArchive.uidValue(member))
        }
        let description = classUID(className)
        objects[uid] = ["$class": description, "NS.objects": .array(references)]
        return uid
    }

    /// The class name of a bag's dictionary that stands for an object of a
    /// class the reader does not know (`"$class"` naming it), or `nil`.
    private func unknownClassName(of members: ModelValue.Object) -> String? {
        guard let rootType, case .string(let name)? = members[KeyedArchiveReader.unknownClassKey],
            !KeyedArchiveReader.foundationClasses.contains(name),
            ModelObject.archivedType(named: name, root: rootType) == nil,
            !types.values.contains(where: { $0.archivedClassName == name })
        else { return nil }
        return name
    }

    /// Writes a bag's object of a class the reader does not know: its
    /// members as they were archived (keys as written), scalars as the
    /// style writes them.
    private mutating func unknownObject(_ members: ModelValue.Object, className: String, depth: Int) throws -> Int {
        let number = allocate()
        var object = ModelValue.Object(minimumCapacity: members.count)
        object.appendNew(key: "$class", value: classUID(className))
        for (key, value) in members where key != KeyedArchiveReader.unknownClassKey {
            switch value {
            case .null: object.appendNew(key: key, value: KeyedArchive.uidValue(0))
            case .bool where isInline, .int where isInline, .double where isInline:
                object.appendNew(key: key, value: value)
            default:
                let member = try StackGuard.descendingThrowing(depth) {
                    try self.reference(to: value, depth: depth + 1, inBag: true)
                }
                object.appendNew(key: key, value: KeyedArchive.uidValue(member))
            }
        }
        objects[number] = .object(object)
        return number
    }
}

/// A value type that a keyed archive holds as an `NSSet`: `Set`, and an
/// optional one.
protocol ArchivedAsSet {}
extension Set: ArchivedAsSet {}
extension Optional: ArchivedAsSet where Wrapped: ArchivedAsSet {}
