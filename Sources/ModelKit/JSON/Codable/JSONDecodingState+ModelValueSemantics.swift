import Foundation

/// Reading a value from the tape exactly as `ModelValueDecoder` reads the
/// `ModelValue` that `JSONReader.readValue()` builds from the same bytes:
/// the direct model decoder (`JSONModelDecoder`) reads `Codable` saved
/// properties this way (`CodableSlotReader`), skipping the tree.
///
/// It only has to agree where it succeeds: any error makes the direct
/// decoder read the whole document again through `ModelValue`, which then
/// gives the result or the error. So this mode may fail more often than
/// that path, never succeed with another value, and never succeed where it
/// fails. To that end, before the tape is built the value has been
/// validated as strictly as a read (`JSONReader.skipValue()`, with repeated
/// keys refused), and here:
/// - numbers become the `ModelValue` the reader makes of them (`-0` as 0,
///   integers beyond `Int` as big integers, one rounding to `Double`), then
///   the type's own `init(modelValue:)` converts them, as
///   `ModelValueDecoder` does (a `Float` rounds from the `Double`;
///   `JSONDecoder`-style reading would round once from the text); an
///   integer from a number with a fraction or an exponent sends the whole
///   document to the `ModelValue` path, which reads it from the member's
///   text (`ValueDecoder.text`);
/// - the types `ModelValueDecoder` reads with ModelKit's own conversions
///   (`Date` under the slot's date strategy, `Data`, `URL`, `UUID`,
///   `Decimal`, `ModelValue`, ModelKit's value types) are read as a
///   `ModelValue` and converted by `ModelValueDecoder.nativeValue`; a model
///   inside a `Codable` value is left to the `ModelValue` path (references);
/// - keys match by their bytes, as `ModelValue.Object`'s do: an object with
///   a key that has escapes or bytes outside ASCII is left to the
///   `ModelValue` path (Swift would compare those by canonical equivalence),
///   and a coding key outside ASCII is found in no other object;
/// - strings, booleans, nulls, containers and the coding path are read as
///   both decoders already read them alike.
extension JSONDecodingState {
    /// Thrown where this mode leaves a value to the `ModelValue` path.
    struct ReadThroughModelValue: Error {}

    /// Thrown where this mode leaves the whole document to the `ModelValue`
    /// path: the value needs the member texts that only a document read for
    /// models has (an integer from a number with a fraction or an exponent,
    /// read from its digits by `ValueDecoder`).
    struct ReadDocumentThroughModelValue: Error {}

    /// The number at `index` as the reader reads it.
    func modelNumber(at index: Int) throws -> ModelValue {
        let entry = entries[index]
        guard entry.kind == .number else { throw ReadThroughModelValue() }
        if let value = smallInteger(entry) { return .int(value) }
        reader.position = Int(entry.start)
        return try reader.readNumber()
    }

    /// The value at `index` as the reader reads it.
    func modelValue(at index: Int) throws -> ModelValue {
        let entry = entries[index]
        reader.position = entry.kind == .string ? Int(entry.start) - 1 : Int(entry.start)
        return try reader.readValue()
    }

    /// A value of a type that `ModelValueDecoder` reads natively, read as it does.
    func nativeValue<Value>(_ type: Value.Type, at index: Int) throws -> Value {
        guard !(type is ModelObject.Type), let value = try ModelValueDecoder.nativeValue(type, from: modelValue(at: index))
        else { throw ReadThroughModelValue() }
        return value
    }

    /// Refuses the object at `index` when one of its keys has escapes or bytes outside ASCII.
    func requireBytewiseKeys(ofObjectAt index: Int) throws {
        var member = index + 1
        let end = Int(entries[index].end)
        while member < end {
            if entries[member].flags != 0 { throw ReadThroughModelValue() }
            member = indexAfter(member + 1)
        }
    }
}
