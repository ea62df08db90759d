import Foundation

extension ModelObject {
    /// The saved form as JSON: the metadata keys, the saved keys in
    /// ``savedKeys`` order, then the ``extensibleProperties`` in their
    /// original order (or every key sorted, with ``JSONWritingOptions/sorted``).
    ///
    /// ```swift
    /// print(String(decoding: try note.jsonData(options: .pretty), as: UTF8.self))
    /// ```
    /// - Throws: ``ModelError`` for a value JSON cannot hold (an infinite
    ///   number, named by its key path), a cycle in the graph of models, or a
    ///   class with declaration problems.
    public func jsonData(options: JSONWritingOptions = JSONWritingOptions()) throws -> Data {
        try ModelValue.object(encodedRoot()).jsonData(options: options)
    }

    /// The saved form as a JSON string; see ``jsonData(options:)``.
    public func jsonString(options: JSONWritingOptions = JSONWritingOptions()) throws -> String {
        try ModelValue.object(encodedRoot()).jsonString(options: options)
    }
}
