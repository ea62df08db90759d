/// A colour in the sRGB colour space, with an alpha (opacity) component.
///
/// Each component is a `Double` from 0 to 1. Colours are values: they compare
/// equal when all four components are equal, and they are saved exactly, as
/// their components, so a colour read back is the colour that was written.
///
/// ```swift
/// let accent = Color(red: 1, green: 0.5, blue: 0)
/// print(accent.hexString)                       // #FF8000
/// print(accent.withAlpha(0.5).hexString)        // #FF800080
/// print(Color.red.mix(with: .blue, by: 0.5))    // Color(red: 0.5, green: 0.0, blue: 0.5, alpha: 1.0)
/// ```
///
/// Create colours from components (``init(red:green:blue:alpha:)``, ``init(white:alpha:)``,
/// ``init(hue:saturation:brightness:alpha:)``), from hex text (``init(hex:)``),
/// or use a named standard colour such as ``blue-type.property`` or ``clear``.
///
/// The saved form is an object of the four components,
/// `{"red":1.0,"green":0.5,"blue":0.0,"alpha":1.0}`; see
/// ``init(modelValue:)`` for what reading accepts.
public struct Color: Sendable, Hashable {
    /// The red component, from 0 to 1.
    public let red: Double
    /// The green component, from 0 to 1.
    public let green: Double
    /// The blue component, from 0 to 1.
    public let blue: Double
    /// The alpha (opacity) component, from 0 (transparent) to 1 (opaque).
    public let alpha: Double

    /// A colour with the given sRGB components.
    ///
    /// ```swift
    /// let teal = Color(red: 0, green: 0.5, blue: 0.5)
    /// print(teal.hexString)   // #008080
    /// ```
    ///
    /// - Parameters:
    ///   - red: the red component, from 0 to 1.
    ///   - green: the green component, from 0 to 1.
    ///   - blue: the blue component, from 0 to 1.
    ///   - alpha: the opacity, from 0 to 1; 1 (opaque) unless given.
    /// - Precondition: every component is in `0...1`. A component outside
    ///   that range is a programming error; data read from outside is checked
    ///   by ``init(modelValue:)``, which throws instead.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        precondition(Color.isValidComponent(red), "Color red component \(red) is not in 0...1")
        precondition(Color.isValidComponent(green), "Color green component \(green) is not in 0...1")
        precondition(Color.isValidComponent(blue), "Color blue component \(blue) is not in 0...1")
        precondition(Color.isValidComponent(alpha), "Color alpha component \(alpha) is not in 0...1")
        // Adding zero turns -0.0 into 0.0, so equal colours have equal saved forms.
        self.red = red + 0
        self.green = green + 0
        self.blue = blue + 0
        self.alpha = alpha + 0
    }

    /// A shade of grey: red, green and blue all equal to `white`.
    ///
    /// ```swift
    /// print(Color(white: 0.2).hexString)   // #333333
    /// ```
    ///
    /// - Parameters:
    ///   - white: the grey level, from 0 (black) to 1 (white).
    ///   - alpha: the opacity, from 0 to 1; 1 unless given.
    /// - Precondition: both arguments are in `0...1`.
    public init(white: Double, alpha: Double = 1) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    /// Whether `value` is a finite number from 0 to 1.
    static func isValidComponent(_ value: Double) -> Bool {
        value >= 0 && value <= 1
    }

    /// The grey level of this colour: the shared component when red, green
    /// and blue are equal, otherwise the Rec. 709 luma of the components
    /// (`0.2126 red + 0.7152 green + 0.0722 blue`).
    ///
    /// ```swift
    /// print(Color(white: 0.25).white)   // 0.25
    /// print(Color.blue.white)           // 0.0722
    /// ```
    public var white: Double {
        if red == green && green == blue { return red }
        return min(1, 0.2126 * red + 0.7152 * green + 0.0722 * blue)
    }

    /// Whether the colour is fully opaque: its alpha is 1.
    public var isOpaque: Bool { alpha == 1 }

    /// This colour with its alpha replaced.
    ///
    /// ```swift
    /// print(Color.red.withAlpha(0.5).hexString)   // #FF000080
    /// ```
    ///
    /// - Parameter alpha: the new opacity, from 0 to 1.
    /// - Returns: a colour with the same red, green and blue.
    /// - Precondition: `alpha` is in `0...1`.
    public func withAlpha(_ alpha: Double) -> Color {
        Color(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// The colour a fraction of the way from this one to `other`, mixing
    /// each component (alpha included) linearly.
    ///
    /// ```swift
    /// print(Color.black.mix(with: .white, by: 0.25).white)   // 0.25
    /// ```
    ///
    /// - Parameters:
    ///   - other: the colour to mix towards.
    ///   - fraction: how far to go: 0 gives this colour, 1 gives `other`.
    /// - Returns: the mixed colour.
    /// - Precondition: `fraction` is in `0...1`.
    public func mix(with other: Color, by fraction: Double) -> Color {
        precondition(fraction >= 0 && fraction <= 1, "Color mix fraction \(fraction) is not in 0...1")
        func blend(_ from: Double, _ to: Double) -> Double {
            if fraction == 0 { return from }
            if fraction == 1 { return to }
            // Rounding can only stray past the ends by an ulp; keep the result a valid component.
            return min(1, max(0, from + (to - from) * fraction))
        }
        return Color(
            red: blend(red, other.red), green: blend(green, other.green), blue: blend(blue, other.blue),
            alpha: blend(alpha, other.alpha))
    }
}

extension Color {
    /// Black, `#000000`.
    public static let black = Color(red: 0, green: 0, blue: 0)
    /// White, `#FFFFFF`.
    public static let white = Color(red: 1, green: 1, blue: 1)
    /// Mid grey: every component 0.5, `#808080`.
    public static let gray = Color(red: 0.5, green: 0.5, blue: 0.5)
    /// Red, `#FF0000`.
    public static let red = Color(red: 1, green: 0, blue: 0)
    /// Green, `#00FF00`.
    public static let green = Color(red: 0, green: 1, blue: 0)
    /// Blue, `#0000FF`.
    public static let blue = Color(red: 0, green: 0, blue: 1)
    /// Cyan, `#00FFFF`.
    public static let cyan = Color(red: 0, green: 1, blue: 1)
    /// Magenta, `#FF00FF`.
    public static let magenta = Color(red: 1, green: 0, blue: 1)
    /// Yellow, `#FFFF00`.
    public static let yellow = Color(red: 1, green: 1, blue: 0)
    /// Orange: red 1, green 0.5, `#FF8000`.
    public static let orange = Color(red: 1, green: 0.5, blue: 0)
    /// Purple: red and blue 0.5, `#800080`.
    public static let purple = Color(red: 0.5, green: 0, blue: 0.5)
    /// Brown: red 0.6, green 0.4, blue 0.2, `#996633`.
    public static let brown = Color(red: 0.6, green: 0.4, blue: 0.2)
    /// Fully transparent black, `#00000000`.
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)
}

extension Color: CustomStringConvertible {
    /// The components as Swift source: `Color(red: 1.0, green: 0.5, blue: 0.0, alpha: 1.0)`.
    public var description: String {
        "Color(red: \(red), green: \(green), blue: \(blue), alpha: \(alpha))"
    }
}
