import Foundation

/// An RGBA colour with `CGFloat` components in `0...1`, like `UIColor` (sRGB).
///
/// Colours made from white (`init(white:alpha:)`) are stored as equal red, green and
/// blue, so `Color(white: 0.5, alpha: 1) == Color(red: 0.5, green: 0.5, blue: 0.5,
/// alpha: 1)` (UIKit keeps a grey colour space and says they differ). Clients see
/// colours as lowercase `#rrggbbaa` (``hexString``).
public struct Color: Hashable, Sendable, CustomStringConvertible {
    /// Red, `0...1`.
    public var red: CGFloat
    /// Green, `0...1`.
    public var green: CGFloat
    /// Blue, `0...1`.
    public var blue: CGFloat
    /// Opacity, `0...1`.
    public var alpha: CGFloat

    /// A colour from its components (clamped to `0...1`).
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.red = Self.clamp(red)
        self.green = Self.clamp(green)
        self.blue = Self.clamp(blue)
        self.alpha = Self.clamp(alpha)
    }

    /// A grey: `white` for each of red, green and blue (clamped to `0...1`).
    public init(white: CGFloat, alpha: CGFloat) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    /// A colour from `#rrggbbaa` or `#rrggbb` (opaque), with or without the `#`, in
    /// either case; `nil` for anything else.
    public init?(hex: String) {
        var digits = Substring(hex)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        guard digits.count == 6 || digits.count == 8,
              digits.allSatisfy(\.isHexDigit),
              var bits = UInt32(digits, radix: 16)
        else { return nil }
        if digits.count == 6 { bits = bits << 8 | 0xFF }
        func channel(_ shift: UInt32) -> CGFloat { CGFloat((bits >> shift) & 0xFF) / 255 }
        self.init(red: channel(24), green: channel(16), blue: channel(8), alpha: channel(0))
    }

    /// The colour as lowercase `#rrggbbaa`, each channel `round(c * 255)`: how clients
    /// see it.
    public var hexString: String {
        let bytes = [red, green, blue, alpha].map { UInt8((Self.clamp($0) * 255).rounded()) }
        let hexDigits = Array("0123456789abcdef")
        var result = "#"
        for byte in bytes {
            result.append(hexDigits[Int(byte >> 4)])
            result.append(hexDigits[Int(byte & 0x0F)])
        }
        return result
    }

    /// ``hexString``.
    public var description: String { hexString }

    /// Writes the colour's grey level and opacity, as `UIColor.getWhite` does, to the
    /// pointers that are not `nil`; returns `true`. For a grey the level is its
    /// component; otherwise it is the luma `0.299 r + 0.587 g + 0.114 b`.
    @discardableResult
    public func getWhite(_ white: UnsafeMutablePointer<CGFloat>?, alpha: UnsafeMutablePointer<CGFloat>?) -> Bool {
        white?.pointee = (red == green && green == blue) ? red : 0.299 * red + 0.587 * green + 0.114 * blue
        alpha?.pointee = self.alpha
        return true
    }

    /// Writes the components to the pointers that are not `nil`, as `UIColor.getRed`
    /// does; returns `true`.
    @discardableResult
    public func getRed(
        _ red: UnsafeMutablePointer<CGFloat>?, green: UnsafeMutablePointer<CGFloat>?,
        blue: UnsafeMutablePointer<CGFloat>?, alpha: UnsafeMutablePointer<CGFloat>?
    ) -> Bool {
        red?.pointee = self.red
        green?.pointee = self.green
        blue?.pointee = self.blue
        alpha?.pointee = self.alpha
        return true
    }

    /// This colour with opacity `alpha`.
    public func withAlphaComponent(_ alpha: CGFloat) -> Color {
        Color(red: red, green: green, blue: blue, alpha: alpha)
    }

    private static func clamp(_ value: CGFloat) -> CGFloat {
        value.isNaN ? 0 : min(max(value, 0), 1)
    }

    // MARK: - UIKit's named colours

    /// Black: `#000000ff`.
    public static let black = Color(white: 0, alpha: 1)
    /// Dark grey: white 1/3.
    public static let darkGray = Color(white: 1.0 / 3.0, alpha: 1)
    /// Light grey: white 2/3.
    public static let lightGray = Color(white: 2.0 / 3.0, alpha: 1)
    /// White: `#ffffffff`.
    public static let white = Color(white: 1, alpha: 1)
    /// Grey: white 1/2.
    public static let gray = Color(white: 0.5, alpha: 1)
    /// Red: `#ff0000ff`.
    public static let red = Color(red: 1, green: 0, blue: 0, alpha: 1)
    /// Green: `#00ff00ff`.
    public static let green = Color(red: 0, green: 1, blue: 0, alpha: 1)
    /// Blue: `#0000ffff`.
    public static let blue = Color(red: 0, green: 0, blue: 1, alpha: 1)
    /// Cyan: `#00ffffff`.
    public static let cyan = Color(red: 0, green: 1, blue: 1, alpha: 1)
    /// Yellow: `#ffff00ff`.
    public static let yellow = Color(red: 1, green: 1, blue: 0, alpha: 1)
    /// Magenta: `#ff00ffff`.
    public static let magenta = Color(red: 1, green: 0, blue: 1, alpha: 1)
    /// Orange: red 1, green 1/2.
    public static let orange = Color(red: 1, green: 0.5, blue: 0, alpha: 1)
    /// Purple: red 1/2, blue 1/2.
    public static let purple = Color(red: 0.5, green: 0, blue: 0.5, alpha: 1)
    /// Brown: red 0.6, green 0.4, blue 0.2.
    public static let brown = Color(red: 0.6, green: 0.4, blue: 0.2, alpha: 1)
    /// Transparent: white 0, alpha 0.
    public static let clear = Color(white: 0, alpha: 0)
}
