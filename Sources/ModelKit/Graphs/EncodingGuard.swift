/// Tracks the models being encoded on this thread: the path from the root to
/// the model being written, for cycles (written as references, see
/// ``ReferencePolicy``) and the nesting limit, and the failures met inside
/// `modelValue`, which cannot throw.
///
/// Only its thread touches it (a thread continuing another's work takes it
/// over while the other waits), so its storage opts out of the runtime's
/// exclusivity checks, which cost more than the bookkeeping itself.
final class EncodingGuard {
    /// The models on the path, root first: plain identifiers, so that
    /// entering and leaving a model copies no string and retains nothing.
    @exclusivity(unchecked) private var path: [ObjectIdentifier] = []
    /// By position on `path`: the id a model was given because a later model
    /// on the path refers back to it (or a writer planned one). Usually empty.
    @exclusivity(unchecked) private var ids: [Int: String] = [:]
    /// Positions on `path`, kept only while the path is long, where a linear
    /// search would cost more than a hash.
    @exclusivity(unchecked) private var positions: [ObjectIdentifier: Int] = [:]
    private static let linearSearchLimit = 16

    /// The first failure met since the root began.
    @exclusivity(unchecked) var failure: ModelError?
    /// Whether classes write their ``ModelObject/savedDialect``; off while a
    /// keyed archive is written, which holds models in ModelKit's form.
    @exclusivity(unchecked) var writesSavedDialects = true
    /// Whether a reference has been written since the root began. The direct
    /// writers, which cannot add `"$id"` to a model already written, fall
    /// back when it is set.
    @exclusivity(unchecked) private(set) var wroteReference = false
    /// With ``ReferencePolicy/shared``: the models that get an id (those
    /// that appear more than once in the graph, and those that a weak
    /// reference names), and the ids given so far, with whether the model
    /// has been written (a weak reference written before its model gives
    /// the id first).
    @exclusivity(unchecked) private var shared: Set<ObjectIdentifier>?
    @exclusivity(unchecked) private var sharedIDs: [ObjectIdentifier: SharedID] = [:]

    /// The id of a model with ``ReferencePolicy/shared``.
    private struct SharedID {
        let id: String
        /// Its index in `idCarriers`.
        var number = 0
        /// Whether the model has been entered: later occurrences are references.
        var isWritten: Bool
    }
    @exclusivity(unchecked) private var nextID = 1
    /// How many models the document has entered so far: a model's number in
    /// document order (its `"$id"` comes first among its members).
    @exclusivity(unchecked) private var entered = 0
    /// By position on `path`: the number in document order of the model there.
    @exclusivity(unchecked) private var enteredAt: [Int] = []
    /// By id made (`"1"` first): the number in document order of the model
    /// that carries it, `Int.max` until it is entered.
    @exclusivity(unchecked) private var idCarriers: [Int] = []
    /// The ids to give instead of `"1"`, `"2"`, …, in the order they are
    /// made: set to write a document again with its ids in document order.
    @exclusivity(unchecked) private var renamedIDs: [String] = []
    /// The deepest nesting of models the document may have: the format's
    /// limit (JSON's can be raised by its writing options).
    @exclusivity(unchecked) private var limit = PropertyListBridge.maximumDepth

    private static let storage = ThreadLocal { EncodingGuard() }
    static var current: EncodingGuard { storage.value }
    /// This thread's guard, if it has one yet.
    static var existing: EncodingGuard? { storage.existingValue }
    /// Makes `guardian` this thread's (a thread continuing another's work).
    static func install(_ guardian: EncodingGuard) { storage.install(guardian) }

    /// Whether no model is being encoded on this thread.
    var isIdle: Bool { path.isEmpty }
    /// How many models are being encoded on this thread, one inside the other.
    var depth: Int { path.count }

    /// What to write for a model.
    enum Entry {
        /// The model in full; call ``leave()`` after its members. `id`, when
        /// set, goes among its members.
        case write(id: String?)
        /// `{"$ref": id}`.
        case reference(String)
        /// The error marker: ``failure`` says why.
        case refuse
    }

    /// Starts a document: ids from 1, `policy` for shared models.
    /// - Returns: the state to give back to ``end(_:)``.
    func begin(
        root: ModelObject, policy: ReferencePolicy, maximumDepth: Int = PropertyListBridge.maximumDepth
    ) -> Saved {
        let saved = Saved(failure: failure, wroteReference: wroteReference)
        failure = nil
        wroteReference = false
        // A document begun inside another (a model inside a Codable value of
        // a model) continues that document's ids, path, policy and limit.
        if path.isEmpty {
            nextID = 1
            entered = 0
            idCarriers.removeAll(keepingCapacity: true)
            renamedIDs = []
            limit = maximumDepth
            if policy == .shared {
                shared = Self.modelsNeedingIDs(from: root)
                sharedIDs = [:]
            } else if shared != nil {
                shared = nil
                sharedIDs = [:]
            }
        }
        return saved
    }

    /// Ends a document begun with ``begin(root:policy:)``.
    func end(_ saved: Saved) {
        failure = saved.failure
        wroteReference = saved.wroteReference || wroteReference
        if path.isEmpty, shared != nil {
            shared = nil
            sharedIDs = [:]
        }
    }

    /// The state of an outer document while an inner one is written.
    struct Saved {
        fileprivate let failure: ModelError?
        fileprivate let wroteReference: Bool
    }

    /// Notes that `object` is about to be written; `plannedID`, from a
    /// writer that planned the ids of a graph with cycles, is its id.
    func enter(_ object: ModelObject, plannedID: String? = nil) -> Entry {
        let key = ObjectIdentifier(object)
        if shared != nil, let entry = sharedIDs[key], entry.isWritten {
            wroteReference = true
            return .reference(entry.id)
        }
        if let position = position(of: key) {
            // A cycle: the earlier occurrence on the path gets an id.
            let id: String
            if let existing = ids[position] {
                id = existing
            } else {
                id = makeID(carrier: enteredAt[position])
                ids[position] = id
            }
            wroteReference = true
            return .reference(id)
        }
        // Each model is at least one level of its document: past the readers'
        // limit no reader would accept the result, and the recursion that
        // builds it must stop well before the thread's stack does.
        guard path.count < limit else {
            if failure == nil {
                failure = ModelError(
                    code: .nestingTooDeep,
                    message: "models are nested deeper than the limit of \(limit) levels, "
                        + (limit == PropertyListBridge.maximumDepth
                            ? "which no ModelKit reader accepts" : "which no reader with the same limit accepts"))
            }
            return .refuse
        }
        var id = plannedID
        if let shared, shared.contains(key) {
            // The id a weak reference before it gave it, or a new one.
            var given: SharedID
            if let earlier = sharedIDs[key] {
                given = earlier
                idCarriers[earlier.number] = entered
            } else {
                given = SharedID(id: makeID(carrier: entered), number: idCarriers.count - 1, isWritten: false)
            }
            given.isWritten = true
            id = given.id
            sharedIDs[key] = given
        }
        if let id { ids[path.count] = id }
        path.append(key)
        enteredAt.append(entered)
        entered += 1
        if path.count > Self.linearSearchLimit {
            if positions.isEmpty {
                for (index, object) in path.enumerated() { positions[object] = index }
            } else {
                positions[key] = path.count - 1
            }
        }
        return .write(id: id)
    }

    /// The id to write for a weak reference to `object`, or `nil` (`null`).
    ///
    /// With ``ReferencePolicy/shared``, every model the document writes
    /// (reached from the root through saved properties other than weak
    /// references) has one, whether it is written before the reference or
    /// after it (the reference then gives the id, which the model carries
    /// when it is written). With ``ReferencePolicy/cycles``, only a model on
    /// the path (an ancestor, which then carries the id, as for a cycle).
    func weakReferenceID(to object: ModelObject) -> String? {
        let key = ObjectIdentifier(object)
        if let shared {
            if let entry = sharedIDs[key] {
                wroteReference = true
                return entry.id
            }
            if shared.contains(key) {
                let id = makeID(carrier: Int.max)
                sharedIDs[key] = SharedID(id: id, number: idCarriers.count - 1, isWritten: false)
                wroteReference = true
                return id
            }
        }
        guard let position = position(of: key) else { return nil }
        if let existing = ids[position] {
            wroteReference = true
            return existing
        }
        let id = makeID(carrier: enteredAt[position])
        ids[position] = id
        wroteReference = true
        return id
    }

    /// Notes that the model last entered is written.
    /// - Returns: the id it must carry: the one ``enter(_:)`` gave, or one a
    ///   later model on its path gave it by referring back to it.
    @discardableResult
    func leave() -> String? {
        let object = path.removeLast()
        enteredAt.removeLast()
        if !positions.isEmpty {
            if path.count >= Self.linearSearchLimit {
                positions[object] = nil
            } else {
                positions.removeAll(keepingCapacity: true)
            }
        }
        return ids.isEmpty ? nil : ids.removeValue(forKey: path.count)
    }

    private func position(of key: ObjectIdentifier) -> Int? {
        if !positions.isEmpty { return positions[key] }
        return path.lastIndex(of: key)
    }

    /// A new id, for the model whose number in document order is `carrier`.
    private func makeID(carrier: Int) -> String {
        defer { nextID += 1 }
        idCarriers.append(carrier)
        return nextID <= renamedIDs.count ? renamedIDs[nextID - 1] : String(nextID)
    }

    /// When the document just written gave its ids out of document order (a
    /// back-reference met inside a model gives its id before its ancestor's,
    /// a weak reference gives an id before its model is written), the ids
    /// to give instead, in the order they are made, so that a second writing
    /// numbers them in document order: `"$id":"1"` is the first in the text.
    /// `nil` when they are in order already, or inside another document.
    func idsInDocumentOrder() -> [String]? {
        guard path.isEmpty, renamedIDs.isEmpty, idCarriers.count > 1 else { return nil }
        var inOrder = true
        for index in idCarriers.indices.dropFirst() where idCarriers[index] < idCarriers[index - 1] {
            inOrder = false
            break
        }
        guard !inOrder else { return nil }
        // A permutation of "1"..."n": should a second writing make more ids
        // (the graph changed meanwhile), the extra ones keep their numbers,
        // above n, and no two models share one.
        var renamed = [String](repeating: "", count: idCarriers.count)
        let order = idCarriers.indices.sorted { (idCarriers[$0], $0) < (idCarriers[$1], $1) }
        for (rank, made) in order.enumerated() { renamed[made] = String(rank + 1) }
        return renamed
    }

    /// Begins writing the document again, giving `renamed` ids (from
    /// ``idsInDocumentOrder()``) in the order they are made.
    func restart(renaming renamed: [String]) {
        failure = nil
        wroteReference = false
        nextID = 1
        entered = 0
        idCarriers.removeAll(keepingCapacity: true)
        if shared != nil { sharedIDs = [:] }
        renamedIDs = renamed
    }

    /// The models that get an id with ``ReferencePolicy/shared``: those
    /// reachable from `root` through saved properties more than once (the
    /// root counts once), and those reachable that a weak reference of a
    /// reachable model names. Found without recursion.
    private static func modelsNeedingIDs(from root: ModelObject) -> Set<ObjectIdentifier> {
        var seen = IdentitySet(root)
        var twice = Set<ObjectIdentifier>()
        var named: [ObjectIdentifier] = []
        var stack = [root]
        while let object = stack.popLast() {
            let layout = object.layout
            let values = object.withState { $0.snapshotValues() }
            for offset in layout.savedOrder where layout.slots[offset].codec.mayContainModels {
                layout.slots[offset].codec.forEachModel(in: values[offset]) { child in
                    if seen.insert(child) {
                        stack.append(child)
                    } else {
                        twice.insert(ObjectIdentifier(child))
                    }
                }
            }
            for offset in layout.weakSlots {
                if let target = (values[offset] as? any WeakReferenceValue)?.target {
                    named.append(ObjectIdentifier(target))
                }
            }
        }
        // Only models the document writes: a weak reference to any other is `null`.
        for target in named where seen.contains(target) { twice.insert(target) }
        return twice
    }
}
