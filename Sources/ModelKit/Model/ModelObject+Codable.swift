import Foundation

extension ModelObject: Codable {
    /// Encodes the object's saved form, the one ``dictionary`` and JSON use:
    /// the metadata keys, the saved keys, then the ``extensibleProperties``.
    ///
    /// Models can so be fields of `Codable` types and go through
    /// `JSONEncoder`, `PropertyListEncoder` and any other encoder:
    ///
    /// ```swift
    /// struct Inbox: Codable { var notes: [Note] }
    /// let data = try JSONEncoder().encode(Inbox(notes: [Note()]))
    /// let inbox = try JSONDecoder().decode(Inbox.self, from: data)
    /// print(inbox.notes[0].title)   // Untitled
    /// ```
    ///
    /// The keys are those of the saved form; their order is the encoder's
    /// (`JSONEncoder` does not keep it).
    ///
    /// A `Date` or `Date?` property with no ``DateStrategy`` of its own (nor
    /// one of its class) is written as the encoder writes dates: under its
    /// `dateEncodingStrategy` for `JSONEncoder` and ``ModelJSONEncoder``, as a
    /// `<date>` for `PropertyListEncoder` (whole seconds in XML, as for any
    /// `Date` there). ``init(from:)`` reads it through
    /// the decoder likewise, and, when the decoder's strategy does not read
    /// it, as an ISO 8601 string, the form these dates took before. Other
    /// dates in the saved form (a property with its own strategy, dates in
    /// arrays and dictionaries) are written as the strategy says, an ISO 8601
    /// string by default. `PropertyListEncoder` writes `nil` as the string
    /// `"$null"`, so, as in ModelKit's property lists, a string made of `$`s
    /// then `null` is written with one more `$` (with every encoder) and read
    /// back without it.
    /// - Throws: ``ModelError`` for a class with declaration problems or a
    ///   cycle in the graph of models; any error of the encoder.
    public func encode(to encoder: any Encoder) throws {
        let root = try encodedRoot()
        let dateKeys = layout.dateKeys(for: encoder)
        guard !dateKeys.isEmpty else { return try CodableModelValue(.object(root)).encode(to: encoder) }
        var container = encoder.container(keyedBy: CodableModelValue.AnyKey.self)
        for (key, member) in root {
            if case .date(let date) = member, dateKeys.contains(key) {
                try container.encode(date, forKey: CodableModelValue.AnyKey(stringValue: key))
            } else {
                try container.encode(CodableModelValue(member), forKey: CodableModelValue.AnyKey(stringValue: key))
            }
        }
    }

    // `init(from:)` is in the class's body: a required initializer cannot be
    // declared in an extension.
}

/// ModelKit's coders of ``ModelValue``, whose dates are native values: a
/// model under them keeps its dates as the saved form has them.
protocol ModelValueCoder {
    /// Whether this coder reads and writes ``ModelValue``s (rather than
    /// standing in for Foundation's coders).
    var keepsModelDates: Bool { get }
}

extension ModelValueCoder {
    var keepsModelDates: Bool { true }
}

extension JSONTapeDecoder: ModelValueCoder {
    /// Under the direct JSON path's `Codable` slots, which read as `ModelValueDecoder` does.
    var keepsModelDates: Bool { state.readsLikeModelValues }
}

extension ClassLayout {
    /// ``dateKeysForOtherCoders``, or none for one of ModelKit's ``ModelValueCoder``s.
    func dateKeys(for coder: Any) -> Set<String> {
        if let coder = coder as? any ModelValueCoder, coder.keepsModelDates { return [] }
        return dateKeysForOtherCoders
    }
}

extension ClassLayout {
    /// The saved keys of `Date` and `Date?` properties that neither the
    /// property nor the class gives a date strategy: the dates that other
    /// coders write and read with their own date strategies.
    var dateKeysForOtherCoders: Set<String> {
        guard dateStrategy == .iso8601 else { return [] }
        var keys: Set<String> = []
        for slot in slots where slot.dateStrategy == nil {
            let type = slot.codec.valueType
            if type == Date.self || type == Date?.self { keys.insert(slot.key) }
        }
        return keys
    }
}

/// A ``ModelValue`` that any `Encoder` can write and any `Decoder` read, for
/// the `Codable` conformance of ``ModelObject``.
struct CodableModelValue: Codable {
    var value: ModelValue

    init(_ value: ModelValue) { self.value = value }

    /// A key of any text.
    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        switch value {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let bool):
            var container = encoder.singleValueContainer()
            try container.encode(bool)
        case .int(let int):
            var container = encoder.singleValueContainer()
            try container.encode(int)
        case .bigInteger(let digits):
            var container = encoder.singleValueContainer()
            if let unsigned = UInt64(digits) {
                try container.encode(unsigned)
            } else {
                try container.encode(Decimal(string: digits) ?? 0)
            }
        case .double(let double):
            var container = encoder.singleValueContainer()
            try container.encode(double)
        case .string(let string):
            var container = encoder.singleValueContainer()
            try container.encode(PropertyListBridge.escaped(string))
        case .date(let date):
            var container = encoder.singleValueContainer()
            try container.encode(ISO8601DateText.string(from: date))
        case .data(let data):
            var container = encoder.singleValueContainer()
            try container.encode(data)
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(CodableModelValue(element)) }
        case .object(let members):
            var container = encoder.container(keyedBy: AnyKey.self)
            for (key, member) in members {
                try container.encode(CodableModelValue(member), forKey: AnyKey(stringValue: key))
            }
        }
    }

    /// The saved form of a model from `decoder`, the members `dateKeys` read
    /// first as the decoder reads a `Date`, under its date strategy.
    init(from decoder: any Decoder, dateKeys: Set<String>) throws {
        guard !dateKeys.isEmpty, let keyed = try? decoder.container(keyedBy: AnyKey.self) else {
            self = try CodableModelValue(from: decoder)
            return
        }
        var members = ModelValue.Object(minimumCapacity: keyed.allKeys.count)
        for key in keyed.allKeys {
            if dateKeys.contains(key.stringValue), let date = try? keyed.decode(Date.self, forKey: key) {
                members.appendNew(key: key.stringValue, value: .date(date))
            } else {
                members.appendNew(key: key.stringValue, value: try keyed.decode(CodableModelValue.self, forKey: key).value)
            }
        }
        self = CodableModelValue(.object(members))
    }

    init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer() {
            if single.decodeNil() {
                value = .null
                return
            }
            if let bool = try? single.decode(Bool.self) {
                value = .bool(bool)
                return
            }
            if let int = try? single.decode(Int.self) {
                value = .int(int)
                return
            }
            if let unsigned = try? single.decode(UInt64.self) {
                value = .bigInteger(String(unsigned))
                return
            }
            if let double = try? single.decode(Double.self) {
                value = .double(double)
                return
            }
            if let string = try? single.decode(String.self) {
                value = PropertyListBridge.unescaped(string)
                return
            }
            if let data = try? single.decode(Data.self) {
                value = .data(data)
                return
            }
            if let date = try? single.decode(Date.self) {
                value = .date(date)
                return
            }
        }
        if let keyed = try? decoder.container(keyedBy: AnyKey.self) {
            var members = ModelValue.Object(minimumCapacity: keyed.allKeys.count)
            for key in keyed.allKeys {
                members.appendNew(key: key.stringValue, value: try keyed.decode(CodableModelValue.self, forKey: key).value)
            }
            value = .object(members)
            return
        }
        var unkeyed = try decoder.unkeyedContainer()
        var elements: [ModelValue] = []
        if let count = unkeyed.count { elements.reserveCapacity(count) }
        while !unkeyed.isAtEnd { elements.append(try unkeyed.decode(CodableModelValue.self).value) }
        value = .array(elements)
    }
}
