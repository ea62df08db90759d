import Foundation

/// The error of data that holds keys a class with ``UnknownKeyPolicy/reject``
/// does not save.
///
/// One error names every unknown key: decoding records each one and goes on
/// with the other members (and the other elements of arrays and
/// dictionaries), so the error of a document lists all of them, in document
/// order. Its key path and, for JSON, its location are the first key's; its
/// message names the first key, then the paths of the others, then what
/// each class involved saves:
///
/// `in titel: unknown key "titel": Config saves title, count`
///
/// `in titel: unknown key "titel", and 2 more (cuont, child.colr): Config saves title, count; Child saves colour`
///
/// Each container that the error passes through prepends its key or index
/// to every key, so the message is made again at each step.
extension ModelError {
    /// One unknown key: where it is and what its class saves.
    struct UnknownKey: Sendable {
        /// The key's path, relative to the error's root.
        var path: ModelKeyPath
        /// The class that does not save it.
        var className: String
        /// The keys that class saves, in order.
        var savedKeys: [String]
    }

    /// The error for `keys`, which must not be empty.
    static func rejecting(_ keys: [UnknownKey]) -> ModelError {
        var error = ModelError(code: .unknownKey, message: "")
        error.unknownKeys = keys
        error.describeUnknownKeys()
        return error
    }

    /// The error for the unknown `keys` (in data order) of an object of `layout`'s class.
    static func rejecting(_ keys: [String], of layout: ClassLayout) -> ModelError {
        let className = "\(layout.type)"
        let saved = layout.savedOrder.map { layout.slots[$0].key }
        return rejecting(keys.map { UnknownKey(path: ModelKeyPath([.key($0)]), className: className, savedKeys: saved) })
    }

    /// Whether this error reports unknown keys that a class rejects.
    var rejectsUnknownKeys: Bool { !unknownKeys.isEmpty }

    /// This error, which rejects unknown keys, with those of `other` after its own.
    func adding(_ other: ModelError) -> ModelError {
        var merged = self
        merged.unknownKeys += other.unknownKeys
        merged.describeUnknownKeys()
        return merged
    }

    /// This error with its unknown keys in the order of their key paths'
    /// text, for data that has no order of its own (a dictionary).
    func sortingUnknownKeys() -> ModelError {
        guard unknownKeys.count > 1 else { return self }
        var sorted = self
        sorted.unknownKeys.sort { $0.path.description.utf8.lexicographicallyPrecedes($1.path.description.utf8) }
        sorted.describeUnknownKeys()
        return sorted
    }

    /// Sets the key path, message and separate failures from `unknownKeys`.
    mutating func describeUnknownKeys() {
        guard let first = unknownKeys.first, case .key(let firstKey)? = first.path.components.last else { return }
        keyPath = first.path
        var text = "unknown key \(ModelValue.quoted(firstKey))"
        if unknownKeys.count > 1 {
            text += ", and \(unknownKeys.count - 1) more ("
            text += unknownKeys.dropFirst().map(\.path.description).joined(separator: ", ") + ")"
        }
        var classes: [String] = []
        var described: Set<String> = []
        for key in unknownKeys where described.insert(key.className).inserted {
            classes.append("\(key.className) saves \(Self.list(key.savedKeys))")
        }
        message = text + ": " + classes.joined(separator: "; ")
        combined =
            unknownKeys.count > 1
            ? unknownKeys.map { ModelError.rejecting([$0]) }
            : []
    }

    /// `title, count, tags`, at most twelve keys, or `no keys`.
    private static func list(_ keys: [String]) -> String {
        guard !keys.isEmpty else { return "no keys" }
        let shown = keys.prefix(12).map { ModelKeyPath([.key($0)]).description }.joined(separator: ", ")
        return keys.count > 12 ? shown + ", and \(keys.count - 12) more" : shown
    }

    /// This error with, when it rejects unknown keys and has no location
    /// yet, the line and column of the first key in `json`, the document
    /// it was read from.
    func locatingUnknownKeys(inJSON json: Data, options: JSONReadingOptions = JSONReadingOptions()) -> ModelError {
        guard let first = unknownKeys.first, location == nil else { return self }
        let found: Location? = json.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard let offset = JSONReader.offset(ofKeyAt: first.path, in: bytes, options: options) else { return nil }
            return Location(byteOffset: offset, in: bytes)
        }
        guard let found else { return self }
        var located = self
        located.location = found
        located.format = "JSON"
        return located
    }
}

/// Collects the unknown-key errors of the members or elements of one value,
/// so that decoding goes on past them and reports them together.
///
/// The first error of any other kind stops decoding: it is thrown, unless
/// unknown keys came before it, whose error is thrown instead (the first
/// failure in the data wins).
struct UnknownKeyErrors {
    private var error: ModelError?

    /// Keeps `error`, thrown by the value at `component`, when it rejects
    /// unknown keys; throws otherwise.
    mutating func record(_ error: ModelError, at component: ModelKeyPath.Component) throws(ModelError) {
        try record(error.prepending(component))
    }

    /// Keeps `error` when it rejects unknown keys; throws otherwise.
    mutating func record(_ error: ModelError) throws(ModelError) {
        guard error.rejectsUnknownKeys else { throw self.error ?? error }
        self.error = self.error.map { $0.adding(error) } ?? error
    }

    /// Throws the collected error, if any.
    func throwIfAny() throws(ModelError) {
        if let error { throw error }
    }
}
