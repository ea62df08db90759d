import Foundation

/// UTF-16 or UTF-32 text, recognised from a document's first bytes: a
/// byte-order mark, or ASCII characters each with zero bytes beside it. JSON
/// files are UTF-8 only, so such a file is named for what it is in the
/// error, rather than as binary data; XML property lists in these encodings
/// are read through their UTF-8 form (``utf8(of:format:)``), as Foundation
/// reads them.
struct TextEncodingGuess: CustomStringConvertible {
    /// 2 for UTF-16, 4 for UTF-32.
    let width: Int
    let isBigEndian: Bool
    let hasByteOrderMark: Bool

    /// The encoding of `data`, or `nil` when it is neither UTF-16 nor UTF-32.
    init?(_ data: Data) {
        let bytes = Array(data.prefix(4))
        func starts(_ prefix: [UInt8]) -> Bool { bytes.starts(with: prefix) }
        func ascii(_ byte: UInt8) -> Bool { (0x20...0x7E).contains(byte) || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        switch bytes.count {
        case _ where starts([0x00, 0x00, 0xFE, 0xFF]): (width, isBigEndian, hasByteOrderMark) = (4, true, true)
        case _ where starts([0xFF, 0xFE, 0x00, 0x00]): (width, isBigEndian, hasByteOrderMark) = (4, false, true)
        case _ where starts([0xFE, 0xFF]): (width, isBigEndian, hasByteOrderMark) = (2, true, true)
        case _ where starts([0xFF, 0xFE]): (width, isBigEndian, hasByteOrderMark) = (2, false, true)
        case 4 where ascii(bytes[0]) && bytes[1] == 0 && bytes[2] == 0 && bytes[3] == 0:
            (width, isBigEndian, hasByteOrderMark) = (4, false, false)
        case 4 where bytes[0] == 0 && bytes[1] == 0 && bytes[2] == 0 && ascii(bytes[3]):
            (width, isBigEndian, hasByteOrderMark) = (4, true, false)
        case 2...4 where ascii(bytes[0]) && bytes[1] == 0 && (bytes.count < 4 || ascii(bytes[2]) && bytes[3] == 0):
            (width, isBigEndian, hasByteOrderMark) = (2, false, false)
        case 2...4 where bytes[0] == 0 && ascii(bytes[1]) && (bytes.count < 4 || bytes[2] == 0 && ascii(bytes[3])):
            (width, isBigEndian, hasByteOrderMark) = (2, true, false)
        default: return nil
        }
    }

    /// `UTF-16 text (little-endian, with a byte-order mark)`.
    var description: String {
        "UTF-\(width * 8) text (\(isBigEndian ? "big" : "little")-endian"
            + (hasByteOrderMark ? ", with a byte-order mark)" : ")")
    }

    /// The first line of `data` decoded, up to 24 characters, with `…` when
    /// there is more.
    func start(of data: Data) -> String {
        var bytes = Array(data.prefix(26 * width))
        if hasByteOrderMark { bytes.removeFirst(width) }
        var scalars: [Unicode.Scalar] = []
        var units: [UInt16] = []
        var index = 0
        while index + width <= bytes.count {
            var value: UInt32 = 0
            for offset in 0..<width {
                let byte = UInt32(bytes[index + (isBigEndian ? offset : width - 1 - offset)])
                value = value << 8 | byte
            }
            if width == 2 { units.append(UInt16(value)) } else { scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}") }
            index += width
        }
        let text = width == 2 ? String(decoding: units, as: UTF16.self) : String(String.UnicodeScalarView(scalars))
        let line = text.prefix { $0 != "\n" && $0 != "\r" }
        let shown = line.prefix(24)
        return shown.trimmingCharacters(in: .whitespaces) + (shown.count < text.count ? "…" : "")
    }

    /// The text of `data` (in this encoding, after its byte-order mark if it
    /// has one) as UTF-8.
    /// - Throws: ``ModelError`` (`.invalidUTF8`, the code for text that does
    ///   not decode) naming the first code unit that does not decode and its
    ///   byte offset in `data`.
    func utf8(of data: Data, format: String) throws -> [UInt8] {
        let bytes = [UInt8](data)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count / width + bytes.count / 4)
        var index = hasByteOrderMark ? width : 0
        func unit(at offset: Int) -> UInt32 {
            var value: UInt32 = 0
            for step in 0..<width {
                value = value << 8 | UInt32(bytes[offset + (isBigEndian ? step : width - 1 - step)])
            }
            return value
        }
        func failure(_ what: String, at offset: Int) -> ModelError {
            ModelError(
                code: .invalidUTF8, message: "expected UTF-\(width * 8) text, found \(what) at byte \(offset)",
                format: format)
        }
        while index < bytes.count {
            guard index + width <= bytes.count else { throw failure("a code unit cut short", at: index) }
            var value = unit(at: index)
            let start = index
            index += width
            if width == 2, (0xD800...0xDBFF).contains(value) {
                guard index + 2 <= bytes.count, case let low = unit(at: index), (0xDC00...0xDFFF).contains(low) else {
                    throw failure("an unpaired surrogate 0x\(String(value, radix: 16, uppercase: true))", at: start)
                }
                value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                index += 2
            }
            guard let scalar = Unicode.Scalar(value) else {
                let kind = (0xD800...0xDFFF).contains(value) ? "an unpaired surrogate" : "the code point"
                throw failure("\(kind) 0x\(String(value, radix: 16, uppercase: true))", at: start)
            }
            output.append(contentsOf: UTF8.encode(scalar)!)
        }
        return output
    }
}
