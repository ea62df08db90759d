import Foundation

/// Member texts: the one place where a document read for models keeps the
/// text of members that the writer would not give back as they came.
///
/// The direct model decoder keeps a model's unknown members as their text
/// (`ExtensibleBag`). Every other way a JSON document reaches models goes
/// through a `ModelValue` (rules, upgrades, references, arrays of models,
/// JSON Lines, merges, patches), and a `ModelValue` holds a `Double`, not
/// its digits: `1.10` would come back as `1.1` and a 30-digit decimal as 17
/// digits. So a document read for models is read twice: once into values,
/// then, when its bytes hold anything the writer spells otherwise (a
/// fraction, an exponent, `-0`, an escape), once more to give each object
/// member whose value holds such a token its text (`ModelValue.Object`'s
/// member texts). The bag takes the text with the value; saved forms,
/// merges and patches carry it along as long as the member's value is not
/// changed; the JSON writer writes it back.
extension ModelValue {
    /// Reads `json` as ``init(json:options:)`` does, keeping the text of
    /// every object member whose value holds a number or string the JSON
    /// writer would spell otherwise.
    init(modelJSON json: Data, options: JSONReadingOptions = JSONReadingOptions()) throws {
        var options = options
        options.keepsMemberText = true
        self = try ModelValue(json: json, options: options)
    }

    /// Gives the members of this value, read from `json` with `options`,
    /// their texts.
    mutating func attachMemberTexts(from json: Data, options: JSONReadingOptions) {
        guard JSONReader.mayHoldRespelledText(json) else { return }
        json.withUnsafeBytes { raw in
            var reader = JSONReader(raw.bindMemory(to: UInt8.self), options: options)
            _ = reader.attachMemberTexts(to: &self, document: json, depth: 0)
        }
    }
}

extension JSONReader {
    /// Whether `document` holds a token the writer spells otherwise (a
    /// number with a fraction or an exponent, `-0`, a string with an
    /// escape): one scan, the same test as each member's.
    static func mayHoldRespelledText(_ document: Data) -> Bool {
        document.withUnsafeBytes { raw in holdsRespelledToken(raw.bindMemory(to: UInt8.self)) }
    }

    /// Walks the value at `position` (after whitespace), which was read
    /// into `value` from the same bytes with the same options, and moves
    /// past it; gives each object member whose value holds a respelled
    /// token its text (a slice of `document`). Returns whether the value
    /// holds such a token.
    mutating func attachMemberTexts(to value: inout ModelValue, document: Data, depth: Int) -> Bool {
        skipWhitespace()
        guard position < count else { return false }
        switch base[position] {
        case JSONByte.openBrace:
            guard case .object(var object) = value else { return skipRespelled() }
            value = .null
            defer { value = .object(object) }
            return StackGuard.descending(depth) { attachObjectTexts(to: &object, document: document, depth: depth) }
        case JSONByte.openBracket:
            guard case .array(var elements) = value else { return skipRespelled() }
            value = .null
            defer { value = .array(elements) }
            return StackGuard.descending(depth) {
                position += 1
                var holds = false
                var index = 0
                while true {
                    skipWhitespace()
                    if position < count, base[position] == JSONByte.closeBracket {
                        position += 1
                        return holds
                    }
                    if index < elements.count {
                        if attachMemberTexts(to: &elements[index], document: document, depth: depth + 1) { holds = true }
                    } else if skipRespelled() {
                        holds = true
                    }
                    index += 1
                    skipWhitespace()
                    if position < count, base[position] == JSONByte.comma { position += 1 }
                }
            }
        default:
            return skipRespelled()
        }
    }

    /// The members of the object at `position` (its brace).
    private mutating func attachObjectTexts(
        to object: inout ModelValue.Object, document: Data, depth: Int
    ) -> Bool {
        position += 1
        var holds = false
        while true {
            skipWhitespace()
            guard position < count, base[position] != JSONByte.closeBrace else {
                position += 1
                return holds
            }
            guard let (key, _) = try? readKey() else { return holds }
            skipWhitespace()
            position += 1  // the colon
            skipWhitespace()
            let start = position
            let memberHolds: Bool
            if let index = object.index(forKey: key) {
                memberHolds = object.withValueKeepingText(at: index) {
                    attachMemberTexts(to: &$0, document: document, depth: depth + 1)
                }
                if memberHolds {
                    let first = document.startIndex
                    object.setText(RawJSON(validated: document[(first + start)..<(first + position)]), at: index)
                }
            } else {
                memberHolds = skipRespelled()
            }
            if memberHolds { holds = true }
            skipWhitespace()
            if position < count, base[position] == JSONByte.comma { position += 1 }
        }
    }

    /// Moves past the value at `position`; returns whether it holds a
    /// respelled token.
    private mutating func skipRespelled() -> Bool {
        skipWhitespace()
        guard let range = try? skipValue() else {
            position = count
            return false
        }
        return JSONReader.holdsRespelledToken(UnsafeBufferPointer(rebasing: bytes[range]))
    }

    /// Whether `text`, one valid JSON value, holds a number with a fraction
    /// or an exponent, `-0`, or a string with an escape.
    static func holdsRespelledToken(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var inString = false
        var previous: UInt8 = 0
        for byte in text {
            if inString {
                if byte == JSONByte.backslash { return true }
                if byte == JSONByte.quote { inString = false }
            } else {
                switch byte {
                case JSONByte.quote: inString = true
                case JSONByte.period: return true
                case UInt8(ascii: "e"), UInt8(ascii: "E"):
                    if previous &- JSONByte.zero < 10 { return true }
                case JSONByte.zero:
                    // `-0` alone: `-0.5` and `-0e1` are caught by their period or exponent.
                    if previous == JSONByte.minus { return true }
                default: break
                }
            }
            previous = byte
        }
        return false
    }
}
