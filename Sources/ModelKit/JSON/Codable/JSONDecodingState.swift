import Foundation

/// One decoding run of ``ModelJSONDecoder``: the document's bytes, its tape,
/// the options, and the reading of each kind of value from its entry.
///
/// Not `Sendable`: it lives for one `decode` call, on its thread. The bytes
/// belong to the caller and are valid only during that call; when a
/// `Decodable` type keeps a decoder or container past it (as `JSONDecoder`
/// allows), ``close(_:)`` copies them into memory the state owns, so that
/// what was kept goes on reading the same document.
final class JSONDecodingState {
    /// The document: the caller's bytes, or the state's copy once closed (see ``close(_:)``).
    private(set) var base: UnsafePointer<UInt8>
    private let byteCount: Int
    private let readingOptions: JSONReadingOptions
    /// The copy of the bytes made by ``close(_:)``, if any.
    private var ownedBytes: UnsafeMutableBufferPointer<UInt8>?
    let tape: JSONTape
    /// The tape's entries, valid while `tape` is.
    let entries: UnsafeMutablePointer<JSONTape.Entry>
    let entryCount: Int
    let options: ModelJSONDecoder
    let userInfo: [CodingUserInfoKey: Any]
    /// Whether keys are matched as they are (`.useDefaultKeys`).
    let usesDefaultKeys: Bool
    /// Whether values are read as `ModelValueDecoder` reads the `ModelValue`
    /// the reader builds, rather than as `JSONDecoder` reads them (see
    /// `JSONDecodingState+ModelValueSemantics.swift`).
    let readsLikeModelValues: Bool
    /// For strings with escapes, and numbers that need the full conversion.
    var reader: JSONReader
    private var isOpen = true
    /// Keyed containers handed out, to hand out again once nothing else holds them.
    private let keyedContainers: UnsafeMutablePointer<CachedKeyedContainer>
    private var keyedContainerCount = 0
    static let keyedContainerCapacity = 16
    /// Types that `decodeValue` found not to be arrays (`arrayType(_:)`), round robin.
    private let notArrays: UnsafeMutablePointer<ObjectIdentifier?>
    private var nextNotArray = 0
    static let notArrayCapacity = 8
    /// Where strings with escapes are decoded (`JSONDecodingState+Strings.swift`).
    private var scratch: UnsafeMutablePointer<UInt8>?
    private var scratchCapacity = 0

    /// - Parameters:
    ///   - reading: the reader's options, for values read with it.
    ///   - readsLikeModelValues: whether to read as `ModelValueDecoder` does.
    init(
        bytes: UnsafeBufferPointer<UInt8>, tape: JSONTape, options: ModelJSONDecoder,
        reading: JSONReadingOptions = JSONReadingOptions(duplicateKeys: .lastWins), readsLikeModelValues: Bool = false
    ) {
        self.reader = JSONReader(bytes, options: reading)
        self.readsLikeModelValues = readsLikeModelValues
        self.base = reader.base
        self.byteCount = bytes.count
        self.readingOptions = reading
        self.tape = tape
        self.entries = tape.entries
        self.entryCount = tape.count
        self.options = options
        self.userInfo = options.userInfo
        if case .useDefaultKeys = options.keyDecodingStrategy { usesDefaultKeys = true } else { usesDefaultKeys = false }
        keyedContainers = .allocate(capacity: JSONDecodingState.keyedContainerCapacity)
        notArrays = .allocate(capacity: JSONDecodingState.notArrayCapacity)
        notArrays.initialize(repeating: nil, count: JSONDecodingState.notArrayCapacity)
    }

    deinit {
        keyedContainers.deinitialize(count: keyedContainerCount)
        keyedContainers.deallocate()
        notArrays.deallocate()
        scratch?.deallocate()
        ownedBytes?.deallocate()
    }

    /// The scratch buffer, with room for at least `capacity` bytes.
    @inline(__always)
    func scratchBuffer(capacity: Int) -> UnsafeMutablePointer<UInt8> {
        if let scratch, scratchCapacity >= capacity { return scratch }
        return growScratch(capacity)
    }

    @inline(never)
    private func growScratch(_ capacity: Int) -> UnsafeMutablePointer<UInt8> {
        scratch?.deallocate()
        scratchCapacity = max(capacity, 256, scratchCapacity * 2)
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: scratchCapacity)
        scratch = buffer
        return buffer
    }

    /// Ends the run of `state`: the cached containers (which hold the state)
    /// are let go, and when anything else still holds it (a decoder or
    /// container kept by a `Decodable` type), the document's bytes are
    /// copied, since the caller's are valid only until the run returns.
    static func close(_ state: inout JSONDecodingState) {
        state.isOpen = false
        state.keyedContainers.deinitialize(count: state.keyedContainerCount)
        state.keyedContainerCount = 0
        if !isKnownUniquelyReferenced(&state) { state.keepBytes() }
    }

    /// Reads from a copy of the document from now on.
    @inline(never)
    private func keepBytes() {
        let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(byteCount, 1))
        if byteCount > 0 { copy.baseAddress.unsafelyUnwrapped.initialize(from: base, count: byteCount) }
        ownedBytes = copy
        let bytes = UnsafeBufferPointer(start: copy.baseAddress, count: byteCount)
        reader = JSONReader(bytes, options: readingOptions)
        base = reader.base
    }

    /// Whether the run is over: a kept keyed container then points its
    /// cursor at the state's copy of the bytes before it reads.
    var isClosed: Bool { !isOpen }

    /// A keyed container handed out, and its cursor.
    ///
    /// The box (of the standard library's class, which wraps a
    /// ``JSONTapeKeyedContainer``) is held as a ``NativeObjectReference``: its
    /// class cannot be named, and `isKnownUniquelyReferenced` of an
    /// `AnyObject` answers `false` on Linux even for a unique object.
    /// Retaining, releasing and the uniqueness check read only the object's
    /// header, the same for every native Swift object.
    struct CachedKeyedContainer {
        let type: ObjectIdentifier
        /// The `KeyedDecodingContainer`'s box, the one reference it holds.
        var box: NativeObjectReference
        let cursor: UnsafeMutablePointer<JSONObjectCursor>
    }

    /// The static type under which a box of unnameable class is held; never made.
    final class NativeObjectReference {
        private init() {}
    }

    /// A keyed container over the object at `index`: one handed out before
    /// for the same key type, if nothing holds it any more (making one costs
    /// two generic metadata lookups and two allocations), else a new one.
    func keyedContainer<Key: CodingKey>(
        _: Key.Type, index: Int, path: CodingPathNode?, keepsKeys: Bool
    ) -> KeyedDecodingContainer<Key> {
        let type = ObjectIdentifier(Key.self)
        let cache = keyedContainers
        let count = keyedContainerCount
        var slot = 0
        while slot < count {
            if cache[slot].type == type, isKnownUniquelyReferenced(&cache[slot].box) {
                cache[slot].cursor.pointee.reset(state: self, index: index, path: path, keepsKeys: keepsKeys)
                return unsafeBitCast(cache[slot].box, to: KeyedDecodingContainer<Key>.self)
            }
            slot &+= 1
        }
        let container = JSONTapeKeyedContainer<Key>(state: self, index: index, path: path, keepsKeys: keepsKeys)
        let wrapped = KeyedDecodingContainer(container)
        if count < JSONDecodingState.keyedContainerCapacity, isOpen,
            MemoryLayout<KeyedDecodingContainer<Key>>.size == MemoryLayout<NativeObjectReference>.size
        {
            (cache + count).initialize(
                to: CachedKeyedContainer(type: type, box: unsafeBitCast(wrapped, to: NativeObjectReference.self), cursor: container.cursor))
            keyedContainerCount = count &+ 1
        }
        return wrapped
    }


    /// The index of the entry after the value whose entry is at `index`.
    @inline(__always)
    func indexAfter(_ index: Int) -> Int {
        let entry = entries[index]
        return entry.kind.rawValue >= JSONTape.Kind.array.rawValue ? Int(entry.end) : index + 1
    }

    /// The index of the entry for the value at `null`, the tape's last.
    var nullIndex: Int { entryCount - 1 }

    // MARK: - Errors

    /// The coding path of the value at `parent` and `key`.
    func codingPath(_ parent: CodingPathNode?, _ key: (any CodingKey)?) -> [any CodingKey] {
        var path = parent?.keys ?? []
        if let key { path.append(key) }
        return path
    }

    /// A description of the value at `index`, for "found …": `a string ("x")`, `null`.
    func describe(_ index: Int) -> String {
        let entry = entries[index]
        switch entry.kind {
        case .array: return "an array of \(entry.count) element\(entry.count == 1 ? "" : "s")"
        case .object: return "an object with \(entry.count) key\(entry.count == 1 ? "" : "s")"
        default:
            reader.position = entry.kind == .string ? Int(entry.start) - 1 : Int(entry.start)
            guard let value = try? reader.readValue() else { return "a value" }
            return value.excerpt
        }
    }

    /// "`path`: `message`", or the message alone at the top level.
    func message(_ path: [any CodingKey], _ message: String) -> String {
        path.isEmpty ? message : "\(ModelKeyPath(codingPath: path)): \(message)"
    }

    func mismatch(_ type: Any.Type, expected: String, at index: Int, _ parent: CodingPathNode?, _ key: (any CodingKey)?)
        -> DecodingError
    {
        let path = codingPath(parent, key)
        if entries[index].kind == .null {
            return DecodingError.valueNotFound(
                type, DecodingError.Context(codingPath: path, debugDescription: message(path, "expected \(expected), found null")))
        }
        return DecodingError.typeMismatch(
            type,
            DecodingError.Context(codingPath: path, debugDescription: message(path, "expected \(expected), found \(describe(index))")))
    }

    func corrupted(_ text: String, _ parent: CodingPathNode?, _ key: (any CodingKey)?, underlying: (any Error)? = nil)
        -> DecodingError
    {
        let path = codingPath(parent, key)
        return DecodingError.dataCorrupted(
            DecodingError.Context(codingPath: path, debugDescription: message(path, text), underlyingError: underlying))
    }

    // MARK: - Scalars

    /// The text of the string whose entry is at `index`, read by the reader's
    /// rules (escapes, control characters, UTF-8), which the tape left to here.
    @inline(__always)
    func readString(at index: Int) throws(ModelError) -> String {
        let entry = entries[index]
        let bytes = UnsafeBufferPointer(start: base + Int(entry.start), count: Int(entry.end - entry.start))
        if entry.flags == 0 { return String(asciiBytes: bytes) }
        if entry.flags == JSONTape.hasNonASCII, let text = String(validUTF8: bytes) { return text }
        if entry.flags & JSONTape.hasEscapes != 0, let text = unescapedString(entry) { return text }
        reader.position = Int(entry.start) - 1
        return try reader.readString()
    }

    /// The text of the string at `index`, or `nil` when it breaks the reader's rules.
    func string(at index: Int) -> String? { try? readString(at: index) }

    // MARK: - Fast paths
    //
    // Each reads the common case only, with no coding path at hand, and
    // returns `nil` for everything else, which the full reading above or
    // below then reads (or fails on) as before.

    /// The string at `index` when it has no escapes or control characters.
    @inline(__always)
    func plainString(at index: Int) -> String? {
        let entry = entries[index]
        guard entry.kind == .string else { return nil }
        let bytes = UnsafeBufferPointer(start: base + Int(entry.start), count: Int(entry.end &- entry.start))
        if entry.flags == 0 { return String(asciiBytes: bytes) }
        if entry.flags == JSONTape.hasNonASCII { return String(validUTF8: bytes) }
        return unescapedString(entry)
    }

    /// The integer at `index` when it has at most 18 digits and no fraction
    /// or exponent, unless values are read like `ModelValue`s.
    @inline(__always)
    func plainInt(at index: Int) -> Int? {
        let entry = entries[index]
        guard entry.kind == .number, !readsLikeModelValues else { return nil }
        return smallInteger(entry)
    }

    /// The boolean at `index`.
    @inline(__always)
    func plainBool(at index: Int) -> Bool? {
        switch entries[index].kind {
        case .trueValue: return true
        case .falseValue: return false
        default: return nil
        }
    }

    /// The text of a key, ill-formed UTF-8 repaired: it then matches no coding key.
    func key(at index: Int) -> String {
        if let text = string(at: index) { return text }
        let entry = entries[index]
        return String(decoding: UnsafeBufferPointer(start: base + Int(entry.start), count: Int(entry.end - entry.start)), as: UTF8.self)
    }

    /// Reads every key of the object at `index` that has escapes, control
    /// characters or bytes past ASCII, as JSONDecoder reads the keys of an
    /// object it opens: a key that breaks the reader's rules (ill-formed
    /// UTF-8 too) fails the object, rather than being repaired.
    func checkKeys(ofObjectAt index: Int, _ path: CodingPathNode?) throws {
        var member = index + 1
        let end = Int(entries[index].end)
        while member < end {
            if entries[member].flags != 0 {
                do {
                    _ = try readString(at: member)
                } catch {
                    let location = error.location.map { " at \($0)" } ?? ""
                    throw corrupted("in a key: " + error.message + location, path, nil, underlying: error)
                }
            }
            member = indexAfter(member + 1)
        }
    }

    func decodeString(at index: Int, _ parent: CodingPathNode?, _ key: (any CodingKey)?) throws -> String {
        guard entries[index].kind == .string else { throw mismatch(String.self, expected: "String", at: index, parent, key) }
        do {
            return try readString(at: index)
        } catch {
            let location = error.location.map { " at \($0)" } ?? ""
            throw corrupted(error.message + location, parent, key, underlying: error)
        }
    }

    func decodeBool(at index: Int, _ parent: CodingPathNode?, _ key: (any CodingKey)?) throws -> Bool {
        switch entries[index].kind {
        case .trueValue: return true
        case .falseValue: return false
        default: throw mismatch(Bool.self, expected: "Bool", at: index, parent, key)
        }
    }

    /// The value of a number entry written as an integer of at most 18
    /// digits (no fraction or exponent), read in place; `nil` for any other.
    @inline(__always)
    func smallInteger(_ entry: JSONTape.Entry) -> Int? {
        var cursor = Int(entry.start)
        let end = Int(entry.end)
        let isNegative = base[cursor] == JSONByte.minus
        if isNegative { cursor += 1 }
        guard end - cursor <= 18 else { return nil }
        var value = 0
        while cursor < end {
            let digit = base[cursor] &- JSONByte.zero
            guard digit < 10 else { return nil }
            value = value &* 10 &+ Int(digit)
            cursor += 1
        }
        return isNegative ? -value : value
    }

    /// The number at `index` as the reader reads it: an integer, big integer or double.
    private func numberValue(at index: Int, _ parent: CodingPathNode?, _ key: (any CodingKey)?) throws -> ModelValue {
        reader.position = Int(entries[index].start)
        do {
            return try reader.readNumber()
        } catch {
            throw corrupted(error.message, parent, key, underlying: error)
        }
    }

    func numberText(at index: Int) -> String {
        let entry = entries[index]
        return String(
            decoding: UnsafeBufferPointer(start: base + Int(entry.start), count: Int(entry.end - entry.start)), as: UTF8.self)
    }

    func decodeInteger<Integer: FixedWidthInteger>(
        _ type: Integer.Type, at index: Int, _ parent: CodingPathNode?, _ key: (any CodingKey)?
    ) throws -> Integer {
        let entry = entries[index]
        guard entry.kind == .number else { throw mismatch(type, expected: "\(type)", at: index, parent, key) }
        if readsLikeModelValues { return try IntegerConversion.value(from: modelNumber(at: index)) }
        if let value = smallInteger(entry) {
            if let exact = Integer(exactly: value) { return exact }
        } else if Integer.bitWidth > 64 {
            if let exact = try wideInteger(type, at: index, parent, key) { return exact }
        } else {
            switch try numberValue(at: index, parent, key) {
            case .int(let value):
                if let exact = Integer(exactly: value) { return exact }
            case .bigInteger(let digits):
                if let exact = Integer(digits) { return exact }
            case .double(let value):
                if let exact = Integer(exactly: value) { return exact }
            default: break
            }
        }
        throw corrupted("number \(numberText(at: index)) does not fit in \(type)", parent, key)
    }

    /// An `Int128` or `UInt128` as `JSONDecoder` reads one: every digit of an
    /// integer (with a fraction of zeros, `18446744073709551615.0`),
    /// otherwise a number that a 64-bit integer of its sign holds exactly
    /// (`1e3`, but not `1e20`); `nil` when it does not fit.
    private func wideInteger<Integer: FixedWidthInteger>(
        _ type: Integer.Type, at index: Int, _ parent: CodingPathNode?, _ key: (any CodingKey)?
    ) throws -> Integer? {
        let number = try numberValue(at: index, parent, key)
        let text = numberText(at: index)
        var digits = Substring(text)
        if let point = digits.firstIndex(of: "."), digits[digits.index(after: point)...].allSatisfy({ $0 == "0" }) {
            digits = digits[..<point]
        }
        if digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-") }) {
            return Integer(digits)
        }
        switch number {
        case .double(let value):
            if let narrow = Int64(exactly: value) { return Integer(exactly: narrow) }
            if let narrow = UInt64(exactly: value) { return Integer(exactly: narrow) }
            return nil
        default:
            return nil
        }
    }

    func decodeDouble(at index: Int, _ parent: CodingPathNode?, _ key: (any CodingKey)?) throws -> Double {
        if readsLikeModelValues { return try Double(modelValue: modelNumber(at: index)) }
        let entry = entries[index]
        if entry.kind == .number {
            // `-0` is negative zero, as JSONDecoder reads it.
            if let value = smallInteger(entry) { return value == 0 && isNegative(entry) ? -0.0 : Double(value) }
            switch try numberValue(at: index, parent, key) {
            case .int(let value): return value == 0 && isNegative(entry) ? -0.0 : Double(value)
            case .double(let value):
                // Like JSONDecoder, a number too small for a Double is an error, not zero.
                if value == 0, hasNonZeroDigit(at: index) { break }
                return value
            default:
                if let value = Double(numberText(at: index)), value.isFinite { return value }
            }
            throw corrupted("number \(numberText(at: index)) does not fit in Double", parent, key)
        }
        if entry.kind == .string, let value = nonConformingFloat(at: index) { return value }
        throw mismatch(Double.self, expected: "Double", at: index, parent, key)
    }

    /// Whether the number of `entry` begins with a minus sign.
    private func isNegative(_ entry: JSONTape.Entry) -> Bool {
        base[Int(entry.start)] == UInt8(ascii: "-")
    }

    /// Whether the digits of the number at `index` before its exponent are not all zeros.
    private func hasNonZeroDigit(at index: Int) -> Bool {
        let entry = entries[index]
        var cursor = Int(entry.start)
        while cursor < Int(entry.end) {
            let byte = base[cursor]
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { return false }
            if byte >= UInt8(ascii: "1") && byte <= UInt8(ascii: "9") { return true }
            cursor += 1
        }
        return false
    }

    func decodeFloat(at index: Int, _ parent: CodingPathNode?, _ key: (any CodingKey)?) throws -> Float {
        if readsLikeModelValues { return try Float(modelValue: modelNumber(at: index)) }
        let entry = entries[index]
        if entry.kind == .number {
            if let value = smallInteger(entry), abs(value) < 1 << 24 {
                return value == 0 && isNegative(entry) ? -0.0 : Float(value)
            }
            // Rounded once, from the text, as Foundation does; like Foundation, a
            // number that rounds to infinity, or to zero when it is not zero
            // (`2.01e-1234`, zero as a Double too), does not fit.
            _ = try numberValue(at: index, parent, key)
            if let value = Float(numberText(at: index)), value.isFinite, value != 0 || !hasNonZeroDigit(at: index) {
                return value
            }
            throw corrupted("number \(numberText(at: index)) does not fit in Float", parent, key)
        }
        if entry.kind == .string, let value = nonConformingFloat(at: index) { return Float(value) }
        throw mismatch(Float.self, expected: "Float", at: index, parent, key)
    }

    /// The infinity or NaN that the string at `index` stands for under the strategy, if any.
    private func nonConformingFloat(at index: Int) -> Double? {
        if options.allowsJSON5, let text = string(at: index), text.hasPrefix("\u{0}") {
            // JSON5's Infinity and NaN, as JSON5Translator writes them.
            switch text {
            case JSON5Translator.infinity: return .infinity
            case JSON5Translator.negativeInfinity: return -.infinity
            case JSON5Translator.notANumber: return .nan
            default: break
            }
        }
        guard case .convertFromString(let positive, let negative, let nan) = options.nonConformingFloatDecodingStrategy
        else { return nil }
        guard let text = string(at: index) else { return nil }
        if text == positive { return .infinity }
        if text == negative { return -.infinity }
        if text == nan { return .nan }
        return nil
    }

    // MARK: - Any value

    /// Decodes `type` from the value at `index`, whose coding path is `parent` and `key`.
    func decodeValue<Value: Decodable>(
        _ type: Value.Type, at index: Int, parent: CodingPathNode?, key: (any CodingKey)?
    ) throws -> Value {
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(String.self): return unsafeBitCast(try decodeString(at: index, parent, key), to: Value.self)
        case ObjectIdentifier(Int.self): return unsafeBitCast(try decodeInteger(Int.self, at: index, parent, key), to: Value.self)
        case ObjectIdentifier(Double.self): return unsafeBitCast(try decodeDouble(at: index, parent, key), to: Value.self)
        case ObjectIdentifier(Bool.self): return unsafeBitCast(try decodeBool(at: index, parent, key), to: Value.self)
        case _ where readsLikeModelValues && ModelValueDecoder.readsNatively(type):
            return try nativeValue(type, at: index)
        case ObjectIdentifier(Date.self): return unsafeBitCast(try decodeDate(at: index, parent: parent, key: key), to: Value.self)
        case ObjectIdentifier(Data.self): return unsafeBitCast(try decodeData(at: index, parent: parent, key: key), to: Value.self)
        case ObjectIdentifier(URL.self):
            let text = try decodeString(at: index, parent, key)
            guard let url = URL(string: text) else { throw corrupted("invalid URL string \(ModelValue.quoted(text))", parent, key) }
            return unsafeBitCast(url, to: Value.self)
        case ObjectIdentifier(Decimal.self):
            guard entries[index].kind == .number else { throw mismatch(type, expected: "Decimal", at: index, parent, key) }
            _ = try numberValue(at: index, parent, key)
            guard let decimal = Decimal(string: numberText(at: index), locale: Locale(identifier: "en_US_POSIX")) else {
                throw corrupted("number \(numberText(at: index)) does not fit in Decimal", parent, key)
            }
            return unsafeBitCast(decimal, to: Value.self)
        // Arrays of the common scalars, without a decoder and container for each.
        case ObjectIdentifier([Int].self):
            return unsafeBitCast(
                try decodeArray(at: index, parent, key) { try plainInt(at: $0) ?? decodeInteger(Int.self, at: $0, $1, $2) },
                to: Value.self)
        case ObjectIdentifier([String].self):
            return unsafeBitCast(
                try decodeArray(at: index, parent, key) { try plainString(at: $0) ?? decodeString(at: $0, $1, $2) },
                to: Value.self)
        case ObjectIdentifier([Double].self):
            return unsafeBitCast(try decodeArray(at: index, parent, key) { try decodeDouble(at: $0, $1, $2) }, to: Value.self)
        default:
            let path = key.map { CodingPathNode(parent: parent, key: $0) } ?? parent
            if let array = arrayType(type) { return try array.decodeFromTape(self, at: index, path: path, as: type) }
            let keepsKeys = !usesDefaultKeys && type is any StringKeyedDictionaryMarker.Type
            // The metatype given, which may be a subclass's, as in JSONDecoder.
            return try type.init(from: JSONTapeDecoder(state: self, index: index, keepsKeys: keepsKeys, path: path))
        }
    }

    /// `type` as an array of `Decodable` elements, or `nil`. Types found not
    /// to be arrays are remembered, so that most values cost no dynamic cast.
    @inline(__always)
    private func arrayType<Value>(_ type: Value.Type) -> (any JSONTapeArray.Type)? {
        let identifier = ObjectIdentifier(type)
        let known = notArrays
        var slot = 0
        while slot < JSONDecodingState.notArrayCapacity {
            if known[slot] == identifier { return nil }
            slot &+= 1
        }
        return findArrayType(type)
    }

    @inline(never)
    private func findArrayType<Value>(_ type: Value.Type) -> (any JSONTapeArray.Type)? {
        if let array = type as? any JSONTapeArray.Type { return array }
        notArrays[nextNotArray] = ObjectIdentifier(type)
        nextNotArray = (nextNotArray &+ 1) % JSONDecodingState.notArrayCapacity
        return nil
    }

    /// The elements of the array at `index`, each decoded as `Array.init(from:)`
    /// decodes them through an unkeyed container, without one.
    func decodeElements<Element: Decodable>(_: Element.Type, at index: Int, path: CodingPathNode?) throws -> [Element] {
        guard entries[index].kind == .array else { throw mismatch([Any].self, expected: "an array", at: index, path, nil) }
        let count = Int(entries[index].count)
        var elements: [Element] = []
        elements.reserveCapacity(count)
        var cursor = index + 1
        for position in 0..<count {
            elements.append(try decodeValue(Element.self, at: cursor, parent: path, key: JSONTapeIndexKey(position)))
            cursor = indexAfter(cursor)
        }
        return elements
    }

    /// The elements of the array at `index`, each read by `element` from its entry, path and index.
    private func decodeArray<Element>(
        at index: Int, _ parent: CodingPathNode?, _ key: (any CodingKey)?,
        _ element: (Int, CodingPathNode?, JSONTapeIndexKey) throws -> Element
    ) throws -> [Element] {
        guard entries[index].kind == .array else {
            throw mismatch([Any].self, expected: "an array", at: index, parent, key)
        }
        let count = Int(entries[index].count)
        var elements: [Element] = []
        elements.reserveCapacity(count)
        var cursor = index + 1
        // The array's own step is made only for an error.
        var path: CodingPathNode? = key == nil ? parent : nil
        var hasPath = key == nil
        for position in 0..<count {
            do {
                elements.append(try element(cursor, path, JSONTapeIndexKey(position)))
            } catch {
                // The error again, now with the array's own step in its path.
                if !hasPath, let key {
                    hasPath = true
                    path = CodingPathNode(parent: parent, key: key)
                    elements.append(try element(cursor, path, JSONTapeIndexKey(position)))
                }
                throw error
            }
            cursor = indexAfter(cursor)
        }
        return elements
    }

    private func decodeDate(at index: Int, parent: CodingPathNode?, key: (any CodingKey)?) throws -> Date {
        let path = key.map { CodingPathNode(parent: parent, key: $0) } ?? parent
        let decoder = JSONTapeDecoder(state: self, index: index, keepsKeys: false, path: path)
        switch options.dateDecodingStrategy {
        case .deferredToDate:
            return try Date(from: decoder)
        case .secondsSince1970:
            return Date(timeIntervalSince1970: try decodeDouble(at: index, parent, key))
        case .millisecondsSince1970:
            return Date(timeIntervalSince1970: try decodeDouble(at: index, parent, key) / 1000)
        case .iso8601:
            let text = try decodeString(at: index, parent, key)
            guard let date = try? Date.ISO8601FormatStyle().parse(text) else {
                throw corrupted("expected an ISO 8601 date, found \(ModelValue.quoted(text))", parent, key)
            }
            return date
        #if canImport(Darwin)
            // Foundation on Linux has no `.formatted` strategy.
            case .formatted(let formatter):
                let text = try decodeString(at: index, parent, key)
                guard let date = formatter.date(from: text) else {
                    throw corrupted("the date \(ModelValue.quoted(text)) is not in the formatter's format", parent, key)
                }
                return date
        #endif
        case .custom(let closure):
            return try closure(decoder)
        @unknown default:
            return try Date(from: decoder)
        }
    }

    private func decodeData(at index: Int, parent: CodingPathNode?, key: (any CodingKey)?) throws -> Data {
        let path = key.map { CodingPathNode(parent: parent, key: $0) } ?? parent
        let decoder = JSONTapeDecoder(state: self, index: index, keepsKeys: false, path: path)
        switch options.dataDecodingStrategy {
        case .deferredToData:
            return try Data(from: decoder)
        case .base64:
            let text = try decodeString(at: index, parent, key)
            guard let data = Data(base64Encoded: text) else {
                throw corrupted("expected Base64 data, found \(ModelValue.string(text).excerpt)", parent, key)
            }
            return data
        case .custom(let closure):
            return try closure(decoder)
        @unknown default:
            return try Data(from: decoder)
        }
    }
}

/// One step of a coding path, linked to the step before it: made only for
/// values decoded by their own `init(from:)`, so that scalars cost none. An
/// encoder is its own step (``JSONTreeEncoder``); a step without a key (the
/// root, a super encoder's inner encoder) adds nothing to the path.
class CodingPathNode {
    let parent: CodingPathNode?
    let key: (any CodingKey)?

    init(parent: CodingPathNode?, key: (any CodingKey)?) {
        self.parent = parent
        self.key = key
    }

    /// The path from the root to here.
    final var keys: [any CodingKey] {
        var keys: [any CodingKey] = []
        var node: CodingPathNode? = self
        while let current = node {
            if let key = current.key { keys.append(key) }
            node = current.parent
        }
        return keys.reversed()
    }
}

/// The coding key of an array's element: its index, made into a string
/// only when asked. One word, so it travels as `any CodingKey` without an allocation.
/// Its `stringValue` is `"Index 3"`, as in `JSONDecoder`'s coding paths.
struct JSONTapeIndexKey: CodingKey {
    let index: Int
    init(_ index: Int) { self.index = index }
    init?(stringValue: String) {
        guard let index = JSONIndexKey(stringValue: stringValue)?.index else { return nil }
        self.index = index
    }
    init?(intValue: Int) { index = intValue }
    var stringValue: String { "Index \(index)" }
    var intValue: Int? { index }
}

/// Arrays of `Decodable` elements, which ``JSONDecodingState`` decodes
/// element by element as `Array.init(from:)` would, without its unkeyed
/// container, and with the array's size reserved.
protocol JSONTapeArray {
    /// The array at `index`, as `Result`, which is `Self`.
    static func decodeFromTape<Result>(_ state: JSONDecodingState, at index: Int, path: CodingPathNode?, as: Result.Type) throws
        -> Result
}

extension Array: JSONTapeArray where Element: Decodable {
    static func decodeFromTape<Result>(_ state: JSONDecodingState, at index: Int, path: CodingPathNode?, as: Result.Type) throws
        -> Result
    {
        unsafeBitCast(try state.decodeElements(Element.self, at: index, path: path), to: Result.self)
    }
}

/// `[String: …]` dictionaries, whose keys no key strategy converts (as in Foundation).
protocol StringKeyedDictionaryMarker {}
extension Dictionary: StringKeyedDictionaryMarker where Key == String {}

extension ModelKeyPath {
    /// The key path of a coding path: integer keys are indices.
    init(codingPath: [any CodingKey]) {
        self.init(codingPath.map { key in key.intValue.map { .index($0) } ?? .key(key.stringValue) })
    }
}
