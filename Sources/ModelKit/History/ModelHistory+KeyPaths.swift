extension ModelHistory {
    /// The key path from the tracked ``model`` to `target` through saved
    /// properties (`children[0]`), found breadth first (the shortest), for
    /// the messages of refused undos; `nil` when the root no longer reaches it.
    func keyPath(to target: ModelObject) -> [ModelKeyPath.Component]? {
        if target === model { return [] }
        var seen = IdentitySet(model)
        var queue: [(object: ModelObject, path: [ModelKeyPath.Component])] = [(model, [])]
        var next = 0
        while next < queue.count {
            let (object, path) = queue[next]
            next += 1
            let layout = object.layout
            // One model's lock at a time, as every graph walk.
            let values = object.withState { $0.snapshotValues() }
            for offset in layout.savedOrder where layout.slots[offset].codec.mayContainModels {
                let key = ModelKeyPath.Component.key(layout.slots[offset].key)
                var found: [(ModelObject, [ModelKeyPath.Component])] = []
                let value = values[offset]
                if let child = value as? ModelObject {
                    found = [(child, [key])]
                } else if let children = value as? [ModelObject] {
                    found = Array(children.enumerated()).map { ($0.element, [key, .index($0.offset)]) }
                } else if let children = value as? [String: ModelObject] {
                    found = children.sorted { $0.key < $1.key }.map { ($0.value, [key, .key($0.key)]) }
                } else {
                    layout.slots[offset].codec.forEachModel(in: value) { found.append(($0, [key])) }
                }
                for (child, steps) in found {
                    if child === target { return path + steps }
                    if seen.insert(child) { queue.append((child, path + steps)) }
                }
            }
        }
        return nil
    }
}
