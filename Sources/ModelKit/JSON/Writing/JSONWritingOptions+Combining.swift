extension JSONWritingOptions: ExpressibleByArrayLiteral {
    /// Options combined from several, as `JSONEncoder.OutputFormatting` combines:
    /// `[.pretty, .sorted]` is pretty-printed with sorted keys.
    ///
    /// ```swift
    /// let value: ModelValue = ["b": 1, "a": 2]
    /// print(try value.jsonString(options: [.pretty, .sorted]))
    /// // {
    /// //   "a": 2,
    /// //   "b": 1
    /// // }
    /// ```
    /// Each setting that an element changes from the default is taken; where
    /// two elements change the same setting, the later one wins. `[]` is the
    /// default, compact output.
    public init(arrayLiteral elements: JSONWritingOptions...) {
        self.init(prettyPrinted: false)
        for element in elements { formUnion(element) }
    }

    /// These options with every setting that `other` changes from the default.
    public func union(_ other: JSONWritingOptions) -> JSONWritingOptions {
        var combined = self
        combined.formUnion(other)
        return combined
    }

    /// Takes every setting that `other` changes from the default.
    public mutating func formUnion(_ other: JSONWritingOptions) {
        let standard = JSONWritingOptions()
        if other.prettyPrinted != standard.prettyPrinted { prettyPrinted = other.prettyPrinted }
        if other.indent != standard.indent { indent = other.indent }
        if other.sortedKeys != standard.sortedKeys { sortedKeys = other.sortedKeys }
        if other.escapesSlashes != standard.escapesSlashes { escapesSlashes = other.escapesSlashes }
        if other.references != standard.references { references = other.references }
        if other.maximumDepth != standard.maximumDepth { maximumDepth = other.maximumDepth }
    }

    /// Compact output that writes `/` as `\/` (for JSON inside HTML).
    public static let escapingSlashes = JSONWritingOptions(escapesSlashes: true)
    /// Models that appear more than once written once and referred to elsewhere.
    public static let sharedReferences = JSONWritingOptions(references: .shared)
}
