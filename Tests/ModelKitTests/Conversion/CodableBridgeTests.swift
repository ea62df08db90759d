import Foundation
import Testing

@testable import ModelKit

struct StreetAddress: Codable, Equatable, ModelValueConvertible {
    var street = "1 Main St"
    var zip = "12345"
    var lines: [String] = []
}

enum Contact: Codable, Equatable, ModelValueConvertible {
    case email(String)
    case phone(country: Int, number: String)
    case none
}

enum Tier: String, Codable, ModelValueConvertible { case free, pro }

final class Badge: Codable, Equatable, ModelValueConvertible {
    var label: String
    var level: Int
    init(label: String, level: Int) { self.label = label; self.level = level }
    static func == (lhs: Badge, rhs: Badge) -> Bool { lhs.label == rhs.label && lhs.level == rhs.level }
}

/// Codable, but with its own saved form: the hand-written conversion wins.
struct Point: Codable, Equatable, ModelValueConvertible {
    var x = 0.0, y = 0.0
    init(x: Double, y: Double) { self.x = x; self.y = y }
    init(modelValue: ModelValue) throws {
        guard case .array(let pair) = modelValue, pair.count == 2, let x = pair[0].doubleValue,
            let y = pair[1].doubleValue
        else { throw ModelError.typeMismatch(expected: "a pair of numbers", found: modelValue) }
        self.init(x: x, y: y)
    }
    var modelValue: ModelValue { [.double(x), .double(y)] }
}

final class Client: ModelObject, @unchecked Sendable {
    @Saved var name = "Ada"
    @Saved var address = StreetAddress()
    @Saved var contact = Contact.none
    @Saved var tier = Tier.free
    @Saved var badge: Badge? = nil
    @Saved var spot = Point(x: 1, y: 2)
    @Saved var history: [Contact] = []
}

/// A class hierarchy that encodes its superclass through `superEncoder()`.
class Animal: Codable, Equatable {
    var name: String
    init(name: String) { self.name = name }
    static func == (lhs: Animal, rhs: Animal) -> Bool { lhs.name == rhs.name && type(of: lhs) == type(of: rhs) }
}

final class Dog: Animal {
    var tricks: [String]
    init(name: String, tricks: [String]) {
        self.tricks = tricks
        super.init(name: name)
    }
    enum Keys: String, CodingKey { case tricks }
    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        tricks = try container.decode([String].self, forKey: .tricks)
        try super.init(from: container.superDecoder())
    }
    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(tricks, forKey: .tricks)
        try super.encode(to: container.superEncoder())
    }
}

@Suite struct CodableBridgeTests {
    static func filled() -> Client {
        let customer = Client()
        customer.address = StreetAddress(street: "2 Side St", zip: "99999", lines: ["flat 3"])
        customer.contact = .phone(country: 44, number: "555")
        customer.tier = .pro
        customer.badge = Badge(label: "gold", level: 3)
        customer.history = [.email("a@b.c"), .none]
        return customer
    }

    @Test(arguments: ["dictionary", "json", "xml", "binary"])
    func codableValuesRoundTripInEveryForm(form: String) throws {
        let customer = Self.filled()
        let back: Client
        switch form {
        case "dictionary": back = try Client(dictionary: customer.dictionary)
        case "json": back = try Client(json: customer.jsonData())
        case "xml": back = try Client(propertyList: customer.propertyListData(format: .xml))
        default: back = try Client(propertyList: customer.propertyListData(format: .binary))
        }
        #expect(back.address == customer.address)
        #expect(back.contact == customer.contact)
        #expect(back.tier == .pro)
        #expect(back.badge == customer.badge)
        #expect(back.history == customer.history)
        #expect(back.spot == Point(x: 1, y: 2))
        #expect(!back.hasChanges)
    }

    @Test func savedFormsAreWhatTheTypesEncode() throws {
        let customer = Self.filled()
        let value = customer.modelValue
        #expect(value["address"] == ["street": "2 Side St", "zip": "99999", "lines": ["flat 3"]])
        #expect(value["tier"] == "pro")  // the raw value, as for any raw-value enum
        #expect(value["spot"] == [1.0, 2.0])  // the hand-written form wins
        #expect(value["badge"] == ["label": "gold", "level": 3])
    }

    @Test func mutatingACodableValueInPlaceIsAChange() {
        let customer = Client()
        customer.address.zip = "00000"
        customer.address.lines.append("x")
        #expect(customer.changedKeys == ["address"])
        #expect(customer.address.lines == ["x"])
    }

    @Test func decodingErrorsNameTheKeyPath() {
        let error = #expect(throws: ModelError.self) {
            try Client(json: Data(#"{"address":{"street":"a","zip":12,"lines":[]}}"#.utf8))
        }
        #expect(error?.description == "address.zip: expected String, found an integer (12)")
        let nested = #expect(throws: ModelError.self) {
            try Client(dictionary: ["history": [["email": ["_0": "x"]], ["phone": ["country": "UK"]]]])
        }
        #expect(nested?.keyPath.description.hasPrefix("history[1].phone.country") == true, "\(nested?.description ?? "")")
    }

    @Test func theDecoderThrowsDecodingErrorsWithTheirCodingPath() {
        do {
            _ = try ModelValueDecoder().decode(StreetAddress.self, from: ["street": "a", "zip": 12])
            Issue.record("expected an error")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["zip"])
        } catch {
            Issue.record("expected DecodingError.typeMismatch, got \(error)")
        }
        do {
            _ = try ModelValueDecoder().decode(StreetAddress.self, from: ["street": "a"])
            Issue.record("expected an error")
        } catch DecodingError.keyNotFound(let key, _) {
            #expect(key.stringValue == "zip")
        } catch {
            Issue.record("expected DecodingError.keyNotFound, got \(error)")
        }
    }

    @Test func superEncodersNestedContainersAndUserInfoWork() throws {
        let dog = Dog(name: "Rex", tricks: ["sit"])
        var encoder = ModelValueEncoder()
        encoder.userInfo[CodingUserInfoKey(rawValue: "k")!] = "v"
        let value = try encoder.encode(dog)
        #expect(value == ["tricks": ["sit"], "super": ["name": "Rex"]])
        let back = try ModelValueDecoder().decode(Dog.self, from: value)
        #expect(back.name == "Rex" && back.tricks == ["sit"])
    }

    /// The encoder gives the same values as JSONEncoder (read back by ModelKit),
    /// and the decoder reads what JSONEncoder writes.
    @Test(arguments: 0..<20 as Range<UInt64>)
    func agreesWithFoundationsCoders(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let contacts: [Contact] = [
            .email("e\(seed)"), .phone(country: Int.random(in: 1...99, using: &generator), number: "\(seed)"), .none,
        ]
        let address = StreetAddress(
            street: "\(Int.random(in: 1...999, using: &generator)) Road", zip: "\(seed)",
            lines: (0..<Int.random(in: 0...3, using: &generator)).map { "line \($0)" })
        for value in contacts {
            let foundation = try ModelValue(json: JSONEncoder().encode(value))
            #expect(try ModelValueEncoder().encode(value) == foundation)
            #expect(try ModelValueDecoder().decode(Contact.self, from: foundation) == value)
        }
        let foundation = try ModelValue(json: JSONEncoder().encode(address))
        #expect(try ModelValueEncoder().encode(address) == foundation)
        #expect(try ModelValueDecoder().decode(StreetAddress.self, from: foundation) == address)
    }
}
