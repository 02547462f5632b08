import Foundation
import RxWidgets
import XCTest

final class ColorTests: XCTestCase {
    func testUIKitNamedColours() {
        XCTAssertEqual(Color.red.hexString, "#ff0000ff")
        XCTAssertEqual(Color.green.hexString, "#00ff00ff")
        XCTAssertEqual(Color.blue.hexString, "#0000ffff")
        XCTAssertEqual(Color.black.hexString, "#000000ff")
        XCTAssertEqual(Color.white.hexString, "#ffffffff")
        XCTAssertEqual(Color.gray.hexString, "#808080ff")
        XCTAssertEqual(Color.darkGray.hexString, "#555555ff")
        XCTAssertEqual(Color.lightGray.hexString, "#aaaaaaff")
        XCTAssertEqual(Color.orange.hexString, "#ff8000ff")
        XCTAssertEqual(Color.clear.hexString, "#00000000")
        XCTAssertEqual(Color.cyan, Color(red: 0, green: 1, blue: 1, alpha: 1))
    }

    func testWhiteRoundTripsThroughGetWhite() {
        let color = Color(white: 0.25, alpha: 0.5)
        var white: CGFloat = 1
        var alpha: CGFloat = 0
        XCTAssertTrue(color.getWhite(&white, alpha: &alpha))
        XCTAssertEqual(white, 0.25)
        XCTAssertEqual(alpha, 0.5)
        // Either pointer may be nil, as in the seed: `color?.getWhite(&white, alpha: nil)`.
        color.getWhite(&white, alpha: nil)
        XCTAssertEqual(Color(white: 0.5, alpha: 1), Color(red: 0.5, green: 0.5, blue: 0.5, alpha: 1))
    }

    func testGetWhiteOfAColourIsItsLuma() {
        var white: CGFloat = 0
        Color.green.getWhite(&white, alpha: nil)
        XCTAssertEqual(white, 0.587, accuracy: 1e-9)
        var red: CGFloat = 0, green: CGFloat = 0, blue: CGFloat = 0
        Color.orange.getRed(&red, green: &green, blue: &blue, alpha: nil)
        XCTAssertEqual([red, green, blue], [1, 0.5, 0])
    }

    func testHexStringRoundsEachChannel() {
        XCTAssertEqual(Color(white: 0.5, alpha: 1).hexString, "#808080ff") // 127.5 → 128
        XCTAssertEqual(Color(white: 0.25, alpha: 1).hexString, "#404040ff") // 63.75 → 64
        XCTAssertEqual(Color(red: 2, green: -1, blue: .nan, alpha: 1).hexString, "#ff0000ff", "clamped")
    }

    func testHexParsing() {
        XCTAssertEqual(Color(hex: "#ff0000ff"), .red)
        XCTAssertEqual(Color(hex: "00FF00"), .green)
        XCTAssertEqual(Color(hex: "#80808080")?.hexString, "#80808080")
        XCTAssertNil(Color(hex: "#fff"))
        XCTAssertNil(Color(hex: "#gg0000"))
        XCTAssertNil(Color(hex: "+ff0000"))
        XCTAssertNil(Color(hex: ""))
    }

    func testEquatableAndAlpha() {
        XCTAssertEqual(Color.red.withAlphaComponent(0.5).alpha, 0.5)
        XCTAssertNotEqual(Color.red, Color.red.withAlphaComponent(0.5))
        XCTAssertEqual("\(Color.blue)", "#0000ffff")
    }
}
