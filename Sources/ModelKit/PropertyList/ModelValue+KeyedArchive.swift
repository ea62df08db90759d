import Foundation

extension ModelValue {
    /// Whether `data` is an `NSKeyedArchiver` archive (a property list
    /// whose `$archiver` is `NSKeyedArchiver`, with `$top` and `$objects`;
    /// a property list without them is a plain one, even with an
    /// `$archiver` member), which
    /// ``init(keyedArchive:)`` reads and ``init(propertyList:)`` refuses.
    /// ``init(contentsOf:)`` and ``ModelObject/init(contentsOf:)`` ask it
    /// of every property-list file.
    public static func isKeyedArchive(_ data: Data) -> Bool {
        KeyedArchive.isKeyedArchive(data)
    }

    /// Reads an `NSKeyedArchiver` archive of plain Foundation objects.
    ///
    /// The archive is read as the property list it is (binary or XML), and
    /// nothing in it is instantiated. Its root object (`$top`'s `root`, or an
    /// object of all the top keys when there is no `root`) becomes a value:
    ///
    /// | archived | value |
    /// | --- | --- |
    /// | `NSString` | ``string(_:)`` |
    /// | `NSNumber` | ``int(_:)``, ``double(_:)`` or ``bool(_:)``, as written |
    /// | `NSDate` | ``date(_:)`` |
    /// | `NSData` | ``data(_:)`` |
    /// | `NSArray`, `NSSet`, `NSOrderedSet` | ``array(_:)`` |
    /// | `NSDictionary` (string keys) | ``object(_:)`` |
    /// | `NSNull` | ``null`` |
    /// | `NSURL` | its absolute string |
    /// | `NSUUID` | its `uuidString` |
    ///
    /// Mutable forms read as the others. An object referred to from several
    /// places is copied into each; the values an archive expands to are
    /// limited to 256 per byte of the file (at least 65,536, at most ten
    /// million), so a small archive cannot expand into gigabytes.
    ///
    /// ```swift
    /// let archive = try NSKeyedArchiver.archivedData(
    ///     withRootObject: ["title": "Groceries", "tags": ["home"]], requiringSecureCoding: false)
    /// let value = try ModelValue(keyedArchive: archive)
    /// print(value["tags"] ?? .null)   // ["home"]
    /// ```
    /// - Parameter keyedArchive: the archive's bytes.
    /// - Throws: ``ModelError`` naming the key path in the value for a
    ///   damaged archive, a class other than those above, an object that
    ///   contains itself, nesting deeper than 512 levels, or an archive that
    ///   expands past the limit.
    public init(keyedArchive: Data) throws {
        let archive = try KeyedArchive(data: keyedArchive)
        var reader = KeyedArchiveReader(archive, byteCount: keyedArchive.count)
        self = try reader.rootValue()
    }

    /// Writes the value as an `NSKeyedArchiver` archive of plain Foundation
    /// objects (`NSString`, `NSNumber`, `NSDate`, `NSData`, `NSArray`,
    /// `NSDictionary`, `NSNull`), which Foundation's `NSKeyedUnarchiver` and
    /// ``init(keyedArchive:)`` read. A dictionary is an `NSDictionary`
    /// whatever its keys; a 16-byte integer stays one, and a wider integer is
    /// written as its digits.
    ///
    /// ```swift
    /// let value: ModelValue = ["title": "Groceries", "tags": ["home"]]
    /// let archive = try value.keyedArchiveData()
    /// print(try ModelValue(keyedArchive: archive)["tags"] ?? .null)   // ["home"]
    /// ```
    /// - Returns: the archive's bytes (a binary property list).
    /// - Throws: ``ModelError`` for nesting deeper than 512 levels.
    public func keyedArchiveData() throws -> Data {
        try KeyedArchiveWriter.data(ofValue: self)
    }
}
