/// What DejalObject's value dictionaries hold beyond ModelKit's values, kept
/// beside the value so that an unedited open and save gives the old app
/// what it wrote (issue 57):
///
/// | read | the value | kept |
/// | --- | --- | --- |
/// | a `DejalDate` with no date | `nil` | the dictionary (its `string` as read) |
/// | `DejalInterval`'s `extraValues` | ``Interval`` | `extraValues` |
/// | `DejalTime`'s `timeZoneName` | ``TimeOfDay`` | `timeZoneName` |
/// | `DejalData`'s `dataClass` | `Data` | `dataClass` |
///
/// The rule: what was kept is written back only while the property still
/// equals the value read with it (the slot codec's `isEqual`). An edited
/// value is written as it now is, without the kept members, which belong to
/// the old value: `extraValues` written beside a new interval, or a time
/// zone beside a new time, would make the old app misread the new value. A
/// `Date?` read from a date-less `DejalDate` is written as that dictionary
/// while it is still nil; given a date, the date is written.
///
/// Reading (`decodePending`) records a ``Kept`` for each saved property of a
/// ``SavedDialect/dejalObject`` class whose value, or an element of whose
/// array, holds any of these; `apply` stores it in the object's extras (or
/// forgets the one a newly applied value replaces). Writing
/// (`encodedMembers`) puts the kept members back, in DejalObject's form, in
/// every format: keyed archives too (where the property is then written as
/// DejalObject's dictionary rather than ModelKit's form, so that an archive
/// written and read back keeps them as the other formats do).
extension DejalObjectForm {
    /// A property's value as it was read and the value-class dictionaries it
    /// was read from.
    struct Kept {
        /// The decoded value, compared with the property's value when writing.
        let value: Any
        /// The saved value as read: one value dictionary or an array of them.
        let original: ModelValue
    }

    /// The members of each value class that ModelKit's value cannot hold.
    private static func sideKeys(of className: String) -> [String] {
        switch className {
        case intervalClass: ["extraValues"]
        case timeClass: ["timeZoneName"]
        case dataClass: ["dataClass"]
        default: []
        }
    }

    /// Whether `original`, a saved property's value as read, holds something
    /// ModelKit's value cannot: a date-less `DejalDate` or a side member,
    /// itself or as an element of an array (value classes nest no deeper).
    static func holdsKeptMembers(_ original: ModelValue) -> Bool {
        switch original {
        case .object(let members): return objectHoldsKeptMembers(members)
        case .array(let elements):
            return elements.contains {
                if case .object(let members) = $0 { objectHoldsKeptMembers(members) } else { false }
            }
        default: return false
        }
    }

    private static func objectHoldsKeptMembers(_ members: ModelValue.Object) -> Bool {
        guard case .string(let name)? = members[classNameKey] else { return false }
        if name == dateClass { return isNoDate(members) }
        return sideKeys(of: name).contains { key in
            guard let value = members[key] else { return false }
            if case .null = value { return false }
            return true
        }
    }

    /// `fresh`, the property's value in DejalObject's form, with what
    /// `original` held beyond it put back: a `null` where `original` is a
    /// date-less `DejalDate` becomes that dictionary, and a value dictionary
    /// of the class `original` has gets its side members. An array is
    /// matched element by element when both have the same count. Call it
    /// only while the value equals the one read (see ``Kept``).
    static func restoringKeptMembers(_ fresh: ModelValue, from original: ModelValue) -> ModelValue {
        switch (fresh, original) {
        case (.array(let elements), .array(let originals)) where elements.count == originals.count:
            return .array(zip(elements, originals).map { restoringKeptMembers(inOne: $0, from: $1) })
        default:
            return restoringKeptMembers(inOne: fresh, from: original)
        }
    }

    private static func restoringKeptMembers(inOne fresh: ModelValue, from original: ModelValue) -> ModelValue {
        guard case .object(let read) = original, case .string(let name)? = read[classNameKey] else { return fresh }
        switch fresh {
        case .null where name == dateClass && isNoDate(read):
            var object = header(dateClass)
            if case .string(let text)? = read["string"] { object.appendNew(key: "string", value: .string(text)) }
            return .object(object)
        case .object(var members) where members[classNameKey] == .string(name):
            for key in sideKeys(of: name) where members[key] == nil {
                guard let value = read[key], value != .null else { continue }
                members.appendNew(key: key, value: value)
                if let index = read.index(forKey: key), let text = read.text(at: index) {
                    members.setText(text, at: members.count - 1)
                }
            }
            return .object(members)
        default:
            return fresh
        }
    }
}
