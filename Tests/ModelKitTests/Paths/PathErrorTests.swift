import Foundation
import ModelKit
import Testing

final class PathStrict: ModelObject, @unchecked Sendable {
    override class var unknownKeys: UnknownKeyPolicy { .reject }
    @Saved var title = ""
}

final class PathShelf: ModelObject, @unchecked Sendable {
    @Saved var name = ""
    @Saved var kids: [PathRated] = []
}

/// The same failure is reported with the same key path whichever way in.
@Suite struct PathErrorTests {
    // Computed, not stored: LeakSanitizer does not see through the tagged
    // reference of a `Data` kept in a global, and reports its bytes.
    static var strictArray: Data { Data(#"[{"title":"a"},{"bogus":1}]"#.utf8) }

    @Test func aRejectedKeyInAnArrayNamesTheElementOnEveryDecoder() throws {
        let expected = "[1].bogus: unknown key \"bogus\": PathStrict saves title"
        var messages: [String: String] = [:]
        do { _ = try [PathStrict](json: Self.strictArray) } catch { messages["[M](json:)"] = "\(error)" }
        do { _ = try JSONDecoder().decode([PathStrict].self, from: Self.strictArray) } catch {
            messages["JSONDecoder"] = "\(error)"
        }
        do { _ = try ModelJSONDecoder().decode([PathStrict].self, from: Self.strictArray) } catch {
            messages["ModelJSONDecoder"] = "\(error)"
        }
        #expect(messages.count == 3)
        for (path, message) in messages {
            #expect(message.contains(expected), "\(path): \(message)")
        }
    }

    @Test func aBadValueThatAnAddAppendsNamesTheOperation() throws {
        let shelf = PathShelf()
        shelf.kids = [PathRated()]
        let patch = try JSONPatch(
            json: Data(
                #"[{"op":"replace","path":"/name","value":"x"},{"op":"add","path":"/kids/-","value":{"rating":7}}]"#.utf8))
        let error = try #require(throws: ModelError.self) { try shelf.apply(patch) }
        #expect(error.description == "operation 1 (add /kids/-): kids[1].rating: must be at most 5, found 7")
        #expect(shelf.name == "" && shelf.kids.count == 1)
    }
}

/// `ModelJSONDecoder` reads numbers as `JSONDecoder` does.
@Suite struct DecoderNumberParityTests {
    struct Box<Value: Codable & Equatable>: Codable, Equatable { var value: Value }

    @Test(arguments: ["-0", "-0.0", "0", "-0e5", "[-0]"])
    func negativeZeroIsNegative(text: String) throws {
        let isArray = text.hasPrefix("[")
        let json = Data((isArray ? #"{"value":\#(text)}"# : #"{"value":\#(text)}"#).utf8)
        if isArray {
            let ours = try ModelJSONDecoder().decode(Box<[Double]>.self, from: json).value[0]
            let theirs = try JSONDecoder().decode(Box<[Double]>.self, from: json).value[0]
            #expect(ours.sign == theirs.sign && ours == theirs)
        } else {
            for type in ["Double", "Float"] {
                if type == "Double" {
                    let ours = try ModelJSONDecoder().decode(Box<Double>.self, from: json).value
                    let theirs = try JSONDecoder().decode(Box<Double>.self, from: json).value
                    #expect(ours.sign == theirs.sign, "\(text) as Double")
                } else {
                    let ours = try ModelJSONDecoder().decode(Box<Float>.self, from: json).value
                    let theirs = try JSONDecoder().decode(Box<Float>.self, from: json).value
                    #expect(ours.sign == theirs.sign, "\(text) as Float")
                }
            }
        }
        let direct = try ModelJSONDecoder().decode(Double.self, from: Data("-0".utf8))
        #expect(direct.sign == .minus)
    }

    @Test(arguments: ["2.01e-1234", "1e-50", "-1e-46"])
    func aFloatTooSmallForAFloatIsAnError(text: String) throws {
        let json = Data(#"{"value":\#(text)}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Box<Float>.self, from: json) }
        #expect(throws: DecodingError.self) { try ModelJSONDecoder().decode(Box<Float>.self, from: json) }
    }
}
