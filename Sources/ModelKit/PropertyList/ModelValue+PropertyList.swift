import Foundation

extension ModelValue {
    /// Reads an XML or binary property list.
    ///
    /// XML is read by ModelKit's own reader (``XMLPropertyListReader``),
    /// which keeps fractions of a second in dates and the order of keys, and
    /// names the line, column and key path of any fault. Binary property
    /// lists are checked, then read by Foundation. Nesting deeper than 512
    /// levels is rejected in both. The string `"$null"` reads as ``null``:
    /// see ``propertyListData(format:)``. OpenStep-style property lists are
    /// not read.
    /// - Throws: ``ModelError`` for a malformed or too deeply nested document.
    public init(propertyList data: Data) throws {
        guard PropertyListDocument.isBinary(data) else {
            self = try XMLPropertyListReader.value(from: data)
            return
        }
        try PropertyListDocument.checkBinary(data, limit: PropertyListBridge.maximumDepth)
        let object: Any
        do {
            object = try PropertyListDocument.parse(data)
        } catch {
            throw ModelError.malformed("property list", PropertyListDocument.reason(error), at: nil)
        }
        self = try PropertyListBridge.modelValue(from: object)
    }

    /// Writes this value as an XML or binary property list.
    ///
    /// Property lists have no null: `null` is written as the string
    /// `"$null"` (the marker Foundation's `PropertyListEncoder` uses) and
    /// read back as `null`.
    ///
    /// XML is written by ``XMLPropertyListWriter``: Apple's layout, keys in
    /// the object's order, dates to the microsecond, reals in the shortest
    /// text that reads back exactly, integers outside `Int` as `<integer>`
    /// with all their digits. Binary is written by Foundation: keys sorted,
    /// integers outside `Int` as unsigned 64-bit integers when they fit,
    /// else as strings of their digits.
    /// - Parameter format: `.xml` (the default) or `.binary`.
    /// - Throws: ``ModelError`` for the OpenStep format, which Foundation
    ///   cannot write, and for strings holding characters XML 1.0 cannot carry.
    public func propertyListData(format: PropertyListSerialization.PropertyListFormat = .xml) throws -> Data {
        guard format == .xml || format == .binary else {
            throw ModelError(
                code: .unknownFormat, message: "property lists can be written as XML or binary, not OpenStep")
        }
        if format == .xml { return try XMLPropertyListWriter.data(from: self) }
        do {
            return try PropertyListSerialization.data(
                fromPropertyList: PropertyListBridge.propertyListObject(from: self), format: format, options: 0)
        } catch {
            throw ModelError(code: .notRepresentable, message: "cannot write a property list: \(error)")
        }
    }
}
