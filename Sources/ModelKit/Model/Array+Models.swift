import Foundation

/// Arrays of models as documents of their own: a top-level JSON array (what
/// most web APIs return), a property list whose root is an array, a file.
///
/// ```swift
/// let books = try [Book](json: #"[{"title":"Emma"},{"title":"Persuasion"}]"#)
/// print(books.map(\.title))                  // ["Emma", "Persuasion"]
/// print(try books.jsonString())
/// // [{"type":"Book","version":1,"title":"Emma"},{"type":"Book","version":1,"title":"Persuasion"}]
/// ```
///
/// Each element is read as ``ModelObject/decoded(from:)`` reads a model, so
/// an element may be a registered subclass that it names under its `type`.
/// Errors name the element: `[3].title: expected String, found an integer (5)`.
/// Each element is written as the root of its own saved form (cycles within
/// an element become references); references between elements are not kept.
extension Array where Element: ModelObject {
    /// Reads a JSON array of models.
    /// - Throws: ``ModelError`` for a malformed document (with line and
    ///   column), a root that is not an array, or a bad element (its index
    ///   first in the key path).
    public init(json: Data, options: JSONReadingOptions = JSONReadingOptions()) throws {
        do {
            try self.init(modelValue: ModelValue(modelJSON: json, options: options))
        } catch let error as ModelError {
            throw error.locatingUnknownKeys(inJSON: json, options: options)
        }
    }

    /// Reads a JSON array of models from text.
    public init(json: String, options: JSONReadingOptions = JSONReadingOptions()) throws {
        try self.init(json: Data(json.utf8), options: options)
    }

    /// Reads a property list (XML or binary) whose root is an array of models.
    public init(propertyList: Data) throws {
        try self.init(modelValue: ModelValue(propertyList: propertyList))
    }

    /// Reads a file holding an array of models, in JSON or a property list,
    /// whichever its content is.
    /// - Throws: ``ModelError`` naming the file.
    public init(contentsOf url: URL) throws {
        let value = try ModelValue(contentsOf: url)
        self = try ModelDocumentFormat.attributing(to: url) { try Self(modelValue: value) }
    }

    /// Reads an array of models from its ``ModelValue``.
    /// - Throws: ``ModelError`` for a value that is not an array, or a bad
    ///   element (its index first in the key path).
    public init(modelValue: ModelValue) throws {
        guard case .array(let elements) = modelValue else {
            throw ModelError.typeMismatch(expected: "an array of \(Element.self) objects", found: modelValue)
        }
        // One load: the elements' didLoad() hooks run once all have loaded.
        self = try ModelObject.loading(roots: { $0 }) {
            var models: [Element] = []
            models.reserveCapacity(elements.count)
            // Elements that reject unknown keys: all of them are reported together.
            var unknown = UnknownKeyErrors()
            for (index, element) in elements.enumerated() {
                do {
                    models.append(try Element.decoded(from: element))
                } catch let error as ModelError {
                    try unknown.record(error, at: .index(index))
                }
            }
            try unknown.throwIfAny()
            return models
        }
    }

    /// The saved forms of the models, as an array.
    /// - Throws: ``ModelError`` for a model that cannot be written (its index
    ///   first in the key path).
    public func arrayModelValue(references: ReferencePolicy = .cycles, maximumDepth: Int = 512) throws -> ModelValue {
        var values: [ModelValue] = []
        values.reserveCapacity(count)
        for (index, model) in enumerated() {
            do {
                values.append(.object(try model.encodedRoot(references: references, maximumDepth: maximumDepth)))
            } catch let error as ModelError {
                throw error.prepending(.index(index))
            }
        }
        return .array(values)
    }

    /// The models as a JSON array.
    public func jsonData(options: JSONWritingOptions = JSONWritingOptions()) throws -> Data {
        var options = options
        if hasDejalObjectModels { options.escapesSlashes = true }
        return try arrayDocument(references: options.references, maximumDepth: options.maximumDepth)
            .jsonData(options: options)
    }

    /// The models as JSON text.
    public func jsonString(options: JSONWritingOptions = JSONWritingOptions()) throws -> String {
        String(decoding: try jsonData(options: options), as: UTF8.self)
    }

    /// The models as a property list whose root is an array.
    public func propertyListData(format: PropertyListSerialization.PropertyListFormat = .xml) throws -> Data {
        try arrayDocument().propertyListData(format: format)
    }

    /// Writes the models as one document through ModelKit's durable writer
    /// (see ``ModelObject/write(to:format:validating:references:durability:clearingChanges:)``).
    /// - Parameters:
    ///   - format: the format; `nil` takes it from the extension.
    ///   - validating: whether to ``ModelObject/validate()`` every model first.
    public func write(
        to url: URL, format: ModelDocumentFormat? = nil, validating: Bool = true,
        durability: FileDurability = .synced
    ) throws {
        try DurableFile.requireFileURL(url)
        if validating {
            for (index, model) in enumerated() {
                do { try model.validate() } catch let error as ModelError { throw error.prepending(.index(index)) }
            }
        }
        let format = try ModelDocumentFormat.chosen(format, for: url)
        let value: ModelValue
        if case .json(let options) = format {
            value = try arrayDocument(references: options.references, maximumDepth: options.maximumDepth)
        } else {
            value = try arrayDocument()
        }
        try value.write(to: url, format: format, durability: durability)
    }
}

extension ModelObject {
    /// Creates an object from JSON text, as ``init(json:options:)`` does from bytes.
    ///
    /// ```swift
    /// let note = try Note(json: #"{"title":"Milk"}"#)
    /// ```
    public convenience init(json: String, options: JSONReadingOptions = JSONReadingOptions()) throws {
        try self.init(json: Data(json.utf8), options: options)
    }
}

extension ModelValue {
    /// Reads a JSON text, as ``init(json:options:)`` reads bytes.
    public init(json: String, options: JSONReadingOptions = JSONReadingOptions()) throws {
        try self.init(json: Data(json.utf8), options: options)
    }
}
