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
/// A weak property is saved like any other. It is written as
/// `{"$ref": "<id>"}` when the model it names is written around it in the
/// same document (an ancestor, as a parent is, which then carries the
/// `"$id"`; with ``ReferencePolicy/shared``, also a model written earlier in
/// the document), and as `null` otherwise: a weak reference keeps no model
/// of its own, so it cannot be written in full. Loading restores the
/// reference to the very object the document names; a reference to a model
/// that nothing else in the loaded graph keeps is `nil` once loading ends.
public enum ReferenceStrength: Sendable, Hashable {
    /// The property keeps its model alive: the default.
    case strong
    /// The property does not keep its model alive, and reads as `nil` once
    /// the model is freed.
    case weak
}
