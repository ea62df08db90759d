import Foundation

/// Encodes any `Encodable` value as JSON bytes with ModelKit's own writer,
/// configured like Foundation's `JSONEncoder`.
///
/// ```swift
/// struct Point: Encodable { var x = 1.5; var y = 2; var label = "a/b" }
/// var encoder = ModelJSONEncoder()
/// encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
/// print(String(decoding: try encoder.encode(Point()), as: UTF8.self))   // {"label":"a/b","x":1.5,"y":2}
/// ```
///
/// The strategies are Foundation's own types, with the same meanings.
/// `JSONDecoder` reads the output back to equal values. The text differs
/// from `JSONEncoder`'s in ways JSON readers ignore: keys keep the order
/// they were encoded in (Foundation's is unspecified unless sorted),
/// integral doubles keep a fraction (`1.0`), and pretty output puts `": "`
/// between a key and its value, as ``ModelValue/jsonData(options:)`` does
/// (an empty object or array is pretty-printed `{\n\n}`, as in
/// `JSONEncoder`). Every key goes through the key strategy, `superEncoder()`'s
/// `"super"` included; a custom strategy is given the key's full coding
/// path, which inside a synthesized enum case's payload names the case
/// (Foundation's leaves it out).
/// As in Foundation, `/` is written `\/` unless `.withoutEscapingSlashes`
/// is set, and the keys of `[String: …]` dictionaries are never converted.
///
/// As in Foundation, a container asked for twice (`container(keyedBy:)`
/// again, or `nestedContainer(keyedBy:forKey:)` for a key that has one)
/// adds to the first, and array positions are `"Index 0"` in coding paths.
///
/// Errors are Swift's `EncodingError`: `.invalidValue` with the coding path
/// for an infinite or NaN number under `.throw`, a top-level value that
/// encodes nothing, and nesting past 512 levels. One difference is
/// deliberate: a value given two kinds of container (a keyed container and
/// then an unkeyed one, a single value and then a container, two single
/// values, or a nested container for a key that already holds a value of
/// another kind) stops the program in `JSONEncoder`; here it throws
/// `.invalidValue` naming the value's key path
/// (`x[0]: an unkeyed container was asked for a value that already has
/// another kind …`), since writing either kind would lose the other's
/// members and a crash loses the user's work.
public struct ModelJSONEncoder: Sendable {
    /// Pretty printing, sorted keys and unescaped slashes; none by default.
    public var outputFormatting: JSONEncoder.OutputFormatting = []
    /// How coding keys become JSON keys; `.useDefaultKeys` by default.
    public var keyEncodingStrategy: JSONEncoder.KeyEncodingStrategy = .useDefaultKeys
    /// How `Date` values are written; `.deferredToDate` (seconds since 2001 as a number) by default.
    public var dateEncodingStrategy: JSONEncoder.DateEncodingStrategy = .deferredToDate
    /// How `Data` values are written; `.base64` by default.
    public var dataEncodingStrategy: JSONEncoder.DataEncodingStrategy = .base64
    /// What infinities and NaN become; `.throw` by default.
    public var nonConformingFloatEncodingStrategy: JSONEncoder.NonConformingFloatEncodingStrategy = .throw
    /// Values handed to every `encode(to:)` through `Encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// A encoder with Foundation's defaults; set its properties to configure it.
    public init() {}

    /// The JSON text of `value`.
    /// - Throws: `EncodingError.invalidValue` with the coding path of the value that failed.
    public func encode<Value: Encodable>(_ value: Value) throws -> Data {
        let options = JSONEncodingState(self)
        guard streams(Value.self) else { return try encodeThroughTree(value, options: options) }
        let state = JSONStreamState(options, writer: makeWriter())
        let encoder = state.beginRoot(value)
        // Spare encoders and cached containers hold the state: let it go.
        defer {
            state.releaseEncoders()
            state.releaseKeyedContainers()
        }
        var thrown: (any Error)?
        do {
            try value.encode(to: encoder)
        } catch {
            thrown = error
        }
        if state.core.pointee.failedLevel == 0 { return try encodeThroughTree(value, options: options) }
        if let thrown { throw thrown }
        if let conflict = options.conflict { throw conflict }
        if state.frame(0).pointee.kind == .pending {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: [], debugDescription: "\(Value.self) encoded no value"))
        }
        while state.core.pointee.frameCount > 0 { state.closeTop() }
        if state.core.pointee.isTooDeep {
            let error = EncodedJSON.depthError()
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: [], debugDescription: error.message, underlyingError: error))
        }
        return state.writerPointer.pointee.takeData()
    }

    /// Whether a root of type `Value` is written as its containers ask
    /// (see ``JSONStreamState``) rather than through the tree: not with
    /// sorted keys or a custom key strategy, nor for a root that the tree
    /// writes without an encoder.
    private func streams<Value>(_ type: Value.Type) -> Bool {
        if outputFormatting.contains(.sortedKeys) { return false }
        if case .custom = keyEncodingStrategy { return false }
        switch ObjectIdentifier(Value.self) {
        case ObjectIdentifier(String.self), ObjectIdentifier(Int.self), ObjectIdentifier(Bool.self),
            ObjectIdentifier(Double.self), ObjectIdentifier(Date.self), ObjectIdentifier(Data.self),
            ObjectIdentifier(URL.self), ObjectIdentifier(Decimal.self), ObjectIdentifier([Int].self),
            ObjectIdentifier([String].self), ObjectIdentifier([Double].self):
            return false
        default:
            return true
        }
    }

    private func makeWriter() -> JSONWriter {
        JSONWriter(
            options: JSONWritingOptions(
                prettyPrinted: outputFormatting.contains(.prettyPrinted),
                sortedKeys: outputFormatting.contains(.sortedKeys),
                escapesSlashes: !outputFormatting.contains(.withoutEscapingSlashes)),
            initialCapacity: 4096)
    }

    /// `value` boxed into an ``EncodedJSON`` tree, then written: the
    /// definition of the output, which the stream gives too.
    func encodeThroughTree<Value: Encodable>(_ value: Value, options: JSONEncodingState) throws -> Data {
        let tree = try options.box(value, parent: nil, key: nil)
        if let conflict = options.conflict { throw conflict }
        guard let tree else {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: [], debugDescription: "\(Value.self) encoded no value"))
        }
        var writer = makeWriter()
        do {
            try tree.write(into: &writer, depth: 0)
        } catch {
            writer.deallocate()
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: [], debugDescription: error.message, underlyingError: error))
        }
        return writer.takeData()
    }
}
