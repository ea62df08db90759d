/// The walk of a three-way merge over `ModelValue`s.
///
/// Invariants: `path` is the key path of the value being merged, in the
/// merged value's positions, and is as it was when each method returns;
/// every conflict met is appended to `conflicts` and settled by `policy`.
/// Containers are walked one level of recursion each, under
/// `StackGuard.descendingThrowing`, so values of any depth merge on a small
/// stack.
///
/// The rules, for values `base`, `ours` and `theirs` at one path:
/// - ours equal to theirs, or one side equal to the base: the other side's
///   value (a change on one side only, or the same change on both);
/// - three objects: merged key by key; three arrays: merged element by
///   element (`ThreeWayMerge+Arrays.swift`);
/// - anything else: a conflict.
/// Values compare with `==`: strings by their Unicode scalars, numbers of
/// different cases (`1` and `1.0`) as different values.
struct ThreeWayMerge {
    var policy: MergePolicy
    /// Where models stand, for their classes' identity keys; `.other` for a
    /// plain document.
    var rootShape: SavedFormShape = .other
    var path: [ModelKeyPath.Component] = []
    var conflicts: [MergeConflict] = []
    /// Whether the models merged by ``mergeModels(base:ours:theirs:)`` had
    /// references (`"$id"`, `"$ref"`).
    private(set) var hadReferences = false
    /// The hashes of the versions' containers, for comparing them in
    /// linear time; made anew for each ``mergeRoot(_:_:_:)``.
    var fingerprints = ValueFingerprints()
    /// For a plain document: the member that identifies the objects of an
    /// array (``ModelValue/merge(base:ours:theirs:policy:identityKey:)``).
    var plainIdentityKey: String?

    init(policy: MergePolicy, rootShape: SavedFormShape = .other) {
        self.policy = policy
        self.rootShape = rootShape
    }

    /// The merge of the three documents.
    mutating func mergeRoot(_ base: ModelValue, _ ours: ModelValue, _ theirs: ModelValue) throws -> ModelValue {
        fingerprints = ValueFingerprints()
        defer { fingerprints = ValueFingerprints() }
        guard let merged = try merge(base, ours, theirs, shape: rootShape) else {
            throw ModelError(
                code: .invalidValue,
                message: "the resolution of the conflict at the root removed the whole document; "
                    + "a merge must give a value")
        }
        return merged
    }

    /// The merge of the saved forms of three models (written with
    /// ``ReferencePolicy/shared``), their references named by the way to
    /// their models while merging and numbered again after it
    /// (``MergeReferences``).
    mutating func mergeModels(
        base: ModelValue.Object, ours: ModelValue.Object, theirs: ModelValue.Object
    ) throws -> ModelValue {
        let references = try MergeReferences(base: base, ours: ours, theirs: theirs, rootShape: rootShape)
        // A reference is one value: two that differ conflict as wholes.
        hadReferences = references.hasReferences
        let merged = try mergeRoot(
            .object(references.forms[0]), .object(references.forms[1]), .object(references.forms[2]))
        guard case .object(let members) = merged else { return merged }
        return .object(try references.restored(members, merger: &self))
    }

    /// The merge of one value, `nil` where it is removed. A `nil` argument is
    /// a version without the value.
    mutating func merge(
        _ base: ModelValue?, _ ours: ModelValue?, _ theirs: ModelValue?, shape: SavedFormShape
    ) throws -> ModelValue? {
        if fingerprints.equal(ours, theirs) { return ours }
        if fingerprints.equal(ours, base) { return theirs }
        if fingerprints.equal(theirs, base) { return ours }
        guard let base, let ours, let theirs else {
            return try conflict(base == nil ? .changedOnBothSides : .removedOnOneSide, base, ours, theirs)
        }
        switch (base, ours, theirs) {
        case (.object(let base), .object(let ours), .object(let theirs))
        where !hadReferences || !(MergeReferences.isReference(base) || MergeReferences.isReference(ours)
            || MergeReferences.isReference(theirs)):
            return .object(
                try StackGuard.descendingThrowing(path.count) {
                    try mergeObjects(base, ours, theirs, shape: shape)
                })
        case (.array(let base), .array(let ours), .array(let theirs)):
            return .array(
                try StackGuard.descendingThrowing(path.count) {
                    try mergeArrays(base, ours, theirs, shape: shape)
                })
        default:
            return try conflict(.changedOnBothSides, base, ours, theirs)
        }
    }

    /// Records a conflict at `path` and returns the policy's value for it.
    mutating func conflict(
        _ kind: MergeConflict.Kind, _ base: ModelValue?, _ ours: ModelValue?, _ theirs: ModelValue?
    ) throws -> ModelValue? {
        let conflict = MergeConflict(
            path: ModelKeyPath(path), kind: kind, base: base, ours: ours, theirs: theirs)
        conflicts.append(conflict)
        return try policy.resolution(of: conflict)
    }

    /// Objects merged key by key: our keys in our order, then the keys only
    /// they added, in theirs; a key either side removed (unchanged on the
    /// other) is left out.
    private mutating func mergeObjects(
        _ base: ModelValue.Object, _ ours: ModelValue.Object, _ theirs: ModelValue.Object, shape: SavedFormShape
    ) throws -> ModelValue.Object {
        var merged = ModelValue.Object(minimumCapacity: ours.count)
        let layout = shape.layout(of: .object(ours))
        for (key, value) in ours {
            path.append(.key(key))
            defer { path.removeLast() }
            let result = try merge(base[key], value, theirs[key], shape: layout?.shape(ofKey: key) ?? .other)
            if let result {
                merged.appendNew(key: key, value: result)
                if ours.hasTexts || theirs.hasTexts, let text = Self.keptText(of: result, forKey: key, in: ours, theirs) {
                    merged.setText(text, at: merged.count - 1)
                }
            } else if let layout, let offset = layout.offset(forKey: key), KeyHash.sameBytes(layout.slots[offset].key, key) {
                // Only a resolution removes a key every version has.
                throw ModelError(
                    code: .invalidValue,
                    message: "a saved key of \(layout.type) cannot be removed by a merge; the resolution must give it a value",
                    keyPath: ModelKeyPath(path))
            }
        }
        for (key, value) in theirs where ours.index(forKey: key) == nil {
            path.append(.key(key))
            defer { path.removeLast() }
            let result = try merge(base[key], nil, value, shape: layout?.shape(ofKey: key) ?? .other)
            if let result {
                merged.appendNew(key: key, value: result)
                if theirs.hasTexts, let text = Self.keptText(of: result, forKey: key, in: theirs) {
                    merged.setText(text, at: merged.count - 1)
                }
            }
        }
        return merged
    }

    /// The JSON text a version's member under `key` keeps, where the merged
    /// `result` is that member's value: the member comes out as it came in
    /// (`1.10`, a 30-digit decimal).
    private static func keptText(
        of result: ModelValue, forKey key: String, in versions: ModelValue.Object...
    ) -> RawJSON? {
        for version in versions where version.hasTexts {
            if let index = version.index(forKey: key), let text = version.text(at: index),
                version.values[index] == result
            {
                return text
            }
        }
        return nil
    }
}

extension SavedFormShape {
    /// The layout of the model that `value` holds where this shape stands,
    /// or `nil` where no model stands.
    func layout(of value: ModelValue) -> ClassLayout? {
        guard case .model(let declared) = self else { return nil }
        return SavedFormShape.actualLayout(declared, of: value)
    }
}

extension ClassLayout {
    /// The shape of the value saved under `key` in this class's saved form:
    /// `.other` for extensible properties and weak references.
    func shape(ofKey key: String) -> SavedFormShape {
        guard let offset = offsetsByKey[key], KeyHash.sameBytes(slots[offset].key, key), !weakSlots.contains(offset)
        else { return .other }
        return .of(slots[offset].codec.valueType)
    }
}
