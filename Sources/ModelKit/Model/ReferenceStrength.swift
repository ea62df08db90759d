/// Whether a saved model property keeps its model alive.
///
/// A tree whose children point back at their parent is a cycle of strong
/// references, which Swift never frees. Declare the back-reference weak:
///
/// ```swift
/// final class Node: ModelObject, @unchecked Sendable {
///     @Saved var name = ""
///     @Saved(reference: .weak) var parent: Node? = nil
///     @Saved var children: [Node] = []
/// }
/// ```
///
/// A weak property is saved like any other, but never as a model in full:
/// a weak reference keeps no model of its own. It is written as
/// `{"$ref": "<id>"}` naming a model that the same document writes in full,
/// which then carries the `"$id"`, and as `null` otherwise. Exactly:
///
/// - With ``ReferencePolicy/shared``, a weak reference to any model the
///   document writes (one reached from the root through saved properties
///   other than weak references) is a `$ref`, whether that model comes
///   earlier or later in the document: an ancestor, a sibling, a cousin, a
///   descendant. Only a weak reference to a model the document does not
///   write is `null`.
/// - With ``ReferencePolicy/cycles`` (the default), a weak reference is a
///   `$ref` only to a model on its own path from the root (an ancestor, as
///   a parent is, or the model itself); a weak reference to any other model
///   is `null`, even one the document writes elsewhere.
///
/// Loading restores the reference to the very object the document names,
/// whether the `$ref` comes before the model's `"$id"` or after it, in
/// every format; a reference to a model that nothing else in the loaded
/// graph keeps is `nil` once loading ends.
public enum ReferenceStrength: Sendable, Hashable {
    /// The property keeps its model alive: the default.
    case strong
    /// The property does not keep its model alive, and reads as `nil` once
    /// the model is freed.
    case weak
}
