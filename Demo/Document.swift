import Foundation
import ModelKit

/// A document a command read: its bytes, their format, its value, and where
/// it came from.
struct Document {
    let place: Place
    let data: Data
    let format: ModelDocumentFormat
    let value: ModelValue

    /// Where a document is read or written: a file, named in messages as
    /// its user typed it, or standard input or output (`-`).
    enum Place: Equatable {
        case file(URL, typed: String)
        case standard

        /// The place an argument names; `-` is standard input or output.
        init(_ argument: String, of command: Command) throws {
            if argument == "-" {
                self = .standard
                return
            }
            guard !argument.isEmpty else { throw UsageError("a FILE cannot be an empty path", command: command) }
            let url = URL(fileURLWithPath: argument)
            Commands.typedPaths[url.path] = argument
            self = .file(url, typed: argument)
        }

        var isStandard: Bool { self == .standard }

        /// The name for messages about reading: the path as typed, or `standard input`.
        var inputName: String {
            switch self {
            case .file(_, let typed): typed
            case .standard: "standard input"
            }
        }

        /// The name for messages about writing: the path as typed, or `standard output`.
        var outputName: String {
            switch self {
            case .file(_, let typed): typed
            case .standard: "standard output"
            }
        }
    }

    /// Reads the document at `place`, whatever its format, any value at its root.
    /// - Throws: ``ModelError`` naming the file, or ``Failure`` naming
    ///   standard input, for a document that cannot be read.
    static func read(_ place: Place) throws -> Document {
        switch place {
        case .file(let url, let typed):
            // Read once, so that a pipe (`<(command)`) reads as a file does.
            // When the bytes cannot be read, ModelValue's reader says why.
            guard let data = try? readAll(url) else {
                _ = try ModelValue(contentsOf: url)
                throw Failure("\(typed): the file could not be read")
            }
            guard !data.isEmpty else {
                throw ModelError(code: .malformedDocument, message: "the file is empty", file: url)
            }
            let detected = ModelDocumentFormat(detecting: data).map { Document.format($0, of: data) }
            if detected == nil, (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
                // ModelValue's reader says what the file starts with.
                _ = try ModelValue(contentsOf: url)
            }
            // A pipe in no known format, which cannot be read again, is read
            // as JSON, whose reader says what it found at line 1, column 1.
            let format = detected ?? .json
            let value = try attributing(to: place) {
                if case .json = format { return try ModelValue(json: data, options: Document.keepingText) }
                if ModelValue.isKeyedArchive(data) { return try archivedValue(data) }
                return try ModelValue(propertyList: data)
            }
            return Document(place: place, data: data, format: format, value: value)
        case .standard:
            let data = (try FileHandle.standardInput.readToEnd()) ?? Data()
            guard !data.isEmpty else { throw Failure("standard input: it is empty") }
            // What is in no known format is read as JSON, whose reader says
            // what it found at line 1, column 1.
            let format = ModelDocumentFormat(detecting: data).map { Document.format($0, of: data) } ?? .json
            let value = try attributing(to: place) {
                if case .json = format { return try ModelValue(json: data, options: Document.keepingText) }
                if ModelValue.isKeyedArchive(data) { return try archivedValue(data) }
                return try ModelValue(propertyList: data)
            }
            return Document(place: place, data: data, format: format, value: value)
        }
    }

    /// The format `detected` from `data`'s first bytes, made a keyed archive
    /// when the property list is one, so that it is saved back as one.
    private static func format(_ detected: ModelDocumentFormat, of data: Data) -> ModelDocumentFormat {
        if case .json = detected { return detected }
        return ModelValue.isKeyedArchive(data) ? .keyedArchive : detected
    }

    /// The value of a keyed archive: of plain values, or else of a model
    /// of a class the Demo knows (its saved form, naming its class).
    private static func archivedValue(_ data: Data) throws -> ModelValue {
        do {
            return try ModelValue(keyedArchive: data)
        } catch {
            for type in DemoModels.all {
                if let model = try? DemoModels.model(of: type, keyedArchive: data) { return model.modelValue }
            }
            throw error
        }
    }

    /// The bytes of the file at `url`, read to its end (a pipe too).
    private static func readAll(_ url: URL) throws -> Data {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        return try handle.readToEnd() ?? Data()
    }

    /// The class the document names under its type key, read as the Demo
    /// reads it: `nil` for a class the Demo does not know, a type key that is
    /// not a string, or a document that is not an object; ``DemoModels/standard``
    /// for an object that names none.
    var knownClass: ModelObject.Type? {
        guard case .object(let members) = value else { return nil }
        guard let typeKey = ModelObject.typeKey, let named = members[typeKey] else { return DemoModels.standard }
        guard case .string(let name) = named else { return nil }
        return DemoModels.named(name)
    }

    /// The format to write this document back in: its own, and for JSON
    /// its layout (pretty when it spans lines, compact when it is one line).
    var formatKeepingLayout: ModelDocumentFormat {
        guard case .json = format else { return format }
        // Lines inside the value (not only a newline at the end): pretty.
        let trimmed = data.reversed().drop { $0 == 0x0A || $0 == 0x0D || $0 == 0x20 || $0 == 0x09 }
        return trimmed.contains(0x0A) ? .json(.pretty) : format
    }

    /// Whether the document is an object whose type key names a class.
    var namesClass: Bool {
        guard case .object(let members) = value, let typeKey = ModelObject.typeKey else { return false }
        return members[typeKey] != nil
    }

    /// Reading options that keep the text of members (`1.10` stays `1.10`).
    static let keepingText: JSONReadingOptions = {
        var options = JSONReadingOptions()
        options.keepsMemberText = true
        return options
    }()

    /// The document loaded as an object of `type`.
    /// - Throws: ``ModelError`` naming the key path of the first bad value.
    func model(of type: ModelObject.Type) throws -> ModelObject {
        try Document.attributing(to: place) {
            if case .json = format { return try type.init(json: data) }
            if case .keyedArchive = format { return try DemoModels.model(of: type, keyedArchive: data) }
            return try type.init(propertyList: data)
        }
    }

    /// Writes `content` to `place` in `format`: a file atomically and
    /// durably, through the library's writer, or standard output (JSON with
    /// a newline at its end).
    /// - Returns: the size of what was written, in bytes.
    @discardableResult
    static func write(_ content: Content, to place: Place, format: ModelDocumentFormat) throws -> Int {
        switch place {
        case .file(let url, _):
            switch content {
            case .value(let value): try value.write(to: url, format: format)
            case .model(let model): try model.write(to: url, format: format)
            }
            return (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        case .standard:
            var data: Data
            switch (content, format) {
            case (.value(let value), .json(let options)): data = try value.jsonData(options: options)
            case (.value(let value), .xmlPropertyList): data = try value.propertyListData(format: .xml)
            case (.value(let value), .binaryPropertyList): data = try value.propertyListData(format: .binary)
            case (.value(let value), .keyedArchive): data = try value.keyedArchiveData()
            case (.model(let model), _):
                // What write(to:) checks before writing a file.
                try model.validate()
                switch format {
                case .json(let options): data = try model.jsonData(options: options)
                case .xmlPropertyList: data = try model.propertyListData(format: .xml)
                case .binaryPropertyList: data = try model.propertyListData(format: .binary)
                case .keyedArchive(let style): data = try model.keyedArchiveData(style: style)
                }
            }
            if case .json = format { data.append(UInt8(ascii: "\n")) }
            FileHandle.standardOutput.write(data)
            return data.count
        }
    }

    /// What a command writes: a value, or a model (which writes its bag's
    /// members as they were read).
    enum Content {
        case value(ModelValue)
        case model(ModelObject)
    }

    /// Runs `body`, naming `place` in the ``ModelError`` it throws.
    static func attributing<Result>(to place: Place, _ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch var error as ModelError {
            switch place {
            case .file(let url, _):
                error.file = url
                throw error
            case .standard:
                error.file = URL(fileURLWithPath: "-")
                throw Failure(error.description(namingFileAs: place.inputName))
            }
        }
    }
}
