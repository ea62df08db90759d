/// The models of one document being decoded, by the `"$id"` they carry, so
/// that `{"$ref": "<id>"}` members elsewhere in the document become the very
/// same object (see ``ReferencePolicy``).
///
/// A document's references may come before their definition (keys sorted
/// when written, dictionaries in no order, a weak reference to a model
/// written later): a reference to an id not yet defined makes the object at
/// once, of the class the reference expects, and the definition then fills
/// it; a weak reference instead gets an empty box, which the definition
/// fills with its model, whatever registered subclass it is. Ids still undefined when the document ends
/// are errors; the document is decoded once more knowing them, so that the
/// error names the key path of the first reference to one.
///
/// One table serves the whole document: nested models decoded during it
/// share it, on the thread that decodes.
final class DecodingReferences {
    final class Holder {
        var table: DecodingReferences?
    }
    private static let storage = ThreadLocal { Holder() }
    /// This thread's holder, if it has one yet.
    static var existingHolder: Holder? { storage.existingValue }
    /// Makes `holder` this thread's (a thread continuing another's work).
    static func install(_ holder: Holder) { storage.install(holder) }

    private struct Entry {
        let object: ModelObject
        var isDefined: Bool
    }
    private var entries: [String: Entry] = [:]
    /// Weak references read before the model they name, by its id.
    private var waiting: [String: [WaitingReference]] = [:]

    /// A weak reference's box, waiting for the model with its id.
    private struct WaitingReference {
        let box: WeakBox
        /// Whether a model is of the class the reference's property holds.
        let accepts: (ModelObject) -> Bool
        let expected: String
    }
    /// On the second run: the ids no model defines.
    private var undefined: Set<String> = []

    /// The table of the document being decoded on this thread, if any.
    static var current: DecodingReferences? { storage.value.table }

    /// Runs `body`, which decodes a document or a part of one, with a table:
    /// the current one when a document is already being decoded, else a new
    /// one for this document, checked for undefined ids at the end.
    static func decoding<Result>(_ body: () throws -> Result) throws -> Result {
        let holder = storage.value
        if holder.table != nil { return try body() }
        let table = DecodingReferences()
        holder.table = table
        defer { holder.table = nil }
        let result = try body()
        let missing = table.entries.filter { !$0.value.isDefined }.map(\.key) + table.waiting.keys
        guard !missing.isEmpty else { return result }
        // Again, knowing the undefined ids: the first reference to one throws
        // with its key path. (Decoding changes nothing before it succeeds.)
        let strict = DecodingReferences()
        strict.undefined = Set(missing)
        holder.table = strict
        _ = try body()
        throw ModelError(
            code: .invalidValue,
            message: "the document refers to \(missing.sorted().map { "\"\($0)\"" }.joined(separator: ", ")) "
                + "with \"$ref\", but no model in it has that \"$id\"")
    }

    /// The object that `{"$ref": id}` stands for, where a `type` is expected:
    /// the model defined with that id, or, before its definition, a new
    /// object of `type` that the definition fills.
    /// - Throws: ``ModelError`` (relative to the reference) for an id no model
    ///   defines, or one that names a model of another class.
    func object<Model: ModelObject>(for id: String, as type: Model.Type) throws -> Model {
        guard !undefined.contains(id) else {
            throw ModelError(
                code: .invalidValue, message: "no model in the document has the id \"\(id)\"",
                keyPath: ModelKeyPath([.key(ReferenceKeys.ref)]))
        }
        if let entry = entries[id] {
            guard let model = entry.object as? Model else {
                throw ModelError(
                    code: .typeMismatch,
                    message: "the id \"\(id)\" names a \(Swift.type(of: entry.object)), where a \(type) is expected",
                    keyPath: ModelKeyPath([.key(ReferenceKeys.ref)]))
            }
            return model
        }
        let model = type.init()
        entries[id] = Entry(object: model, isDefined: false)
        return model
    }

    /// The box of a weak reference `{"$ref": id}` to a `type`: holding the
    /// model with that id when it has been read (or made for an earlier
    /// reference), else empty until the model is defined.
    /// - Throws: ``ModelError`` (relative to the reference) for an id no
    ///   model defines, or one that names a model of another class.
    func weakBox<Model: ModelObject>(for id: String, as type: Model.Type) throws -> WeakBox {
        guard !undefined.contains(id) else {
            throw ModelError(
                code: .invalidValue, message: "no model in the document has the id \"\(id)\"",
                keyPath: ModelKeyPath([.key(ReferenceKeys.ref)]))
        }
        if let entry = entries[id] {
            guard entry.object is Model else {
                throw ModelError(
                    code: .typeMismatch,
                    message: "the id \"\(id)\" names a \(Swift.type(of: entry.object)), where a \(type) is expected",
                    keyPath: ModelKeyPath([.key(ReferenceKeys.ref)]))
            }
            return WeakBox(entry.object)
        }
        let box = WeakBox()
        waiting[id, default: []].append(WaitingReference(box: box, accepts: { $0 is Model }, expected: "\(type)"))
        return box
    }

    /// Hands `object`, just defined with `id`, to the weak references that
    /// were waiting for it.
    private func fillWaiting(_ id: String, with object: ModelObject) throws {
        guard let references = waiting.removeValue(forKey: id) else { return }
        for reference in references {
            guard reference.accepts(object) else {
                throw ModelError(
                    code: .typeMismatch,
                    message: "the model with the id \"\(id)\" is a \(Swift.type(of: object)), but a weak reference "
                        + "before it expects a \(reference.expected)",
                    keyPath: ModelKeyPath([.key(ReferenceKeys.id)]))
            }
            reference.box.object = object
        }
    }

    /// Records that the model written with `"$id": id` is of class `type`.
    /// - Returns: the object to fill: one made for an earlier reference, or
    ///   `make()`'s.
    /// - Throws: ``ModelError`` (relative to the model) when another model
    ///   already has the id, or an earlier reference expected another class.
    func define(_ id: String, as type: ModelObject.Type, make: () -> ModelObject) throws -> ModelObject {
        if let entry = entries[id] {
            guard !entry.isDefined else {
                throw Self.usedTwice(id)
            }
            guard Swift.type(of: entry.object) == type else {
                throw ModelError(
                    code: .typeMismatch,
                    message: "the model with the id \"\(id)\" is a \(type), but a reference before it expects "
                        + "a \(Swift.type(of: entry.object))",
                    keyPath: ModelKeyPath([.key(ReferenceKeys.id)]))
            }
            entries[id]?.isDefined = true
            try fillWaiting(id, with: entry.object)
            return entry.object
        }
        let object = make()
        try fillWaiting(id, with: object)
        entries[id] = Entry(object: object, isDefined: true)
        return object
    }

    /// Records `object`, which is being loaded in place, as the model with `id`.
    func define(_ id: String, object: ModelObject) throws {
        guard entries[id] == nil else {
            throw Self.usedTwice(id)
        }
        try fillWaiting(id, with: object)
        entries[id] = Entry(object: object, isDefined: true)
    }

    private static func usedTwice(_ id: String) -> ModelError {
        ModelError(
            code: .invalidValue, message: "the id \"\(id)\" is used by two models in the document",
            keyPath: ModelKeyPath([.key(ReferenceKeys.id)]))
    }
}
