import Foundation

/// An `NSKeyedArchiver` archive, read as the property list it is, and never
/// as objects: nothing in it is instantiated.
///
/// The format: a binary (or XML) property list holding `$archiver`
/// (`"NSKeyedArchiver"`), `$version` (100000), `$top` (the root objects by
/// key, `"root"` for `archivedData(withRootObject:…)`) and `$objects`, the
/// table every reference points into; its first entry is the string
/// `"$null"`, which UID 0 stands for. A reference is a UID; the readers give
/// it as the object `{"CF$UID": n}` (the form XML archives write). An object
/// is a dictionary whose `$class` refers to a class description,
/// `{"$classname": "NSArray", "$classes": ["NSArray", "NSObject"]}`; strings,
/// numbers and data stand for themselves.
///
/// This type checks the envelope and every reference it follows; the
/// walkers are ``KeyedArchiveReader`` (to a ``ModelValue`` or a model's
/// saved form) and ``KeyedArchiveWriter``.
struct KeyedArchive {
    /// The key of a UID, as property lists give it.
    static let uidKey = "CF$UID"
    /// The format's name in errors.
    static let format = "keyed archive"

    /// `$objects`.
    let objects: [ModelValue]
    /// `$top`: the root references by key.
    let top: ModelValue.Object

    /// The key an object's member `key` is archived under: keys starting
    /// with `$` belong to the format (`$class`), so `NSKeyedArchiver` writes
    /// a coder's `$key` as `$$key`, and ModelKit does too.
    static func escapedKey(_ key: String) -> String {
        key.hasPrefix("$") ? "$" + key : key
    }

    /// The coder's key of the archived member key `key`: `$$key` is `$key`
    /// (see ``escapedKey(_:)``); any other key is itself.
    static func unescapedKey(_ key: String) -> String {
        key.hasPrefix("$$") ? String(key.dropFirst()) : key
    }

    /// The UID `value` stands for, if it is one: an object whose only member
    /// is `CF$UID` with an integer.
    static func uid(of value: ModelValue) -> Int? {
        guard case .object(let members) = value, members.count == 1, members.keys[0] == uidKey,
            case .int(let uid) = members.values[0]
        else { return nil }
        return uid
    }

    /// A UID as the readers give it and the writer takes it.
    static func uidValue(_ uid: Int) -> ModelValue { .object([uidKey: .int(uid)]) }

    /// Whether the property list in `data` is a keyed archive: a dictionary
    /// whose `$archiver` is `NSKeyedArchiver`, with the rest of the
    /// envelope (`$top`, `$objects` starting with `"$null"`, `$version`
    /// 100000 if any). Files are told apart by this before they are read as
    /// plain property lists, which refuse a keyed archive's UIDs; a property
    /// list with an incomplete envelope is a plain one (a model's bag may
    /// hold an `$archiver` key). Only bytes that hold both strings are read
    /// to find out.
    static func isKeyedArchive(_ data: Data) -> Bool {
        guard data.range(of: Data("$archiver".utf8)) != nil, data.range(of: Data("NSKeyedArchiver".utf8)) != nil
        else { return false }
        let root =
            BinaryPropertyListReader.isBinary(data)
            ? try? BinaryPropertyListReader.value(from: data, readingUIDs: true)
            : try? XMLPropertyListReader.value(from: data, keepingMarkerStrings: true)
        guard let root else { return false }
        return envelopeProblem(root) == nil
    }

    /// What keeps `root` from being a keyed archive's envelope, or `nil`.
    private static func envelopeProblem(_ root: ModelValue) -> String? {
        guard case .object(let envelope) = root else {
            return "expected a keyed archive (a dictionary with $archiver, $top and $objects), found \(root.excerpt)"
        }
        guard case .string(let archiver)? = envelope["$archiver"] else {
            return "the property list has no $archiver: it is not a keyed archive"
        }
        guard archiver == "NSKeyedArchiver" else {
            return "the $archiver is \(ModelValue.quoted(archiver)), not \"NSKeyedArchiver\""
        }
        if let version = envelope["$version"], version != .int(100000) {
            return "the $version is \(version.excerpt), not 100000"
        }
        guard case .object? = envelope["$top"] else {
            return "the archive has no $top dictionary of root objects"
        }
        guard case .array(let objects)? = envelope["$objects"], !objects.isEmpty else {
            return "the archive has no $objects array"
        }
        guard objects[0] == .string("$null") else {
            return "the archive's first object is \(objects[0].excerpt), not \"$null\""
        }
        return nil
    }

    /// Reads the envelope of the archive in `data`.
    /// - Throws: ``ModelError`` for a property list that is damaged or not a
    ///   keyed archive.
    init(data: Data) throws {
        let root: ModelValue
        if BinaryPropertyListReader.isBinary(data) {
            root = try BinaryPropertyListReader.value(from: data, readingUIDs: true)
        } else {
            root = try XMLPropertyListReader.value(from: data, keepingMarkerStrings: true)
        }
        if let problem = Self.envelopeProblem(root) { throw Self.failure(problem) }
        guard case .object(let envelope) = root, case .object(let top)? = envelope["$top"],
            case .array(let objects)? = envelope["$objects"]
        else { throw Self.failure("the property list is not a keyed archive") }
        self.objects = objects
        self.top = top
    }

    /// The class name of the object `object`, checked: its `$class` must
    /// refer to a dictionary with a string `$classname`.
    func className(of object: ModelValue.Object, uid: Int, at path: [ModelKeyPath.Component]) throws -> String {
        guard let reference = object["$class"] else {
            throw Self.failure("object \(uid) is a dictionary without $class", at: path)
        }
        guard let classUID = Self.uid(of: reference) else {
            throw Self.failure("the $class of object \(uid) is \(reference.excerpt), not a reference", at: path)
        }
        guard classUID > 0, classUID < objects.count, case .object(let description) = objects[classUID],
            case .string(let name)? = description["$classname"]
        else {
            throw Self.failure(
                "the $class of object \(uid) refers to object \(classUID), which is not a class "
                    + "(a dictionary with a $classname)", at: path)
        }
        return name
    }

    /// A damaged archive's error.
    static func failure(_ message: String, at path: [ModelKeyPath.Component] = []) -> ModelError {
        ModelError(code: .malformedDocument, message: message, keyPath: ModelKeyPath(path), format: format)
    }
}
