/// Settings for writing a ``ModelValue`` as JSON.
///
/// The default output is compact, keeps the keys of every object in their
/// insertion order, and escapes only what JSON requires: quotation marks,
/// backslashes and control characters. Text outside ASCII is written as
/// UTF-8, never as `\u` escapes.
///
/// ```swift
/// let value: ModelValue = ["b": [1, 2], "a": "x/y"]
/// print(try value.jsonString())                   // {"b":[1,2],"a":"x/y"}
/// print(try value.jsonString(options: .sorted))   // {"a":"x/y","b":[1,2]}
/// print(try value.jsonString(options: .pretty))
/// // {
/// //   "b": [
/// //     1,
/// //     2
/// //   ],
/// //   "a": "x/y"
/// // }
/// ```
public struct JSONWritingOptions: Sendable, Hashable {
    /// Whether to put each array element and object member on its own line,
    /// indented by ``indent`` spaces per level, with `": "` between a key and
    /// its value. Empty arrays and objects stay `[]` and `{}`.
    public var prettyPrinted: Bool
    /// Spaces per level of nesting when ``prettyPrinted`` is set; negative counts as zero.
    public var indent: Int
    /// Whether to write the keys of every object in ascending order of their
    /// UTF-8 bytes instead of their insertion order. Sorted output is stable,
    /// which suits files kept under version control and tests.
    public var sortedKeys: Bool
    /// Whether to write `/` as `\/`, for JSON embedded in HTML `<script>` elements.
    public var escapesSlashes: Bool
    /// Which models of a graph are written once and referred to elsewhere,
    /// when writing models; ``ReferencePolicy/cycles`` by default.
    public var references: ReferencePolicy
    /// The deepest nesting of arrays and objects written, and of models (each
    /// model is at least one level); 512 by default, the readers' default
    /// limit. Raise it together with ``JSONReadingOptions/maximumDepth``, so
    /// that what is written can be read back: ModelKit never writes what a
    /// reader with the same limit refuses.
    public var maximumDepth: Int

    /// Creates writing options.
    /// - Parameters:
    ///   - prettyPrinted: one element or member per line, indented; `false` by default.
    ///   - indent: spaces per level when pretty-printing; 2 by default.
    ///   - sortedKeys: keys in ascending byte order; `false` (insertion order) by default.
    ///   - escapesSlashes: write `/` as `\/`; `false` by default.
    ///   - references: which models of a graph are written once and referred
    ///     to elsewhere; only where cycles need it by default.
    ///   - maximumDepth: the deepest nesting written; 512 by default, as for reading.
    public init(
        prettyPrinted: Bool = false, indent: Int = 2, sortedKeys: Bool = false, escapesSlashes: Bool = false,
        references: ReferencePolicy = .cycles, maximumDepth: Int = 512
    ) {
        self.maximumDepth = maximumDepth
        self.prettyPrinted = prettyPrinted
        self.indent = indent
        self.sortedKeys = sortedKeys
        self.escapesSlashes = escapesSlashes
        self.references = references
    }

    /// The default options: compact output in insertion order.
    public init() {
        self.init(prettyPrinted: false)
    }

    /// Compact output in insertion order: the default.
    public static let compact = JSONWritingOptions()
    /// Pretty-printed output with two-space indentation, in insertion order.
    public static let pretty = JSONWritingOptions(prettyPrinted: true)
    /// Compact output with sorted keys.
    public static let sorted = JSONWritingOptions(sortedKeys: true)
}
