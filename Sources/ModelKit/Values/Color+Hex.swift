extension Color {
    /// A colour from hexadecimal text, or `nil` if the text is not one.
    ///
    /// Accepts `#RGB`, `#RGBA`, `#RRGGBB` and `#RRGGBBAA`, with or without
    /// the `#`, in upper or lower case. In the short forms each digit is
    /// doubled (`#F80` is `#FF8800`). Without an alpha the colour is opaque.
    ///
    /// ```swift
    /// print(Color(hex: "#ff0000") == .red)         // true
    /// print(Color(hex: "0F08")?.hexString ?? "")   // #00FF0088
    /// print(Color(hex: "#12345") as Any)           // nil
    /// ```
    ///
    /// - Parameter hex: the text, with no surrounding spaces.
    public init?(hex: String) {
        var digits = Substring(hex)
        if digits.first == "#" { digits = digits.dropFirst() }
        var nibbles: [UInt8] = []
        nibbles.reserveCapacity(8)
        for byte in digits.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibbles.append(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibbles.append(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibbles.append(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
        }
        let bytes: [UInt8]
        switch nibbles.count {
        case 3, 4: bytes = nibbles.map { $0 << 4 | $0 }
        case 6, 8: bytes = stride(from: 0, to: nibbles.count, by: 2).map { nibbles[$0] << 4 | nibbles[$0 + 1] }
        default: return nil
        }
        self.init(
            red: Double(bytes[0]) / 255, green: Double(bytes[1]) / 255, blue: Double(bytes[2]) / 255,
            alpha: bytes.count == 4 ? Double(bytes[3]) / 255 : 1)
    }

    /// The colour as upper-case hexadecimal text: `#RRGGBB` when the alpha
    /// rounds to `FF`, otherwise `#RRGGBBAA`.
    ///
    /// Each component is rounded to the nearest of 256 levels, so the text is
    /// for display and exchange; the saved form keeps the exact components.
    ///
    /// ```swift
    /// print(Color.orange.hexString)                  // #FF8000
    /// print(Color.orange.withAlpha(0).hexString)     // #FF800000
    /// ```
    public var hexString: String {
        let levels = [red, green, blue, alpha].map { UInt8(($0 * 255).rounded()) }
        let shown = levels[3] == 255 ? levels.prefix(3) : levels[...]
        let digits: [UInt8] = Array("0123456789ABCDEF".utf8)
        var text = "#"
        for level in shown {
            text.unicodeScalars.append(Unicode.Scalar(digits[Int(level >> 4)]))
            text.unicodeScalars.append(Unicode.Scalar(digits[Int(level & 0xF)]))
        }
        return text
    }
}
