import Foundation
import Testing

@testable import ModelKit

@Suite struct ColorTests {
    @Test func componentsAreKeptAsGiven() {
        let color = Color(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4)
        #expect(color.red == 0.1)
        #expect(color.green == 0.2)
        #expect(color.blue == 0.3)
        #expect(color.alpha == 0.4)
        #expect(Color(red: 1, green: 1, blue: 1).alpha == 1)
    }

    @Test func whiteMakesGreysAndReadsBack() {
        let grey = Color(white: 0.25, alpha: 0.5)
        #expect(grey == Color(red: 0.25, green: 0.25, blue: 0.25, alpha: 0.5))
        #expect(grey.white == 0.25)
        #expect(Color.blue.white == 0.0722)
        #expect(Color.white.white == 1)
    }

    static let namedColors: [(Color, String)] = [
        (.black, "#000000"), (.white, "#FFFFFF"), (.gray, "#808080"), (.red, "#FF0000"),
        (.green, "#00FF00"), (.blue, "#0000FF"), (.cyan, "#00FFFF"), (.magenta, "#FF00FF"),
        (.yellow, "#FFFF00"), (.orange, "#FF8000"), (.purple, "#800080"), (.brown, "#996633"),
        (.clear, "#00000000"),
    ]

    @Test(arguments: namedColors)
    func namedColorsHaveTheirHex(color: Color, hex: String) {
        #expect(color.hexString == hex)
    }

    static let hexInputs: [(String, Color)] = [
        ("#F80", Color(red: 1, green: 0x88 / 255, blue: 0)),
        ("f80", Color(red: 1, green: 0x88 / 255, blue: 0)),
        ("#F808", Color(red: 1, green: 0x88 / 255, blue: 0, alpha: 0x88 / 255)),
        ("#FF0000", .red),
        ("ff8000", Color(red: 1, green: 128 / 255, blue: 0)),
        ("#fF8000", Color(red: 1, green: 128 / 255, blue: 0)),
        ("#FF800080", Color(red: 1, green: 128 / 255, blue: 0, alpha: 128 / 255)),
        ("00000000", .clear),
    ]

    @Test(arguments: hexInputs)
    func hexTextIsRead(text: String, expected: Color) {
        #expect(Color(hex: text) == expected)
    }

    @Test(arguments: ["", "#", "#12", "#12345", "#1234567", "#123456789", "#GGGGGG", "##FFF", " #FFF", "#FFF ", "0x123456", "#ff80０0"])
    func badHexTextIsRejected(text: String) {
        #expect(Color(hex: text) == nil)
    }

    @Test func hexStringRoundsToEightBitsAndShowsAlphaOnlyWhenNotOpaque() {
        #expect(Color(red: 0.999, green: 0.001, blue: 0.5).hexString == "#FF0080")
        #expect(Color.red.withAlpha(0.999).hexString == "#FF0000")
        #expect(Color.red.withAlpha(0.5).hexString == "#FF000080")
        let fromHex = Color(hex: "#12345678")!
        #expect(fromHex.hexString == "#12345678")
        #expect(Color(hex: fromHex.hexString) == fromHex)
    }

    static let hsbCases: [(hue: Double, saturation: Double, brightness: Double, expected: Color)] = [
        (0, 1, 1, .red), (1.0 / 3, 1, 1, .green), (2.0 / 3, 1, 1, .blue), (1, 1, 1, .red),
        (0.5, 1, 1, .cyan), (5.0 / 6, 1, 1, .magenta), (1.0 / 6, 1, 1, .yellow),
        (0, 0, 0.5, .gray), (0.25, 0.5, 0, .black),
    ]

    @Test(arguments: hsbCases)
    func hueSaturationBrightnessMakeSRGB(
        _ testCase: (hue: Double, saturation: Double, brightness: Double, expected: Color)
    ) {
        let color = Color(hue: testCase.hue, saturation: testCase.saturation, brightness: testCase.brightness)
        #expect(color.hexString == testCase.expected.hexString)
        #expect(abs(color.red - testCase.expected.red) < 1e-12)
        #expect(abs(color.green - testCase.expected.green) < 1e-12)
        #expect(abs(color.blue - testCase.expected.blue) < 1e-12)
    }

    @Test(arguments: [Color.red, .orange, .brown, .purple, Color(red: 0.2, green: 0.6, blue: 0.4, alpha: 0.3)])
    func hueSaturationBrightnessReadBack(color: Color) {
        let back = Color(hue: color.hue, saturation: color.saturation, brightness: color.brightness, alpha: color.alpha)
        #expect(abs(back.red - color.red) < 1e-12)
        #expect(abs(back.green - color.green) < 1e-12)
        #expect(abs(back.blue - color.blue) < 1e-12)
        #expect(back.alpha == color.alpha)
    }

    @Test func hsbPropertiesOfKnownColors() {
        #expect(Color.blue.hue == 2.0 / 3)
        #expect(Color.gray.hue == 0)
        #expect(Color.gray.saturation == 0)
        #expect(Color(red: 1, green: 0.5, blue: 0.5).saturation == 0.5)
        #expect(Color(red: 0.2, green: 0.6, blue: 0.4).brightness == 0.6)
        #expect(Color.black.saturation == 0)
    }

    @Test func withAlphaKeepsTheColour() {
        let half = Color.orange.withAlpha(0.5)
        #expect(half == Color(red: 1, green: 0.5, blue: 0, alpha: 0.5))
        #expect(!half.isOpaque)
        #expect(half.withAlpha(1) == .orange)
    }

    @Test(arguments: [(0.0, Color.red), (1.0, Color.blue), (0.5, Color(red: 0.5, green: 0, blue: 0.5))])
    func mixInterpolatesLinearly(fraction: Double, expected: Color) {
        #expect(Color.red.mix(with: .blue, by: fraction) == expected)
    }

    @Test func mixIncludesAlpha() {
        let mixed = Color.clear.mix(with: .white, by: 0.25)
        #expect(mixed == Color(white: 0.25, alpha: 0.25))
    }

    @Test func negativeZeroIsStoredAsZero() {
        let color = Color(red: -0.0, green: 0, blue: 0)
        #expect(color.red.sign == .plus)
        #expect(color.modelValue == Color.black.modelValue)
    }

    // MARK: Saved form

    @Test func savedFormIsTheFourComponentsInOrder() {
        let value = Color(red: 1, green: 0.5, blue: 0.25, alpha: 0.75).modelValue
        #expect(value == ["red": 1.0, "green": 0.5, "blue": 0.25, "alpha": 0.75])
        #expect(value.objectValue?.keys == ["red", "green", "blue", "alpha"])
        #expect(value.description == #"{"red":1.0,"green":0.5,"blue":0.25,"alpha":0.75}"#)
    }

    static let roundTripColors: [Color] = [
        .clear, .orange, .brown, Color(red: 0.1, green: 0.2, blue: 0.30000000000000004, alpha: 1e-9),
        Color(hue: 0.7, saturation: 0.3, brightness: 0.9, alpha: 0.123456789),
    ]

    @Test(arguments: roundTripColors)
    func modelValueRoundTripIsExact(color: Color) throws {
        #expect(try Color(modelValue: color.modelValue) == color)
    }

    @Test(arguments: roundTripColors, CodableForm.allCases)
    func codableRoundTripIsExact(color: Color, form: CodableForm) throws {
        #expect(try form.roundTrip(color) == color)
    }

    @Test func codableFormMatchesTheSavedForm() throws {
        let data = try JSONEncoder().encode(Color(red: 1, green: 0.5, blue: 0.25, alpha: 0.75))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Double])
        #expect(object == ["red": 1, "green": 0.5, "blue": 0.25, "alpha": 0.75])
    }

    static let acceptedInputs: [(ModelValue, Color)] = [
        (["red": 1, "green": 0.5, "blue": 0], .orange),
        (["red": 1, "green": 0.5, "blue": 0, "alpha": 0], Color.orange.withAlpha(0)),
        (["alpha": 1, "blue": 1, "green": 0, "red": 0], .blue),
        ("#FF0000", .red),
        ("0000ff", .blue),
        ("#0000", .clear),
    ]

    @Test(arguments: acceptedInputs)
    func readingAcceptsComponentsAndHex(value: ModelValue, expected: Color) throws {
        #expect(try Color(modelValue: value) == expected)
    }

    static let rejectedInputs: [(ModelValue, String)] = [
        (["red": 1.5, "green": 0, "blue": 0], "red: expected a number from 0 to 1, found 1.5"),
        (["red": 0, "green": -1, "blue": 0], "green: expected a number from 0 to 1, found -1"),
        (["red": 0, "green": 0, "blue": 0, "alpha": 2], "alpha: expected a number from 0 to 1, found 2"),
        (["red": 0, "green": 0, "blue": .double(.nan)], "blue: expected a number from 0 to 1, found nan"),
        (["red": 0, "green": 0], "blue: expected a number from 0 to 1, found nothing"),
        (["red": "1", "green": 0, "blue": 0], #"red: expected a number from 0 to 1, found a string ("1")"#),
        (["red": 0, "green": 0, "blue": 0, "gren": 0], #"expected only the keys "red", "green", "blue" and "alpha", found "gren""#),
        ("#12345", ##"expected a hex colour such as "#FF8000" or "#FF800080", found a string ("#12345")"##),
        ("blue", ##"expected a hex colour such as "#FF8000" or "#FF800080", found a string ("blue")"##),
        (42, #"expected a Color (an object of "red", "green", "blue" and "alpha", or a hex string), found an integer (42)"#),
        ([1, 0, 0], #"expected a Color (an object of "red", "green", "blue" and "alpha", or a hex string), found an array of 3 elements"#),
    ]

    @Test(arguments: rejectedInputs)
    func badInputIsAnErrorNamingTheComponent(value: ModelValue, message: String) {
        expectModelError(Color.self, from: value, message)
    }

    @Test func errorsInsideContainersNameTheFullKeyPath() {
        let palette: ModelValue = ["accent": ["red": 0, "green": 2, "blue": 0]]
        expectModelError([String: Color].self, from: palette, "accent.green: expected a number from 0 to 1, found 2")
        let list: ModelValue = [["red": 0, "green": 0, "blue": 0], "#XYZ"]
        expectModelError(
            [Color].self, from: list, ##"[1]: expected a hex colour such as "#FF8000" or "#FF800080", found a string ("#XYZ")"##)
    }

    @Test func codableAcceptsHexAndOptionalAlpha() throws {
        #expect(try CodableForm.decodeJSON(Color.self, ##"["#FF0000"]"##) == .red)
        #expect(try CodableForm.decodeJSON(Color.self, #"[{"red":0,"green":0,"blue":1}]"#) == .blue)
    }

    @Test func codableRejectsBadInputWithAMessage() {
        expectDecodingError(
            Color.self, json: #"[{"red":0,"green":1.5,"blue":1}]"#, "expected a number from 0 to 1, found 1.5")
        expectDecodingError(
            Color.self, json: ##"["#12"]"##, ##"expected a hex colour such as "#FF8000" or "#FF800080", found a string ("#12")"##)
    }
}
