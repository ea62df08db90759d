import Foundation

extension ModelValue {
    /// Reads a JSON text (RFC 8259) in UTF-8.
    ///
    /// The reader is strict: anything RFC 8259 does not allow is refused with a
    /// ``ModelError`` that gives the line, the column, the byte offset, the key
    /// path of the value being read, what was expected and what was found.
    ///
    /// ```swift
    /// let value = try ModelValue(json: Data(#"{"title":"Milk","count":2,"ratio":0.5}"#.utf8))
    /// print(value["count"] ?? "none")   // 2
    ///
    /// _ = try ModelValue(json: Data(#"{"children":[{},{"a":1 "b":2}]}"#.utf8))
    /// // JSON at line 1, column 24 (byte 23), in children[1]:
    /// //   expected ',' or '}' after object member, found '"'
    /// ```
    ///
    /// Where RFC 8259 leaves a choice, this reader:
    /// - skips a UTF-8 byte order mark at the very start (RFC 8259 §8.1 allows
    ///   that) and refuses one anywhere else;
    /// - accepts any value at the top level, not only arrays and objects;
    /// - reads integers that fit `Int` as ``int(_:)``, `-0` included (as 0);
    ///   other integers as ``bigInteger(_:)`` with their exact digits; and
    ///   anything with a fraction or an exponent as the nearest ``double(_:)``
    ///   (correctly rounded), refusing numbers too large for `Double` with
    ///   code ``ModelError/Code/numberOutOfRange``;
    /// - refuses `\u` escapes that leave a UTF-16 surrogate unpaired, since such
    ///   a string has no Unicode form (RFC 8259 §8.2), and ill-formed UTF-8
    ///   with code ``ModelError/Code/invalidUTF8``;
    /// - refuses repeated keys in an object unless
    ///   ``JSONReadingOptions/duplicateKeys`` says otherwise; and
    /// - refuses nesting deeper than ``JSONReadingOptions/maximumDepth`` with
    ///   code ``ModelError/Code/nestingTooDeep``.
    ///
    /// Dates and data have no JSON form of their own, so they read back as the
    /// strings they were written as.
    ///
    /// - Parameters:
    ///   - json: the document's bytes.
    ///   - options: the depth limit and the duplicate-key policy.
    /// - Throws: ``ModelError`` when the document is not valid JSON.
    public init(json: Data, options: JSONReadingOptions = JSONReadingOptions()) throws {
        self = try json.withUnsafeBytes { raw throws(ModelError) in
            var reader = JSONReader(raw.bindMemory(to: UInt8.self), options: options)
            return try reader.readDocument()
        }
        if options.keepsMemberText { attachMemberTexts(from: json, options: options) }
    }

    /// Reads a JSON text (RFC 8259) in UTF-8 from memory the caller owns, as
    /// ``init(json:options:)-(Data,_)`` does.
    ///
    /// ```swift
    /// let value = try bytes.withUnsafeBytes { try ModelValue(jsonBytes: $0) }
    /// ```
    ///
    /// - Parameters:
    ///   - jsonBytes: the document's bytes; they need not outlive the call.
    ///   - options: the depth limit and the duplicate-key policy.
    /// - Throws: ``ModelError`` when the document is not valid JSON.
    public init(jsonBytes: UnsafeRawBufferPointer, options: JSONReadingOptions = JSONReadingOptions()) throws {
        var reader = JSONReader(jsonBytes.bindMemory(to: UInt8.self), options: options)
        self = try reader.readDocument()
    }

    /// Checks that `json` is one JSON text that ``init(json:options:)-(Data,_)``
    /// would read, without building the value.
    ///
    /// The check is exactly as strict as reading (grammar, UTF-8, escapes and
    /// surrogate pairs, numbers that fit, repeated keys, depth) and throws
    /// the same error, with the same line, column and key path; it allocates
    /// almost nothing, so it suits a document that is only passed on.
    ///
    /// ```swift
    /// try ModelValue.validateJSON(Data(#"{"a":[1,2.5,"x"]}"#.utf8))   // passes
    /// try ModelValue.validateJSON(Data(#"{"a":1,"a":2}"#.utf8))
    /// // JSON at line 1, column 8 (byte 7): repeated key "a" in object …
    /// ```
    ///
    /// - Parameters:
    ///   - json: the document's bytes.
    ///   - options: the depth limit and the duplicate-key policy.
    /// - Throws: the ``ModelError`` that ``init(json:options:)-(Data,_)`` throws for the same bytes.
    public static func validateJSON(_ json: Data, options: JSONReadingOptions = JSONReadingOptions()) throws {
        // (A typed-throws closure returning Void crashes Swift 6.3.1's IR generation: return a value.)
        _ = try json.withUnsafeBytes { raw throws(ModelError) -> Bool in
            var reader = JSONReader(raw.bindMemory(to: UInt8.self), options: options)
            try reader.skipDocument()
            return true
        }
    }

    /// This value as JSON text in UTF-8.
    ///
    /// Objects keep their insertion order unless the options sort keys.
    /// Integers are written as integers and doubles as the shortest text that
    /// reads back as the same double, always with a fraction or an exponent
    /// (`1.0`, `1e+300`), so the output reads back as an equal value. Dates are
    /// written as ISO 8601 strings (`2025-11-16T15:33:20Z`), data as base64
    /// strings, and big integers as their digits.
    ///
    /// ```swift
    /// let value: ModelValue = ["name": "Ada", "ratio": 1.0, "tags": ["a/b"]]
    /// print(String(decoding: try value.jsonData(), as: UTF8.self))
    /// // {"name":"Ada","ratio":1.0,"tags":["a/b"]}
    /// ```
    ///
    /// - Parameter options: pretty printing, indentation, key order and slash escaping.
    /// - Returns: the JSON text.
    /// - Throws: ``ModelError`` with code ``ModelError/Code/notRepresentable``
    ///   and the value's key path (`children[1].ratio`) for an infinite or NaN
    ///   double, or a ``bigInteger(_:)`` whose text is not an integer.
    public func jsonData(options: JSONWritingOptions = JSONWritingOptions()) throws -> Data {
        var writer = try filledWriter(options: options)
        return writer.takeData()
    }

    /// This value as JSON text, as ``jsonData(options:)`` writes it.
    ///
    /// ```swift
    /// let value: ModelValue = ["b": 1, "a": [true, nil]]
    /// print(try value.jsonString(options: .sorted))   // {"a":[true,null],"b":1}
    /// ```
    ///
    /// - Parameter options: pretty printing, indentation, key order and slash escaping.
    /// - Returns: the JSON text.
    /// - Throws: ``ModelError`` as ``jsonData(options:)`` does.
    public func jsonString(options: JSONWritingOptions = JSONWritingOptions()) throws -> String {
        var writer = try filledWriter(options: options)
        return writer.takeString()
    }

    /// A writer holding this value's JSON; on failure its buffer is released.
    private func filledWriter(options: JSONWritingOptions) throws -> JSONWriter {
        var writer = JSONWriter(options: options)
        do {
            try writer.write(self)
        } catch {
            writer.deallocate()
            throw error
        }
        return writer
    }
}
