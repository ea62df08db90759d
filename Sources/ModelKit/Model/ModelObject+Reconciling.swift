/// Keeps the identity of models when a patch is loaded into a live model.
///
/// A patch is decoded into fresh models (so that nothing changes until the
/// whole result has decoded and validated); the reconciler then puts the
/// live models back in their places:
/// - a fresh model whose class names an ``ModelObject/identityKey`` is the
///   live model of the same class with the same identity, wherever it was,
///   edited or not;
/// - a fresh model equivalent to a live one of the same class that held the
///   same place (found in order, so insertions and removals shift nothing)
///   *is* that live model: the patch did not touch it;
/// - a fresh model left over is paired with the live model left over of
///   the same class that has the most equal saved values (the nearest in
///   position on a tie): the patch edited it, so the live model takes the fresh one's
///   values, recording each change, and its own models are reconciled the
///   same way;
/// - any other fresh model is new, and stays.
/// Weak references that point at fresh models are pointed at the live models
/// that replace them. Where the patched form was written with
/// ``ReferencePolicy/cycles``, which writes a weak reference to a model off
/// its own path as `null`, an edited model keeps such a link: the form could
/// not show it, so the patch cannot have changed it.
final class ModelReconciler {
    /// Whether weak links the form could not write are kept.
    private let keepsUnwrittenLinks: Bool
    /// The live models above the one being paired, the root first.
    private var above: [ObjectIdentifier] = []

    /// A reconciler for a patch of `root`'s saved form, written with `references`.
    init(root: ModelObject, references: ReferencePolicy) {
        keepsUnwrittenLinks = references == .cycles
        above = [ObjectIdentifier(root)]
    }

    /// Fresh model → the live model that stands for it.
    private var mapping: [ObjectIdentifier: ModelObject] = [:]
    /// Live models already standing for a fresh one.
    private var used = Set<ObjectIdentifier>()
    /// Live models that take the values of a fresh one, in the order found.
    private var edits: [(live: ModelObject, fresh: ModelObject, above: [ObjectIdentifier])] = []
    /// Fresh models that stay, whose weak references may need pointing.
    private var kept: [ModelObject] = []

    /// Pairs the models of `new`, a value of `codec`'s type decoded from a
    /// patch, with those of `old`, the live value in the same place.
    func pair(old: Any, new: Any, codec: any SlotCodec, depth: Int) {
        var live: [ModelObject] = []
        codec.forEachModel(in: old) { live.append($0) }
        var fresh: [ModelObject] = []
        codec.forEachModel(in: new) { if mapping[ObjectIdentifier($0)] == nil { fresh.append($0) } }
        guard !fresh.isEmpty else { return }

        // One model in the place on each side (an optional or single model,
        // or an array of one): the same model, edited or not (only one
        // whose own values change is hooked, see `applyEdits()`).
        if live.count == 1, fresh.count == 1, Swift.type(of: live[0]) == Swift.type(of: fresh[0]),
            !used.contains(ObjectIdentifier(live[0]))
        {
            edited(live[0], fresh[0], depth: depth)
            return
        }

        // The same identity: the same model, wherever it moved.
        var identified = Set<Int>()
        if let identityKey = Swift.type(of: fresh[0]).identityKey {
            var byIdentity: [ModelValue: ModelObject] = [:]
            for model in live where !used.contains(ObjectIdentifier(model)) {
                if let id = Self.identity(of: model, key: identityKey) {
                    byIdentity[id] = byIdentity[id] == nil ? model : nil
                }
            }
            for (index, model) in fresh.enumerated() {
                guard let id = Self.identity(of: model, key: identityKey), let match = byIdentity[id],
                    Swift.type(of: match) == Swift.type(of: model), !used.contains(ObjectIdentifier(match))
                else { continue }
                identified.insert(index)
                if match.isEquivalent(to: model) {
                    untouched(match, model, depth: depth)
                } else {
                    edited(match, model, depth: depth)
                }
            }
        }

        // Untouched: equivalent, in order. Candidates are found by a
        // signature of their plain saved values, which equivalent models
        // share, so each fresh model is compared with few live ones.
        var unmatched: [Int] = []
        var cursor = 0
        var bySignature: [Int: [Int]]?
        for (index, model) in fresh.enumerated() where !identified.contains(index) {
            let candidates = [cursor, index].filter { $0 < live.count }
            var match = candidates.first(where: { isUntouched(live[$0], model) })
            if match == nil {
                if bySignature == nil {
                    var table: [Int: [Int]] = [:]
                    for (position, candidate) in live.enumerated() {
                        table[Self.signature(of: candidate), default: []].append(position)
                    }
                    bySignature = table
                }
                match = bySignature?[Self.signature(of: model)]?.first(where: { isUntouched(live[$0], model) })
            }
            if let match {
                untouched(live[match], model, depth: depth)
                cursor = match + 1
            } else {
                unmatched.append(index)
            }
        }
        // Edited: the left-over live model of the same class most like it
        // (the most equal saved values), the nearest in position on a tie.
        // Past a few thousand pairs, each looks only among the left-over
        // live models near its own rank among the left-over fresh ones:
        // patches and merges keep the order of what they edit.
        let left = live.indices.filter { !used.contains(ObjectIdentifier(live[$0])) }
        let searchesAll = unmatched.count * left.count <= Self.pairingLimit
        for (rank, index) in unmatched.enumerated() {
            let model = fresh[index]
            let window =
                searchesAll
                ? left[...] : left[max(0, rank - Self.pairingWindow)..<min(left.count, rank + Self.pairingWindow + 1)]
            var best: (position: Int, score: Int, distance: Int)?
            for position in window {
                let candidate = live[position]
                guard Swift.type(of: candidate) == Swift.type(of: model), !used.contains(ObjectIdentifier(candidate))
                else { continue }
                let score = Self.similarity(candidate, model)
                let distance = abs(position - index)
                if best.map({ score > $0.score || (score == $0.score && distance < $0.distance) }) ?? true {
                    best = (position, score, distance)
                }
            }
            if let best {
                edited(live[best.position], model, depth: depth)
            } else {
                kept.append(model)
            }
        }
    }

    /// The most pairs of left-over models scored against each other in one place.
    static let pairingLimit = 4_096
    /// How far, in rank, a left-over fresh model looks for its live model past that.
    static let pairingWindow = 16

    /// A hash of the class and the saved values of `model` that hold no
    /// models (nor weak references): equivalent models have equal ones.
    private static func signature(of model: ModelObject) -> Int {
        let layout = model.layout
        let values = model.withState { $0.snapshotValues() }
        var hasher = Hasher()
        hasher.combine(ObjectIdentifier(Swift.type(of: model)))
        for slot in layout.slots where !layout.slotMayHoldModels[slot.offset] && !layout.weakSlots.contains(slot.offset) {
            hasher.combine(slot.codec.encode(values[slot.offset]))
        }
        return hasher.finalize()
    }

    /// `value` (a fresh value of `codec`'s type) with each fresh model
    /// replaced by the live model that stands for it.
    func replacingModels(in value: Any, codec: any SlotCodec) -> Any {
        codec.replacingModels(in: value) { mapping[ObjectIdentifier($0)] ?? $0 }
    }

    /// A weak reference (or any other value) pointed at the live model that
    /// stands for its fresh target.
    func repointed(_ value: Any) -> Any {
        guard let reference = value as? any WeakReferenceValue, let target = reference.target,
            let live = mapping[ObjectIdentifier(target)]
        else { return value }
        return reference.pointing(to: live)
    }

    /// Gives each edited live model its fresh model's values, recording the
    /// changes, and points the weak references of the fresh models that stay.
    func applyEdits() {
        for (live, fresh, above) in edits {
            let layout = live.layout
            let values = fresh.withState { $0.snapshotValues() }
            let bag = fresh.withState { $0.bag.objectKeepingTexts }
            var updates: [(offset: Int, value: Any)] = []
            for slot in layout.slots {
                var value = values[slot.offset]
                if layout.weakSlots.contains(slot.offset) {
                    value = repointed(value)
                    if keepsUnwrittenLinks, (value as? any WeakReferenceValue)?.target == nil {
                        let link = live.withState { $0.value(at: slot.offset) }
                        if let target = (link as? any WeakReferenceValue)?.target, target !== live,
                            !above.contains(ObjectIdentifier(target))
                        {
                            value = link
                        }
                    }
                } else if layout.slotMayHoldModels[slot.offset] {
                    value = replacingModels(in: value, codec: slot.codec)
                }
                updates.append((slot.offset, value))
            }
            let (current, liveBag) = live.withState { ($0.snapshotValues(), $0.bag.object) }
            let removed = liveBag.keys.filter { bag.index(forKey: $0) == nil }
            // A model whose own values stay (only models below it changed,
            // edited in place) is not edited: nothing to set, no hook.
            let changes =
                !removed.isEmpty || liveBag != bag
                || updates.contains { !layout.slots[$0.offset].codec.isEqual(current[$0.offset], $0.value) }
            guard changes else { continue }
            live.withLock {
                live.apply(values: updates, bag: bag, newerVersion: nil, recordingChanges: true, replacingBag: false)
                for key in removed { live.removeExtensibleProperty(forKey: key) }
            }
            // Its didLoad() runs when the patch ends, as the models it brought do.
            ModelObject.noteEditedByLoad(live)
        }
        for model in kept {
            let layout = model.layout
            model.withState { state in
                for offset in layout.weakSlots { state.setValue(repointed(state.value(at: offset)), at: offset) }
            }
        }
    }

    /// The saved value under `key` of `model`, if it has that saved key.
    private static func identity(of model: ModelObject, key: String) -> ModelValue? {
        let layout = model.layout
        guard let offset = layout.offset(forKey: key) else { return nil }
        let value = model.withState { $0.value(at: offset) }
        return layout.slots[offset].codec.encode(value)
    }

    /// How many saved values of `live` and `fresh` (of one class) are equal,
    /// models compared by their places only.
    private static func similarity(_ live: ModelObject, _ fresh: ModelObject) -> Int {
        let layout = live.layout
        let old = live.withState { $0.snapshotValues() }
        let new = fresh.withState { $0.snapshotValues() }
        var score = 0
        for slot in layout.slots {
            let codec = slot.codec
            let equal =
                layout.slotMayHoldModels[slot.offset]
                ? codec.matches(old[slot.offset], new[slot.offset], pairing: { _, _ in })
                : codec.isEqual(old[slot.offset], new[slot.offset])
            if equal { score += 1 }
        }
        return score
    }

    private func isUntouched(_ live: ModelObject, _ fresh: ModelObject) -> Bool {
        !used.contains(ObjectIdentifier(live)) && Swift.type(of: live) == Swift.type(of: fresh)
            && live.isEquivalent(to: fresh)
    }

    /// `live` stands for `fresh`, and so do their models, place by place.
    private func untouched(_ live: ModelObject, _ fresh: ModelObject, depth: Int) {
        stand(live, for: fresh)
        descend(live, fresh, depth: depth)
    }

    /// `live` takes `fresh`'s values.
    private func edited(_ live: ModelObject, _ fresh: ModelObject, depth: Int) {
        stand(live, for: fresh)
        edits.append((live, fresh, above))
        descend(live, fresh, depth: depth)
    }

    private func stand(_ live: ModelObject, for fresh: ModelObject) {
        mapping[ObjectIdentifier(fresh)] = live
        used.insert(ObjectIdentifier(live))
    }

    /// Pairs the models that `live` and `fresh` (of one class) hold.
    private func descend(_ live: ModelObject, _ fresh: ModelObject, depth: Int) {
        let layout = live.layout
        let old = live.withState { $0.snapshotValues() }
        let new = fresh.withState { $0.snapshotValues() }
        above.append(ObjectIdentifier(live))
        defer { above.removeLast() }
        StackGuard.descending(depth) {
            for offset in layout.modelSlots where !layout.weakSlots.contains(offset) {
                pair(old: old[offset], new: new[offset], codec: layout.slots[offset].codec, depth: depth + 1)
            }
        }
    }
}
