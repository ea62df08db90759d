/// What the cell of a `@Saved(reference: .weak)` property holds: a weak
/// reference to a model, behind a box, so that the cell holds one strong
/// reference (bitwise movable on every platform, as cells must be) and the
/// box the weak one.
///
/// Its one stored property is the box, whatever `Model` is: the accessors,
/// which do not know `Model`, read and write the cell as `WeakBox?`.
struct WeakReference<Model: ModelObject>: ModelValueConvertible, WeakReferenceValue, OptionalValue {
    let box: WeakBox?

    init(_ model: Model?) {
        box = model.map(WeakBox.init)
    }

    /// A reference through `box`, which a document being read fills.
    private init(box: WeakBox) {
        self.box = box
    }

    var target: ModelObject? { box?.object }

    func pointing(to model: ModelObject?) -> Any {
        WeakReference(model.map { unsafeDowncast($0, to: Model.self) })
    }

    static func referring(to value: Any?) -> Any? {
        guard let value else { return Self(nil) }
        if let model = value as? Model { return Self(model) }
        if let optional = value as? Model? { return Self(optional) }
        return nil
    }

    static var propertyTypeName: String { "\(Model.self)?" }

    /// What key-value access reads: the model, or `nil`.
    var wrappedAny: Any? { target }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.target === rhs.target }

    /// `{"$ref": id}` when the document being written around this reference
    /// writes its model with that id, else `null` (see ``ReferenceStrength``).
    var modelValue: ModelValue {
        guard let target, let id = EncodingGuard.existing?.weakReferenceID(to: target) else { return .null }
        return .object([ReferenceKeys.ref: .string(id)])
    }

    init(modelValue: ModelValue) throws {
        self = try Self.decoded(from: modelValue)
    }

    /// `null`, or the model that `{"$ref": id}` names in the document being
    /// read, whether the document has read it yet or reads it later (a
    /// forward reference, filled when the model is read).
    /// - Throws: ``ModelError`` for a model written in full, which nothing
    ///   would keep alive, or a value that is neither.
    static func decoded(from modelValue: ModelValue) throws -> Self {
        switch modelValue {
        case .null:
            return Self(nil)
        case .object(let members) where members[ReferenceKeys.ref] != nil:
            guard members.count == 1, case .string(let id)? = members[ReferenceKeys.ref] else {
                // Not a plain reference: the model's decoding says what is wrong.
                return Self(try Model.decoded(from: modelValue))
            }
            return try DecodingReferences.decoding {
                Self(box: try DecodingReferences.current!.weakBox(for: id, as: Model.self))
            }
        case .object:
            throw ModelError.typeMismatch(
                expected: "a reference ({\"$ref\": id}) or null for a weak reference to a \(Model.self)",
                found: modelValue)
        default:
            throw ModelError.typeMismatch(expected: "a reference to a \(Model.self) or null", found: modelValue)
        }
    }
}

/// The box of a weak reference; never changed once made (but for a
/// reference read before the model it names, which the document being read
/// fills before the load ends), so copies of a ``WeakReference`` never alias
/// a later assignment.
@usableFromInline
final class WeakBox: @unchecked Sendable {
    @usableFromInline weak var object: ModelObject?

    init(_ object: ModelObject) {
        self.object = object
    }

    /// An empty box, for a reference whose model a document reads later.
    init() {}
}

/// A ``WeakReference`` of any model type, for the graph walks (copying,
/// equivalence, key-value access) that meet one as `Any`.
protocol WeakReferenceValue {
    /// The model referred to, while it lives.
    var target: ModelObject? { get }
    /// A reference of the same type to `model`.
    func pointing(to model: ModelObject?) -> Any
    /// A reference to `value` when it is a model of the right class (or
    /// `nil`), for key-value access; else `nil`.
    static func referring(to value: Any?) -> Any?
    /// The property's type as declared (`Node?`), for messages.
    static var propertyTypeName: String { get }
}
