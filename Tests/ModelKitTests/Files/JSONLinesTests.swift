import Foundation
import Testing

@testable import ModelKit

final class Book: ModelObject, @unchecked Sendable {
    @Saved var title = ""
    @Saved(rules: .range(0...10_000)) var pages = 0
    @Saved var tags: [String] = []
}

@Suite struct JSONLinesTests {
    static func books(_ count: Int, seed: UInt64 = 1) -> [Book] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { index in
            let book = Book()
            book.title = "Book \(index) \"\(Int.random(in: 0...999, using: &generator))\"\n"
            book.pages = Int.random(in: 0...10_000, using: &generator)
            book.tags = (0..<Int.random(in: 0...3, using: &generator)).map { "t\($0)" }
            return book
        }
    }

    static func read(_ url: URL) async throws -> [Book] {
        var result: [Book] = []
        for try await book in JSONLines.models(Book.self, contentsOf: url) { result.append(book) }
        return result
    }

    @Test func writesOneCompactDocumentPerLine() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("books.jsonl")
            let books = Self.books(2)
            books[0].title = "Dune"
            books[1].title = "Emma"
            books[1].tags = []
            try JSONLines.write(books, to: url)
            let text = try String(contentsOf: url, encoding: .utf8)
            #expect(
                text == """
                    {"type":"Book","version":1,"title":"Dune","pages":\(books[0].pages),"tags":\(try books[0].tags.modelValue.jsonString())}
                    {"type":"Book","version":1,"title":"Emma","pages":\(books[1].pages),"tags":[]}

                    """)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["books.jsonl"])
        }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func modelsRoundTripThroughTheStreamAndTheLoop(seed: UInt64) async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("books.jsonl")
            let books = Self.books(500, seed: seed)
            try JSONLines.write(books, to: url)
            let read = try await Self.read(url)
            #expect(read.count == books.count)
            #expect(zip(read, books).allSatisfy { $0.isEquivalent(to: $1) })
            var looped: [Book] = []
            try JSONLines.forEachModel(Book.self, contentsOf: url) { looped.append($0) }
            #expect(zip(looped, books).allSatisfy { $0.isEquivalent(to: $1) } && looped.count == books.count)
        }
    }

    @Test(arguments: [
        ("{\"title\":\"a\"}\n{\"title\":\"b\"}\n", ["a", "b"]),
        ("{\"title\":\"a\"}\n{\"title\":\"b\"}", ["a", "b"]),
        ("{\"title\":\"a\"}\r\n{\"title\":\"b\"}\r\n", ["a", "b"]),
        ("{\"title\":\"a\"}\r\n{\"title\":\"b\"}\r", ["a", "b"]),
        ("\n\n{\"title\":\"a\"}\n   \n\t\n\r\n{\"title\":\"b\"}\n\n", ["a", "b"]),
        ("", []),
        ("\n", []),
    ])
    func blankLinesFinalLinesAndCarriageReturnsAreAccepted(text: String, titles: [String]) async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("books.jsonl")
            try Data(text.utf8).write(to: url)
            #expect(try await Self.read(url).map(\.title) == titles)
        }
    }

    @Test(arguments: [
        (
            "{\"title\":\"a\"}\n\n{\"title\":\"b\",\"pages\":\"many\"}\n",
            "books.jsonl, JSON Lines at line 3, column 1 (byte 15), in pages: expected Int, found a string (\"many\")"
        ),
        (
            "{\"title\":\"a\"}\r\n{\"title\":\"b\",\"pages\":20000}\r\n",
            "books.jsonl, JSON Lines at line 2, column 1 (byte 15), in pages: must be at most 10000, found 20000"
        ),
        (
            "{\"title\":\"a\"}\n{\"title\":\"b\",\"tags\":[\"x\",5]}",
            "books.jsonl, JSON Lines at line 2, column 1 (byte 14), in tags[1]: expected String, found an integer (5)"
        ),
        (
            "{\"title\":\"a\"}\n{\"title\": }\n",
            "books.jsonl, JSON Lines at line 2, column 11 (byte 24), in title: expected a value, found '}'"
        ),
    ])
    func errorsNameTheLineAndTheKeyPath(text: String, message: String) async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("books.jsonl")
            try Data(text.utf8).write(to: url)
            var delivered: [String] = []
            do {
                for try await book in JSONLines.models(Book.self, contentsOf: url) { delivered.append(book.title) }
                Issue.record("no error")
            } catch let error as ModelError {
                #expect(error.description == message)
            }
            #expect(delivered == ["a"])
        }
    }

    @Test func aMissingFileIsAnError() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("none.jsonl")
            await #expect(throws: ModelError.self) { _ = try await Self.read(url) }
            do {
                _ = try await Self.read(url)
            } catch let error as ModelError {
                #expect(error.description == "none.jsonl: no such file")
            }
        }
    }

    @Test(arguments: [false, true])
    func appendingAddsLinesAtTheEnd(lastLineHasNewline: Bool) async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("books.jsonl")
            try Data(("{\"title\":\"a\"}" + (lastLineHasNewline ? "\n" : "")).utf8).write(to: url)
            let more = Self.books(3)
            try JSONLines.append(more, to: url)
            let read = try await Self.read(url)
            #expect(read.map(\.title) == ["a"] + more.map(\.title))
            // An invalid model adds nothing, and its error counts the lines already there.
            let invalid = Book()
            invalid.pages = -1
            do {
                try JSONLines.append(Self.books(1) + [invalid], to: url)
                Issue.record("no error")
            } catch let error as ModelError {
                #expect(error.location?.line == 6)
                #expect(error.message == "must be at least 0, found -1")
            }
            #expect(try await Self.read(url).count == 4)
        }
    }

    @Test func appendingCreatesTheFile() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("new.jsonl")
            try JSONLines.append(Self.books(2), to: url)
            #expect(try await Self.read(url).count == 2)
        }
    }

    @Test func aFailedWriteLeavesThePreviousFile() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("books.jsonl")
            try JSONLines.write(Self.books(3), to: url)
            let before = try Data(contentsOf: url)
            let invalid = Book()
            invalid.pages = 10_001
            do {
                try JSONLines.write(Self.books(2) + [invalid], to: url)
                Issue.record("no error")
            } catch let error as ModelError {
                #expect(error.location?.line == 3)
                #expect(error.message == "must be at most 10000, found 10001")
            }
            #expect(try Data(contentsOf: url) == before)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["books.jsonl"])
        }
    }

    @Test func registeredSubclassesComeBackAsThemselves() async throws {
        ModelObject.register(Photo.self, Video.self)
        try await withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("attachments.jsonl")
            let photo = Photo()
            photo.width = 640
            try JSONLines.write([photo, Video(), Attachment()] as [Attachment], to: url)
            var types: [String] = []
            for try await attachment in JSONLines.models(Attachment.self, contentsOf: url) {
                types.append(String(describing: type(of: attachment)))
            }
            #expect(types == ["Photo", "Video", "Attachment"])
        }
    }

    /// The reader holds one chunk and one line, however long the file.
    @Test func memoryDoesNotGrowWithTheFile() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("books.jsonl")
            try JSONLines.write(Self.books(20_000), to: url)
            let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0
            #expect(size > 1_000_000)
            let reader = JSONLinesReader<Book>(url: url)
            var count = 0
            while try reader.next() != nil { count += 1 }
            #expect(count == 20_000)
            #expect(reader.largestBuffer <= JSONLinesReader<Book>.chunkSize + 200)
        }
    }
}
