import Foundation

extension ModelValue {
    /// Reads an XML or binary property list.
    ///
    /// Nesting deeper than 512 levels is rejected before Foundation's reader
    /// sees the document. The string `"$null"` reads as ``null``: see
    /// ``propertyListData(format:)``.
    /// - Throws: ``ModelError`` for a malformed or too deeply nested document.
    public init(propertyList data: Data) throws {
        try PropertyListDocument.checkNesting(data, limit: PropertyListBridge.maximumDepth)
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
    /// read back as `null`. Integers outside `Int` are written as unsigned
    /// 64-bit integers when they fit, else as strings of their digits.
    /// Dictionaries are written with their keys sorted.
    /// - Parameter format: `.xml` (the default) or `.binary`.
    /// - Throws: ``ModelError`` for the OpenStep format, which Foundation cannot write.
    public func propertyListData(format: PropertyListSerialization.PropertyListFormat = .xml) throws -> Data {
        guard format == .xml || format == .binary else {
            throw ModelError(
                code: .unknownFormat, message: "property lists can be written as XML or binary, not OpenStep")
        }
        do {
            return try PropertyListSerialization.data(
                fromPropertyList: PropertyListBridge.propertyListObject(from: self), format: format, options: 0)
        } catch {
            throw ModelError(code: .notRepresentable, message: "cannot write a property list: \(error)")
        }
    }
}
