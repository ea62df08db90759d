import Foundation

/// UTF-16 or UTF-32 text, recognised from a document's first bytes: a
/// byte-order mark, or ASCII characters each with zero bytes beside it. JSON
/// files and ModelKit's readers are UTF-8 only, so such a file is named for
/// what it is in the error, rather than as binary data.
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
}
