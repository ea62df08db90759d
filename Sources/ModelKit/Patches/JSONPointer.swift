/// A JSON Pointer (RFC 6901): the path of one value inside a JSON document,
/// as used by ``JSONPatch``.
///
/// A pointer is a list of *reference tokens*, each a member name or an array
/// index. Its text form is each token preceded by `/`, with `~` written `~0`
/// and `/` written `~1`; the empty text `""` points at the whole document.
///
/// ```swift
/// let pointer = try JSONPointer("/children/1/a~1b")
/// print(pointer.tokens)        // ["children", "1", "a/b"]
/// print(pointer)               // /children/1/a~1b
/// print(JSONPointer(tokens: ["m~n"]))   // /m~0n
/// ```
///
/// Whether a token is a member name or an index depends on the value it is
/// applied to: in an array, a token must be `0` or digits without a leading
/// zero, or `-`, which stands for the position after the last element (where
/// ``JSONPatch/Operation/add(path:value:)`` appends).
public struct JSONPointer: Sendable, Hashable, CustomStringConvertible {
    /// The reference tokens, outermost first, unescaped.
    public var tokens: [String]

    /// The pointer to the whole document (text `""`).
    public static let root = JSONPointer(tokens: [])

    /// A pointer made of `tokens`, which are taken as they are (no escapes).
    public init(tokens: [String]) {
        self.tokens = tokens
    }

    /// Parses the text form of a pointer.
    ///
    /// ```swift
    /// print(try JSONPointer("/a~0b/0").tokens)   // ["a~b", "0"]
    /// ```
    /// - Parameter text: `""`, or tokens each preceded by `/`, with `~0` for `~`
    ///   and `~1` for `/`.
    /// - Throws: ``ModelError`` with code ``ModelError/Code/malformedDocument``
    ///   when `text` does not start with `/` or has a `~` not followed by `0` or `1`.
    public init(_ text: String) throws {
        switch JSONPointer.parse(text) {
        case .success(let pointer): self = pointer
        case .failure(let failure):
            throw ModelError(
                code: .malformedDocument,
                message: "\(ModelValue.quoted(text)) is not a JSON Pointer: \(failure.reason)")
        }
    }

    /// Whether this pointer names the whole document.
    public var isRoot: Bool { tokens.isEmpty }

    /// The text form: `/children/1/title`; `""` for the root.
    public var description: String {
        var text = ""
        for token in tokens {
            text += "/"
            for character in token.unicodeScalars {
                switch character {
                case "~": text += "~0"
                case "/": text += "~1"
                default: text.unicodeScalars.append(character)
                }
            }
        }
        return text
    }

    /// This pointer followed by `token`.
    public func appending(_ token: String) -> JSONPointer {
        JSONPointer(tokens: tokens + [token])
    }

    /// Whether `other` points strictly inside the value this pointer names:
    /// `/a` is a proper prefix of `/a/b`, not of `/a` or `/ab`.
    public func isProperPrefix(of other: JSONPointer) -> Bool {
        other.tokens.count > tokens.count && other.tokens.starts(with: tokens)
    }

    /// Why a text is not a pointer.
    struct SyntaxError: Error {
        /// The reason, as a clause: `it must be empty or start with "/"`.
        let reason: String
    }

    /// The pointer of `text`, or the reason it is not one.
    static func parse(_ text: String) -> Result<JSONPointer, SyntaxError> {
        if text.isEmpty { return .success(.root) }
        guard text.unicodeScalars.first == "/" else {
            return .failure(SyntaxError(reason: "it must be empty or start with \"/\""))
        }
        var tokens: [String] = []
        var token = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.dropFirst().makeIterator()
        while let scalar = scalars.next() {
            switch scalar {
            case "/":
                tokens.append(String(token))
                token = String.UnicodeScalarView()
            case "~":
                switch scalars.next() {
                case "0": token.append("~")
                case "1": token.append("/")
                default:
                    return .failure(
                        SyntaxError(
                            reason: "\"~\" must be followed by 0 or 1 (\"~0\" stands for \"~\", \"~1\" for \"/\")"))
                }
            default: token.append(scalar)
            }
        }
        tokens.append(String(token))
        return .success(JSONPointer(tokens: tokens))
    }
}

extension JSONPointer {
    /// What an array reference token names.
    enum ArrayPosition: Equatable {
        /// An element's index (possibly past the end).
        case index(Int)
        /// `-`: the position after the last element.
        case end
    }

    /// The position `token` names in an array, or `nil` when it names none:
    /// RFC 6901 allows `0`, digits without a leading zero, and `-`.
    static func arrayPosition(_ token: String) -> ArrayPosition? {
        if token == "-" { return .end }
        let digits = token.utf8
        guard let first = digits.first, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        guard first != UInt8(ascii: "0") || digits.count == 1 else { return nil }
        // Digits too many for Int name an index past any array's end.
        return .index(Int(token) ?? Int.max)
    }
}
