import Foundation
import Testing

@testable import ModelKit

/// A nested struct inside a saved `Codable` value.
struct CodableGeo: Codable, Equatable {
    var lat = 0.0
    var lon = 0.0
    var label: String? = nil
}

/// A saved `Codable` value with every kind of member `ModelValueDecoder`
/// treats in its own way: integers of every width, `Float`, nested structs,
/// optionals, arrays, dictionaries, an enum with associated values, and the
/// Foundation and ModelKit types it reads natively.
struct CodableProfile: Codable, Equatable, ModelValueConvertible {
    var name = ""
    var age: Int8 = 0
    var big: UInt64 = 0
    var score: Float = 0
    var ratio = 0.0
    var geo = CodableGeo()
    var home: CodableGeo? = nil
    var tags: [String] = []
    var counts: [String: Int] = [:]
    var grid: [[Int]] = []
    var contact = Contact.none
    var since: Date? = nil
    var blob: Data? = nil
    var link: URL? = nil
    var id: UUID? = nil
    var amount: Decimal? = nil
    var color: Color? = nil
    var day: Day? = nil
    /// `Codable` inside a `Codable` value: its hand-written saved form is for slots only.
    var spot: Point? = nil
}

/// Dates inside a `Codable` value, in a slot with its own date strategy.
struct CodableStamps: Codable, Equatable, ModelValueConvertible {
    var at = Date(timeIntervalSince1970: 0)
    var more: [Date] = []
}

/// `Codable` with the default conversion but a hand-written `decoded(from:)`, which must win.
struct ClampedLevel: Codable, Equatable, ModelValueConvertible {
    var level = 0
    static func decoded(from modelValue: ModelValue) throws -> ClampedLevel {
        var value = try ClampedLevel(modelValue: modelValue)
        value.level = min(value.level, 10)
        return value
    }
}

/// `Codable` with a hand-written conversion that converts a `Codable`
/// default type inside it: the probe must not take that for its own.
struct WrappedGeo: Codable, Equatable, ModelValueConvertible {
    var geo = CodableGeo()
    init() {}
    init(modelValue: ModelValue) throws {
        geo = try CodableGeo(modelValue: modelValue["inner"] ?? .null)
        geo.label = "wrapped"
    }
    var modelValue: ModelValue { ["inner": geo.modelValue] }
}
extension CodableGeo: ModelValueConvertible {}

/// Every shape of `Codable` saved property, beside a plain one.
final class CodableHolder: ModelObject, @unchecked Sendable {
    @Saved var profile = CodableProfile()
    @Saved var spare: CodableProfile? = nil
    @Saved var places: [CodableGeo] = []
    @Saved var contact = Contact.none
    @Saved var badge: Badge? = nil
    @Saved var spot = Point(x: 0, y: 0)
    @Saved var clamped = ClampedLevel()
    @Saved var wrapped = WrappedGeo()
    @Saved var tier = Tier.free
    @Saved(dateStrategy: .secondsSince1970) var stamps = CodableStamps()
    @Saved var count = 0
}

/// The same `Codable` value in a class with rules: loaded through `ModelValue`.
final class RuledCodableHolder: ModelObject, @unchecked Sendable {
    @Saved var profile = CodableProfile()
    @Saved(rules: .range(0...10)) var count = 0
}

/// The same `Codable` value in a class that upgrades version 1 data: such data goes through `ModelValue`.
final class UpgradingCodableHolder: ModelObject, @unchecked Sendable {
    override class var version: Int { 2 }
    override class func upgrade(_ values: inout [String: ModelValue], from version: Int) throws {
        if version < 2, let old = values["geo"] { values["home"] = old }
    }
    @Saved var home = CodableGeo()
}

/// A `Codable` value holding a model, which the ModelValue path reads (references).
struct GeoWithRecord: Codable, Equatable, ModelValueConvertible {
    var geo = CodableGeo()
    var record: Record? = nil
    static func == (lhs: GeoWithRecord, rhs: GeoWithRecord) -> Bool {
        lhs.geo == rhs.geo && lhs.record?.title == rhs.record?.title && lhs.record?.count == rhs.record?.count
    }
}

final class ModelInCodableHolder: ModelObject, @unchecked Sendable {
    @Saved var value = GeoWithRecord()
}

/// A `Codable` value whose encoding can fail.
struct MayFailToEncode: Codable, Equatable, ModelValueConvertible {
    var fails = false
    var number = 1.0
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(number, forKey: .number)
        if fails {
            throw EncodingError.invalidValue(
                fails, EncodingError.Context(codingPath: encoder.codingPath, debugDescription: "told to fail"))
        }
        try container.encode(fails, forKey: .fails)
    }
}

final class EncodingHolder: ModelObject, @unchecked Sendable {
    @Saved var value = MayFailToEncode()
    @Saved var geo: CodableGeo? = nil
}

/// A class first loaded by many threads at once: its slots are probed concurrently.
final class ConcurrentCodableHolder: ModelObject, @unchecked Sendable {
    @Saved var profile = CodableProfile()
    @Saved var badge: Badge? = nil
}

/// `Codable` saved properties on the direct JSON path (`JSONModelDecoder`
/// with `CodableSlotReader`) against the `ModelValue` path: the same objects,
/// the same errors.
@Suite struct JSONCodableSlotTests {
    /// What loading gave: the saved form (compared as values, so the order of
    /// dictionary members does not matter) or the error's sentence.
    enum Outcome: Equatable {
        case loaded(ModelValue)
        case failed(String)
    }

    static func outcome(_ body: () throws -> CodableHolder) -> (Outcome, CodableHolder?) {
        do {
            let holder = try body()
            #expect(!holder.hasAnyChanges)
            return (.loaded(.object(try holder.encodedRoot())), holder)
        } catch {
            return (.failed("\(error)"), nil)
        }
    }

    /// Loads `data` both ways and expects the same outcome and equal objects.
    /// - Returns: the direct path's outcome.
    @discardableResult
    static func expectSameLoad(_ data: Data, sourceLocation: SourceLocation = #_sourceLocation) -> Outcome {
        let (direct, directHolder) = outcome { try CodableHolder(json: data) }
        let (reference, referenceHolder) = outcome {
            let holder = CodableHolder()
            try holder.load(ModelValue(json: data))
            return holder
        }
        let text = String(decoding: data, as: UTF8.self)
        #expect(direct == reference, "\(text)", sourceLocation: sourceLocation)
        if let directHolder, let referenceHolder {
            #expect(directHolder.profile == referenceHolder.profile, "\(text)", sourceLocation: sourceLocation)
            #expect(directHolder.spare == referenceHolder.spare, sourceLocation: sourceLocation)
            #expect(directHolder.places == referenceHolder.places, sourceLocation: sourceLocation)
            #expect(directHolder.contact == referenceHolder.contact, sourceLocation: sourceLocation)
            #expect(directHolder.badge == referenceHolder.badge, sourceLocation: sourceLocation)
            #expect(directHolder.spot == referenceHolder.spot, sourceLocation: sourceLocation)
            #expect(directHolder.clamped == referenceHolder.clamped, sourceLocation: sourceLocation)
            #expect(directHolder.wrapped == referenceHolder.wrapped, sourceLocation: sourceLocation)
            #expect(directHolder.stamps == referenceHolder.stamps, sourceLocation: sourceLocation)
            // Equal doubles may differ in sign; the saved forms above compare with ==.
            #expect(
                directHolder.profile.ratio.bitPattern == referenceHolder.profile.ratio.bitPattern,
                sourceLocation: sourceLocation)
            #expect(
                directHolder.profile.score.bitPattern == referenceHolder.profile.score.bitPattern,
                sourceLocation: sourceLocation)
        }
        return direct
    }

    /// How many `Codable` values the direct decoder read from the bytes, or
    /// `nil` when the document went (or would fall back) to the `ModelValue` path.
    static func codableValuesReadDirectly<T: ModelObject>(_ type: T.Type, _ data: Data) -> Int? {
        data.withUnsafeBytes { raw in
            var decoder = JSONModelDecoder(raw.bindMemory(to: UInt8.self), options: JSONReadingOptions())
            guard (try? decoder.decodeRoot(of: T())) != nil else { return nil }
            return decoder.codableValuesRead
        }
    }

    static let fullProfile: ModelValue = [
        "name": "Ada \"the\" Lovelace\n", "age": 36, "big": .bigInteger("18446744073709551615"), "score": 0.1, "ratio": -0.0,
        "geo": ["lat": 51.5, "lon": -0.12, "label": "London"], "home": .null, "tags": ["a", "é", "😀"],
        "counts": ["x": 1, "y": -2], "grid": [[1, 2], [], [3]],
        "contact": ["phone": ["country": 44, "number": "555"]], "since": "2025-11-16T15:33:20.25+01:00",
        "blob": "AAEC/w==", "link": "https://example.com/a?b=c", "id": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F",
        "amount": 12.50, "color": "#FF8000", "day": "2025-11-16", "spot": ["x": 1, "y": 2.5],
    ]

    static func document(_ members: KeyValuePairs<String, ModelValue>) -> Data {
        var object = ModelValue.Object()
        for (key, value) in members { object[key] = value }
        return try! ModelValue.object(object).jsonData()
    }

    // MARK: - Which slots take the direct path

    @Test func onlyTheCodableDefaultConversionIsProbedAsSuch() {
        #expect(CodableDefaultProbe.usesCodableDefault(CodableProfile.self))
        #expect(CodableDefaultProbe.usesCodableDefault(Contact.self))
        #expect(CodableDefaultProbe.usesCodableDefault(Badge.self))
        #expect(CodableDefaultProbe.usesCodableDefault(CodableGeo.self))
        // Hand-written conversions, a hand-written decoded(from:), the raw-value default, ModelKit's own.
        #expect(!CodableDefaultProbe.usesCodableDefault(Point.self))
        #expect(!CodableDefaultProbe.usesCodableDefault(ClampedLevel.self))
        #expect(!CodableDefaultProbe.usesCodableDefault(WrappedGeo.self))
        #expect(!CodableDefaultProbe.usesCodableDefault(Tier.self))
        #expect(!CodableDefaultProbe.usesCodableDefault(Int.self))
        #expect(!CodableDefaultProbe.usesCodableDefault(Date.self))
        #expect(!CodableDefaultProbe.usesCodableDefault(Color.self))
        #expect(!CodableDefaultProbe.usesCodableDefault([CodableGeo].self))
        #expect(!CodableDefaultProbe.usesCodableDefault(CodableGeo?.self))
        #expect(!CodableDefaultProbe.usesCodableDefault(Record.self))
    }

    @Test func slotsWithTheCodableDefaultHaveReadersAndNoOthers() {
        let layout = ClassLayout.of(CodableHolder.self)
        let readers = layout.jsonPlan.codableSlots?.readers ?? []
        #expect(readers.count == layout.slotCount)
        let direct = Set(layout.slots.filter { readers[$0.offset] != nil }.map(\.key))
        #expect(direct == ["profile", "spare", "places", "contact", "badge", "stamps"])
        #expect(CodableSlotReader.of([Point].self) == nil)
        #expect(CodableSlotReader.of([Tier]?.self) == nil)
        #expect(CodableSlotReader.of([String: CodableGeo].self) == nil)
        // Date? and [String] may decode themselves, but keep their own conversions.
        #expect(ClassLayout.of(Record.self).jsonPlan.codableSlots?.readers == nil)
    }

    @Test func aFullDocumentLoadsDirectlyAsThroughModelValue() throws {
        let data = Self.document([
            "profile": Self.fullProfile, "spare": Self.fullProfile, "places": [["lat": 1, "lon": 2], ["lat": 3, "lon": 4.5, "label": "x"]],
            "contact": ["email": ["_0": "a@b.c"]],
            "badge": ["label": "gold", "level": 3], "spot": [3, 4], "clamped": ["level": 50],
            "wrapped": ["inner": ["lat": 1, "lon": 2]], "tier": "pro",
            "stamps": ["at": 1_763_307_200.5, "more": [0, "2025-11-16T15:33:20Z"]], "count": 2,
        ])
        #expect(Self.expectSameLoad(data) != .failed(""))
        #expect(Self.codableValuesReadDirectly(CodableHolder.self, data) == 6)
        let holder = try CodableHolder(json: data)
        #expect(holder.profile.big == .max)
        #expect(holder.profile.score == Float(0.1))
        #expect(holder.profile.ratio.sign == .minus)
        #expect(holder.profile.blob == Data([0, 1, 2, 255]))
        #expect(holder.profile.amount == Decimal(string: "12.5"))
        #expect(holder.profile.color == Color(hex: "#FF8000"))
        #expect(holder.profile.spot == Point(x: 1, y: 2.5))
        #expect(holder.spare == Self.fullProfileValue)
        #expect(holder.contact == .email("a@b.c"))
        #expect(holder.places == [CodableGeo(lat: 1, lon: 2), CodableGeo(lat: 3, lon: 4.5, label: "x")])
        #expect(holder.badge == Badge(label: "gold", level: 3))
        // Hand-written conversions win.
        #expect(holder.spot == Point(x: 3, y: 4))
        #expect(holder.clamped.level == 10)
        #expect(holder.wrapped.geo == CodableGeo(lat: 1, lon: 2, label: "wrapped"))
        // The slot's date strategy reaches the dates inside the value.
        #expect(holder.stamps.at == Date(timeIntervalSince1970: 1_763_307_200.5))
        #expect(holder.stamps.more[0] == Date(timeIntervalSince1970: 0))
        // Change tracking as before: nothing after loading, a change after an in-place mutation.
        #expect(!holder.hasAnyChanges)
        holder.profile.geo.lat += 1
        #expect(holder.hasChanges)
        #expect(holder.changedKeys == ["profile"])
    }

    static let fullProfileValue = try! CodableProfile(modelValue: fullProfile)

    @Test func nullsAndMissingMembersLoadAsBefore() {
        Self.expectSameLoad(Self.document(["spare": .null, "badge": .null]))
        Self.expectSameLoad(Self.document(["profile": Self.fullProfile]))
        #expect(Self.codableValuesReadDirectly(CodableHolder.self, Self.document(["spare": .null])) == 1)
    }

    @Test func unknownMembersStayInTheBag() throws {
        var profile = Self.fullProfile
        profile["unknown"] = ["kept": false]
        let data = Self.document(["profile": profile, "extra": [1, 2]])
        Self.expectSameLoad(data)
        let holder = try CodableHolder(json: data)
        #expect(holder.extensibleProperties == ["extra": [1, 2]])
    }

    @Test func classesWithRulesGoThroughModelValue() {
        let data = Self.document(["profile": Self.fullProfile, "count": 3])
        #expect(Self.codableValuesReadDirectly(RuledCodableHolder.self, data) == nil)
        #expect(Self.codableValuesReadDirectly(CodableHolder.self, data) == 1)
    }

    @Test func upgradedDataGoesThroughModelValue() throws {
        let old = Self.document(["version": 1, "geo": ["lat": 1, "lon": 2]])
        #expect(Self.codableValuesReadDirectly(UpgradingCodableHolder.self, old) == nil)
        #expect(try UpgradingCodableHolder(json: old).home == CodableGeo(lat: 1, lon: 2))
        let current = Self.document(["version": 2, "home": ["lat": 3, "lon": 4]])
        #expect(Self.codableValuesReadDirectly(UpgradingCodableHolder.self, current) == 1)
        #expect(try UpgradingCodableHolder(json: current).home == CodableGeo(lat: 3, lon: 4))
    }

    @Test func aModelInsideACodableValueIsReadThroughModelValue() throws {
        let data = Self.document([
            "value": ["geo": ["lat": 1, "lon": 2], "record": ["title": "inner", "count": 3]]
        ])
        // The slot is read again the ModelValue way: nothing read directly, the document still direct.
        #expect(Self.codableValuesReadDirectly(ModelInCodableHolder.self, data) == 0)
        let direct = try ModelInCodableHolder(json: data)
        let reference = ModelInCodableHolder()
        try reference.load(ModelValue(json: data))
        #expect(direct.value == reference.value)
        #expect(direct.value.record?.title == "inner")
        #expect(try direct.jsonData() == reference.jsonData())
    }

    // MARK: - Writing

    /// How many `Codable` values the direct encoder wrote without a
    /// `ModelValue`, or `nil` when the object goes to the `ModelValue` path.
    static func codableValuesWrittenDirectly(_ object: ModelObject) -> Int? {
        let guardian = EncodingGuard.current
        let saved = guardian.begin(root: object, policy: .cycles, maximumDepth: JSONWritingOptions().maximumDepth)
        defer { guardian.end(saved) }
        var encoder = JSONModelEncoder(options: .compact)
        defer { encoder.writer.deallocate() }
        do {
            try encoder.writeModel(object)
        } catch {
            return nil
        }
        return guardian.failure == nil ? encoder.codableValuesWritten : nil
    }

    @Test func codableValuesAreWrittenAsThroughModelValue() throws {
        let data = Self.document([
            "profile": Self.fullProfile, "spare": Self.fullProfile, "places": [["lat": 1, "lon": 2]],
            "contact": ["phone": ["country": 44, "number": "555"]], "badge": ["label": "gold", "level": 3],
            "spot": [3, 4], "clamped": ["level": 5], "wrapped": ["inner": ["lat": 1, "lon": 2]],
            "stamps": ["at": 1_763_307_200.5, "more": [0]],
        ])
        let holder = try CodableHolder(json: data)
        JSONDirectPathTests.expectSameOutput(holder)
        // profile, spare, places, contact, badge, clamped (a hand-written decoded(from:) only),
        // stamps; not spot and wrapped (hand-written getters).
        #expect(Self.codableValuesWrittenDirectly(holder) == 7)
        holder.spare = nil
        holder.badge = nil
        holder.places = []
        JSONDirectPathTests.expectSameOutput(holder)
        #expect(Self.codableValuesWrittenDirectly(holder) == 7)
    }

    @Test func encodingFailuresAndNonFiniteNumbersFailAsThroughModelValue() {
        let holder = EncodingHolder()
        holder.geo = CodableGeo(lat: 1, lon: 2)
        JSONDirectPathTests.expectSameOutput(holder)
        #expect(Self.codableValuesWrittenDirectly(holder) == 2)
        holder.value.fails = true
        JSONDirectPathTests.expectSameOutput(holder)
        #expect(Self.codableValuesWrittenDirectly(holder) == nil)
        #expect(throws: ModelError.self) { try holder.jsonData() }
        holder.value.fails = false
        holder.geo?.lat = .nan
        JSONDirectPathTests.expectSameOutput(holder)
        #expect(throws: ModelError.self) { try holder.jsonData() }
    }

    // MARK: - Values the direct path leaves to the ModelValue path, with the same result

    /// Documents (as text, to spell keys and numbers exactly) whose `Codable`
    /// values take the `ModelValue` path after all, loading as before.
    static let leftToModelValue: [String] = [
        // A key outside ASCII, or with an escape: ModelValue matches keys by bytes.
        #"{"profile": {"name": "x", "age": 1, "big": 2, "score": 1, "ratio": 1, "geo": {"lat": 1, "lon": 2, "é": 3}, "tags": [], "counts": {"cafe\u0301": 1, "café": 2}, "grid": [], "contact": {"none": {}}}}"#,
        #"{"profile": {"n\u0061me": "x", "age": 1, "big": 2, "score": 1, "ratio": 1, "geo": {"lat": 1, "lon": 2}, "tags": [], "counts": {}, "grid": [], "contact": {"none": {}}}}"#,
        // The Kelvin sign is canonically equivalent to "K".
        #"{"profile": {"name": "x", "age": 1, "big": 2, "score": 1, "ratio": 1, "geo": {"lat": 1, "lon": 2}, "tags": [], "counts": {"K": 1, "\u212A": 2}, "grid": [], "contact": {"none": {}}}}"#,
    ]

    @Test(arguments: leftToModelValue)
    func valuesLeftToModelValueLoadAsBefore(text: String) {
        Self.expectSameLoad(Data(text.utf8))
    }

    @Test func numbersReadAsModelValueDecoderReadsThem() {
        // Doubles that round differently to Float once or twice, big integers, -0, integral doubles.
        for (score, ratio, age, big) in [
            ("0.1", "-0", "3.0", "18446744073709551615"), ("1.00000005960464477539062", "-0.0", "-128", "0"),
            ("3.4028235677973366e38", "1e-400", "127", "1e3"), ("1e39", "123456789012345678901234567890", "1.5", "-1"),
            ("16777217", "9007199254740993", "128", "18446744073709551616"),
        ] {
            let text = #"{"profile": {"name": "x", "age": \#(age), "big": \#(big), "score": \#(score), "ratio": \#(ratio), "geo": {"lat": 1, "lon": 2}, "tags": [], "counts": {}, "grid": [], "contact": {"none": {}}}}"#
            Self.expectSameLoad(Data(text.utf8))
        }
    }

    // MARK: - Errors

    /// Bad documents and the message loading gives, on both paths.
    static let badDocuments: [(String, String)] = [
        (
            #"{"profile": {"name": 12}}"#,
            "profile.name: expected String, found an integer (12)"
        ),
        (
            #"{"badge": {"label": "gold", "level": "3"}}"#,
            "badge.level: expected Int, found a string (\"3\")"
        ),
        (
            #"{"spare": {"name": "x", "age": 300}}"#,
            "spare.age: expected Int8, found 300, which does not fit"
        ),
        (
            #"{"contact": {"email": {"_1": "x"}}}"#,
            "contact.email: no value for the key \"_0\""
        ),
        (
            #"{"badge": {"label": "gold", "level": 1, "label": "x"}}"#,
            "JSON at line 1, column 41 (byte 40), in badge: duplicate key \"label\" in object"
        ),
        (
            #"{"badge": {"label": "gold\x", "level": 1}}"#,
            "JSON at line 1, column 26 (byte 25), in badge.label: invalid escape sequence '\\x' in string"
        ),
        (
            #"{"stamps": {"at": "yesterday", "more": []}}"#,
            "stamps.at: expected an ISO 8601 date such as \"2025-11-16T15:33:20Z\", found a string (\"yesterday\")"
        ),
    ]

    @Test(arguments: badDocuments)
    func badDocumentsFailWithTheModelValuePathsMessages(text: String, message: String) {
        let outcome = Self.expectSameLoad(Data(text.utf8))
        #expect(outcome == .failed(message))
    }

    @Test func threadsLoadingAClassForTheFirstTimeAgree() async throws {
        let data = Self.document(["profile": Self.fullProfile, "badge": ["label": "x", "level": 1]])
        try await withThrowingTaskGroup(of: CodableProfile.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    // Loading probes the slots' readers, writing their writers.
                    let holder = try ConcurrentCodableHolder(json: data)
                    return try CodableProfile(modelValue: ModelValue(json: holder.jsonData())["profile"] ?? .null)
                }
            }
            for try await profile in group { #expect(profile == Self.fullProfileValue) }
        }
        #expect(Self.codableValuesReadDirectly(ConcurrentCodableHolder.self, data) == 2)
    }

    // MARK: - Files

    @Test func aFileLoadsDirectlyAsThroughModelValue() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("JSONCodableSlotTests-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("holder.json")
        let holder = CodableHolder()
        holder.profile = Self.fullProfileValue
        holder.badge = Badge(label: "silver", level: 2)
        try holder.write(to: url)
        let loaded = try CodableHolder(contentsOf: url)
        #expect(loaded.profile == holder.profile)
        #expect(loaded.badge == holder.badge)
        #expect(!loaded.hasAnyChanges)
    }

    // MARK: - Differential: seeded random documents

    /// Random saved forms of `CodableHolder`, mostly well typed.
    struct RandomHolders {
        var documents: RandomDocuments
        /// How often a value has the wrong type, out of 1000.
        var wrongPerMille: Int

        mutating func chance(_ perMille: Int) -> Bool {
            Int.random(in: 0..<1000, using: &documents.generator) < perMille
        }

        mutating func pick<T>(_ choices: [T]) -> T { choices[Int.random(in: 0..<choices.count, using: &documents.generator)] }

        mutating func number() -> ModelValue {
            switch Int.random(in: 0..<4, using: &documents.generator) {
            case 0: return .int(documents.integer())
            case 1: return .double(documents.double())
            case 2: return .bigInteger(documents.bigInteger())
            default: return .int(Int.random(in: -300...300, using: &documents.generator))
            }
        }

        /// One of `valid`, or now and then one of `invalid`.
        mutating func pick(_ valid: [ModelValue], else invalid: [ModelValue]) -> ModelValue {
            chance(wrongPerMille * 3) ? pick(invalid) : pick(valid)
        }

        /// A number that any `Double` holds, or now and then any number.
        mutating func double() -> ModelValue {
            if chance(wrongPerMille * 3) { return number() }
            switch Int.random(in: 0..<3, using: &documents.generator) {
            case 0: return .int(documents.integer())
            case 1: return .double(documents.double())
            default: return pick([.double(0.1), .double(-0.0), .int(0), .double(1e300), .bigInteger("123456789012345678901234567890")])
            }
        }

        /// A number that an `Int` (or one `bits` wide, signed or not) holds, or now and then any number.
        mutating func integer(bits: Int = 64, signed: Bool = true) -> ModelValue {
            if chance(wrongPerMille * 3) { return number() }
            if !signed, bits == 64, chance(200) { return pick([.bigInteger("18446744073709551615"), .double(2.0)]) }
            let magnitude = bits == 64 ? Int.max : (1 << (bits - (signed ? 1 : 0))) - 1
            let low = signed ? -magnitude - 1 : 0
            return .int(Int.random(in: low...magnitude, using: &documents.generator))
        }

        mutating func geo() -> ModelValue {
            var object: ModelValue.Object = ["lat": double(), "lon": double()]
            if chance(500) { object["label"] = chance(300) ? .null : .string(documents.string()) }
            return .object(object)
        }

        mutating func members(_ keys: [String], _ make: (inout RandomHolders, String) -> ModelValue) -> ModelValue {
            var members: [(String, ModelValue)] = []
            for key in keys where !chance(wrongPerMille) {
                members.append((key, chance(wrongPerMille) ? documents.value(depth: 1) : make(&self, key)))
            }
            if chance(150) {
                let key = documents.string()
                if !members.contains(where: { $0.0 == key }) { members.append((key, documents.value(depth: 1))) }
            }
            members.shuffle(using: &documents.generator)
            return .object(ModelValue.Object(members))
        }

        static let profileKeys = [
            "name", "age", "big", "score", "ratio", "geo", "home", "tags", "counts", "grid", "contact", "since", "blob",
            "link", "id", "amount", "color", "day", "spot",
        ]

        mutating func profile() -> ModelValue {
            members(Self.profileKeys) { random, key in random.profileMember(key) }
        }

        mutating func count() -> Int { Int.random(in: 0...3, using: &documents.generator) }

        mutating func profileMember(_ key: String) -> ModelValue {
            switch key {
            case "name": return .string(documents.string())
            case "age": return integer(bits: 8)
            case "big": return integer(bits: 64, signed: false)
            case "score": return chance(500) ? .double(Double(Float.random(in: -1e6...1e6, using: &documents.generator))) : pick([.double(0.1), .double(3.4028235677973366e38), .int(16_777_217), .double(1e-50)])
            case "ratio": return double()
            case "geo": return geo()
            case "home": return chance(400) ? .null : geo()
            case "tags": return .array((0..<count()).map { _ in .string(documents.string()) })
            case "counts":
                var counts: [(String, ModelValue)] = []
                for _ in 0..<count() {
                    let name = chance(700) ? "k\(count())" : documents.string()
                    if !counts.contains(where: { $0.0 == name }) { counts.append((name, integer())) }
                }
                return .object(ModelValue.Object(counts))
            case "grid": return .array((0..<count()).map { _ in [integer(), .int(1)] })
            case "contact":
                return pick(
                    [
                        ["none": [:]], ["email": ["_0": .string(documents.string())]],
                        ["phone": ["country": integer(), "number": "555"]],
                    ], else: [["fax": [:]], ["email": "a"], ["none": [:], "email": ["_0": "a"]]])
            case "since":
                return pick(
                    [.null, "2025-11-16T15:33:20.25Z", "2025-11-16T15:33:20+01:00", "1970-01-01T00:00:00.123456789Z"],
                    else: ["2025-11-16T15:33:20", .int(5)])
            case "blob": return pick([.null, "AAEC/w==", ""], else: ["not base64", .int(1)])
            case "link": return pick([.null, "https://example.com/", "relative/path", "mailto:a@b.c"], else: [.int(3)])
            case "id": return pick([.null, "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f"], else: ["nope"])
            case "amount": return chance(300) ? .null : pick([.int(3), .double(0.1), .bigInteger("-123456789012345678901234567890"), .double(1e-7)])
            case "color": return pick([.null, "#FF8000", "#12345678", ["red": 1, "green": 0.5, "blue": 0]], else: ["red"])
            case "day": return pick([.null, "2025-11-16"], else: ["2025-02-30", 3])
            default: return pick([.null, ["x": 1, "y": 2], ["x": 0.5, "y": -0.0]], else: [[1, 2]])
            }
        }

        static let holderKeys = [
            "profile", "spare", "places", "contact", "badge", "spot", "clamped", "wrapped", "tier", "stamps", "count",
        ]

        mutating func holder() -> ModelValue.Object {
            guard case .object(let object) = members(Self.holderKeys, { random, key in random.holderMember(key) })
            else { return [:] }
            return object
        }

        mutating func holderMember(_ key: String) -> ModelValue {
            switch key {
            case "profile": return profile()
            case "spare": return chance(300) ? .null : profile()
            case "places": return .array((0..<count()).map { _ in geo() })
            case "contact": return pick([["none": [:]], ["email": ["_0": "a"]]], else: [["email": "a"]])
            case "badge": return chance(300) ? .null : ["label": .string(documents.string()), "level": integer()]
            case "spot": return [double(), double()]
            case "clamped": return ["level": integer()]
            case "wrapped": return ["inner": geo()]
            case "tier": return pick(["free", "pro"], else: ["gold"])
            case "stamps":
                return ["at": chance(500) ? .int(Int.random(in: -1_000_000...1_000_000_000, using: &documents.generator)) : "2025-11-16T15:33:20Z", "more": [double()]]
            default: return integer()
            }
        }
    }

    /// The document's text, pretty or compact, sometimes with a key spelt
    /// with an escape or a member repeated.
    static func text(of object: ModelValue.Object, using generator: inout SeededGenerator) throws -> Data {
        var text = try ModelValue.object(object).jsonString(options: Bool.random(using: &generator) ? .pretty : .compact)
        if Int.random(in: 0..<10, using: &generator) == 0, let range = text.range(of: "\"lat\":") {
            text.replaceSubrange(range, with: "\"l\\u0061t\":")
        }
        if Int.random(in: 0..<10, using: &generator) == 0, let range = text.range(of: "\"lon\":") {
            text.replaceSubrange(range, with: "\"lon\": 1, \"lon\":")
        }
        return Data(text.utf8)
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func wellTypedRandomDocumentsLoadAsThroughModelValue(seed: UInt64) throws {
        var random = RandomHolders(documents: RandomDocuments(seed: seed), wrongPerMille: 0)
        var direct = 0
        var loaded = 0
        for _ in 0..<150 {
            let data = try Self.text(of: random.holder(), using: &random.documents.generator)
            if case .loaded = Self.expectSameLoad(data) {
                loaded += 1
                JSONDirectPathTests.expectSameOutput(try CodableHolder(json: data))
            }
            direct += Self.codableValuesReadDirectly(CodableHolder.self, data) ?? 0
        }
        // Most values are read from the bytes; the rest took the ModelValue path.
        #expect(loaded > 80)
        #expect(direct > 300)
    }

    @Test(arguments: [UInt64(21), 22, 23])
    func badlyTypedRandomDocumentsFailWithTheSameErrors(seed: UInt64) throws {
        var random = RandomHolders(documents: RandomDocuments(seed: seed), wrongPerMille: 6)
        var failures = 0
        for _ in 0..<150 {
            var data = try Self.text(of: random.holder(), using: &random.documents.generator)
            if Int.random(in: 0..<4, using: &random.documents.generator) == 0, data.count > 2 {
                let position = Int.random(in: 1..<data.count, using: &random.documents.generator)
                data[position] = [UInt8(ascii: "}"), UInt8(ascii: ","), UInt8(ascii: "\""), 0x01, 0xFF][
                    Int.random(in: 0..<5, using: &random.documents.generator)]
            }
            if case .failed = Self.expectSameLoad(data) { failures += 1 }
        }
        #expect(failures > 30)
        #expect(failures < 140)
    }
}
