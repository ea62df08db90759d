import Foundation
import Testing

@testable import ModelKit

/// Lines longer than the reader's chunk: read whole, with their numbers
/// and offsets, each byte looked at once by the search for line ends.
@Suite struct JSONLinesLongLineTests {
    static let chunk = JSONLinesReader<Book>.chunkSize

    /// A line whose text, without its line end, is `length` bytes long.
    static func line(_ length: Int, pages: Int) -> String {
        let frame = #"{"title":"","pages":\#(pages)}"#
        precondition(length >= frame.utf8.count)
        return #"{"title":"\#(String(repeating: "x", count: length - frame.utf8.count))","pages":\#(pages)}"#
    }

    /// Reads `url` line by line, returning the books and the bytes scanned.
    static func readAll(_ url: URL) throws -> (books: [Book], scanned: Int) {
        let reader = JSONLinesReader<Book>(url: url)
        var books: [Book] = []
        while let book = try reader.next() { books.append(book) }
        return (books, reader.bytesScanned)
    }

    static func size(of url: URL) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? -1
    }

    @Test func linesAtAndAcrossChunkBoundariesReadWhole() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("long.jsonl")
            // Line texts whose ends fall just before, on and after chunk
            // boundaries, lines of many chunks, CR LF ends, a blank line,
            // and a last line without a line end.
            var text = ""
            var expected: [Int] = []
            let lengths = [40, Self.chunk - 41 - 1, Self.chunk - 1, Self.chunk, Self.chunk + 1, 5 * Self.chunk + 17, 64]
            for (index, length) in lengths.enumerated() {
                text += Self.line(length, pages: index) + (index % 2 == 0 ? "\n" : "\r\n")
                expected.append(length)
                if index == 3 { text += "\n" }
            }
            text += Self.line(3 * Self.chunk + 5, pages: 99)
            expected.append(3 * Self.chunk + 5)
            try Data(text.utf8).write(to: url)
            let (books, scanned) = try Self.readAll(url)
            #expect(books.map(\.pages) == Array(0..<lengths.count) + [99])
            let frame = #"{"title":"","pages":0}"#.utf8.count
            #expect(books.map(\.title.utf8.count) == Array(expected.enumerated()).map { $0.element - frame - ($0.offset == lengths.count ? 1 : 0) })
            // Each byte of the file looked at once, however many chunks a line spans.
            #expect(scanned == (try Self.size(of: url)))
        }
    }

    /// Seeded random line lengths around multiples of the chunk, read as
    /// splitting the whole file at its newlines would.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomLongLinesReadAsSplittingTheFileWould(seed: UInt64) throws {
        try withTemporaryFolder { folder in
            var random = SeededGenerator(seed: seed)
            let url = folder.appendingPathComponent("random.jsonl")
            var text = ""
            var pages: [Int] = []
            for index in 0..<12 {
                let around = Int.random(in: 0...4, using: &random) * Self.chunk
                let length = max(40, around + Int.random(in: -3...3, using: &random))
                text += Self.line(length, pages: index)
                pages.append(index)
                text += Bool.random(using: &random) ? "\r\n" : "\n"
                if Int.random(in: 0..<4, using: &random) == 0 { text += "\n" }
            }
            try Data(text.utf8).write(to: url)
            let (books, scanned) = try Self.readAll(url)
            #expect(books.map(\.pages) == pages)
            // The file's lines, split at each `\n` byte, without a `\r` before it; not blank.
            let lines = Array(text.utf8).split(separator: UInt8(ascii: "\n"))
                .map { $0.last == UInt8(ascii: "\r") ? $0.dropLast() : $0 }
            let read = books.map { Array(#"{"title":"\#($0.title)","pages":\#($0.pages)}"#.utf8) }
            #expect(read.map(\.count) == lines.map(\.count))
            #expect(read.elementsEqual(lines) { $0.elementsEqual($1) })
            #expect(scanned == (try Self.size(of: url)))
        }
    }

    /// An error after long lines names the right line, column and byte.
    @Test func anErrorAfterLongLinesNamesItsLineAndByte() throws {
        try withTemporaryFolder { folder in
            let url = folder.appendingPathComponent("bad.jsonl")
            let first = Self.line(2 * Self.chunk + 3, pages: 1)
            let second = Self.line(Self.chunk, pages: 2)
            let bad = #"{"title":"t","pages":"many"}"#
            try Data((first + "\r\n" + second + "\n" + bad + "\n").utf8).write(to: url)
            let offset = first.utf8.count + 2 + second.utf8.count + 1
            let error = #expect(throws: ModelError.self) { _ = try Self.readAll(url) }
            #expect(
                error?.description
                    == "bad.jsonl, JSON Lines at line 3, column 1 (byte \(offset)), in pages: "
                    + #"expected Int, found a string ("many")"#)
            // A syntax error: its column and byte within the line.
            try Data((first + "\n" + #"{"pages":1 2}"# + "\n").utf8).write(to: url)
            let syntax = #expect(throws: ModelError.self) { _ = try Self.readAll(url) }
            #expect(syntax?.location?.line == 2)
            #expect(syntax?.location?.column == 12)
            #expect(syntax?.location?.byteOffset == first.utf8.count + 1 + 11)
        }
    }
}
