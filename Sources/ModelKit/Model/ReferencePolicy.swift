/// Which models a saved form writes once and refers to elsewhere.
///
/// A saved form is a tree; a graph of models need not be. A model met again
/// on its own path from the root (a cycle, such as a `parent` back-reference)
/// is always written once, with an `"$id"` among its members, and each later
/// occurrence on that path as `{"$ref": "<id>"}`. Loading restores the same
/// shape: every reference becomes the very object it names.
///
/// ```swift
/// final class Node: ModelObject, @unchecked Sendable {
///     @Saved var name = ""
///     @Saved(reference: .weak) var parent: Node? = nil
///     @Saved var children: [Node] = []
/// }
/// let root = Node()
/// root.name = "root"
/// let leaf = Node()
/// leaf.name = "leaf"
/// leaf.parent = root
/// root.children = [leaf]
/// print(try root.jsonString())
/// // {"$id":"1","type":"Node","version":1,"name":"root","parent":null,"children":[{"type":"Node","version":1,"name":"leaf","parent":{"$ref":"1"},"children":[]}]}
/// let back = try Node(json: root.jsonData())
/// print(back.children[0].parent === back)   // true
/// ```
///
/// A model that appears more than once but not on its own path (the same
/// `Tag` in two notes) is written in full at each place by default, and
/// loads as separate objects. ``shared`` writes every such model once too,
/// so shared models stay shared after a load, as `NSKeyedArchiver` keeps them,
/// and gives an id to every model that a weak reference names, so that a
/// weak reference to any model the document writes is a `$ref`, before or
/// after the model (see ``ReferenceStrength``).
///
/// Ids are `"1"`, `"2"`, … in the order they are needed, so the same graph
/// gives the same bytes. Keys of a model's own that look like these
/// (`"$id"`, `"$ref"`, `"$$id"` …) are written with one more `$` and read
/// back without it, as `"$null"` is in property lists.
public enum ReferencePolicy: Sendable, Hashable {
    /// References only where a cycle needs them; the default.
    case cycles
    /// A reference for every model that appears more than once, and for
    /// every weak reference to a model the document writes.
    case shared
}
