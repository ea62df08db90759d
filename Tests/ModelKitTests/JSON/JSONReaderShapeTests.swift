import Foundation
import Testing

@testable import ModelKit

/// Objects read with the keys of an object read before (same bytes, same
/// order) share its keys and key index: records must still read as they
/// would alone, find their keys, and change independently.
@Suite struct JSONReaderShapeTests {
    /// Builds the object of `members` by hand, member by member.
    static func object(_ members: [(String, ModelValue)]) -> ModelValue {
        var object = ModelValue.Object()
        for (key, value) in members { object[key] = value }
        return .object(object)
    }

    @Test func recordsOfOneShapeReadAsTheyWouldAlone() throws {
        // Small objects (searched in order) and large ones (with an index).
        for width in [1, 3, 8, 9, 20] {
            let keys = (0..<width).map { "key\($0)" }
            var records: [ModelValue] = []
            var text = "["
            for record in 0..<30 {
                let members = keys.enumerated().map { ($0.element, ModelValue.int(record * 100 + $0.offset)) }
                records.append(Self.object(members))
                text += (record > 0 ? "," : "") + "{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
            }
            text += "]"
            let read = try readJSON(text)
            #expect(read == .array(records))
            guard case .array(let elements) = read else { continue }
            for (record, element) in elements.enumerated() {
                guard case .object(let object) = element else { continue }
                #expect(object.keys == keys)
                for (position, key) in keys.enumerated() {
                    #expect(object[key] == .int(record * 100 + position))
                }
                #expect(object["missing"] == nil)
            }
        }
    }

    /// Same keys in another order, one key more or fewer, a key spelled
    /// with an escape (same bytes once read), and keys that are the same
    /// Unicode text in other bytes (two different keys in JSON).
    @Test func nearShapesAreToldApart() throws {
        let text = #"""
            [{"a":1,"b":2,"c":3},{"b":4,"a":5,"c":6},{"a":7,"b":8},{"a":9,"b":10,"c":11,"d":12},
             {"\u0061":13,"b":14,"c":15},{"é":16,"x":17},{"e\u0301":18,"x":19},{"é":20,"x":21}]
            """#
        let read = try readJSON(text)
        let expected: ModelValue = .array([
            Self.object([("a", 1), ("b", 2), ("c", 3)]), Self.object([("b", 4), ("a", 5), ("c", 6)]),
            Self.object([("a", 7), ("b", 8)]), Self.object([("a", 9), ("b", 10), ("c", 11), ("d", 12)]),
            Self.object([("a", 13), ("b", 14), ("c", 15)]), Self.object([("é", 16), ("x", 17)]),
            Self.object([("e\u{301}", 18), ("x", 19)]), Self.object([("é", 20), ("x", 21)]),
        ])
        #expect(read == expected)
        guard case .array(let elements) = read, case .object(let decomposed) = elements[6],
            case .object(let composed) = elements[7]
        else { return }
        #expect(decomposed.keys.map { Array($0.utf8) } == [Array("e\u{301}".utf8), [0x78]])
        #expect(decomposed["é"] == nil)
        #expect(decomposed["e\u{301}"] == 18)
        #expect(composed["é"] == 20)
        #expect(composed["e\u{301}"] == nil)
    }

    @Test func sharedKeysChangeOnlyTheObjectChanged() throws {
        let members = (0..<12).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        let read = try readJSON("[{\(members)},{\(members)}]")
        guard case .array(let elements) = read, case .object(var first) = elements[0],
            case .object(let second) = elements[1]
        else {
            Issue.record("not two objects")
            return
        }
        first["new"] = true
        first["k3"] = nil
        #expect(first.count == 12 && first["new"] == true && first["k3"] == nil && first["k11"] == 11)
        #expect(second.count == 12 && second["new"] == nil && second["k3"] == 3)
        #expect(second.keys == (0..<12).map { "k\($0)" })
    }

    /// A repeated key is refused in the second record too, and the first
    /// record's shape does not hide it.
    @Test func aRepeatedKeyIsFoundInEveryRecord() throws {
        let error = try #require(readFailure(#"[{"a":1,"b":2},{"a":1,"a":2}]"#))
        #expect(error.message.contains("\"a\""))
        #expect(error.location?.column == 23)
        let lastWins = try readJSON(
            #"[{"a":1,"b":2},{"a":1,"b":2,"a":3}]"#, options: JSONReadingOptions(duplicateKeys: .lastWins))
        #expect(lastWins == .array([Self.object([("a", 1), ("b", 2)]), Self.object([("a", 3), ("b", 2)])]))
    }
}
