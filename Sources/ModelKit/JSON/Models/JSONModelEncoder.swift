import Foundation

/// Writes model objects straight into a `JSONWriter`, without building a
/// ``ModelValue`` for the objects it writes.
///
/// Each object's members come out as ``ModelObject/encodedMembers(includeMetadata:)``
/// lists them (metadata keys, saved keys in `savedKeys` order, then the bag),
/// sorted when the options say so, with the `JSONWriter`'s own key, string
/// and number forms and indentation, so the bytes are the same as writing
/// the `ModelValue`. Common scalars and models (alone, optional or in
/// arrays) are written from the slots; values of types that convert through
/// the `Codable` default from the tree their encoding makes
/// (`CodableSlotWriter`, `writeTree`); other values go through the slot's
/// codec and the writer, as before.
///
/// Like `JSONModelDecoder`, it is a fast path that reports no errors of its
/// own: on any failure (a number JSON cannot hold, a class with declaration
/// problems, models nested too deep) the caller writes the document again
/// through `ModelValue`, which throws the error with its key path as before.
/// So does a graph that needs references (a cycle, or a bag key of the
/// reference shape): the `ModelValue` path writes those.
struct JSONModelEncoder {
    /// Makes the caller fall back to the `ModelValue` path, which reports the real error.
    struct Failure: Error {}

    /// The deepest container written directly: this bounds the recursion;
    /// deeper models are written from their `modelValue`, as before.
    static let directDepth = 32

    var writer: JSONWriter
    /// Containers open around the current position.
    private var depth = 0
    /// The models on the path, shared with the `ModelValue` path below `directDepth`.
    private let guardian = EncodingGuard.current
    /// For a graph with cycles: the id of each model that a later one refers
    /// back to, by the order models are entered (see `CyclePlan`); without
    /// it, a reference makes the caller fall back to the `ModelValue` path.
    var plan: [Int: String]?
    /// How many models have been entered.
    private var entered = 0
    /// Whether a model referred back to one on its path.
    private(set) var metCycle = false
    /// `Codable` slot values written without a `ModelValue` (for tests).
    private(set) var codableValuesWritten = 0

    init(options: JSONWritingOptions, initialCapacity: Int = 4096) {
        writer = JSONWriter(options: options, initialCapacity: initialCapacity)
    }

    /// Where a member's value comes from.
    private enum Source {
        case typeName, version, slot(Int), bag(Int)
    }

    /// Writes `object` with its metadata, saved values and bag.
    mutating func writeModel(_ object: ModelObject) throws {
        // Not retained: the class's layout lives as long as the program.
        try Unmanaged.passUnretained(object.layout)._withUnsafeGuaranteedRef { layout in
            try writeModel(object, layout: layout)
        }
    }

    private mutating func writeModel(_ object: ModelObject, layout: ClassLayout) throws {
        // DejalObject's form is written by the ModelValue path (see DejalObjectForm).
        guard layout.problems.isEmpty, layout.savedDialect == .modelKit else { throw Failure() }
        guard depth < Self.directDepth else {
            // A reference or a problem in there is recorded in the EncodingGuard, which the caller checks.
            // Possibly thousands of levels deep: freed without recursion.
            var value = object.modelValue
            defer { value.releaseWithoutRecursion() }
            writer.baseDepth = depth
            defer { writer.baseDepth = 0 }
            try writer.writeWithoutRecursion(value)
            return
        }
        let planned = plan?[entered]
        switch guardian.enter(object, plannedID: planned) {
        case .write:
            break
        case .reference(let id):
            // A cycle: written here only as planned, else by the ModelValue path.
            metCycle = true
            guard plan != nil else { throw Failure() }
            try writeValue(.object([ReferenceKeys.ref: .string(id)]))
            return
        case .refuse:
            // The nesting limit: the ModelValue path reports it.
            throw Failure()
        }
        entered += 1
        do {
            if depth < 2 * StackGuard.uncheckedLevels {
                try writeMembers(of: object, layout: layout, id: planned)
            } else {
                try StackGuard.continuingOnLargeStack { try writeMembers(of: object, layout: layout, id: planned) }
            }
        } catch {
            guardian.leave()
            throw error
        }
        // A model below referred back to this one, which was written without that id.
        guard guardian.leave() == planned else { throw Failure() }
    }

    /// Writes the members of `object`, of the class of `layout`, in braces,
    /// `"$id": id` first when it has one.
    private mutating func writeMembers(of object: ModelObject, layout: ClassLayout, id: String?) throws {
        guard !writer.options.sortedKeys else { return try writeSortedMembers(of: object, layout: layout, id: id) }
        // Not retained: the plan lives as long as its layout.
        try Unmanaged.passUnretained(layout.jsonPlan)._withUnsafeGuaranteedRef { plan in
            try writeMembers(of: object, layout: layout, plan: plan, id: id)
        }
    }

    private mutating func writeMembers(
        of object: ModelObject, layout: ClassLayout, plan: JSONDecodingPlan, id: String?
    ) throws {
        let order = UnsafeBufferPointer(plan.savedOrder)
        var isFirst = true
        // Under the object's lock, the members up to the first value that is
        // not a common scalar are written straight from the cells (typed, no
        // box); the other values are boxed, and written with the bag once the
        // lock is released (a model takes its own lock). Either way, what is
        // written is the object as it was at one moment.
        // Filled in under the lock (as variables of this frame, not a tuple
        // of results to copy out).
        var rest = ContiguousArray<Any>()
        var lastModel: Unmanaged<ModelObject>?
        var bagCopy: BagCopy?
        let compact = !writer.options.prettyPrinted && !writer.options.escapesSlashes
        let next = try object.withState { state throws -> Int in
            // An empty bag is not copied out (a copy retains and releases its storage).
            if !state.bagIsEmpty { bagCopy = BagCopy(state.bag) }
            if entered == 1, let documentCount = bagCopy?.bag.compactDocumentCount {
                // The root was read from a document: its JSON is likely about
                // that long, so make room once rather than doubling the buffer
                // (and copying what it holds) a dozen times on the way.
                writer.reserve(documentCount)
            }
            writer.append(JSONByte.openBrace)
            depth += 1
            if let id {
                beginMember(ReferenceKeys.id, isFirst: &isFirst)
                writer.writeString(id)
            }
            if let typeKey = layout.typeKey {
                beginMember(typeKey, written: plan.writtenTypeKey, of: plan, isFirst: &isFirst)
                if writer.options.escapesSlashes {
                    writer.writeString(layout.typeName)
                } else {
                    appendWritten(plan.writtenTypeName, of: plan)
                }
            }
            if let versionKey = layout.versionKey {
                beginMember(versionKey, written: plan.writtenVersionKey, of: plan, isFirst: &isFirst)
                writer.writeInteger(max(layout.version, state.loadedNewerVersion ?? 0))
            }
            var next = 0
            if compact {
                next = try writeCompactScalars(order, of: state, plan: plan, isFirst: &isFirst)
            } else {
                while next < order.count {
                    let offset = order[next]
                    guard try writeScalarSlot(offset, of: state, layout: layout, isFirst: &isFirst) else { break }
                    next += 1
                }
            }
            // A model in the last slot (a common shape) is taken as itself:
            // no array of boxes to make, no cast to undo.
            if next == order.count &- 1, plan.compactMembers[order[next]].code == .model {
                let cell = state.cells + order[next] &* SlotCell.size
                // Retained once, by hand: the lock is released before it is written.
                lastModel = Unmanaged.passRetained(SlotCell.pointer(cell, as: ModelObject.self).pointee)
                return next
            }
            if next < order.count {
                rest.reserveCapacity(order.count - next)
                for offset in order[next...] { rest.append(state.value(at: offset)) }
            }
            return next
        }
        if let lastModel {
            defer { lastModel.release() }
            let offset = order[next]
            if compact {
                appendCompactOpening(of: offset, plan: plan, isFirst: &isFirst)
            } else {
                beginMember(layout.slots[offset].key, written: plan.writtenKeys[offset], of: plan, isFirst: &isFirst)
            }
            try lastModel._withUnsafeGuaranteedRef { try writeModel($0) }
        } else {
            for (position, offset) in order[next...].enumerated() {
                beginMember(layout.slots[offset].key, written: plan.writtenKeys[offset], of: plan, isFirst: &isFirst)
                try writeSlot(rest[position], offset: offset, layout: layout)
            }
        }
        if let bag = bagCopy?.bag, bag.isCompact {
            // Straight from the document. Every such key is written: the
            // decoder sends a key with the exact text of a saved or
            // metadata key to its slot, never to the bag.
            writeCompactBag(bag, isFirst: &isFirst)
        } else if let bag = bagCopy?.bag {
            for (index, key) in bag.keys.enumerated() where Self.isBagKeyWritten(key, layout: layout) {
                guard !ReferenceKeys.isReserved(key) else { throw Failure() }
                beginMember(key, isFirst: &isFirst)
                try writeBagMember(bag, at: index)
            }
        }
        depth -= 1
        if !isFirst { writer.startLine(depth: depth) }
        writer.append(JSONByte.closeBrace)
    }

    /// An object's bag, copied out under its lock when it has members. Kept
    /// in a box: most objects have none, and dropping an empty reference is
    /// one check where dropping an empty optional bag destroys it field by
    /// field (about 60 instructions an object).
    private final class BagCopy {
        let bag: ExtensibleBag
        init(_ bag: ExtensibleBag) { self.bag = bag }
    }

    /// Writes the member of the slot at `offset` straight from its cell in
    /// `state` when it is a common scalar (its code says its exact type).
    /// - Returns: whether it did; otherwise nothing is written.
    @inline(__always)
    private mutating func writeScalarSlot(
        _ offset: Int, of state: ModelState, layout: ClassLayout, isFirst: inout Bool
    ) throws(ModelError) -> Bool {
        let plan = layout.jsonPlan
        let code = plan.compactMembers[offset].code
        guard code != .other && code != .model else { return false }
        beginMember(layout.slots[offset].key, written: plan.writtenKeys[offset], of: plan, isFirst: &isFirst)
        try writeScalar(code, at: state.cells + offset &* SlotCell.size)
        return true
    }

    /// Compact output without escaped slashes: the members of the slots in
    /// `order`, from its start up to the first that is not a common scalar,
    /// each as its plan's `,"key":` text and its value read in place from
    /// its cell.
    /// - Returns: how many members it wrote.
    @inline(__always)
    private mutating func writeCompactScalars(
        _ order: UnsafeBufferPointer<Int>, of state: ModelState, plan: JSONDecodingPlan, isFirst: inout Bool
    ) throws(ModelError) -> Int {
        let members = plan.compactMembers
        guard let openings = plan.compactOpenings.baseAddress else { return 0 }
        let slotted = plan.openingsHaveSlots
        var next = 0
        while next < order.count {
            let offset = order[next]
            let member = members[offset]
            guard member.code != .other && member.code != .model else { break }
            let skip = isFirst ? 1 : 0
            isFirst = false
            if slotted {
                // The whole slot (the opening, then zeros or the next slot's
                // first byte), counting only the opening.
                writer.appendSlot(from: openings + (member.start &+ skip), count: member.count &- skip)
            } else {
                writer.append(UnsafeBufferPointer(start: openings + (member.start &+ skip), count: member.count &- skip))
            }
            try writeScalar(member.code, at: state.cells + offset &* SlotCell.size)
            next &+= 1
        }
        return next
    }

    /// Compact output without escaped slashes: the `,"key":` that opens the
    /// member of the slot at `offset` (without the comma when it is the first).
    @inline(__always)
    private mutating func appendCompactOpening(of offset: Int, plan: JSONDecodingPlan, isFirst: inout Bool) {
        guard let openings = plan.compactOpenings.baseAddress else { return }
        let member = plan.compactMembers[offset]
        let skip = isFirst ? 1 : 0
        isFirst = false
        writer.append(UnsafeBufferPointer(start: openings + (member.start &+ skip), count: member.count &- skip))
    }

    /// Writes the common scalar of `code` in the cell at `cell`, read in
    /// place (a string's storage is not even retained).
    @inline(__always)
    private mutating func writeScalar(_ code: JSONDecodingPlan.ScalarCode, at cell: UnsafeMutableRawPointer)
        throws(ModelError)
    {
        switch code {
        case .int: writer.writeInteger(SlotCell.pointer(cell, as: Int.self).pointee)
        case .string: writer.writeString(at: SlotCell.pointer(cell, as: String.self))
        case .bool: writer.append(SlotCell.pointer(cell, as: Bool.self).pointee ? "true" : "false")
        case .double: try writer.writeDouble(SlotCell.pointer(cell, as: Double.self).pointee)
        case .optionalInt:
            if let number = SlotCell.pointer(cell, as: Int?.self).pointee {
                writer.writeInteger(number)
            } else {
                writer.append("null")
            }
        case .optionalString:
            if let text = SlotCell.pointer(cell, as: String?.self).pointee {
                writer.writeString(text)
            } else {
                writer.append("null")
            }
        case .optionalBool:
            if let flag = SlotCell.pointer(cell, as: Bool?.self).pointee {
                writer.append(flag ? "true" : "false")
            } else {
                writer.append("null")
            }
        case .optionalDouble:
            if let number = SlotCell.pointer(cell, as: Double?.self).pointee {
                try writer.writeDouble(number)
            } else {
                writer.append("null")
            }
        case .other, .model:
            break
        }
    }

    /// ``writeMembers(of:layout:id:)`` with sorted keys: every member, the
    /// bag's too, in the order of their keys' bytes, from a snapshot of the values.
    private mutating func writeSortedMembers(of object: ModelObject, layout: ClassLayout, id: String?) throws {
        let (values, bag, newerVersion) = object.withState { ($0.snapshotValues(), $0.bag, $0.loadedNewerVersion) }
        if entered == 1, let documentCount = bag.compactDocumentCount { writer.reserve(documentCount) }
        writer.append(JSONByte.openBrace)
        depth += 1
        var isFirst = true
        if let id {
            beginMember(ReferenceKeys.id, isFirst: &isFirst)
            writer.writeString(id)
        }
        var members: [(key: String, source: Source)] = []
        members.reserveCapacity(layout.savedOrder.count + bag.count + 2)
        if let typeKey = layout.typeKey { members.append((typeKey, .typeName)) }
        if let versionKey = layout.versionKey { members.append((versionKey, .version)) }
        for offset in layout.savedOrder { members.append((layout.slots[offset].key, .slot(offset))) }
        for (index, key) in bag.keys.enumerated() where Self.isBagKeyWritten(key, layout: layout) {
            guard !ReferenceKeys.isReserved(key) else { throw Failure() }
            members.append((key, .bag(index)))
        }
        members.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        for member in members {
            beginMember(member.key, isFirst: &isFirst)
            switch member.source {
            case .typeName: writer.writeString(layout.typeName)
            case .version: writer.writeInteger(max(layout.version, newerVersion ?? 0))
            case .slot(let offset): try writeSlot(values[offset], offset: offset, layout: layout)
            case .bag(let index): try writeBagMember(bag, at: index)
            }
        }
        depth -= 1
        if !isFirst { writer.startLine(depth: depth) }
        writer.append(JSONByte.closeBrace)
    }

    /// Whether a bag key is written: not when a metadata or saved key has
    /// exactly its text, as ``ModelObject/encodedMembers(includeMetadata:)``
    /// decides (object keys compare byte for byte; see `KeyHash`).
    private static func isBagKeyWritten(_ key: String, layout: ClassLayout) -> Bool {
        if let typeKey = layout.typeKey, KeyHash.sameBytes(key, typeKey) { return false }
        if let versionKey = layout.versionKey, KeyHash.sameBytes(key, versionKey) { return false }
        guard let offset = layout.offset(forKey: key) else { return true }
        return !KeyHash.sameBytes(layout.slots[offset].key, key)
    }

    /// The comma before every member but the first, the line, the key.
    @inline(__always)
    private mutating func beginMember(_ key: String, isFirst: inout Bool) {
        if isFirst {
            isFirst = false
        } else {
            writer.append(JSONByte.comma)
        }
        writer.startLine(depth: depth)
        writer.writeKey(key)
    }

    /// ``beginMember(_:isFirst:)`` for a key the plan has written out at
    /// `written` in its `writtenBytes`: copied, unless slashes are escaped.
    @inline(__always)
    private mutating func beginMember(
        _ key: String, written: Range<Int>?, of plan: JSONDecodingPlan, isFirst: inout Bool
    ) {
        guard let written, !writer.options.escapesSlashes else { return beginMember(key, isFirst: &isFirst) }
        if isFirst {
            isFirst = false
        } else {
            writer.append(JSONByte.comma)
        }
        writer.startLine(depth: depth)
        appendWritten(written, of: plan)
        if writer.options.prettyPrinted {
            writer.appendASCII(JSONByte.colon, JSONByte.space)
        } else {
            writer.append(JSONByte.colon)
        }
    }

    /// Appends the bytes at `range` of the plan's `writtenBytes`.
    @inline(__always)
    private mutating func appendWritten(_ range: Range<Int>, of plan: JSONDecodingPlan) {
        plan.writtenBytes.withUnsafeBufferPointer { bytes in writer.append(UnsafeBufferPointer(rebasing: bytes[range])) }
    }

    /// Writes an array of models.
    private mutating func writeModels(_ models: [ModelObject]) throws {
        guard !models.isEmpty else {
            writer.appendASCII(JSONByte.openBracket, JSONByte.closeBracket)
            return
        }
        guard depth < Self.directDepth else {
            var value = ModelValue.array(models.map(\.modelValue))
            defer { value.releaseWithoutRecursion() }
            try writeValue(value)
            return
        }
        writer.append(JSONByte.openBracket)
        depth += 1
        // Each model is held by `models`, which this call holds: none is retained again.
        try models.withUnsafeBufferPointer { models in
            for index in models.indices {
                if index > 0 { writer.append(JSONByte.comma) }
                writer.startLine(depth: depth)
                try Unmanaged.passUnretained(models[index])._withUnsafeGuaranteedRef { try writeModel($0) }
            }
        }
        depth -= 1
        writer.startLine(depth: depth)
        writer.append(JSONByte.closeBracket)
    }

    /// Writes the value of the slot at `offset`.
    private mutating func writeSlot(_ value: Any, offset: Int, layout: ClassLayout) throws {
        // The slot's kind says its exact type: `ExactType` takes the value out
        // with a comparison of types, not the runtime's general cast.
        switch layout.jsonPlan.kinds[offset] {
        case .int: writer.writeInteger(ExactType.value(value, as: Int.self) ?? value as! Int)
        case .string: writer.writeString(ExactType.value(value, as: String.self) ?? value as! String)
        case .bool: writer.append((ExactType.value(value, as: Bool.self) ?? value as! Bool) ? "true" : "false")
        case .double: try writer.writeDouble(ExactType.value(value, as: Double.self) ?? value as! Double)
        case .optionalInt:
            if let number = ExactType.value(value, as: Int?.self) ?? value as! Int? {
                writer.writeInteger(number)
            } else {
                writer.append("null")
            }
        case .optionalString:
            if let text = ExactType.value(value, as: String?.self) ?? value as! String? {
                writer.writeString(text)
            } else {
                writer.append("null")
            }
        case .optionalBool:
            if let flag = ExactType.value(value, as: Bool?.self) ?? value as! Bool? {
                writer.append(flag ? "true" : "false")
            } else {
                writer.append("null")
            }
        case .optionalDouble:
            if let number = ExactType.value(value, as: Double?.self) ?? value as! Double? {
                try writer.writeDouble(number)
            } else {
                writer.append("null")
            }
        case .model:
            try writeModel(value as! ModelObject)
        case .optionalModel(_, _, let unwrap):
            if let model = unwrap(value) { try writeModel(model) } else { writer.append("null") }
        case .modelArray(_, _, let unwrap):
            try writeModels(unwrap(value))
        case .generic:
            let slot = layout.slots[offset]
            if let codable = layout.jsonPlan.codableWriters?[offset], codable.writes(value) {
                let tree = try CodingContext.with(classStrategy: slot.dateStrategy ?? layout.dateStrategy) { _ in
                    try codable.encode(value)
                }
                if let tree { try writeTree(tree) } else { writer.append("null") }
                codableValuesWritten += 1
                return
            }
            let encoded = CodingContext.with(classStrategy: slot.dateStrategy ?? layout.dateStrategy) { _ in
                slot.codec.encode(value)
            }
            try writeValue(encoded)
        }
    }

    /// Writes the bag member at `index`: its JSON text as it was read (spaced
    /// and ordered as the options say), or its value.
    private mutating func writeBagMember(_ bag: ExtensibleBag, at index: Int) throws {
        guard let text = bag.text(at: index) else { return try writeValue(bag.value(at: index)) }
        let depth = depth
        text.bytes.withUnsafeBytes { raw in writer.writeRaw(raw.bindMemory(to: UInt8.self), depth: depth) }
    }

    /// Writes the members of a bag in its compact form: keys and values as
    /// the document has them.
    private mutating func writeCompactBag(_ bag: ExtensibleBag, isFirst: inout Bool) {
        var writer = self.writer
        var first = isFirst
        let depth = depth
        let isPretty = writer.options.prettyPrinted
        let escapesSlashes = writer.options.escapesSlashes
        _ = bag.withCompactMembers { document, members in
            let bytes = document.bindMemory(to: UInt8.self)
            for member in members {
                if first {
                    first = false
                } else {
                    writer.append(JSONByte.comma)
                }
                writer.startLine(depth: depth)
                // The key with its quotes: it has no escapes, so it is written
                // as it is (its slashes escaped when the options say so).
                let quoted = UnsafeBufferPointer(rebasing: bytes[(member.key.lowerBound - 1)..<(member.key.upperBound + 1)])
                if escapesSlashes {
                    writer.writeRaw(quoted, depth: depth)
                } else {
                    writer.append(quoted)
                }
                if isPretty {
                    writer.appendASCII(JSONByte.colon, JSONByte.space)
                } else {
                    writer.append(JSONByte.colon)
                }
                let value = UnsafeBufferPointer(rebasing: bytes[member.value])
                // A number, string or literal (kept values have no whitespace
                // around them) is copied here, as `writeRaw` would copy it.
                let first = bytes[member.value.lowerBound]
                if first != JSONByte.openBrace, first != JSONByte.openBracket, !escapesSlashes {
                    writer.append(value)
                } else {
                    writer.writeRaw(value, depth: depth)
                }
            }
        }
        // The writer's buffer may have moved as it grew: take the copy back.
        self.writer = writer
        isFirst = first
    }

    /// Writes the tree a `Codable` value encoded to (`CodableSlotWriter`)
    /// exactly as writing the `ModelValue` that `EncodedNode.value` makes of
    /// it would: members in their order (sorted when the options say so), a
    /// node that holds nothing as `null`, the same depth limit.
    private mutating func writeTree(_ node: EncodedNode, level: Int = 0) throws {
        switch node.content {
        case .empty:
            writer.append("null")
        case .value(let value):
            writer.baseDepth = depth + level
            defer { writer.baseDepth = 0 }
            try writer.write(value)
        case .array(let nodes):
            guard depth + level < writer.options.maximumDepth else { throw Failure() }
            guard !nodes.isEmpty else {
                writer.appendASCII(JSONByte.openBracket, JSONByte.closeBracket)
                return
            }
            writer.append(JSONByte.openBracket)
            for (index, child) in nodes.enumerated() {
                if index > 0 { writer.append(JSONByte.comma) }
                writer.startLine(depth: depth + level + 1)
                try writeTree(child, level: level + 1)
            }
            writer.startLine(depth: depth + level)
            writer.append(JSONByte.closeBracket)
        case .object(let members):
            guard depth + level < writer.options.maximumDepth else { throw Failure() }
            guard !members.isEmpty else {
                writer.appendASCII(JSONByte.openBrace, JSONByte.closeBrace)
                return
            }
            writer.append(JSONByte.openBrace)
            let order =
                writer.options.sortedKeys
                ? members.indices.sorted { members[$0].0.utf8.lexicographicallyPrecedes(members[$1].0.utf8) }
                : Array(members.indices)
            for (index, member) in order.enumerated() {
                if index > 0 { writer.append(JSONByte.comma) }
                writer.startLine(depth: depth + level + 1)
                writer.writeKey(members[member].0)
                try writeTree(members[member].1, level: level + 1)
            }
            writer.startLine(depth: depth + level)
            writer.append(JSONByte.closeBrace)
        }
    }

    /// Writes a `ModelValue` with the writer, indented for where it sits.
    private mutating func writeValue(_ value: ModelValue) throws {
        writer.baseDepth = depth
        defer { writer.baseDepth = 0 }
        try writer.write(value)
    }
}

/// The ids that a graph with cycles needs, worked out before writing it, so
/// that the direct writer can put `"$id"` first in a model that a later one
/// refers back to, as the `ModelValue` path does after the fact.
///
/// It walks the models in the writer's order (saved keys in `savedKeys`
/// order; models alone, optional or in arrays) and numbers the models that
/// back-references name in document order, as the `ModelValue` path does. It gives up, and
/// the `ModelValue` path writes the graph, where that order is not sure to be
/// the writer's: models inside other values (dictionaries of models, say),
/// graphs deeper than the writer writes directly, classes with problems.
enum CyclePlan {
    /// The deepest chain of models planned for: the writer writes
    /// `JSONModelEncoder.directDepth` containers directly, and a model and
    /// its array are two.
    static let maximumModels = JSONModelEncoder.directDepth / 2 - 1

    /// The id of each model entered (by its order) that a later model refers back to.
    static func ids(for root: ModelObject) -> [Int: String]? {
        struct Frame {
            let object: ModelObject
            let index: Int
            let children: [ModelObject]
            var next = 0
        }
        guard let rootChildren = children(of: root) else { return nil }
        var path = [Frame(object: root, index: 0, children: rootChildren)]
        var positions: [ObjectIdentifier: Int] = [ObjectIdentifier(root): 0]
        var carriers = Set<Int>()
        var entered = 1
        while let top = path.last {
            guard top.next < top.children.count else {
                positions[ObjectIdentifier(top.object)] = nil
                path.removeLast()
                continue
            }
            let child = top.children[top.next]
            path[path.count - 1].next += 1
            if let position = positions[ObjectIdentifier(child)] {
                carriers.insert(path[position].index)
                continue
            }
            guard path.count < maximumModels, let grandchildren = children(of: child) else { return nil }
            positions[ObjectIdentifier(child)] = path.count
            path.append(Frame(object: child, index: entered, children: grandchildren))
            entered += 1
        }
        // Numbered in document order: a model's "$id" comes first among its members.
        var ids: [Int: String] = [:]
        for (rank, index) in carriers.sorted().enumerated() { ids[index] = String(rank + 1) }
        return ids
    }

    /// The models that `object`'s saved values hold, in the writer's order;
    /// `nil` when some are where the writer does not write them itself.
    private static func children(of object: ModelObject) -> [ModelObject]? {
        let layout = object.layout
        guard layout.problems.isEmpty else { return nil }
        let values = object.withState { $0.snapshotValues() }
        var children: [ModelObject] = []
        for offset in layout.savedOrder {
            switch layout.jsonPlan.kinds[offset] {
            case .model: children.append(values[offset] as! ModelObject)
            case .optionalModel(_, _, let unwrap): if let model = unwrap(values[offset]) { children.append(model) }
            case .modelArray(_, _, let unwrap): children.append(contentsOf: unwrap(values[offset]))
            case .generic: if layout.slots[offset].codec.mayContainModels { return nil }
            default: break
            }
        }
        return children
    }
}
