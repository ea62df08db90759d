import Foundation

/// What ``ModelJSONEncoder`` builds before writing: scalars in place,
/// arrays and objects as references, so that containers handed out by an
/// encoder stay the same container while they are filled.
enum EncodedJSON {
    case null
    case bool(Bool)
    case int(Int)
    case unsigned(UInt64)
    case double(Double)
    case float(Float)
    case string(String)
    /// Text written as it is: a `Decimal`'s digits.
    case verbatim(String)
    case array(EncodedArray)
    case object(EncodedObject)

    /// Writes this value; fails only for nesting past the readers' limit.
    func write(into writer: inout JSONWriter, depth: Int) throws(ModelError) {
        switch self {
        case .null: writer.append("null")
        case .bool(let flag): flag ? writer.append("true") : writer.append("false")
        case .int(let value): writer.writeInteger(value)
        case .unsigned(let value):
            writer.reserve(28)
            writer.count += writer.writeDigits(UInt64(value), at: writer.count)
        case .double(let value): try writer.writeDouble(value)
        case .float(let value):
            var digits = JSONWriter.ShortText()
            value.write(to: &digits)
            digits.withBytes { writer.append($0) }
        case .string(let text): writer.writeString(text)
        case .verbatim(var text): text.withUTF8 { writer.append($0) }
        case .array(let array):
            try Self.checkDepth(depth)
            let values = array.values
            if values.isEmpty {
                writer.writeEmptyContainer(JSONByte.openBracket, JSONByte.closeBracket, depth: depth)
                return
            }
            writer.append(JSONByte.openBracket)
            for (position, element) in values.enumerated() {
                if position > 0 { writer.append(JSONByte.comma) }
                writer.startLine(depth: depth + 1)
                try element.write(into: &writer, depth: depth + 1)
            }
            writer.startLine(depth: depth)
            writer.append(JSONByte.closeBracket)
        case .object(let object):
            try Self.checkDepth(depth)
            let members = object.members
            if members.isEmpty {
                writer.writeEmptyContainer(JSONByte.openBrace, JSONByte.closeBrace, depth: depth)
                return
            }
            writer.append(JSONByte.openBrace)
            if writer.options.sortedKeys {
                let order = members.indices.sorted {
                    members[$0].key.utf8.lexicographicallyPrecedes(members[$1].key.utf8)
                }
                for (position, member) in order.enumerated() {
                    if position > 0 { writer.append(JSONByte.comma) }
                    writer.startLine(depth: depth + 1)
                    writer.writeKey(members[member].key)
                    try members[member].value.write(into: &writer, depth: depth + 1)
                }
            } else {
                for member in members.indices {
                    if member > 0 { writer.append(JSONByte.comma) }
                    writer.startLine(depth: depth + 1)
                    writer.writeKey(members[member].key)
                    try members[member].value.write(into: &writer, depth: depth + 1)
                }
            }
            writer.startLine(depth: depth)
            writer.append(JSONByte.closeBrace)
        }
    }

    private static func checkDepth(_ depth: Int) throws(ModelError) {
        guard depth >= JSONWriter.maximumDepth else { return }
        throw depthError()
    }

    /// The error for a container inside `JSONWriter.maximumDepth` others.
    static func depthError() -> ModelError {
        ModelError(
            code: .nestingTooDeep,
            message: "arrays and objects nested deeper than \(JSONWriter.maximumDepth) levels, which no reader with "
                + "the default limit accepts",
            format: "JSON")
    }
}

/// An array being encoded.
final class EncodedArray {
    var values: [EncodedJSON]

    init(_ values: [EncodedJSON] = []) { self.values = values }
}

/// An object being encoded: keys in the order they were first encoded. A key
/// encoded again replaces its value, as in `JSONEncoder`.
final class EncodedObject {
    /// The members and what `set` needs, in one stored value, so that adding
    /// a member is one access to the object (each is checked at run time).
    private var storage = Storage()

    struct Storage {
        var members: [(key: String, value: EncodedJSON)] = []
        /// One bit per key, by length and first byte: only a key whose bit is
        /// already set can be a repeat, and only then are the keys compared.
        var seen: UInt64 = 0

        mutating func set(_ value: EncodedJSON, forKey key: String) {
            let utf8 = key.utf8
            let bit: UInt64 = 1 << ((UInt64(utf8.count) &* 5 &+ UInt64(utf8.first ?? 0)) & 63)
            if seen & bit != 0, let position = members.firstIndex(where: { $0.key == key }) {
                members[position].value = value
                return
            }
            seen |= bit
            if members.isEmpty { members.reserveCapacity(16) }
            members.append((key, value))
        }

        func value(forKey key: String) -> EncodedJSON? {
            let utf8 = key.utf8
            let bit: UInt64 = 1 << ((UInt64(utf8.count) &* 5 &+ UInt64(utf8.first ?? 0)) & 63)
            guard seen & bit != 0 else { return nil }
            return members.first(where: { $0.key == key })?.value
        }
    }

    init() {}

    /// The value of the member `key`, if it has one.
    func value(forKey key: String) -> EncodedJSON? {
        storage.value(forKey: key)
    }

    var members: [(key: String, value: EncodedJSON)] { storage.members }

    func set(_ value: EncodedJSON, forKey key: String) {
        storage.set(value, forKey: key)
    }
}
