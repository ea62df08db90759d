/// Settings for reading JSON into a ``ModelValue``.
///
/// The defaults follow RFC 8259 strictly and protect the reader against
/// hostile input: nesting deeper than 512 arrays and objects is refused, and
/// an object that repeats a key is refused too, because the two members
/// would have to be merged silently.
///
/// ```swift
/// let options = JSONReadingOptions(maximumDepth: 64, duplicateKeys: .lastWins)
/// let value = try ModelValue(json: Data(#"{"a":1,"a":2}"#.utf8), options: options)
/// print(value)   // {"a":2}
/// ```
public struct JSONReadingOptions: Sendable, Hashable {
    /// What the reader does when an object repeats a key.
    ///
    /// RFC 8259 says the names in an object *should* be unique and leaves the
    /// behaviour for repeats to each implementation; parsers disagree, so a
    /// document with repeated keys means different things to different
    /// programs. Two keys repeat when their text is the same, Unicode scalar
    /// for scalar (RFC 8259 §8.3): `"é"` and `"e\u0301"` do not.
    public enum DuplicateKeyPolicy: Sendable, Hashable {
        /// Throw a ``ModelError`` with code ``ModelError/Code/malformedDocument``
        /// that names the repeated key and where it appears. The default.
        case reject
        /// Keep the key at its first position with the value of its last
        /// occurrence, as `ModelValue.Object`'s own initialiser does.
        case lastWins
    }

    /// The deepest nesting of arrays and objects accepted; deeper documents
    /// throw a ``ModelError`` with code ``ModelError/Code/nestingTooDeep``.
    /// The reader itself never recurses, but code that walks the resulting
    /// tree usually does, so keep this bounded.
    public var maximumDepth: Int

    /// What to do when an object repeats a key. Defaults to ``DuplicateKeyPolicy/reject``.
    public var duplicateKeys: DuplicateKeyPolicy

    /// Whether ``ModelValue/init(json:options:)-(Data,_)`` keeps, for each object
    /// member whose value holds a number or string that JSON can spell
    /// another way (`1.10`, a 30-digit decimal, `-0`, `1E2`, an escape),
    /// the text it was read from, so that ``ModelValue/jsonData(options:)``
    /// writes the member back as it came. `false` by default, which reads
    /// faster. Every other use of the value sees the value: equality,
    /// property lists, dictionaries; changing a member's value drops its
    /// text. Models always keep the text of the members they do not save,
    /// whatever this says.
    ///
    /// ```swift
    /// var options = JSONReadingOptions()
    /// options.keepsMemberText = true
    /// let value = try ModelValue(json: Data(#"{"w":1.10}"#.utf8), options: options)
    /// print(String(decoding: try value.jsonData(), as: UTF8.self))   // {"w":1.10}
    /// ```
    public var keepsMemberText = false

    /// Creates reading options.
    /// - Parameters:
    ///   - maximumDepth: the deepest nesting of arrays and objects accepted; 512 by default.
    ///   - duplicateKeys: what to do when an object repeats a key; ``DuplicateKeyPolicy/reject`` by default.
    public init(maximumDepth: Int = 512, duplicateKeys: DuplicateKeyPolicy = .reject) {
        self.maximumDepth = maximumDepth
        self.duplicateKeys = duplicateKeys
    }
}
