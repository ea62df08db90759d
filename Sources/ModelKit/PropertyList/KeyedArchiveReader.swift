import Foundation

/// Walks the objects of a ``KeyedArchive`` into a ``ModelValue``: plain
/// Foundation objects as values, and, when `modelType` maps their class
/// names, models as their saved form.
///
/// Invariants:
/// - Nothing is instantiated: every object is read as the dictionary it is,
///   and only the class names below (and the model classes `modelType`
///   names) are accepted; any other class is an error naming it.
/// - Every UID is checked against `$objects` before it is followed.
/// - Nesting is limited to ``PropertyListBridge/maximumDepth``, and the
///   walk recurses once per container under ``StackGuard``.
/// - An object referred to twice is read twice, so the values it produces
///   are counted against a bound proportional to the file (a small archive
///   of shared objects cannot expand into gigabytes); a plain object that
///   contains itself is an error.
/// - Models are written once, with `"$id"` (the UID), and referred to
///   elsewhere as `{"$ref": id}`; a model met again inside itself is a
///   cycle, allowed only through a `@Saved(reference: .weak)` property.
///   A weak property always holds a reference: a model it meets first is
///   written where a strong property holds it, and if none does, a second
///   walk leaves the weak reference out (nil), as the graph would hold it.
/// - Inside a bag (a key the model's class does not save), models are
///   copies of their saved form, with no id and no reference (see
///   `bagDepth`), and an object of a class that is neither Foundation's nor
///   a model's is kept as its structure (`unknownObject`), never made.
/// - Ids are archive UIDs, which mean nothing outside the archive: they
///   only join a model's `"$id"` to its `"$ref"`s while the saved form
///   loads. Dictionaries that are not models are read as they are, `"$id"`
///   and `"$ref"` keys included.
///
/// Errors name the key path in the value produced.
struct KeyedArchiveReader {
    let archive: KeyedArchive
    /// The model class an archived class name stands for, or `nil` when only
    /// plain values are read (or the name names no model class).
    let modelType: ((String) -> ModelObject.Type?)?
    /// How many values the archive may expand to.
    let limit: Int
    private var produced = 0
    /// Objects being read (for cycles), and models already written.
    private var isOpen: [Bool]
    private var isWrittenModel: [Bool]
    /// The key path of the value being read.
    private var path: [ModelKeyPath.Component] = []
    /// Models referred to through a weak property before (or without) being
    /// written in full, and those the first walk found written nowhere,
    /// which a second walk leaves out (nothing else holds them).
    private var weaklyReferred: Set<Int> = []
    private var unheld: Set<Int> = []
    /// The model class that the saved property being read declares (an
    /// optional's or an array's element), if it declares one.
    private var declaredModelType: ModelObject.Type?
    /// How many bags (members under keys their model's class does not save)
    /// the value being read is inside. A bag holds values, not models, so a
    /// model met there is read as a copy of its saved form: no `"$id"`, a
    /// model read elsewhere read again rather than referred to, and weak
    /// references left out. A reference from a bag would name an id that
    /// the next save numbers differently (found by `Fuzz/run.sh archive`).
    private var bagDepth = 0

    /// The fixed ceiling of ``limit``, whatever the file's size.
    static let maximumValues = 10_000_000

    /// The class of the model the archive is read into, whose saved keys
    /// tell, for an archive without a `"root"`, which top keys are its bag's.
    let rootType: ModelObject.Type?

    init(
        _ archive: KeyedArchive, byteCount: Int, rootType: ModelObject.Type? = nil,
        modelType: ((String) -> ModelObject.Type?)? = nil
    ) {
        self.archive = archive
        self.rootType = rootType
        self.modelType = modelType
        limit = min(Self.maximumValues, max(1 << 16, 256 * byteCount))
        isOpen = [Bool](repeating: false, count: archive.objects.count)
        isWrittenModel = isOpen
    }

    /// The archive's root: `$top`'s `"root"`, or, for an archive with other
    /// top keys, an object of them all.
    mutating func rootValue() throws -> ModelValue {
        let value = try walkFromTop()
        let missing = weaklyReferred.filter { !isWrittenModel[$0] }
        guard !missing.isEmpty else { return value }
        // Again, leaving out the weak references to models nothing holds.
        unheld = missing
        weaklyReferred = []
        produced = 0
        isWrittenModel = [Bool](repeating: false, count: archive.objects.count)
        return try walkFromTop()
    }

    private mutating func walkFromTop() throws -> ModelValue {
        if let root = archive.top["root"] {
            return try member(root, depth: 0, isWeak: false) ?? .null
        }
        var result = ModelValue.Object(minimumCapacity: archive.top.count)
        let layout = rootType.map { ClassLayout.of($0) }
        for (archivedKey, reference) in archive.top {
            // Top keys are escaped as members' are (`$key` as `$$key`).
            let key = KeyedArchive.unescapedKey(archivedKey)
            path.append(.key(key))
            // The top keys are the root model's members: one it does not
            // save goes to its bag, where models are copies (see `bagDepth`).
            let isBag = layout.map { $0.offset(forKey: key) == nil } ?? false
            if isBag { bagDepth += 1 }
            result.appendNew(key: key, value: try member(reference, depth: 1, isWeak: false) ?? .null)
            if isBag { bagDepth -= 1 }
            path.removeLast()
        }
        return .object(result)
    }

    // MARK: - Values

    /// A member of an object: a reference, or a scalar written inline (as
    /// `encode(_: Int, forKey:)` writes it); `nil` for a reference to `$null`.
    private mutating func member(_ raw: ModelValue, depth: Int, isWeak: Bool) throws -> ModelValue? {
        if let uid = KeyedArchive.uid(of: raw) {
            if uid == 0 { return nil }
            // A copy in a bag keeps no reference to a model (see `bagDepth`);
            // a plain value under a weak key stays what it is.
            if isWeak, bagDepth > 0, try isModelObject(uid) { return nil }
            if isWeak, try isModelNotYetWritten(uid) {
                // A weak property holds a reference: the model is written
                // where a strong one holds it.
                if unheld.contains(uid) { return nil }
                weaklyReferred.insert(uid)
                try count()
                return .object([ReferenceKeys.ref: .string(String(uid))])
            }
            return try value(ofUID: uid, depth: depth, isWeak: isWeak)
        }
        switch raw {
        case .bool, .int, .bigInteger, .double, .date, .data, .string:
            try count()
            return raw
        case .null, .array, .object:
            throw failure("expected a reference or a number, found \(raw.excerpt)")
        }
    }

    /// Whether `uid` is a model's object that is not written yet.
    private func isModelNotYetWritten(_ uid: Int) throws -> Bool {
        guard uid > 0, uid < archive.objects.count, !isWrittenModel[uid] else { return false }
        return try isModelObject(uid)
    }

    /// Whether `uid` is a model's object.
    private func isModelObject(_ uid: Int) throws -> Bool {
        guard modelType != nil, uid > 0, uid < archive.objects.count,
            case .object(let members) = archive.objects[uid], KeyedArchive.uid(of: archive.objects[uid]) == nil
        else { return false }
        return resolvedModelType(try archive.className(of: members, uid: uid, at: path)) != nil
    }

    /// The model class of an object of class `className`: the one
    /// `modelType` names, else the model class the property being read
    /// declares (its element's, for an array), when `className` is that
    /// class's ``ModelObject/archivedClassName``, with or without a module
    /// prefix: a class known statically needs no registration.
    private func resolvedModelType(_ className: String) -> ModelObject.Type? {
        guard let modelType else { return nil }
        if let type = modelType(className) { return type }
        guard let declared = declaredModelType else { return nil }
        let short = className.split(separator: ".").last.map(String.init) ?? className
        let archived = declared.archivedClassName
        return archived == className || archived == short ? declared : nil
    }

    /// The references in `raw`, which must be an array of UIDs.
    private func references(_ raw: ModelValue?, named name: String, of className: String) throws -> [Int] {
        guard case .array(let elements)? = raw else {
            throw failure("the \(className) object has no \(name) array")
        }
        return try elements.map { element in
            guard let uid = KeyedArchive.uid(of: element) else {
                throw failure("the \(name) of an \(className) holds \(element.excerpt), not a reference")
            }
            return uid
        }
    }

    /// The value that `uid` refers to.
    private mutating func value(ofUID uid: Int, depth: Int, isWeak: Bool) throws -> ModelValue {
        guard uid >= 0, uid < archive.objects.count else {
            throw failure("a reference to object \(uid) lies beyond the \(archive.objects.count) objects of the archive")
        }
        if uid == 0 {
            try count()
            return .null
        }
        let object = archive.objects[uid]
        guard case .object(let members) = object else {
            switch object {
            case .array, .null:
                throw failure("object \(uid) is \(object.excerpt), which an archive holds only inside an object")
            default:
                try count()
                return object
            }
        }
        if KeyedArchive.uid(of: object) != nil {
            throw failure("object \(uid) is itself a reference")
        }
        let className = try archive.className(of: members, uid: uid, at: path)
        if isWrittenModel[uid], bagDepth == 0 {
            // A model read before: the same object, by reference.
            if isOpen[uid] && !isWeak {
                throw failure(
                    "the \(className) object \(uid) contains itself (a cycle); a model may refer back to one "
                        + "that contains it only through a @Saved(reference: .weak) property",
                    code: .invalidValue)
            }
            try count()
            return .object([ReferenceKeys.ref: .string(String(uid))])
        }
        guard !isOpen[uid] else {
            throw failure("the \(className) object \(uid) contains itself (a cycle), which a value cannot hold",
                code: .invalidValue)
        }
        guard depth < PropertyListBridge.maximumDepth else {
            throw failure(
                "nesting is deeper than the limit of \(PropertyListBridge.maximumDepth) levels", code: .nestingTooDeep)
        }
        try count()
        isOpen[uid] = true
        defer { isOpen[uid] = false }
        return try StackGuard.descendingThrowing(depth) {
            try self.container(members, uid: uid, className: className, depth: depth + 1)
        }
    }

    /// An object of class `className` whose members are `members`.
    private mutating func container(_ members: ModelValue.Object, uid: Int, className: String, depth: Int) throws
        -> ModelValue
    {
        switch className {
        case "NSArray", "NSMutableArray", "NSSet", "NSMutableSet":
            return .array(try elements(references(members["NS.objects"], named: "NS.objects", of: className), depth))
        case "NSOrderedSet", "NSMutableOrderedSet":
            var uids: [Int] = []
            for index in 0..<members.count {
                guard let raw = members["NS.object.\(index)"] else { break }
                guard let element = KeyedArchive.uid(of: raw) else {
                    throw failure("the NS.object.\(index) of an \(className) is \(raw.excerpt), not a reference")
                }
                uids.append(element)
            }
            return .array(try elements(uids, depth))
        case "NSDictionary", "NSMutableDictionary":
            return try dictionary(members, className: className, depth: depth)
        case "NSString", "NSMutableString":
            if case .string(let string)? = members["NS.string"] { return .string(string) }
            if case .data(let bytes)? = members["NS.bytes"], let string = String(validating: bytes, as: UTF8.self) {
                return .string(string)
            }
            throw failure("the \(className) object has no NS.string")
        case "NSDate", "NSMutableDate":
            switch members["NS.time"] {
            case .double(let seconds)? where seconds.isFinite:
                return .date(Date(timeIntervalSinceReferenceDate: seconds))
            case .int(let seconds)?:
                return .date(Date(timeIntervalSinceReferenceDate: Double(seconds)))
            default:
                throw failure("the NSDate object has no finite NS.time")
            }
        case "NSData", "NSMutableData":
            if case .data(let bytes)? = members["NS.data"] { return .data(bytes) }
            if let raw = members["NS.data"], let reference = KeyedArchive.uid(of: raw),
                case .data(let bytes) = try value(ofUID: reference, depth: depth, isWeak: false)
            {
                return .data(bytes)
            }
            throw failure("the \(className) object has no NS.data")
        case "NSNull":
            return .null
        case "NSUUID":
            guard case .data(let bytes)? = members["NS.uuidbytes"], bytes.count == 16 else {
                throw failure("the NSUUID object has no NS.uuidbytes of 16 bytes")
            }
            let b = Array(bytes)
            let uuid = UUID(
                uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
            return .string(uuid.uuidString)
        case "NSURL":
            return try url(members, depth: depth)
        default:
            if let type = resolvedModelType(className) {
                return try model(members, uid: uid, type: type, depth: depth)
            }
            if bagDepth > 0, modelType != nil {
                return try unknownObject(members, className: className, depth: depth)
            }
            throw failure(
                "the archive holds an object of class \(ModelValue.quoted(className)), which "
                    + (modelType == nil
                        ? "is not a Foundation class that ModelKit reads (NSString, NSNumber, NSDate, NSData, NSArray, "
                            + "NSDictionary, NSSet, NSOrderedSet, NSNull, NSURL, NSUUID)"
                        : "is neither a Foundation class that ModelKit reads nor a model class (register it "
                            + "with ModelObject.register(_:as:))"),
                code: .unknownType)
        }
    }

    /// The member that names the class of an object kept as its structure.
    static let unknownClassKey = "$class"

    /// The Foundation classes read as values.
    static let foundationClasses: Set<String> = [
        "NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSOrderedSet", "NSMutableOrderedSet", "NSDictionary",
        "NSMutableDictionary", "NSString", "NSMutableString", "NSDate", "NSMutableDate", "NSData", "NSMutableData",
        "NSNull", "NSUUID", "NSURL", "NSNumber", "NSObject",
    ]

    /// An object of a class that is neither a Foundation class read as a
    /// value nor a model class, met in a bag: kept as its structure, never
    /// made. Its class name under `"$class"`, then its members under their
    /// archived keys (a coder's `$key` stays `$$key`), each read as a
    /// member of a model is; the writer writes it back as that class. The
    /// unknown-key policy of the model holding the bag then keeps it,
    /// drops it or refuses it.
    private mutating func unknownObject(_ members: ModelValue.Object, className: String, depth: Int) throws
        -> ModelValue
    {
        let declared = declaredModelType
        declaredModelType = nil
        defer { declaredModelType = declared }
        var result = ModelValue.Object(minimumCapacity: members.count)
        result.appendNew(key: Self.unknownClassKey, value: .string(className))
        for (key, raw) in members where key != "$class" {
            path.append(.key(key))
            result.appendNew(key: key, value: try member(raw, depth: depth, isWeak: false) ?? .null)
            path.removeLast()
        }
        return .object(result)
    }

    private mutating func elements(_ uids: [Int], _ depth: Int) throws -> [ModelValue] {
        var result: [ModelValue] = []
        result.reserveCapacity(uids.count)
        for (index, uid) in uids.enumerated() {
            path.append(.index(index))
            result.append(try value(ofUID: uid, depth: depth, isWeak: false))
            path.removeLast()
        }
        return result
    }

    private mutating func dictionary(_ members: ModelValue.Object, className: String, depth: Int) throws
        -> ModelValue
    {
        let keys = try references(members["NS.keys"], named: "NS.keys", of: className)
        let values = try references(members["NS.objects"], named: "NS.objects", of: className)
        guard keys.count == values.count else {
            throw failure("the \(className) object has \(keys.count) NS.keys but \(values.count) NS.objects")
        }
        let declared = declaredModelType
        declaredModelType = nil
        defer { declaredModelType = declared }
        var result = ModelValue.Object(minimumCapacity: keys.count)
        for (keyUID, valueUID) in zip(keys, values) {
            let keyValue = try value(ofUID: keyUID, depth: depth, isWeak: false)
            guard case .string(let key) = keyValue else {
                throw failure("a dictionary key is \(keyValue.excerpt), not a string")
            }
            path.append(.key(key))
            let member = try value(ofUID: valueUID, depth: depth, isWeak: false)
            guard result.appendIfAbsent(key: key, value: member) == nil else {
                throw failure("the key \(ModelValue.quoted(key)) repeats in a dictionary")
            }
            path.removeLast()
        }
        return .object(result)
    }

    /// An NSURL's absolute string: its relative part resolved against its base.
    private mutating func url(_ members: ModelValue.Object, depth: Int) throws -> ModelValue {
        func text(_ key: String) throws -> String? {
            guard let raw = members[key] else { return nil }
            guard let reference = KeyedArchive.uid(of: raw) else {
                throw failure("the \(key) of an NSURL is \(raw.excerpt), not a reference")
            }
            if reference == 0 { return nil }
            guard case .string(let string) = try value(ofUID: reference, depth: depth, isWeak: false) else {
                throw failure("the \(key) of an NSURL is not a string or a URL")
            }
            return string
        }
        guard let relative = try text("NS.relative") else { throw failure("the NSURL object has no NS.relative") }
        guard let base = try text("NS.base") else { return .string(relative) }
        guard let baseURL = URL(string: base), let resolved = URL(string: relative, relativeTo: baseURL) else {
            throw failure("the NSURL \(ModelValue.quoted(relative)) cannot be resolved against \(ModelValue.quoted(base))")
        }
        return .string(resolved.absoluteString)
    }

    // MARK: - Models

    /// A model's saved form: `"$id"`, its type, then each archived key.
    private mutating func model(_ members: ModelValue.Object, uid: Int, type: ModelObject.Type, depth: Int) throws
        -> ModelValue
    {
        let layout = ClassLayout.of(type)
        var result = ModelValue.Object(minimumCapacity: members.count + 1)
        if bagDepth == 0 {
            isWrittenModel[uid] = true
            result.appendNew(key: ReferenceKeys.id, value: .string(String(uid)))
        }
        if let typeKey = layout.typeKey { result.appendNew(key: typeKey, value: .string(layout.typeName)) }
        for (archivedKey, raw) in members where archivedKey != "$class" {
            let key = KeyedArchive.unescapedKey(archivedKey)
            path.append(.key(key))
            guard key != layout.typeKey else {
                throw failure(
                    "the archived \(type) has a key \(ModelValue.quoted(key)), which \(type) uses as its typeKey; "
                        + "override typeKey to read it", code: .invalidValue)
            }
            let isWeak = layout.offset(forKey: key).map { layout.weakSlots.contains($0) } ?? false
            let outer = declaredModelType
            declaredModelType = layout.offset(forKey: key).flatMap { Self.declaredModelType(of: layout.slots[$0]) }
            let isBag = layout.offset(forKey: key) == nil
            if isBag { bagDepth += 1 }
            defer {
                declaredModelType = outer
                if isBag { bagDepth -= 1 }
            }
            if var value = try member(raw, depth: depth, isWeak: isWeak) {
                if let offset = layout.offset(forKey: key) { value = Self.sharedNumber(value, for: layout.slots[offset]) }
                result.appendNew(key: ReferenceKeys.escaped(key), value: value)
            } else if layout.offset(forKey: key).map({ (try? layout.slots[$0].codec.decode(.null)) != nil }) ?? true {
                // A nil object: null where the property (or the bag) takes
                // it, else the property keeps its default.
                result.appendNew(key: ReferenceKeys.escaped(key), value: .null)
            }
            path.removeLast()
        }
        return .object(result)
    }

    /// `value` as the number `slot` declares, when it is a number that an
    /// archive may hold once for both: `NSKeyedArchiver` stores equal
    /// `NSNumber`s once, and `YES` equals 1 (and `NO` 0), so an item whose
    /// `done` is `YES` and whose `priority` is 1 refers to one number for
    /// both. A Bool property reads 0 and 1 as `false` and `true`; an integer
    /// or floating-point one reads a boolean as 0 or 1, as the old app's
    /// `integerValue` does.
    static func sharedNumber(_ value: ModelValue, for slot: ClassLayout.Slot) -> ModelValue {
        switch value {
        case .bool(let flag):
            switch ScalarKind.of(slot.codec.valueType) {
            case .integer: return .int(flag ? 1 : 0)
            case .floatingPoint: return .double(flag ? 1 : 0)
            case .boolean, .other: return value
            }
        case .int(let number) where number == 0 || number == 1:
            return ScalarKind.of(slot.codec.valueType) == .boolean ? .bool(number == 1) : value
        case .double(let number) where number == 0 || number == 1:
            return ScalarKind.of(slot.codec.valueType) == .boolean ? .bool(number == 1) : value
        default:
            return value
        }
    }

    /// What kind of number a property's type is.
    enum ScalarKind {
        case boolean, integer, floatingPoint, other

        static func of(_ type: Any.Type) -> ScalarKind {
            switch ObjectIdentifier(type) {
            case ObjectIdentifier(Bool.self), ObjectIdentifier(Bool?.self): .boolean
            case ObjectIdentifier(Double.self), ObjectIdentifier(Double?.self), ObjectIdentifier(Float.self),
                ObjectIdentifier(Float?.self):
                .floatingPoint
            case ObjectIdentifier(Int.self), ObjectIdentifier(Int?.self), ObjectIdentifier(Int8.self),
                ObjectIdentifier(Int8?.self), ObjectIdentifier(Int16.self), ObjectIdentifier(Int16?.self),
                ObjectIdentifier(Int32.self), ObjectIdentifier(Int32?.self), ObjectIdentifier(Int64.self),
                ObjectIdentifier(Int64?.self), ObjectIdentifier(UInt.self), ObjectIdentifier(UInt?.self),
                ObjectIdentifier(UInt8.self), ObjectIdentifier(UInt8?.self), ObjectIdentifier(UInt16.self),
                ObjectIdentifier(UInt16?.self), ObjectIdentifier(UInt32.self), ObjectIdentifier(UInt32?.self),
                ObjectIdentifier(UInt64.self), ObjectIdentifier(UInt64?.self):
                .integer
            default: .other
            }
        }
    }

    /// The model class `slot` declares: its type's, or its optional's or
    /// array's element's.
    private static func declaredModelType(of slot: ClassLayout.Slot) -> ModelObject.Type? {
        switch JSONSlotKind.of(slot.codec.valueType) {
        case .model(let type), .optionalModel(let type, _, _), .modelArray(let type, _, _): return type
        default: return nil
        }
    }

    // MARK: - Bounds and errors

    /// Counts one value produced, against ``limit``.
    private mutating func count() throws {
        produced += 1
        guard produced <= limit else {
            throw failure(
                "the archive's shared objects expand to more than \(limit) values, the limit for an archive "
                    + "of this size", code: .limitExceeded)
        }
    }

    private func failure(_ message: String, code: ModelError.Code = .malformedDocument) -> ModelError {
        var error = KeyedArchive.failure(message, at: path)
        error.code = code
        return error
    }
}
