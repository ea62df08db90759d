/// How a keyed archive holds the numbers and booleans of models, chosen by
/// the way the old app's `NSCoding` classes decode them.
///
/// An app that used AutoCoding, or wrote `encodeObject:forKey:` for every
/// property, decodes each one with `decodeObject(forKey:)` and needs an
/// `NSNumber` object: ``objects``, the default. A class written by hand that
/// decodes with `decodeInteger(forKey:)`, `decodeBool(forKey:)` or
/// `decodeDouble(forKey:)` needs the value inline in the object, as
/// `encode(_: Int, forKey:)` writes it: ``inlineScalars``. Foundation reads
/// neither in the other's place: `decodeObject(forKey:)` of an inline value
/// is nil on Apple platforms and stops the process on Linux.
///
/// ```swift
/// let autoCoding = try note.keyedArchiveData()                          // NSNumber objects
/// let handWritten = try note.keyedArchiveData(style: .inlineScalars)    // inline scalars
/// ```
///
/// Either way, values inside arrays, sets and dictionaries are objects, as
/// Foundation's collections hold them, and ``ModelObject/init(keyedArchive:)``
/// reads both.
public enum KeyedArchiveStyle: Sendable, Hashable {
    /// Every member of a model is an object: numbers and booleans (the
    /// ``ModelObject/versionKey`` too) are `NSNumber`s referred to, as
    /// AutoCoding's `encodeObject:forKey:` writes them, for
    /// `decodeObject(forKey:)`.
    case objects
    /// Numbers and booleans that are members of a model are written inline,
    /// as `encode(_: Int, forKey:)`, `encode(_: Bool, forKey:)` and
    /// `encode(_: Double, forKey:)` write them, for `decodeInteger(forKey:)`,
    /// `decodeBool(forKey:)` and `decodeDouble(forKey:)`.
    case inlineScalars
}
