extension Color {
    /// A colour from hue, saturation and brightness (HSB, also called HSV),
    /// converted to sRGB components.
    ///
    /// Hue is a fraction of a full turn of the colour wheel: 0 is red, 1/3
    /// green, 2/3 blue, and 1 is red again.
    ///
    /// ```swift
    /// let orange = Color(hue: 30.0 / 360, saturation: 1, brightness: 1)
    /// print(orange.hexString)   // #FF8000
    /// ```
    ///
    /// - Parameters:
    ///   - hue: the hue, from 0 to 1.
    ///   - saturation: 0 for grey, 1 for the pure hue.
    ///   - brightness: 0 for black, 1 for full brightness.
    ///   - alpha: the opacity, from 0 to 1; 1 unless given.
    /// - Precondition: every argument is in `0...1`.
    public init(hue: Double, saturation: Double, brightness: Double, alpha: Double = 1) {
        precondition(Color.isValidComponent(hue), "Color hue \(hue) is not in 0...1")
        precondition(Color.isValidComponent(saturation), "Color saturation \(saturation) is not in 0...1")
        precondition(Color.isValidComponent(brightness), "Color brightness \(brightness) is not in 0...1")
        let sector = (hue == 1 ? 0 : hue) * 6
        let index = Int(sector.rounded(.down))
        let offset = sector - Double(index)
        let v = brightness
        let p = brightness * (1 - saturation)
        let q = brightness * (1 - saturation * offset)
        let t = brightness * (1 - saturation * (1 - offset))
        let (r, g, b): (Double, Double, Double) =
            switch index {
            case 0: (v, t, p)
            case 1: (q, v, p)
            case 2: (p, v, t)
            case 3: (p, q, v)
            case 4: (t, p, v)
            default: (v, p, q)
            }
        func clamped(_ value: Double) -> Double { min(1, max(0, value)) }
        self.init(red: clamped(r), green: clamped(g), blue: clamped(b), alpha: alpha)
    }

    /// The hue, from 0 up to (not including) 1: the fraction of a turn of the
    /// colour wheel from red. Greys, which have no hue, give 0.
    ///
    /// ```swift
    /// print(Color.blue.hue)   // 0.6666666666666666
    /// ```
    public var hue: Double {
        let maximum = max(red, green, blue)
        let range = maximum - min(red, green, blue)
        guard range > 0 else { return 0 }
        var sixths: Double
        if maximum == red {
            sixths = (green - blue) / range
            if sixths < 0 { sixths += 6 }
        } else if maximum == green {
            sixths = (blue - red) / range + 2
        } else {
            sixths = (red - green) / range + 4
        }
        let hue = sixths / 6
        return hue >= 1 ? 0 : hue
    }

    /// The saturation, from 0 (grey) to 1 (the pure hue).
    ///
    /// ```swift
    /// print(Color(red: 1, green: 0.5, blue: 0.5).saturation)   // 0.5
    /// ```
    public var saturation: Double {
        let maximum = max(red, green, blue)
        guard maximum > 0 else { return 0 }
        return (maximum - min(red, green, blue)) / maximum
    }

    /// The brightness, from 0 (black) to 1: the largest of red, green and blue.
    ///
    /// ```swift
    /// print(Color(red: 0.2, green: 0.6, blue: 0.4).brightness)   // 0.6
    /// ```
    public var brightness: Double { max(red, green, blue) }
}
