/// Tracks the models being encoded on this thread, to catch cycles in a model
/// graph (which has no saved form: saved forms are trees) and classes with
/// declaration problems, from inside `modelValue`, which cannot throw.
final class EncodingGuard {
    private(set) var active: [ObjectIdentifier] = []
    /// The first failure met since the last `begin()`.
    var failure: ModelError?

    private static let storage = ThreadLocal { EncodingGuard() }
    static var current: EncodingGuard { storage.value }

    /// Depth past which each model is checked against those being encoded.
    private static let checkDepth = 64

    /// Notes that `object` is being encoded; returns false if that closes a cycle.
    func enter(_ object: ModelObject) -> Bool {
        let id = ObjectIdentifier(object)
        // Each model is at least one level of its document: past the readers'
        // limit no reader would accept the result, and the recursion that
        // builds it must stop well before the thread's stack does.
        guard active.count < PropertyListBridge.maximumDepth else {
            if failure == nil {
                failure = ModelError(
                    code: .nestingTooDeep,
                    message: "models are nested deeper than the limit of \(PropertyListBridge.maximumDepth) levels, "
                        + "which no ModelKit reader accepts")
            }
            return false
        }
        // A cycle repeats forever, so checking only past a depth finds every
        // one while keeping shallow graphs free of the search.
        if active.count >= Self.checkDepth || active.last == id {
            if active.contains(id) {
                if failure == nil {
                    failure = ModelError(
                        code: .notRepresentable,
                        message:
                            "the model graph has a cycle: a \(type(of: object)) refers back to itself through saved properties; saved forms are trees"
                    )
                }
                return false
            }
        }
        active.append(id)
        return true
    }

    func leave() { active.removeLast() }
}
