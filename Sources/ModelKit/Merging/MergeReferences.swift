/// The references of a model merge (`"$id"` on a model, `{"$ref": id}`
/// where it appears again or a weak property names it), made independent of
/// their numbering while the three saved forms merge.
///
/// Ids are numbered in document order, so one side's insertion renumbers
/// every model after it: merged as plain values, `{"$ref": "5"}` written by
/// one side would name, in the merged document, whatever model the other
/// side numbered 5. So before the merge each reference is rewritten to name
/// its model by the way to it from the root, `{"$ref": "groups[id=\"g2\"]"}`,
/// and the `"$id"`s are taken out; after it, the references are numbered
/// again in the merged document.
///
/// The way to a model steps through arrays by the element's identity
/// (``ModelObject/identityKey``) wherever the merge matches that array's
/// elements by it, and otherwise by index, which names the same model in
/// every version only while no version moved that array's elements: an
/// index into an array one side reshaped throws, naming the model.
/// A weak reference whose model the merge removed is written `null` and
/// reported as a conflict; a shared model whose full occurrence the merge
/// removed throws.
struct MergeReferences {
    /// One step of the way from the root to a model.
    enum Step: Hashable {
        case key(String)
        /// The element whose identity key holds this value.
        case identity(key: String, value: ModelValue)
        /// The element at this index of an array of `count` elements.
        case index(Int, count: Int)
    }

    /// The three forms, each with its references rewritten.
    private(set) var forms: [ModelValue.Object]
    /// Whether any of the three forms has a reference at all.
    private(set) var hasReferences = false
    /// The ways to the models references name, by their text.
    private var targets: [String: [Step]] = [:]
    private let rootShape: SavedFormShape

    /// The three forms (base, ours, theirs) of models of `rootShape`, their
    /// references rewritten (unchanged when none has any).
    init(base: ModelValue.Object, ours: ModelValue.Object, theirs: ModelValue.Object, rootShape: SavedFormShape)
        throws
    {
        self.rootShape = rootShape
        forms = [base, ours, theirs]
        var holders: [[String: [ModelKeyPath.Component]]] = []
        for form in forms {
            var found: [String: [ModelKeyPath.Component]] = [:]
            var any = false
            var path: [ModelKeyPath.Component] = []
            _ = try Self.rewrite(.object(form), at: rootShape, path: &path) { members, at, place in
                if place == .model, case .string(let id)? = members[ReferenceKeys.id] { found[id] = at }
                if place != .model { any = true }
                return .object(members)
            }
            hasReferences = hasReferences || any || !found.isEmpty
            holders.append(found)
        }
        guard hasReferences else { return }
        // The forms without ids, every reference alike: where arrays are
        // compared for moves, renumbering is no change.
        var skeletons: [ModelValue] = []
        for form in forms {
            var path: [ModelKeyPath.Component] = []
            skeletons.append(
                try Self.rewrite(.object(form), at: rootShape, path: &path) { members, _, place in
                    if place != .model { return [ReferenceKeys.ref: .null] }
                    guard members[ReferenceKeys.id] != nil else { return .object(members) }
                    var result = members
                    result.removeValue(forKey: ReferenceKeys.id)
                    return .object(result)
                })
        }
        var locations: [[Step]: Location] = [:]
        for version in 0..<3 {
            var absolute: [String: String] = [:]  // id → the text of its model's way
            var path: [ModelKeyPath.Component] = []
            let rewritten = try Self.rewrite(.object(forms[version]), at: rootShape, path: &path) { members, at, place in
                if place != .model, let reference = members[ReferenceKeys.ref] {
                    guard case .string(let id) = reference, let holder = holders[version][id] else {
                        throw ModelError(
                            code: .invalidValue, message: "no model in the document has the id \(reference)",
                            keyPath: ModelKeyPath(at))
                    }
                    // A model on the reference's own path (a parent): named
                    // by how far up it is, which no move elsewhere changes.
                    if holder.count <= at.count, Array(at.prefix(holder.count)) == holder {
                        return [ReferenceKeys.ref: .string(Self.upPrefix + String(at.count - holder.count))]
                    }
                    if let text = absolute[id] { return [ReferenceKeys.ref: .string(text)] }
                    let steps = try way(to: holder, in: version, roots: skeletons, locations: &locations)
                    var text = Self.text(of: steps)
                    if let existing = targets[text], existing != steps { text += " #\(targets.count)" }
                    targets[text] = steps
                    absolute[id] = text
                    return [ReferenceKeys.ref: .string(text)]
                }
                guard members[ReferenceKeys.id] != nil else { return .object(members) }
                var result = members
                result.removeValue(forKey: ReferenceKeys.id)
                return .object(result)
            }
            if case .object(let members) = rewritten { forms[version] = members }
        }
    }

    /// Whether `members` are a reference's: `{"$ref": …}`.
    static func isReference(_ members: ModelValue.Object) -> Bool {
        members.count == 1 && members[ReferenceKeys.ref] != nil
    }

    /// How a rewritten reference to a model on its own path begins: `"^2"`
    /// names the model two components up from the reference.
    static let upPrefix = "^"

    /// What the ways learn of one array, found by the steps to it.
    private struct Location {
        /// Per version, each identity's position, where the merge matches
        /// the elements by identity.
        var positions: [[ModelValue: Int]?]?
        /// The identities of the elements, per version, where it does.
        var identities: [[ModelValue]?]?
        /// The count of elements when no version moved any, else `nil`.
        var stableCount: Int?
    }

    // MARK: Before the merge

    /// The way to the model at `path` of one version, stepping through each
    /// array by identity where the merge matches its elements so.
    /// - Throws: ``ModelError`` for an index into an array whose elements
    ///   a version moved, inserted or removed.
    private func way(
        to path: [ModelKeyPath.Component], in version: Int, roots: [ModelValue], locations: inout [[Step]: Location]
    ) throws -> [Step] {
        var nodes: [ModelValue?] = roots
        var shape = rootShape
        var steps: [Step] = []
        for component in path {
            switch component {
            case .key(let key):
                let layout = nodes[version].flatMap { shape.layout(of: $0) }
                shape = layout?.shape(ofKey: key) ?? .other
                steps.append(.key(key))
                nodes = nodes.map { node in
                    guard case .object(let members)? = node else { return nil }
                    return members[key]
                }
            case .index(let index):
                let arrays: [[ModelValue]?] = nodes.map { node in
                    guard case .array(let elements)? = node else { return nil }
                    return elements
                }
                let element: SavedFormShape
                if case .elements(let declared) = shape { element = declared } else { element = .other }
                shape = element
                let location = locations[steps] ?? Self.location(of: arrays, element: element)
                locations[steps] = location
                if case .model(let declared) = element, let key = declared.identityKey,
                    let identities = location.identities, let positions = location.positions,
                    let id = identities[version]?[index]
                {
                    steps.append(.identity(key: key, value: id))
                    nodes = zip(arrays, positions).map { array, positions in
                        guard let array, let position = positions?[id] else { return nil }
                        return array[position]
                    }
                    continue
                }
                guard let count = location.stableCount else {
                    throw ModelError(
                        code: .invalidValue,
                        message: "a reference names the model at \(ModelKeyPath(path)), in an array whose elements "
                            + "one side moved, inserted or removed; references into an array merge only by the "
                            + "identity of its elements (give their class an identityKey)")
                }
                steps.append(.index(index, count: count))
                nodes = arrays.map { array in array.flatMap { index < $0.count ? $0[index] : nil } }
            }
        }
        return steps
    }

    /// What the ways need of one array, in each version that has it.
    private static func location(of arrays: [[ModelValue]?], element: SavedFormShape) -> Location {
        var location = Location()
        if case .model(let declared) = element, let key = declared.identityKey,
            let identities = identitiesIfMatched(arrays, key: key)
        {
            location.identities = identities
            location.positions = identities.map { ids in
                ids.map { ids in Dictionary(uniqueKeysWithValues: Array(ids.enumerated()).map { ($1, $0) }) }
            }
            return location
        }
        location.stableCount = stableCount(arrays)
        return location
    }

    /// The identities of the arrays' elements, where the merge matches them
    /// by identity: every array present has them, distinct.
    private static func identitiesIfMatched(_ arrays: [[ModelValue]?], key: String) -> [[ModelValue]?]? {
        var result: [[ModelValue]?] = []
        for array in arrays {
            guard let array else {
                result.append(nil)
                continue
            }
            guard let ids = ThreeWayMerge.identities(array, key: key) else { return nil }
            result.append(ids)
        }
        return result
    }

    /// The count of the arrays when no version moved, inserted or removed
    /// elements (each element is the base's at its index, or changed in
    /// place), else `nil`.
    private static func stableCount(_ arrays: [[ModelValue]?]) -> Int? {
        let present = arrays.compactMap { $0 }
        guard let count = present.first?.count, present.allSatisfy({ $0.count == count }) else { return nil }
        guard let base = arrays[0] else { return count }
        for side in arrays.dropFirst() {
            guard let side else { continue }
            for (index, match) in ArrayMatching.matches(base, side).enumerated() where match >= 0 && match != index {
                return nil
            }
        }
        return count
    }

    /// The text of a way, which a rewritten reference holds.
    static func text(of steps: [Step]) -> String {
        var text = ""
        for step in steps {
            switch step {
            case .key(let key):
                text += text.isEmpty ? key : "." + key
            case .identity(let key, let value):
                text += "[\(key)=\((try? value.jsonString()) ?? "\(value)")]"
            case .index(let index, _):
                text += "[\(index)]"
            }
        }
        return text
    }

    /// Where an object of a saved form stands, for ``rewrite(_:at:weak:path:enter:_:)``.
    enum Place: Equatable {
        /// A model, which may carry `"$id"`.
        case model
        /// `{"$ref": …}` where a model is saved (a model written once and
        /// met again).
        case strongReference
        /// `{"$ref": …}` of a weak reference.
        case weakReference
    }

    /// `value`, the saved form of values of `shape`, with `transform`
    /// applied to each object that stands where a model or a reference
    /// does, children first (`enter` sees each model's path before its
    /// children). Values that hold no models (extensible properties,
    /// `ModelValue` properties, scalars) are left as they are, whatever
    /// keys they use: `"$id"` and `"$ref"` there are data.
    private static func rewrite(
        _ value: ModelValue, at shape: SavedFormShape, weak: Bool = false, path: inout [ModelKeyPath.Component],
        enter: ([ModelKeyPath.Component]) -> Void = { _ in },
        _ transform: (ModelValue.Object, [ModelKeyPath.Component], Place) throws -> ModelValue
    ) throws -> ModelValue {
        switch value {
        case .object(let members):
            if isReference(members) {
                if weak { return try transform(members, path, .weakReference) }
                if case .model = shape { return try transform(members, path, .strongReference) }
                return value
            }
            switch shape {
            case .model where !weak:
                guard let layout = shape.layout(of: value) else { return value }
                enter(path)
                var result = ModelValue.Object(minimumCapacity: members.count)
                try StackGuard.descendingThrowing(path.count) {
                    for (index, (key, member)) in members.enumerated() {
                        guard let offset = layout.offset(forKey: key) else {
                            result.appendNew(key: key, value: member)
                            if let text = members.text(at: index) { result.setText(text, at: result.count - 1) }
                            continue
                        }
                        let isWeak = layout.weakSlots.contains(offset)
                        let inner: SavedFormShape = isWeak ? .other : .of(layout.slots[offset].codec.valueType)
                        path.append(.key(key))
                        defer { path.removeLast() }
                        result.appendNew(
                            key: key, value: try rewrite(member, at: inner, weak: isWeak, path: &path, enter: enter, transform))
                    }
                }
                return try transform(result, path, .model)
            case .members(let inner):
                var result = ModelValue.Object(minimumCapacity: members.count)
                try StackGuard.descendingThrowing(path.count) {
                    for (key, member) in members {
                        path.append(.key(key))
                        defer { path.removeLast() }
                        result.appendNew(key: key, value: try rewrite(member, at: inner, path: &path, enter: enter, transform))
                    }
                }
                return .object(result)
            default:
                return value
            }
        case .array(let elements):
            guard case .elements(let inner) = shape, !weak else { return value }
            var result: [ModelValue] = []
            result.reserveCapacity(elements.count)
            try StackGuard.descendingThrowing(path.count) {
                for (index, element) in elements.enumerated() {
                    path.append(.index(index))
                    defer { path.removeLast() }
                    result.append(try rewrite(element, at: inner, path: &path, enter: enter, transform))
                }
            }
            return .array(result)
        default:
            return value
        }
    }

    // MARK: After the merge

    /// The merged form with its references numbered again: each model a
    /// reference names carries `"$id"` first, numbered in document order.
    /// A weak reference to a model not in `merged` becomes `null`, a
    /// conflict that `merger` records and its policy may settle with
    /// another reference.
    func restored(_ merged: ModelValue.Object, merger: inout ThreeWayMerge) throws -> ModelValue.Object {
        guard hasReferences else { return merged }
        var resolver = Resolver(merged: merged, targets: targets)
        // Where each reference stands, and the models in document order.
        var references: [(path: [ModelKeyPath.Component], text: String, isWeak: Bool)] = []
        var models: [[ModelKeyPath.Component]] = []
        var path: [ModelKeyPath.Component] = []
        _ = try Self.rewrite(.object(merged), at: rootShape, path: &path, enter: { models.append($0) }) {
            members, at, place in
            if place != .model {
                var text = ""
                if case .string(let named)? = members[ReferenceKeys.ref] { text = named }
                references.append((at, text, place == .weakReference))
            }
            return .object(members)
        }
        var settled: [[ModelKeyPath.Component]: [ModelKeyPath.Component]] = [:]  // reference → its model
        for reference in references {
            if let target = resolver.resolve(reference.text, from: reference.path) {
                settled[reference.path] = target
                continue
            }
            guard reference.isWeak else {
                throw ModelError(
                    code: .invalidValue,
                    message: "this shared model is written in full at \(reference.text), which the merge removed",
                    keyPath: ModelKeyPath(reference.path))
            }
            let saved = merger.path
            merger.path = reference.path
            defer { merger.path = saved }
            let resolution = try merger.conflict(.removedTarget, nil, [ReferenceKeys.ref: .string(reference.text)], nil)
            if case .object(let members)? = resolution, case .string(let text)? = members[ReferenceKeys.ref],
                let target = resolver.resolve(text, from: reference.path)
            {
                settled[reference.path] = target
            }
        }
        // Ids in document order of the models named.
        let named = Set(settled.values)
        var ids: [[ModelKeyPath.Component]: String] = [:]
        for model in models where named.contains(model) && ids[model] == nil { ids[model] = String(ids.count + 1) }
        path = []
        let result = try Self.rewrite(.object(merged), at: rootShape, path: &path) { members, at, place in
            if place != .model {
                guard let target = settled[at], let id = ids[target] else { return .null }
                return [ReferenceKeys.ref: .string(id)]
            }
            // An id a resolution wrote itself names nothing here: only the
            // ids numbered now are kept.
            var unnumbered = members
            unnumbered.removeValue(forKey: ReferenceKeys.id)
            guard let id = ids[at] else { return .object(unnumbered) }
            var numbered = ModelValue.Object(minimumCapacity: members.count + 1)
            numbered.appendNew(key: ReferenceKeys.id, value: .string(id))
            for (index, (key, value)) in unnumbered.enumerated() {
                numbered.appendNew(key: key, value: value)
                if let text = unnumbered.text(at: index) { numbered.setText(text, at: numbered.count - 1) }
            }
            return .object(numbered)
        }
        guard case .object(let members) = result else { return merged }
        return members
    }

    /// Finds the models the ways name in the merged form.
    private struct Resolver {
        let merged: ModelValue.Object
        let targets: [String: [Step]]
        private var found: [String: [ModelKeyPath.Component]?] = [:]
        /// Per array (by the path to it), each identity's position; -1 for
        /// an identity two elements share.
        private var positions: [[ModelKeyPath.Component]: [ModelValue: Int]] = [:]

        init(merged: ModelValue.Object, targets: [String: [Step]]) {
            self.merged = merged
            self.targets = targets
        }

        /// The path in `merged` of the model that `text`, a reference at
        /// `path`, names, or `nil` where it is not there (or the text names
        /// no model).
        mutating func resolve(_ text: String, from path: [ModelKeyPath.Component]) -> [ModelKeyPath.Component]? {
            if text.hasPrefix(MergeReferences.upPrefix) {
                guard let up = Int(text.dropFirst(MergeReferences.upPrefix.count)), up > 0, up <= path.count else {
                    return nil
                }
                let target = Array(path.dropLast(up))
                return isModel(at: target) ? target : nil
            }
            if let known = found[text] { return known }
            let path = targets[text].flatMap { walk($0) }
            found[text] = path
            return path
        }

        /// Whether `path` leads to an object of `merged` that is not a reference.
        private func isModel(at path: [ModelKeyPath.Component]) -> Bool {
            var node = ModelValue.object(merged)
            for component in path {
                switch (component, node) {
                case (.key(let key), .object(let members)):
                    guard let member = members[key] else { return false }
                    node = member
                case (.index(let index), .array(let elements)):
                    guard index < elements.count else { return false }
                    node = elements[index]
                default:
                    return false
                }
            }
            guard case .object(let members) = node else { return false }
            return !(members.count == 1 && members[ReferenceKeys.ref] != nil)
        }

        private mutating func walk(_ steps: [Step]) -> [ModelKeyPath.Component]? {
            var node = ModelValue.object(merged)
            var path: [ModelKeyPath.Component] = []
            for step in steps {
                switch (step, node) {
                case (.key(let key), .object(let members)):
                    guard let member = members[key] else { return nil }
                    node = member
                    path.append(.key(key))
                case (.identity(let key, let value), .array(let elements)):
                    if positions[path] == nil {
                        var table: [ModelValue: Int] = [:]
                        for (index, element) in elements.enumerated() {
                            guard case .object(let members) = element, let id = members[key] else { continue }
                            table[id] = table[id] == nil ? index : -1
                        }
                        positions[path] = table
                    }
                    guard let index = positions[path]?[value], index >= 0 else { return nil }
                    node = elements[index]
                    path.append(.index(index))
                case (.index(let index, let count), .array(let elements)):
                    guard elements.count == count else { return nil }
                    node = elements[index]
                    path.append(.index(index))
                default:
                    return nil
                }
            }
            guard case .object(let members) = node, !(members.count == 1 && members[ReferenceKeys.ref] != nil) else {
                return nil
            }
            return path
        }
    }
}
