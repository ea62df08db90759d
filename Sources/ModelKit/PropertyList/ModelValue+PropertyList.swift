import Foundation

extension ModelValue {
    /// Reads an XML or binary property list.
    ///
    /// Both are read by ModelKit's own readers, straight from the bytes
    /// (`XMLPropertyListReader`, `BinaryPropertyListReader`): keys keep
    /// their exact text and their order, dates their fraction of a second,
    /// and every fault is reported with its key path (and, for XML, line and
    /// column). Nesting deeper than 512 levels is rejected in both. The
    /// string `"$null"` reads as ``null`` and `"$integer:"` and digits as that
    /// integer: see ``propertyListData(format:)``. OpenStep-style property
    /// lists are not read.
    ///
    /// As Foundation reads them: XML in UTF-8, UTF-16 or UTF-32; whitespace
    /// before and after an `<integer>`'s sign and before a `<real>`; date
    /// fields that carry past their range (`2024-01-32T20:43:14Z` is
    /// 1 February); any `bplist0x` header. A DOCTYPE with an internal
    /// subset is refused, as Foundation refuses it. In binary files, sets
    /// read as arrays, and keyed-archiver UIDs and the fill byte are errors
    /// (read `NSKeyedArchiver` archives with ``init(keyedArchive:)``).
    /// - Throws: ``ModelError`` for a malformed or too deeply nested document.
    public init(propertyList data: Data) throws {
        if BinaryPropertyListReader.isBinary(data) {
            self = try BinaryPropertyListReader.value(from: data)
        } else {
            self = try XMLPropertyListReader.value(from: data)
        }
    }

    /// Writes this value as an XML or binary property list that `plutil`,
    /// Foundation and Python's `plistlib` read.
    ///
    /// Both are written by ModelKit itself, keys in the object's order, the
    /// same bytes for the same value on every run:
    /// - XML in Apple's layout (`XMLPropertyListWriter`), reals in the
    ///   shortest text that reads back exactly, and dates in whole seconds
    ///   (`2025-11-16T15:33:20Z`), the form every reader accepts: plutil and
    ///   plistlib refuse fractions. Dates keep their exact value in binary
    ///   property lists and JSON.
    /// - Binary (`BinaryPropertyListWriter`) byte for byte as CoreFoundation
    ///   and Python's `plistlib` write it: objects numbered depth-first, a
    ///   dictionary's keys before its values, equal scalars stored once.
    ///
    /// Property lists have no null: `null` is written as the string
    /// `"$null"` (the marker Foundation's `PropertyListEncoder` uses) and
    /// read back as `null`. Integers that fit 64 bits (signed or unsigned)
    /// are integers; larger ones, which plutil and Foundation cannot hold,
    /// are written as the string `"$integer:"` and their digits and read back
    /// by ModelKit as the same integer. Strings that look like either
    /// marker get one more `$`, so they survive too.
    /// - Parameter format: `.xml` (the default) or `.binary`.
    ///
    /// XML dates are written as Foundation's writer writes them: whole
    /// seconds, the Julian calendar before 1582-10-15, astronomical years
    /// (`Date.distantPast` is `0001-01-01T00:00:00Z`). Python's `plistlib`
    /// reads none before year 1 or after 9999, and Foundation misreads
    /// years before 0000 (ModelKit reads them back exactly).
    /// - Throws: ``ModelError`` for the OpenStep format, for strings holding
    ///   characters XML 1.0 cannot carry, for a date in XML more than about
    ///   285 million years from 2001, and for nesting deeper than 512 levels.
    public func propertyListData(format: PropertyListSerialization.PropertyListFormat = .xml) throws -> Data {
        switch format {
        case .xml: return try XMLPropertyListWriter.data(from: self)
        case .binary: return try BinaryPropertyListWriter.data(from: self)
        default:
            throw ModelError(
                code: .unknownFormat, message: "property lists can be written as XML or binary, not OpenStep")
        }
    }
}
