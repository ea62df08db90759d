/// Where in a model or document a value sits: `children[1].count`.
///
/// Error messages name the failing value by its key path. Keys that are plain
/// identifiers join with dots; other keys are quoted in brackets
/// (`tags["a.b"]`), and array elements show their index (`children[1]`).
public struct ModelKeyPath: Hashable, Sendable, CustomStringConvertible {
    /// One step of a key path.
    public enum Component: Hashable, Sendable {
        /// A key of an object or a model.
        case key(String)
        /// A position in an array.
        case index(Int)
    }

    /// The steps from the root, outermost first.
    public var components: [Component]

    /// The empty key path: the root value itself.
    public init() { components = [] }

    /// A key path of the given steps.
    public init(_ components: [Component]) { self.components = components }

    /// Parses a dotted key path such as `children.1.title` or `children[1].title`.
    /// A component made of digits alone is an index.
    public init(parsing text: String) {
        var components: [Component] = []
        for part in text.split(separator: ".", omittingEmptySubsequences: false) {
            var rest = Substring(part)
            if let bracket = rest.firstIndex(of: "[") {
                let head = rest[..<bracket]
                if !head.isEmpty { components.append(Self.component(head)) }
                rest = rest[bracket...]
                while rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
                    let inner = rest[rest.index(after: rest.startIndex)..<close]
                    if let index = Int(inner) {
                        components.append(.index(index))
                    } else {
                        components.append(.key(String(inner).trimmingQuotes()))
                    }
                    rest = rest[rest.index(after: close)...]
                }
                if !rest.isEmpty { components.append(.key(String(rest))) }
            } else {
                components.append(Self.component(rest))
            }
        }
        self.components = components
    }

    private static func component(_ text: Substring) -> Component {
        if !text.isEmpty, text.allSatisfy(\.isASCIIDigit), let index = Int(text) { return .index(index) }
        return .key(String(text))
    }

    /// Whether this is the root.
    public var isEmpty: Bool { components.isEmpty }

    /// This key path with `component` added at the front.
    public func prepending(_ component: Component) -> ModelKeyPath {
        var copy = self
        copy.components.insert(component, at: 0)
        return copy
    }

    /// This key path with `component` added at the end.
    public func appending(_ component: Component) -> ModelKeyPath {
        var copy = self
        copy.components.append(component)
        return copy
    }

    /// `children[1].count`; the root is the empty string.
    ///
    /// A path of more than 12 components is shortened in the middle, so that
    /// an error deep in a document stays readable:
    /// `extra[0][0][0][0]…(4991 more)…[0][0][0]`.
    public var description: String {
        guard components.count > 12 else { return Self.text(of: components[...]) }
        let head = Self.text(of: components.prefix(5))
        let tail = Self.text(of: components.suffix(4), following: true)
        return head + "…(\(components.count - 9) more)…" + tail
    }

    /// The text of `components`; `following` when they continue a path
    /// (a plain key then takes its `.`).
    private static func text(of components: ArraySlice<Component>, following: Bool = false) -> String {
        var text = ""
        for component in components {
            switch component {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key):
                if isPlain(key) {
                    if !text.isEmpty || following { text += "." }
                    text += key
                } else {
                    text += "[" + ModelValue.quoted(key) + "]"
                }
            }
        }
        return text
    }

    private static func isPlain(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return key.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || scalar == "_" || scalar == "$" || scalar == "-"
        }
    }
}

extension ModelKeyPath: ExpressibleByStringLiteral {
    /// A value from a string literal.
    public init(stringLiteral value: String) { self.init(parsing: value) }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

extension String {
    fileprivate func trimmingQuotes() -> String {
        guard count >= 2, first == "\"", last == "\"" else { return self }
        return String(dropFirst().dropLast())
    }
}
