import Foundation
import Testing

@testable import ModelKit

/// Archives that `NSKeyedArchiver` wrote on macOS 10.14, from
/// swift-corelibs-foundation's own fixtures (see `Fixtures/macOS-10.14/README.md`),
/// read to the values that suite builds them from (its `FixtureValues.swift`).
@Suite struct KeyedArchiveMacOSFixtureTests {
    static func fixtureURL(_ name: String) -> URL {
        var url = URL(fileURLWithPath: #filePath)
        url.deleteLastPathComponent()
        return url.appendingPathComponent("Fixtures/macOS-10.14/\(name).archive")
    }

    /// The plain collection classes: each fixture, and the numbers it holds
    /// (`NSSet`'s order is the archive's, which is not the order the set was
    /// made in, so sets compare as sets).
    static let collections: [(name: String, numbers: [Int], isOrdered: Bool)] = [
        ("NSSet-Empty", [], false),
        ("NSSet-Numbers", [1, 2, 3, 4, 5], false),
        ("NSMutableSet-Empty", [], false),
        ("NSMutableSet-Numbers", [1, 2, 3, 4, 5], false),
        ("NSOrderedSet-Empty", [], true),
        ("NSOrderedSet-Numbers", [1, 2, 3, 4, 5], true),
        ("NSMutableOrderedSet-Empty", [], true),
        ("NSMutableOrderedSet-Numbers", [1, 2, 3, 4, 5], true),
    ]

    private static func numbers(_ value: ModelValue) -> [Int]? {
        guard case .array(let elements) = value else { return nil }
        return elements.map { element in
            if case .int(let number) = element { return number }
            return -1
        }
    }

    @Test(arguments: collections.indices)
    func plainCollectionsReadToTheirNumbers(_ index: Int) throws {
        let (name, expected, isOrdered) = Self.collections[index]
        let url = Self.fixtureURL(name)
        let data = try Data(contentsOf: url)
        #expect(ModelValue.isKeyedArchive(data))
        for value in [try ModelValue(keyedArchive: data), try ModelValue(contentsOf: url)] {
            let numbers = try #require(Self.numbers(value), "\(name) read as \(value)")
            if isOrdered {
                #expect(numbers == expected, "\(name)")
            } else {
                #expect(numbers.sorted() == expected, "\(name)")
                #expect(numbers.count == Set(numbers).count, "\(name) repeats a member")
                // ModelKit keeps the order the archive lists them in.
                #expect(numbers.isEmpty || numbers == [3, 2, 5, 1, 4], "\(name)")
            }
        }
    }

    /// Classes ModelKit does not read: an error that names the class (and
    /// the key path, the root here), never a guess at its contents.
    static let refused: [(name: String, className: String)] = [
        ("NSCountedSet-Empty", "NSCountedSet"),
        ("NSCountedSet-NumbersAppearingOnce", "NSCountedSet"),
        ("NSIndexSet-OneRange", "NSIndexSet"),
        ("NSAttributedString", "NSAttributedString"),
        ("NSMeasurement-Length", "NSMeasurement"),
    ]

    @Test(arguments: refused.indices)
    func otherClassesAreRefusedByName(_ index: Int) throws {
        let (name, className) = Self.refused[index]
        // A counted set is a set to Foundation's class chain, but it keeps its
        // members under other keys (NS.object0, NS.count0, …): reading it by
        // the set's rule would lose them silently.
        let message =
            "the archive holds an object of class \"\(className)\", which is not a Foundation class that "
            + "ModelKit reads (NSString, NSNumber, NSDate, NSData, NSArray, NSDictionary, NSSet, NSOrderedSet, "
            + "NSNull, NSURL, NSUUID)"
        let data = try Data(contentsOf: Self.fixtureURL(name))
        #expect(ModelValue.isKeyedArchive(data))
        do {
            let value = try ModelValue(keyedArchive: data)
            Issue.record("\(name) read as \(value)")
        } catch {
            #expect("\(error)" == message, "\(name)")
        }
    }
}
