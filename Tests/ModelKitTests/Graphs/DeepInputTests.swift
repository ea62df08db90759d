import Foundation
import Testing

@testable import ModelKit

/// Values nested far deeper than the limit are refused with the nesting
/// error, never a crash: nothing recurses over them, Foundation's bridging
/// included.
@Suite struct DeepInputTests {
    /// `levels` dictionaries (`["a": …]`) or arrays (`[…]`) around `1`, built without recursion.
    static func nested(_ levels: Int, dictionaries: Bool) -> Any {
        var value: Any = 1
        for _ in 0..<levels { value = dictionaries ? ["a": value] as [String: Any] : [value] as [Any] }
        return value
    }

    /// Lets go of a nested value one level at a time: Swift's own release
    /// of 100,000 levels would recurse as deep.
    static func release(_ value: inout Any?) {
        while let current = value {
            if let dictionary = current as? [String: Any] {
                value = dictionary["a"]
            } else if let array = current as? [Any] {
                value = array.first
            } else {
                value = nil
            }
        }
    }

    static let cases: [(Int, Bool, String)] = [
        (600, true, "extra.a.a.a.a…(503 more)….a.a.a.a: nesting is deeper than the limit of 512 levels"),
        (5_000, true, "extra.a.a.a.a…(503 more)….a.a.a.a: nesting is deeper than the limit of 512 levels"),
        (100_000, true, "extra.a.a.a.a…(503 more)….a.a.a.a: nesting is deeper than the limit of 512 levels"),
        (600, false, "extra[0][0][0][0]…(503 more)…[0][0][0][0]: nesting is deeper than the limit of 512 levels"),
        (5_000, false, "extra[0][0][0][0]…(503 more)…[0][0][0][0]: nesting is deeper than the limit of 512 levels"),
        (100_000, false, "extra[0][0][0][0]…(503 more)…[0][0][0][0]: nesting is deeper than the limit of 512 levels"),
    ]

    @Test(arguments: cases)
    func deepDictionariesAndArraysAreRefusedWithoutACrash(levels: Int, dictionaries: Bool, message: String) {
        var deep: Any? = Self.nested(levels, dictionaries: dictionaries)
        defer { Self.release(&deep) }
        let note = Note()
        note.title = "kept"
        for attempt in 0..<2 {
            do {
                if attempt == 0 {
                    _ = try Note(dictionary: ["extra": deep!])
                } else {
                    try note.update(from: ["title": "changed", "extra": deep!])
                }
                Issue.record("expected an error")
            } catch {
                #expect(String(describing: error) == message)
            }
        }
        #expect(note.title == "kept")  // nothing applied
    }

    @Test func aDeepValueInATypedPropertyIsRefusedToo() {
        var deep: Any? = Self.nested(5_000, dictionaries: false)
        defer { Self.release(&deep) }
        #expect(throws: ModelError.self) { try Note(dictionary: ["tags": deep!]) }
    }

    @Test(arguments: [(3, "a.b.c"), (12, "[0][1][2][3][4][5][6][7][8][9][10][11]"), (13, "[0][1][2][3][4]…(4 more)…[9][10][11][12]")])
    func longKeyPathsAreShortenedInTheMiddle(count: Int, text: String) {
        let path = count == 3
            ? ModelKeyPath([.key("a"), .key("b"), .key("c")])
            : ModelKeyPath((0..<count).map { .index($0) })
        #expect(path.description == text)
    }
}
