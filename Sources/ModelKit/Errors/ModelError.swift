import Foundation

/// The one error that ModelKit throws.
///
/// Its ``description`` is a sentence a person can act on: the key path of the
/// value that failed, what was expected and what was found, and for documents
/// the line and column.
///
/// ```swift
/// do {
///     _ = try Note(json: Data(#"{"children":[{},{"count":"three"}]}"#.utf8))
/// } catch let error as ModelError {
///     print(error)
///     // children[1].count: expected Int, found a string ("three")
/// }
/// ```
///
/// Match on ``code`` to handle a kind of failure, and read ``keyPath`` and
/// ``location`` for where it happened.
public struct ModelError: Error, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code as text.
        public let rawValue: String
        /// A code with the text `rawValue`.
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// A readable description.
        public var description: String { rawValue }

        /// A value of the wrong kind: a string where an integer was expected.
        public static let typeMismatch = Code("typeMismatch")
        /// A value of the right kind that is not acceptable: a colour component of 1.5.
        public static let invalidValue = Code("invalidValue")
        /// A number that does not fit the type it is read into.
        public static let numberOutOfRange = Code("numberOutOfRange")
        /// A document that breaks its format's grammar.
        public static let malformedDocument = Code("malformedDocument")
        /// A document nested deeper than the reader's limit.
        public static let nestingTooDeep = Code("nestingTooDeep")
        /// Bytes that are not valid UTF-8 where text was expected.
        public static let invalidUTF8 = Code("invalidUTF8")
        /// A `"type"` naming no class that ModelKit knows.
        public static let unknownType = Code("unknownType")
        /// A `"type"` naming a class that is not allowed where it appears.
        public static let typeNotAllowed = Code("typeNotAllowed")
        /// A value that has no form in the format being written: an infinite
        /// number in JSON.
        public static let notRepresentable = Code("notRepresentable")
        /// A key path that names nothing.
        public static let unknownKey = Code("unknownKey")
        /// Data written by a newer version than the class can read, or an
        /// upgrade step that failed.
        public static let versionMismatch = Code("versionMismatch")
        /// A class whose `@Saved` declarations are inconsistent.
        public static let invalidDeclaration = Code("invalidDeclaration")
        /// A file that does not exist.
        public static let fileNotFound = Code("fileNotFound")
        /// A file that exists but could not be read or written.
        public static let fileAccess = Code("fileAccess")
        /// A file whose format could not be recognised or chosen.
        public static let unknownFormat = Code("unknownFormat")
        /// A JSON Patch `test` operation that found a value other than the
        /// one it expected (see ``JSONPatch``).
        public static let testFailed = Code("testFailed")
        /// Input that asks for more than a limit allows: a patch whose copies
        /// would make a document grow past ``JSONPatch/Limits``.
        public static let limitExceeded = Code("limitExceeded")
        /// A three-way merge whose sides disagree, under
        /// ``MergePolicy/fail``; ``ModelError/mergeConflicts`` lists them.
        public static let mergeConflict = Code("mergeConflict")
        /// A JSON Lines file that ends in a torn line: lines being added
        /// when the process or the machine stopped, cut short or left as
        /// zero bytes (see ``JSONLines/TornTail``).
        public static let tornTail = Code("tornTail")
    }

    /// Where in a document the failure was found.
    public struct Location: Hashable, Sendable, CustomStringConvertible {
        /// 1-based line number.
        public var line: Int
        /// 1-based column, counted in Unicode scalars.
        public var column: Int
        /// 0-based offset in bytes from the start of the document.
        public var byteOffset: Int

        /// A location from its line, column and byte offset.
        public init(line: Int, column: Int, byteOffset: Int) {
            self.line = line
            self.column = column
            self.byteOffset = byteOffset
        }

        /// Finds the line and column of `byteOffset` in `bytes`.
        public init(byteOffset: Int, in bytes: UnsafeBufferPointer<UInt8>) {
            var line = 1
            var lineStart = 0
            let end = min(byteOffset, bytes.count)
            var index = 0
            while index < end {
                if bytes[index] == 0x0A {
                    line += 1
                    lineStart = index + 1
                }
                index += 1
            }
            var column = 1
            index = lineStart
            while index < end {
                // Count scalars: skip UTF-8 continuation bytes.
                if bytes[index] & 0xC0 != 0x80 { column += 1 }
                index += 1
            }
            self.init(line: line, column: column, byteOffset: byteOffset)
        }

        /// A readable description.
        public var description: String { "line \(line), column \(column) (byte \(byteOffset))" }
    }

    /// What kind of failure this is.
    public var code: Code
    /// The key path of the value that failed; empty for the root.
    public var keyPath: ModelKeyPath
    /// For documents, where the failure was found.
    public var location: Location?
    /// The document format (`"JSON"`, `"property list"`), when a document failed to read.
    public var format: String?
    /// The file involved, for file errors and documents read from files.
    public var file: URL?
    /// The failure without its key path and location: `expected Int, found a string ("three")`.
    public var message: String
    /// The failures an error from `validate()` combines (see ``failures``).
    var combined: [ModelError] = []
    /// The unknown keys an error of a class that rejects them names (see
    /// `ModelError+UnknownKeys.swift`); empty for other errors.
    var unknownKeys: [UnknownKey] = []
    /// The conflicts of the merge that failed (see `ModelError+Merge.swift`);
    /// empty for other errors.
    var conflicts: [MergeConflict] = []

    /// Creates an error; conformances to ``ModelValueConvertible`` usually call
    /// ``typeMismatch(expected:found:)`` or ``invalidValue(_:)`` instead.
    public init(
        code: Code, message: String, keyPath: ModelKeyPath = ModelKeyPath(),
        location: Location? = nil, format: String? = nil, file: URL? = nil
    ) {
        self.code = code
        self.message = message
        self.keyPath = keyPath
        self.location = location
        self.format = format
        self.file = file
    }

    /// The full sentence: `children[1].count: expected Int, found a string ("three")`,
    /// or for documents `JSON at line 3, column 17 (byte 52), in children[1]: expected ',' or '}' after object member`.
    public var description: String {
        description(namingFileAs: file.map { $0.lastPathComponent.isEmpty ? $0.path : $0.lastPathComponent })
    }

    /// The full sentence with the file named as `name`: a command-line tool
    /// names the path as its user typed it (`../notes/x.json`), where
    /// ``description`` names the file's last component.
    ///
    /// ```swift
    /// let url = URL(fileURLWithPath: "/nonexistent/x.json")
    /// do { _ = try Note(contentsOf: url) } catch let error as ModelError {
    ///     print(error.description(namingFileAs: "/nonexistent/x.json"))   // /nonexistent/x.json: no such file
    /// }
    /// ```
    public func description(namingFileAs name: String?) -> String {
        var context: [String] = []
        if file != nil, let name { context.append(name) }
        if let location {
            context.append((format.map { "\($0) at " } ?? "at ") + location.description)
        } else if let format, code == .malformedDocument || code == .invalidUTF8 || code == .nestingTooDeep {
            context.append(format)
        }
        if !keyPath.isEmpty {
            context.append(location == nil && context.isEmpty ? keyPath.description : "in \(keyPath)")
        }
        return context.isEmpty ? message : context.joined(separator: ", ") + ": " + message
    }

    /// The code and the description, for debugging.
    public var debugDescription: String { "ModelError.\(code)(\(description))" }

    /// This error with `component` added at the front of its key path; used by
    /// containers to say which element or key failed.
    public func prepending(_ component: ModelKeyPath.Component) -> ModelError {
        var copy = self
        copy.keyPath = keyPath.prepending(component)
        if !unknownKeys.isEmpty {
            for index in copy.unknownKeys.indices {
                copy.unknownKeys[index].path = copy.unknownKeys[index].path.prepending(component)
            }
            copy.describeUnknownKeys()
        }
        return copy
    }

    /// This error with `prefix` added at the front of its key path.
    public func prepending(_ prefix: ModelKeyPath) -> ModelError {
        var copy = self
        copy.keyPath = ModelKeyPath(prefix.components + keyPath.components)
        if !unknownKeys.isEmpty {
            for index in copy.unknownKeys.indices {
                copy.unknownKeys[index].path = ModelKeyPath(prefix.components + copy.unknownKeys[index].path.components)
            }
            copy.describeUnknownKeys()
        }
        return copy
    }
}

extension ModelError {
    /// A value of the wrong kind: `expected Int, found a string ("three")`.
    /// - Parameters:
    ///   - expected: what the reader wanted, as a type name or a phrase.
    ///   - found: the value it got.
    public static func typeMismatch(expected: String, found: ModelValue) -> ModelError {
        ModelError(code: .typeMismatch, message: "expected \(expected), found \(found.excerpt)")
    }

    /// A value of the right kind that is not acceptable; `message` says why.
    public static func invalidValue(_ message: String) -> ModelError {
        ModelError(code: .invalidValue, message: message)
    }

    /// A number that does not fit: `expected Int8, found 300, which is out of range`.
    public static func numberOutOfRange(expected: String, found: ModelValue) -> ModelError {
        let text: String =
            switch found {
            case .int(let value): String(value)
            case .bigInteger(let digits): digits
            case .double(let value): "\(value)"
            default: found.excerpt
            }
        return ModelError(
            code: .numberOutOfRange, message: "expected \(expected), found \(text), which does not fit")
    }

    /// A document that breaks its grammar at `location`.
    public static func malformed(
        _ format: String, _ message: String, at location: Location?, keyPath: ModelKeyPath = ModelKeyPath()
    ) -> ModelError {
        ModelError(code: .malformedDocument, message: message, keyPath: keyPath, location: location, format: format)
    }
}

extension ModelError: LocalizedError {
    /// The description, for `LocalizedError`.
    public var errorDescription: String? { description }
}
